// The set-operations kernel against its TS reference: fixed edge cases (empty, disjoint,
// identical, single elements, huge against tiny, the u32 extremes) and seeded random lists that
// drive every strategy (block merge, galloping, bitmap and merge-tree unions).
import { describe, expect, it } from 'vitest';

import { getKernels } from '../../src/kernels/module.js';
import {
  fallbackDifference,
  fallbackIntersect,
  fallbackIntersectCount,
  fallbackUnionAll,
} from '../../src/kernels/setops-fallback.js';
import { GALLOP_RATIO, SETOPS_OUT_SLACK, SetOpsKernel, setOpsKernel, UNION_RECORD_U32 } from '../../src/kernels/setops.js';
import { mulberry32 } from '../helpers/random.js';

const kernel = new SetOpsKernel();
const MAX = 0xffffffff;

const set = (...values: number[]): Uint32Array => Uint32Array.from(values);

/** A strictly increasing list of `n` values below `universe`, from a seeded generator. */
function randomSet(random: () => number, n: number, universe: number): Uint32Array {
  const values = new Set<number>();
  while (values.size < Math.min(n, universe)) values.add(Math.floor(random() * universe));
  return Uint32Array.from([...values].sort((x, y) => x - y));
}

/** Byte comparison first: element-wise toEqual on long lists is slow, so it only runs to report. */
function expectSame(actual: Uint32Array, expected: Uint32Array): void {
  if (!Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))) {
    expect(Array.from(actual)).toEqual(Array.from(expected));
  }
}

/** Checks every operation of the kernel against the reference on one pair of lists. */
function agree(a: Uint32Array, b: Uint32Array): void {
  const before = [Uint32Array.from(a), Uint32Array.from(b)];
  expectSame(kernel.intersect(a, b), fallbackIntersect(a, b));
  expectSame(kernel.intersect(b, a), fallbackIntersect(a, b));
  expect(kernel.intersectCount(a, b)).toBe(fallbackIntersectCount(a, b));
  expect(kernel.intersectCount(a, b)).toBe(fallbackIntersect(a, b).length);
  expectSame(kernel.difference(a, b), fallbackDifference(a, b));
  expectSame(kernel.difference(b, a), fallbackDifference(b, a));
  expectSame(kernel.unionAll([a, b]), fallbackUnionAll([a, b]));
  // arguments are never mutated
  expectSame(a, before[0]!);
  expectSame(b, before[1]!);
}

describe('set-operations kernel', () => {
  it('loads in this thread, so docset does not silently fall back to TS', () => {
    expect(setOpsKernel()).toBeInstanceOf(SetOpsKernel);
    expect(setOpsKernel()).toBe(setOpsKernel());
  });

  it('mirrors the kernel layout constants', () => {
    const kernels = getKernels();
    expect(kernels.constant('SETOPS_OUT_SLACK')).toBe(SETOPS_OUT_SLACK);
    expect(kernels.constant('UNION_RECORD_U32')).toBe(UNION_RECORD_U32);
    expect(kernels.constant('GALLOP_RATIO')).toBe(GALLOP_RATIO);
  });

  it('handles empty lists on either side', () => {
    agree(set(), set());
    agree(set(), set(1, 2, 3));
    agree(set(4, 5, 6, 7, 8), set());
    expect(kernel.unionAll([])).toEqual(set());
    expect(kernel.unionAll([set(), set()])).toEqual(set());
  });

  it('intersects disjoint lists to nothing and unions them whole', () => {
    const evens = Uint32Array.from({ length: 100 }, (_, i) => 2 * i);
    const odds = Uint32Array.from({ length: 100 }, (_, i) => 2 * i + 1);
    agree(evens, odds);
    expect(kernel.intersect(evens, odds)).toEqual(set());
    expect(kernel.unionAll([odds, evens])).toEqual(Uint32Array.from({ length: 200 }, (_, i) => i));
    // disjoint ranges: every block of one list lies below every block of the other
    agree(Uint32Array.from({ length: 50 }, (_, i) => i), Uint32Array.from({ length: 50 }, (_, i) => 1000 + i));
  });

  it('returns identical lists whole and their difference empty', () => {
    const list = Uint32Array.from({ length: 37 }, (_, i) => 3 * i + 1);
    agree(list, Uint32Array.from(list));
    expect(kernel.intersect(list, Uint32Array.from(list))).toEqual(list);
    expect(kernel.difference(list, Uint32Array.from(list))).toEqual(set());
  });

  it('returns the first list itself when the difference removes nothing', () => {
    const a = set(1, 3, 5, 7, 9, 11);
    expect(kernel.difference(a, set(2, 4, 6, 8, 10, 12))).toBe(a);
  });

  it('handles one-element lists', () => {
    agree(set(5), set(5));
    agree(set(5), set(6));
    agree(set(0), Uint32Array.from({ length: 40 }, (_, i) => i));
    agree(Uint32Array.from({ length: 40 }, (_, i) => i), set(39));
  });

  it('gallops through a huge list for a tiny one, whichever side it is on', () => {
    const huge = Uint32Array.from({ length: 20_000 }, (_, i) => 3 * i);
    const tiny = set(0, 2, 59_997, 59_998, 30_000, 80_000).sort();
    agree(tiny, huge);
    agree(huge, tiny);
    expect(kernel.intersect(tiny, huge)).toEqual(set(0, 30_000, 59_997));
    expect(kernel.difference(huge, tiny).length).toBe(huge.length - 3);
  });

  it('keeps the u32 extremes', () => {
    agree(set(0, MAX), set(MAX));
    agree(set(0, 1, 2, MAX - 2, MAX - 1, MAX), set(0, 2, MAX - 1, MAX));
    expect(kernel.unionAll([set(MAX), set(0), set(MAX - 1)])).toEqual(set(0, MAX - 1, MAX));
    expect(kernel.intersect(Uint32Array.from({ length: 8 }, (_, i) => MAX - 7 + i), set(MAX - 4, MAX))).toEqual(set(MAX - 4, MAX));
  });

  it('finishes a block of the first list when the second runs out inside it', () => {
    // b's last full block ends inside a's block [10, 13]; its 2-element tail holds 13
    agree(set(10, 11, 12, 13, 20, 21), set(1, 2, 3, 11, 12, 13));
    agree(set(10, 11, 12, 13, 20, 21), set(1, 2, 3, 11, 12, 13, 21));
  });

  it('unions many lists, dense (bitmap) and spread over the u32 range (merge tree)', () => {
    const random = mulberry32(7);
    const dense = Array.from({ length: 12 }, () => randomSet(random, 200, 5000));
    expectSame(kernel.unionAll(dense), fallbackUnionAll(dense));
    const spread = Array.from({ length: 9 }, () => randomSet(random, 300, MAX));
    expectSame(kernel.unionAll(spread), fallbackUnionAll(spread));
    const mixed = [...dense.slice(0, 3), set(), set(MAX), ...spread.slice(0, 2), set()];
    expectSame(kernel.unionAll(mixed), fallbackUnionAll(mixed));
  });

  it('agrees with the reference on seeded random lists of every size ratio', () => {
    const random = mulberry32(20_240_601);
    for (let round = 0; round < 300; round++) {
      const universe = [64, 1000, 50_000, MAX][round % 4]!;
      const n = Math.floor(random() ** 2 * 3000);
      const m = round % 5 === 0 ? Math.floor(random() * 8) : Math.floor(random() ** 2 * 3000);
      agree(randomSet(random, n, universe), randomSet(random, m, universe));
    }
  });

  it('agrees with the reference on seeded random k-way unions', () => {
    const random = mulberry32(99);
    for (let round = 0; round < 100; round++) {
      const universe = [100, 40_000, MAX][round % 3]!;
      const sets = Array.from({ length: 1 + Math.floor(random() * 40) }, () => randomSet(random, Math.floor(random() ** 3 * 2000), universe));
      expectSame(kernel.unionAll(sets), fallbackUnionAll(sets));
    }
  });
});
