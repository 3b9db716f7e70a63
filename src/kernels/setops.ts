/**
 * Typed wrapper of the set-operations kernel (assembly/setops.ts): intersection, its size,
 * difference and k-way union of strictly increasing u32 lists, one kernel call per operation.
 * Caller: src/engine/docset.ts, which sends only lists big enough to repay the copies in and
 * out of linear memory and does the rest with setops-fallback.ts (also the tests' oracle).
 *
 * Threading: each thread has its own kernels instance (module.ts); `setOpsKernel()` creates this
 * thread's lazily, and answers null where the module cannot load so callers fall back to TS.
 * A call resets the arena, lays out its inputs and output, and copies the result out, so
 * nothing returned aliases linear memory. Results may be an argument unchanged (as docset allows).
 */
import { getKernels, type Kernels } from './module.js';

/** u32 the kernel may write past a result (assembly SETOPS_OUT_SLACK). */
export const SETOPS_OUT_SLACK = 4;
/** u32 fields of a union table record: list address, length (assembly UNION_RECORD_U32). */
export const UNION_RECORD_U32 = 2;
/** Size ratio above which the kernel searches rather than merges (assembly GALLOP_RATIO). */
export const GALLOP_RATIO = 32;

interface SetOpsExports {
  setIntersect(a: number, aLen: number, b: number, bLen: number, out: number): number;
  setIntersectCount(a: number, aLen: number, b: number, bLen: number): number;
  setDifference(a: number, aLen: number, b: number, bLen: number, out: number): number;
  setUnion(table: number, n: number, out: number, scratch: number, scratchBytes: number): number;
}

export class SetOpsKernel {
  readonly #kernels: Kernels;
  readonly #exports: SetOpsExports;

  constructor(kernels: Kernels = getKernels()) {
    this.#kernels = kernels;
    this.#exports = kernels.exports as unknown as SetOpsExports;
  }

  intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
    const { arena } = this.#kernels;
    arena.reset();
    const pa = this.#copyIn(a);
    const pb = this.#copyIn(b);
    const out = arena.alloc((Math.min(a.length, b.length) + SETOPS_OUT_SLACK) * 4);
    const n = this.#exports.setIntersect(pa, a.length, pb, b.length, out);
    return arena.u32.slice(out >>> 2, (out >>> 2) + n);
  }

  intersectCount(a: Uint32Array, b: Uint32Array): number {
    this.#kernels.arena.reset();
    const pa = this.#copyIn(a);
    const pb = this.#copyIn(b);
    return this.#exports.setIntersectCount(pa, a.length, pb, b.length);
  }

  /** `a` without the elements of `b` (`a` itself when none was removed). */
  difference(a: Uint32Array, b: Uint32Array): Uint32Array {
    const { arena } = this.#kernels;
    arena.reset();
    const pa = this.#copyIn(a);
    const pb = this.#copyIn(b);
    const out = arena.alloc((a.length + SETOPS_OUT_SLACK) * 4);
    const n = this.#exports.setDifference(pa, a.length, pb, b.length, out);
    return n === a.length ? a : arena.u32.slice(out >>> 2, (out >>> 2) + n);
  }

  /** The union of all `sets` in one call (a lone non-empty set comes back unchanged). */
  unionAll(sets: readonly Uint32Array[]): Uint32Array {
    const lists = sets.filter((set) => set.length > 0);
    if (lists.length <= 1) return lists[0] ?? new Uint32Array(0);
    const { arena } = this.#kernels;
    arena.reset();
    let total = 0;
    const table = arena.alloc(lists.length * UNION_RECORD_U32 * 4);
    const ptrs = lists.map((list) => {
      total += list.length;
      return this.#copyIn(list);
    });
    const out = arena.alloc(total * 4);
    // the kernel needs 2 × total u32 for its merge tree and uses them for a bitmap when that fits
    const scratchBytes = total * 8;
    const scratch = arena.alloc(scratchBytes);
    const u32 = arena.u32;
    ptrs.forEach((ptr, i) => {
      u32[(table >>> 2) + i * UNION_RECORD_U32] = ptr;
      u32[(table >>> 2) + i * UNION_RECORD_U32 + 1] = lists[i]!.length;
    });
    const n = this.#exports.setUnion(table, lists.length, out, scratch, scratchBytes);
    return arena.u32.slice(out >>> 2, (out >>> 2) + n);
  }

  #copyIn(list: Uint32Array): number {
    const { arena } = this.#kernels;
    const ptr = arena.alloc(list.byteLength);
    arena.u32.set(list, ptr >>> 2);
    return ptr;
  }
}

let instance: SetOpsKernel | null | undefined;

/**
 * This thread's set-operations kernel, or null when the kernels module cannot be instantiated
 * here (binary missing or of another ABI): set operations must keep working in every thread
 * docset runs in, so the caller then stays on the TS path.
 */
export function setOpsKernel(): SetOpsKernel | null {
  if (instance === undefined) {
    try {
      instance = new SetOpsKernel();
    } catch {
      instance = null;
    }
  }
  return instance;
}
