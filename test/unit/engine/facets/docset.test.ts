import { describe, expect, it } from 'vitest';
import {
  decode,
  difference,
  encode,
  EMPTY,
  equals,
  fromSorted,
  fromUnsorted,
  has,
  intersect,
  intersectionSize,
  union,
  unionAll,
} from '../../../../src/engine/docset.js';

/** Deterministic pseudo-random sets (xorshift), of very different densities. */
function randomSet(seed: number, size: number, range: number): number[] {
  let x = seed || 1;
  const out = new Set<number>();
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.add((x >>> 0) % range);
  }
  return [...out].sort((a, b) => a - b);
}

const naive = {
  union: (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y),
  intersect: (a: number[], b: number[]) => a.filter((x) => b.includes(x)),
  difference: (a: number[], b: number[]) => a.filter((x) => !b.includes(x)),
};

describe('docset', () => {
  it('builds sorted, deduplicated sets from any order', () => {
    expect([...fromUnsorted([5, 1, 5, 3, 1])]).toEqual([1, 3, 5]);
    expect([...fromSorted([1, 1, 2, 9, 9])]).toEqual([1, 2, 9]);
    expect(fromUnsorted([])).toHaveLength(0);
  });

  it('agrees with naive set operations on sparse, dense and lopsided inputs', () => {
    const shapes: [number, number, number, number][] = [
      [10, 200, 15, 200],
      [1000, 5000, 3, 5000],
      [3, 100_000, 2000, 100_000],
      [500, 600, 500, 600],
      // big enough for every operation to go through the WASM kernel
      [3000, 40_000, 2500, 40_000],
      [20_000, 4_294_967_295, 900, 4_294_967_295],
    ];
    for (const [i, [sizeA, rangeA, sizeB, rangeB]] of shapes.entries()) {
      const a = randomSet(i * 7 + 1, sizeA, rangeA);
      const b = randomSet(i * 13 + 5, sizeB, rangeB);
      const A = fromSorted(a);
      const B = fromSorted(b);
      expect([...union(A, B)]).toEqual(naive.union(a, b));
      expect([...intersect(A, B)]).toEqual(naive.intersect(a, b));
      expect([...intersect(B, A)]).toEqual(naive.intersect(a, b));
      expect([...difference(A, B)]).toEqual(naive.difference(a, b));
      expect([...difference(B, A)]).toEqual(naive.difference(b, a));
      expect(intersectionSize(A, B)).toBe(naive.intersect(a, b).length);
    }
  });

  it('never mutates its arguments, and its results outlive later operations', () => {
    const a = fromSorted(randomSet(3, 5000, 20_000));
    const b = fromSorted(randomSet(4, 5000, 20_000));
    const [copyA, copyB] = [a.slice(), b.slice()];
    const first = intersect(a, b);
    const kept = first.slice();
    union(a, b);
    difference(a, b);
    unionAll([a, b, first]);
    expect(equals(a, copyA) && equals(b, copyB)).toBe(true);
    expect(equals(first, kept)).toBe(true);
  });

  it('returns an argument unchanged when the operation changes nothing', () => {
    const big = fromSorted(randomSet(9, 4000, 1_000_000));
    const disjoint = fromSorted(randomSet(10, 4000, 1_000_000).map((x) => x + 1_000_000));
    expect(difference(big, disjoint)).toBe(big);
    expect(union(big, EMPTY)).toBe(big);
    expect(unionAll([EMPTY, big, EMPTY])).toBe(big);
  });

  it('unions many sets at once', () => {
    const sets = [0, 1, 2, 3, 4].map((seed) => randomSet(seed + 1, 50, 300));
    expect([...unionAll(sets.map((set) => fromSorted(set)))]).toEqual([...new Set(sets.flat())].sort((a, b) => a - b));
    expect(unionAll([])).toHaveLength(0);
    expect(unionAll([EMPTY, fromSorted([4])])).toEqual(fromSorted([4]));
    // dense postings (a bitmap in the kernel) and values spread over the u32 range (merge tree)
    for (const range of [30_000, 4_294_967_295]) {
      const many = Array.from({ length: 40 }, (_, seed) => randomSet(seed + 100, 400, range));
      expect([...unionAll(many.map((set) => fromSorted(set)))]).toEqual([...new Set(many.flat())].sort((a, b) => a - b));
    }
  });

  it('answers membership by binary search', () => {
    const set = fromSorted([2, 4, 8, 16]);
    expect([1, 2, 3, 16, 17].map((x) => has(set, x))).toEqual([false, true, false, true, false]);
    expect(has(EMPTY, 0)).toBe(false);
  });

  it('round-trips through its stored form, even from an unaligned buffer', () => {
    const set = fromSorted([0, 1, 65_536, 4_294_967_295]);
    const stored = Buffer.concat([Buffer.from([9]), encode(set)]).subarray(1);
    expect(stored.byteOffset % 4).not.toBe(0);
    expect(equals(decode(stored), set)).toBe(true);
    expect(decode(undefined)).toHaveLength(0);
  });
});
