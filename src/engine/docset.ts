/**
 * Document-id sets: strictly increasing `Uint32Array`s, the currency of filtering, facets and
 * search (Meilisearch uses roaring bitmaps for the same job).
 *
 * Invariant: every DocSet is sorted ascending without duplicates. Functions never mutate their
 * arguments and may return one of them unchanged (so treat results as read-only too).
 * `encode`/`decode` give the LMDB value form: the raw little-endian u32s, 4 bytes per docid.
 *
 * Set algebra runs in the set-operations WASM kernel (src/kernels/setops.ts) when the lists are
 * big enough to repay copying them into its memory, and in plain TS (kernels/setops-fallback.ts)
 * otherwise, or in a thread where the kernel cannot load. Pure and synchronous; safe to use from
 * any thread (each has its own kernel instance).
 */

import {
  EMPTY,
  lowerBound,
  FALLBACK_GALLOP_RATIO,
  fallbackDifference,
  fallbackIntersect,
  fallbackIntersectCount,
  fallbackUnion,
  fallbackUnionAll,
} from '../kernels/setops-fallback.js';
import { setOpsKernel, type SetOpsKernel } from '../kernels/setops.js';

export type DocSet = Uint32Array;

export { EMPTY };

/** A DocSet from values in any order, duplicates allowed. */
export function fromUnsorted(values: Iterable<number> | ArrayLike<number>): DocSet {
  // a typed array is copied whole, not read through its iterator
  const array = values instanceof Uint32Array ? values.slice() : Uint32Array.from(values as Iterable<number>);
  array.sort();
  return dedupeSorted(array);
}

/** A DocSet from values already ascending (duplicates allowed). */
export function fromSorted(values: ArrayLike<number>): DocSet {
  return dedupeSorted(Uint32Array.from(values as ArrayLike<number>));
}

function dedupeSorted(array: Uint32Array): DocSet {
  const length = dedupeInPlace(array);
  return length === array.length ? array : array.slice(0, length);
}

/**
 * Moves each value's first copy to the front of `array` (ascending) and returns how many there
 * are. Apart from its caller: V8 compiles a long loop while it runs, and that code deoptimized at
 * the compare after the loop on every long call (most calls are short and return before it).
 */
function dedupeInPlace(array: Uint32Array): number {
  if (array.length < 2) return array.length;
  let out = 1;
  for (let i = 1; i < array.length; i++) {
    if (array[i] !== array[out - 1]) array[out++] = array[i]!;
  }
  return out;
}

/** Where `docid` is in the set (binary search), -1 when it is not. */
export function indexIn(set: DocSet, docid: number): number {
  const i = lowerBound(set, docid, 0, set.length);
  return i < set.length && set[i] === docid ? i : -1;
}

/** Whether `docid` is in the set (binary search). */
export function has(set: DocSet, docid: number): boolean {
  return indexIn(set, docid) !== -1;
}

/**
 * Fewest input docids (all lists together) for which the WASM kernel beats the TS path: below
 * them, copying the lists into linear memory and the result out costs more than the kernel
 * saves. Measured with random docids below 36k (the movies index), release build, best of 300
 * runs on a loaded 2-core machine (TS against kernel):
 * - intersection: 32 + 32 docids 0.41 / 0.37 µs, 64 + 64 0.52 / 0.42, 256 + 256 1.19 / 0.71,
 *   4096 + 4096 21 / 9; difference 64 + 64 0.42 / 0.24; intersection size 64 + 64 0.23 / 0.31,
 *   96 + 96 0.34 / 0.26;
 * - union: 2 × 256 docids 1.4–3.2 / 1.5–2.1 µs (noise of the same size as the gap), 2 × 512
 *   3.4–4.7 / 2.6–3.2, 4 × 256 6.0–7.4 / 3.5–4.1, 64 × 64 27–44 / 11–14: the k-way kernel wins
 *   from about a thousand docids, dense (bitmap) or spread over the u32 range (merge tree).
 */
const KERNEL_MIN_DOCIDS = 128;
const KERNEL_MIN_UNION_DOCIDS = 1024;

/**
 * The kernel for a pairwise operation when it pays: enough docids, and not a short list against
 * one FALLBACK_GALLOP_RATIO times longer, which the TS path gallops through at a cost following
 * the short list while the kernel would copy the long one (8 docids against 32768: 0.4 µs in TS,
 * 3.0 µs through the kernel). Null too where the kernel cannot load.
 */
function pairKernel(short: number, long: number): SetOpsKernel | null {
  return short + long >= KERNEL_MIN_DOCIDS && short * FALLBACK_GALLOP_RATIO >= long ? setOpsKernel() : null;
}

export function union(a: DocSet, b: DocSet): DocSet {
  const kernel = a.length + b.length >= KERNEL_MIN_UNION_DOCIDS ? setOpsKernel() : null;
  return kernel?.unionAll([a, b]) ?? fallbackUnion(a, b);
}

/** Union of many sets in one kernel call (or, small, merged pairwise in a balanced tree). */
export function unionAll(sets: readonly DocSet[]): DocSet {
  let docids = 0;
  for (const set of sets) docids += set.length;
  const kernel = docids >= KERNEL_MIN_UNION_DOCIDS ? setOpsKernel() : null;
  return kernel?.unionAll(sets) ?? fallbackUnionAll(sets);
}

export function intersect(a: DocSet, b: DocSet): DocSet {
  if (a.length === 0 || b.length === 0) return EMPTY;
  const kernel = pairKernel(Math.min(a.length, b.length), Math.max(a.length, b.length));
  return kernel?.intersect(a, b) ?? fallbackIntersect(a, b);
}

/** |a ∩ b| without building the intersection. */
export function intersectionSize(a: DocSet, b: DocSet): number {
  if (a.length === 0 || b.length === 0) return 0;
  const kernel = pairKernel(Math.min(a.length, b.length), Math.max(a.length, b.length));
  return kernel?.intersectCount(a, b) ?? fallbackIntersectCount(a, b);
}

/** `a` without the docids of `b`. */
export function difference(a: DocSet, b: DocSet): DocSet {
  if (a.length === 0 || b.length === 0) return a;
  // the TS path gallops through `b` but walks all of `a`: only a short `a` is cheap there
  return pairKernel(a.length, b.length)?.difference(a, b) ?? fallbackDifference(a, b);
}

export function equals(a: DocSet, b: DocSet): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The LMDB value of a set. A view over the set's memory: write it before mutating anything. */
export function encode(set: DocSet): Buffer {
  return Buffer.from(set.buffer, set.byteOffset, set.byteLength);
}

/** Reads a stored set, copying it (stored bytes are not 4-byte aligned, and LMDB may reuse them). */
export function decode(bytes: Uint8Array | undefined): DocSet {
  if (bytes === undefined || bytes.length === 0) return EMPTY;
  const set = new Uint32Array(bytes.length >>> 2);
  // a stored set is a whole number of u32: a view cut to that size (a Buffer object per call, ~1 µs) only when it is not
  new Uint8Array(set.buffer).set(bytes.length === set.byteLength ? bytes : bytes.subarray(0, set.byteLength));
  return set;
}
