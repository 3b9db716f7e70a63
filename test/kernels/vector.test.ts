// The vector distance kernel and VectorBlock against the TS reference: fixed cases (Meilisearch's
// own scores, zero vectors, dims 1 and 3, partial last byte of a binary vector), seeded random
// vectors at dims that exercise the scalar path, the v128 body and its tails (1, 3, 15, 16, 17,
// 384, 1536), the neighbour heuristic's test (`anyCloser`), exact top-k with removals and filters,
// slot reuse, growth across heaps' regions.
import { describe, expect, it } from 'vitest';

import {
  referenceBinaryQuantize,
  referenceDistance,
  referenceHamming,
  referenceTopK,
} from '../../src/kernels/reference/vector.js';
import {
  binaryQuantize,
  DOT_SIMD_MIN,
  similarityScore,
  VectorBlock,
  vectorHeapCount,
  vectorMemoryBytes,
  type VectorMetric,
} from '../../src/kernels/vector.js';
import { getKernels } from '../../src/kernels/module.js';
import { mulberry32 } from '../helpers/random.js';

const METRICS: VectorMetric[] = ['cosine', 'dot', 'l2', 'hamming'];
const DIMS = [1, 3, 15, 16, 17, 63, 64, 65, 384, 1536];

function randomVector(random: () => number, dims: number, centre?: Float32Array): Float32Array {
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) v[i] = (centre ? centre[i]! : 0) + (random() * 2 - 1);
  return v;
}

/** Equal below DOT_SIMD_MIN dimensions (same summation order), within f32 rounding of the sums above. */
function expectClose(actual: number, expected: number, dims: number, metric: VectorMetric): void {
  if (metric === 'hamming' || dims < DOT_SIMD_MIN) {
    expect(actual).toBe(expected);
    return;
  }
  const scale = metric === 'l2' ? Math.max(1, Math.abs(expected)) : metric === 'dot' ? dims : 1;
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-5 * scale);
}

describe('kernel exports', () => {
  it('exports the metric codes and the SIMD cut-off the wrapper mirrors', () => {
    const kernels = getKernels();
    expect(kernels.constant('DOT_SIMD_MIN')).toBe(DOT_SIMD_MIN);
    expect([kernels.constant('METRIC_COSINE'), kernels.constant('METRIC_DOT'), kernels.constant('METRIC_L2')]).toEqual([0, 1, 2]);
  });
});

describe('Meilisearch scores', () => {
  it('scores [2, 3] against the query [1, 1] as Meilisearch does: 0.99029034 in f32', () => {
    const block = new VectorBlock({ dimensions: 2, metric: 'cosine' });
    const slots = [[1, 2], [1, 3], [2, 3]].map((v) => block.add(v));
    const distances = block.distancesFor([1, 1], Uint32Array.from(slots));
    // _semanticScore in crates/meilisearch/tests/search/hybrid.rs (f32 printed shortest)
    expect(Array.from(distances, similarityScore)).toEqual([Math.fround(0.97434163), Math.fround(0.9472136), Math.fround(0.99029034)]);
    block.dispose();
  });

  it('puts a zero vector at distance 0 from everything under cosine, as hannoy does', () => {
    const block = new VectorBlock({ dimensions: 3, metric: 'cosine' });
    const zero = block.add([0, 0, 0]);
    const other = block.add([1, 2, 3]);
    expect(block.distance([0, 0, 0], other)).toBe(0);
    expect(block.distance([-1, 5, 2], zero)).toBe(0);
    expect(similarityScore(block.distance([-1, 5, 2], zero))).toBe(1);
    block.dispose();
  });

  it('gives opposite vectors cosine distance 1 and one direction (up to f32 rounding) 0', () => {
    const block = new VectorBlock({ dimensions: 3, metric: 'cosine' });
    const slot = block.add([1, -2, 0.5]);
    expect(block.distance([-2, 4, -1], slot)).toBe(1);
    const same = block.distance([3, -6, 1.5], slot);
    expect(same).toBe(referenceDistance('cosine', [3, -6, 1.5], [1, -2, 0.5]));
    expect(same).toBeLessThan(1e-7);
    block.dispose();
  });

  it('divides the Hamming distance by the bits padded to u64 words, as hannoy does', () => {
    const block = new VectorBlock({ dimensions: 3, metric: 'hamming' });
    const slot = block.add([1, 1, 1]);
    expect(block.distance([-1, -1, -1], slot)).toBe(Math.fround(3 / 64));
    expect(similarityScore(block.distance([1, -1, 1], slot))).toBe(Math.fround(1 - 1 / 64));
    block.dispose();
  });
});

describe('binaryQuantize', () => {
  it('sets bit i for component i > 0 only (zero and -0 stay 0), little-endian in u64 words', () => {
    const bits = binaryQuantize([1, 0, -0, -1, 2, 0.5, -3, 1e-30, 1]);
    expect(bits.length).toBe(8);
    expect(bits[0]).toBe(0b10110001);
    expect(bits[1]).toBe(0b1);
    expect(Array.from(bits.subarray(2))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('agrees with the word-by-word reference at every padding', () => {
    const random = mulberry32(7);
    for (const dims of [1, 7, 8, 9, 63, 64, 65, 127, 384, 1536]) {
      const v = randomVector(random, dims);
      expect(Array.from(binaryQuantize(v))).toEqual(Array.from(referenceBinaryQuantize(v)));
    }
  });

  it('returns stored binary vectors as 1 and 0 components', () => {
    const block = new VectorBlock({ dimensions: 5, metric: 'hamming' });
    const slot = block.add([0.3, -0.1, 0, 2, -5]);
    expect(Array.from(block.get(slot))).toEqual([1, 0, 0, 1, 0]);
    block.dispose();
  });
});

describe('distances against the reference', () => {
  for (const metric of METRICS) {
    for (const dims of DIMS) {
      it(`${metric}, ${dims} dimensions: distancesAll, distancesFor and distance agree with the reference`, () => {
        const random = mulberry32(dims * 31 + metric.length);
        const block = new VectorBlock({ dimensions: dims, metric, initialCapacity: 4 });
        const vectors = Array.from({ length: 37 }, () => randomVector(random, dims));
        vectors.push(new Float32Array(dims)); // a zero vector
        for (const v of vectors) block.add(v);
        const query = randomVector(random, dims);
        const all = block.distancesAll(query);
        expect(all.length).toBe(vectors.length);
        vectors.forEach((v, slot) => expectClose(all[slot]!, referenceDistance(metric, query, v), dims, metric));
        const slots = Uint32Array.from([5, 0, 37, 5, 12]);
        const some = block.distancesFor(query, slots);
        slots.forEach((slot, i) => expect(some[i]).toBe(all[slot]));
        expect(block.distance(query, 12)).toBe(all[12]);
        if (metric === 'hamming') {
          const bits = binaryQuantize(query);
          vectors.forEach((v, slot) => expect(all[slot]).toBe(referenceHamming(bits, binaryQuantize(v))));
        }
        block.dispose();
      });
    }
  }

  it('computes the same distances from a prepared query, a stored slot and a plain array', () => {
    const random = mulberry32(3);
    const block = new VectorBlock({ dimensions: 384, metric: 'cosine' });
    const vectors = Array.from({ length: 20 }, () => randomVector(random, 384));
    for (const v of vectors) block.add(v);
    const slots = Uint32Array.from([1, 2, 3, 19]);
    const fromArray = block.distancesFor(Array.from(vectors[7]!), slots);
    const fromSlot = block.distancesFor(block.prepareSlot(7), slots);
    const prepared = block.prepare(vectors[7]!);
    expect(Array.from(block.distancesFor(prepared, slots))).toEqual(Array.from(fromArray));
    expect(Array.from(block.distancesFor(prepared, slots, 2))).toEqual(Array.from(fromArray.subarray(0, 2)));
    expect(Array.from(fromSlot)).toEqual(Array.from(fromArray));
    block.dispose();
  });

  for (const metric of METRICS) {
    it(`${metric}: anyCloser tells whether a listed slot is strictly closer than the threshold to a stored slot, as distancesFor does`, () => {
      for (const dims of [3, 17, 768]) {
        const random = mulberry32(dims * 7 + metric.length);
        const block = new VectorBlock({ dimensions: dims, metric, initialCapacity: 4 });
        for (let i = 0; i < 30; i++) block.add(randomVector(random, dims));
        for (let from = 0; from < 30; from += 7) {
          const list = Uint32Array.from([29, 4, 11, 17, 4, 23]);
          const distances = Array.from(block.distancesFor(block.prepareSlot(from), list));
          // symmetric to the bit: the kept neighbour's distance to the candidate is the candidate's to it
          list.forEach((slot, i) => expect(block.distancesFor(block.prepareSlot(slot), Uint32Array.of(from))[0]).toBe(distances[i]));
          for (const threshold of [...distances, 0, 2, Math.max(...distances) + 1e-3]) {
            for (const count of [0, 1, 3, list.length]) {
              expect(block.anyCloser(from, list, count, threshold)).toBe(distances.slice(0, count).some((d) => d < threshold));
            }
          }
        }
        // it prepares nothing: a query prepared before still answers
        const again = block.prepare(randomVector(mulberry32(dims), dims));
        const fresh = Array.from(block.distancesFor(again, Uint32Array.from([0, 1, 2])));
        block.anyCloser(5, Uint32Array.from([1, 2]), 2, 0.5);
        expect(Array.from(block.distancesFor(again, Uint32Array.from([0, 1, 2])))).toEqual(fresh);
        expect(() => block.anyCloser(31, Uint32Array.of(1), 1, 0.5)).toThrow(RangeError);
        block.remove(2);
        expect(() => block.anyCloser(1, Uint32Array.of(2), 1, 0.5)).toThrow(RangeError);
        block.dispose();
      }
    });
  }

  it('refuses a stale prepared query, a query of another block and wrong dimensions', () => {
    const a = new VectorBlock({ dimensions: 2, metric: 'l2' });
    const b = new VectorBlock({ dimensions: 2, metric: 'l2' });
    a.add([1, 2]);
    b.add([1, 2]);
    const stale = a.prepare([0, 0]);
    a.prepare([1, 1]);
    expect(() => a.distancesAll(stale)).toThrow(/replaced/);
    expect(() => b.distancesAll(a.prepare([0, 0]))).toThrow(/another vector block/);
    expect(() => a.add([1, 2, 3])).toThrow(RangeError);
    expect(() => a.distancesAll([1])).toThrow(RangeError);
    expect(() => a.distancesFor([1, 1], Uint32Array.from([1]))).toThrow(/empty/);
    a.dispose();
    b.dispose();
    expect(() => a.distancesAll([1, 1])).toThrow(/disposed/);
    expect(() => a.set(0, [1, 1])).toThrow(/disposed/);
    expect(() => a.get(0)).toThrow(/disposed/);
  });
});

describe('exact top-k', () => {
  for (const metric of METRICS) {
    it(`${metric}: topK equals the reference with removed slots and a filter`, () => {
      const random = mulberry32(99 + metric.length);
      const dims = 33;
      const block = new VectorBlock({ dimensions: dims, metric, initialCapacity: 8 });
      const vectors: (Float32Array | null)[] = [];
      for (let i = 0; i < 500; i++) vectors.push(randomVector(random, dims));
      vectors.forEach((v) => block.add(v!));
      for (let slot = 0; slot < 500; slot += 7) {
        expect(block.remove(slot)).toBe(true);
        vectors[slot] = null;
      }
      const query = randomVector(random, dims);
      const accept = (slot: number) => slot % 3 !== 0;
      for (const k of [0, 1, 10, 400]) {
        const got = block.topK(query, k, accept);
        const expected = referenceTopK(metric, vectors, query, k, accept);
        if (metric === 'hamming') {
          expect(Array.from(got.slots)).toEqual(expected.slots);
          expect(Array.from(got.distances)).toEqual(expected.distances);
        } else {
          // rounding may swap near-ties: compare the distances, then the slots where not tied
          expect(got.slots.length).toBe(expected.slots.length);
          got.distances.forEach((d, i) => expectClose(d, expected.distances[i]!, dims, metric));
          for (const slot of got.slots) expect(vectors[slot]).not.toBeNull();
        }
      }
      block.dispose();
    });
  }

  for (const metric of ['cosine', 'hamming'] as const) {
    it(`${metric}: topKFor over a candidate list equals the reference restricted to it, skipping removed and repeated slots`, () => {
      const random = mulberry32(123);
      const block = new VectorBlock({ dimensions: 20, metric });
      const vectors: (Float32Array | null)[] = Array.from({ length: 300 }, () => randomVector(random, 20));
      vectors.forEach((v) => block.add(v!));
      block.remove(10);
      vectors[10] = null;
      const candidates = Uint32Array.from([10, 250, 3, 3, 77, 120, 299, 0, 250, 42, 5]);
      const query = randomVector(random, 20);
      const inList = new Set(candidates);
      const expected = referenceTopK(metric, vectors, query, 4, (slot) => inList.has(slot));
      const got = block.topKFor(query, candidates, 4);
      expect(Array.from(got.slots)).toEqual(expected.slots);
      got.distances.forEach((d, i) => expectClose(d, expected.distances[i]!, 20, metric));
      expect(Array.from(block.topKFor(query, candidates, 4, 3).slots).sort()).toEqual([250, 3].sort());
      expect(block.topKFor(query, candidates, 0).slots.length).toBe(0);
      block.dispose();
    });
  }

  it('breaks distance ties by slot and returns fewer matches than k when few are live', () => {
    const block = new VectorBlock({ dimensions: 2, metric: 'l2' });
    for (let i = 0; i < 5; i++) block.add([1, 1]);
    block.remove(1);
    const { slots, distances } = block.topK([1, 1], 10);
    expect(Array.from(slots)).toEqual([0, 2, 3, 4]);
    expect(Array.from(distances)).toEqual([0, 0, 0, 0]);
    expect(Array.from(block.topK([1, 1], 2).slots)).toEqual([0, 2]);
    block.dispose();
  });
});

describe('slots and memory', () => {
  it('reuses removed slots, marks them NaN in distancesAll and refuses to read them', () => {
    const block = new VectorBlock({ dimensions: 2, metric: 'l2' });
    expect([block.add([0, 0]), block.add([1, 0]), block.add([2, 0])]).toEqual([0, 1, 2]);
    expect(block.remove(1)).toBe(true);
    expect(block.remove(1)).toBe(false);
    expect(block.has(1)).toBe(false);
    expect(block.count).toBe(2);
    expect(Array.from(block.distancesAll([0, 0]))).toEqual([0, NaN, 4]);
    expect(() => block.get(1)).toThrow(RangeError);
    expect(block.add([5, 0])).toBe(1);
    expect(Array.from(block.get(1))).toEqual([5, 0]);
    expect(block.add([6, 0])).toBe(3);
    expect(block.size).toBe(4);
    block.dispose();
  });

  it('sets a slot beyond the end, leaving the gap free for add', () => {
    const block = new VectorBlock({ dimensions: 1, metric: 'dot', initialCapacity: 2 });
    block.set(10, [2]);
    expect(block.size).toBe(11);
    expect(block.count).toBe(1);
    expect(block.has(3)).toBe(false);
    const next = block.add([1]);
    expect(next).toBeLessThan(10);
    block.set(next, [3]);
    expect(Array.from(block.get(next))).toEqual([3]);
    expect(block.count).toBe(2);
    block.dispose();
  });

  it('keeps every vector and norm when the block grows many times, among other blocks', () => {
    const random = mulberry32(11);
    const heapsBefore = vectorHeapCount();
    const blocks = [0, 1, 2].map(() => new VectorBlock({ dimensions: 17, metric: 'cosine', initialCapacity: 1 }));
    const stored: Float32Array[][] = [[], [], []];
    for (let i = 0; i < 3000; i++) {
      const b = i > 1500 ? [0, 2][i % 2]! : i % 3;
      const v = randomVector(random, 17);
      stored[b]!.push(v);
      blocks[b]!.add(v);
      if (i === 1500) blocks[1]!.dispose();
    }
    const query = randomVector(random, 17);
    for (const b of [0, 2]) {
      const all = blocks[b]!.distancesAll(query);
      stored[b]!.forEach((v, slot) => {
        expect(Array.from(blocks[b]!.get(slot))).toEqual(Array.from(v));
        expectClose(all[slot]!, referenceDistance('cosine', query, v), 17, 'cosine');
      });
      blocks[b]!.dispose();
    }
    expect(vectorHeapCount() - heapsBefore).toBeLessThanOrEqual(1);
  });

  it('reuses the memory of disposed blocks instead of growing', () => {
    const make = () => {
      const block = new VectorBlock({ dimensions: 256, metric: 'cosine', initialCapacity: 4096 });
      block.add(new Float32Array(256).fill(1));
      return block;
    };
    make().dispose();
    const bytes = vectorMemoryBytes();
    for (let i = 0; i < 5; i++) {
      const [a, b] = [make(), make()];
      b.dispose();
      a.dispose();
    }
    expect(vectorMemoryBytes()).toBeLessThanOrEqual(bytes + 4096 * 256 * 4 + 65_536 * 2);
    make().dispose();
    const again = vectorMemoryBytes();
    for (let i = 0; i < 5; i++) make().dispose();
    expect(vectorMemoryBytes()).toBe(again);
  });

  it('scans blocks longer than one kernel call chunk', () => {
    const random = mulberry32(5);
    const block = new VectorBlock({ dimensions: 3, metric: 'l2', initialCapacity: 1 });
    const vectors = Array.from({ length: 40_000 }, () => randomVector(random, 3));
    for (const v of vectors) block.add(v);
    const query = randomVector(random, 3);
    const all = block.distancesAll(query);
    for (const slot of [0, 16_383, 16_384, 32_768, 39_999]) expect(all[slot]).toBe(referenceDistance('l2', query, vectors[slot]!));
    const slots = Uint32Array.from({ length: 20_000 }, (_, i) => 39_999 - i * 2);
    const some = block.distancesFor(query, slots);
    slots.forEach((slot, i) => {
      if (i % 997 === 0) expect(some[i]).toBe(all[slot]);
    });
    expect(Array.from(block.topK(query, 5).slots)).toEqual(referenceTopK('l2', vectors, query, 5).slots);
    block.dispose();
  });
});
