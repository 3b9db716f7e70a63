/**
 * Document-id sets: strictly increasing `Uint32Array`s, the currency of filtering, facets and
 * search (Meilisearch uses roaring bitmaps for the same job).
 *
 * Invariant: every DocSet is sorted ascending without duplicates. Functions never mutate their
 * arguments and may return one of them unchanged (so treat results as read-only too).
 * `encode`/`decode` give the LMDB value form: the raw little-endian u32s, 4 bytes per docid.
 * Pure and synchronous; safe to use from any thread.
 */

export type DocSet = Uint32Array;

export const EMPTY: DocSet = new Uint32Array(0);

/** A DocSet from values in any order, duplicates allowed. */
export function fromUnsorted(values: Iterable<number> | ArrayLike<number>): DocSet {
  const array = Uint32Array.from(values as Iterable<number>);
  array.sort();
  return dedupeSorted(array);
}

/** A DocSet from values already ascending (duplicates allowed). */
export function fromSorted(values: ArrayLike<number>): DocSet {
  return dedupeSorted(Uint32Array.from(values as ArrayLike<number>));
}

function dedupeSorted(array: Uint32Array): DocSet {
  if (array.length < 2) return array;
  let out = 1;
  for (let i = 1; i < array.length; i++) {
    if (array[i] !== array[out - 1]) array[out++] = array[i]!;
  }
  return out === array.length ? array : array.slice(0, out);
}

/** Whether `docid` is in the set (binary search). */
export function has(set: DocSet, docid: number): boolean {
  const i = lowerBound(set, docid, 0, set.length);
  return i < set.length && set[i] === docid;
}

/** First index in `[lo, hi)` whose value is `>= value` (`hi` when none). */
function lowerBound(set: DocSet, value: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (set[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index `>= from` whose value is `>= value`, probing 1, 2, 4… ahead: cheap when it is near. */
function gallop(set: DocSet, value: number, from: number): number {
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < set.length && set[hi]! < value) {
    lo = hi + 1;
    hi = from + step;
    step *= 2;
  }
  return lowerBound(set, value, lo, Math.min(hi, set.length));
}

export function union(a: DocSet, b: DocSet): DocSet {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      out[k++] = x;
      i++;
    } else if (y < x) {
      out[k++] = y;
      j++;
    } else {
      out[k++] = x;
      i++;
      j++;
    }
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return k === out.length ? out : out.slice(0, k);
}

/** Union of many sets, merged pairwise in a balanced tree (O(n log k) for k sets). */
export function unionAll(sets: readonly DocSet[]): DocSet {
  let level = sets.filter((set) => set.length > 0);
  if (level.length === 0) return EMPTY;
  while (level.length > 1) {
    const next: DocSet[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? union(level[i]!, level[i + 1]!) : level[i]!);
    level = next;
  }
  return level[0]!;
}

export function intersect(a: DocSet, b: DocSet): DocSet {
  if (a.length === 0 || b.length === 0) return EMPTY;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Uint32Array(small.length);
  let k = 0;
  // Galloping pays off when one side is much smaller; a linear merge wins otherwise.
  if (small.length * 16 < large.length) {
    let from = 0;
    for (let i = 0; i < small.length && from < large.length; i++) {
      from = gallop(large, small[i]!, from);
      if (large[from] === small[i]) out[k++] = small[i]!;
    }
  } else {
    let i = 0;
    let j = 0;
    while (i < small.length && j < large.length) {
      const x = small[i]!;
      const y = large[j]!;
      if (x < y) i++;
      else if (y < x) j++;
      else {
        out[k++] = x;
        i++;
        j++;
      }
    }
  }
  return k === out.length ? out : out.slice(0, k);
}

/** `a` without the docids of `b`. */
export function difference(a: DocSet, b: DocSet): DocSet {
  if (a.length === 0 || b.length === 0) return a;
  const out = new Uint32Array(a.length);
  let k = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (j < b.length && b[j]! < x) j = gallop(b, x, j);
    if (j < b.length && b[j] === x) continue;
    out[k++] = x;
  }
  return k === a.length ? a : out.slice(0, k);
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
  new Uint8Array(set.buffer).set(bytes.subarray(0, set.byteLength));
  return set;
}
