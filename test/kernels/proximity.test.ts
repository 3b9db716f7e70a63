// The proximity kernel against its TS reference: fixed cases pin Meilisearch's pair costs (each
// also checks kernel == reference), seeded random batches check the two agree everywhere.
import { describe, expect, it } from 'vitest';

import { getKernels } from '../../src/kernels/module.js';
import { mulberry32 } from '../helpers/random.js';
import { FLAG_BY_ATTRIBUTE, PAIR_FORWARD_ONLY, PAIR_JOIN, PAIR_RECORD_U32, ProximityBuilder, proximityCosts, type ProximityBatch } from '../../src/kernels/proximity.js';
import { referenceProximityCosts } from '../../src/kernels/reference/proximity.js';

const place = (field: number, position: number) => (field << 16) | position;

/** A record: [left list, right list, flags, cost offset (0 when left out)]. */
type Record = [number, number, number, number?];

/** A batch of documents, each a list of place lists, and its records. */
function batchOf(docs: number[][][], pairs: Record[], byAttribute = false): ProximityBatch {
  const builder = new ProximityBuilder();
  builder.begin(docs[0]?.length ?? 0);
  for (const lists of docs) {
    const offsets = [0];
    for (const list of lists) offsets.push(offsets[offsets.length - 1]! + list.length);
    builder.add(Uint32Array.from(offsets), Uint32Array.from(lists.flat()), 1);
  }
  return builder.batch(Uint32Array.from(pairs.flatMap(([left, right, flags, offset]) => [left, right, flags, offset ?? 0])), byAttribute);
}

/** Runs the kernel, checks the reference agrees, and returns the costs. */
function costs(batch: ProximityBatch): number[] {
  const actual = [...proximityCosts(batch)];
  expect(actual).toEqual([...referenceProximityCosts(batch)]);
  return actual;
}

describe('proximity kernel', () => {
  it('agrees with the host on its record layout', () => {
    const kernels = getKernels();
    expect(kernels.constant('PAIR_RECORD_U32')).toBe(PAIR_RECORD_U32);
    expect(kernels.constant('FLAG_BY_ATTRIBUTE')).toBe(FLAG_BY_ATTRIBUTE);
    expect(kernels.constant('PAIR_FORWARD_ONLY')).toBe(PAIR_FORWARD_ONLY);
    expect(kernels.constant('PAIR_JOIN')).toBe(PAIR_JOIN);
  });

  it('prices adjacent words 0, then the distance minus one up to 3', () => {
    const docs = [1, 2, 3, 4, 9].map((gap) => [[place(0, 5)], [place(0, 5 + gap)]]);
    expect(costs(batchOf(docs, [[0, 1, 0]]))).toEqual([0, 1, 2, 3, 3]);
  });

  it('prices words in reverse order one more than in order', () => {
    const docs = [1, 2, 3].map((gap) => [[place(0, 5 + gap)], [place(0, 5)]]);
    expect(costs(batchOf(docs, [[0, 1, 0]]))).toEqual([1, 2, 3]);
  });

  it('takes the best pair of occurrences and ignores pairs across fields', () => {
    const docs = [
      [[place(0, 1), place(0, 20)], [place(0, 10), place(0, 21)]],
      [[place(0, 1)], [place(1, 2)]],
      [[place(1, 7), place(0, 1)], [place(1, 8), place(0, 9)]],
    ];
    expect(costs(batchOf(docs, [[0, 1, 0]]))).toEqual([0, 3, 0]);
  });

  it('prices one occurrence matched by both lists 0 (an n-gram on both sides)', () => {
    expect(costs(batchOf([[[place(0, 4)], [place(0, 4)]]], [[0, 1, 0]]))).toEqual([0]);
  });

  it('with PAIR_FORWARD_ONLY counts only right occurrences after the left one', () => {
    const docs = [1, 2, 3, 4].map((gap) => [[place(0, 5)], [place(0, 5 + gap)]]);
    expect(costs(batchOf(docs, [[0, 1, PAIR_FORWARD_ONLY]]))).toEqual([0, 1, 2, 3]);
    const reversed = [0, 1, 2].map((gap) => [[place(0, 5 + gap)], [place(0, 5)]]);
    expect(costs(batchOf(reversed, [[0, 1, PAIR_FORWARD_ONLY]]))).toEqual([3, 3, 3]);
  });

  it('prices a term pair at the best of its joined records', () => {
    // lists: 0 left words, 1 right words, 2 right phrase first words (forward only)
    const docs = [
      [[place(0, 5)], [place(0, 9)], [place(0, 6)]],
      [[place(0, 5)], [place(0, 4)], [place(0, 3)]],
      [[place(0, 5)], [], []],
    ];
    const records: Record[] = [
      [0, 1, 0],
      [0, 2, PAIR_FORWARD_ONLY | PAIR_JOIN],
    ];
    expect(costs(batchOf(docs, records))).toEqual([0, 1, 3]);
    // without the join flag, the second record is a pair of its own
    expect(costs(batchOf(docs, [records[0]!, [0, 2, PAIR_FORWARD_ONLY]]))).toEqual([3, 4, 6]);
  });

  it('adds each record\'s cost offset to every cost of the record, its maximum too (an n-gram on the right)', () => {
    const docs = [1, 2, 9].map((gap) => [[place(0, 5)], [place(0, 5 + gap)], [place(1, 0)]]);
    expect(costs(batchOf(docs, [[0, 1, 0, 2]]))).toEqual([2, 3, 5]);
    // a pair's cost is its best record's, offsets included
    expect(costs(batchOf(docs, [[0, 2, 0, 0], [0, 1, PAIR_JOIN, 1]]))).toEqual([1, 2, 3]);
  });

  it('sums the pairs, a term without places costing 3', () => {
    const docs = [
      [[place(0, 0)], [place(0, 1)], [place(0, 4)]],
      [[place(0, 0)], [], [place(0, 4)]],
    ];
    expect(costs(batchOf(docs, [[0, 1, 0], [1, 2, 0]]))).toEqual([2, 6]);
  });

  it('with byAttribute prices any two occurrences in one field 0', () => {
    const docs = [[[place(0, 0)], [place(0, 40)]], [[place(0, 0)], [place(2, 1)]]];
    expect(costs(batchOf(docs, [[0, 1, 0]], true))).toEqual([0, 3]);
  });

  it('handles an empty batch and no pairs', () => {
    expect(costs(batchOf([], []))).toEqual([]);
    expect(costs(batchOf([[[place(0, 1)], [place(0, 2)]]], []))).toEqual([0]);
  });

  it('rejects offsets and pairs outside the batch instead of reading past it', () => {
    const batch = batchOf([[[place(0, 1)], [place(0, 2)]]], [[0, 1, 0]]);
    expect(() => proximityCosts({ ...batch, pairs: Uint32Array.from([0, 2, 0, 0]) })).toThrow(RangeError);
    expect(() => proximityCosts({ ...batch, offsets: Uint32Array.from([0, 5, 1]) })).toThrow(RangeError);
  });

  it('agrees with the reference on seeded random batches (growing the builder past its first columns)', () => {
    const random = mulberry32(7);
    const next = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 50; round++) {
      const lists = 1 + next(8);
      const docs = Array.from({ length: 1 + next(300) }, () =>
        Array.from({ length: lists }, () => Array.from({ length: next(6) }, () => place(next(3), next(40)))),
      );
      const pairs: Record[] = [];
      for (let p = next(6); p > 0; p--) pairs.push([next(lists), next(lists), next(4), next(3)]);
      costs(batchOf(docs, pairs, next(5) === 0));
    }
  });
});

describe('proximity batch builder', () => {
  it('appends documents as the gather leaves them, after the places before, and documents without places', () => {
    const builder = new ProximityBuilder();
    builder.begin(2);
    // two documents of 2 lists: (10, 11 | 20) and (— | 30)
    builder.add(Uint32Array.from([0, 2, 3, 3, 4]), Uint32Array.from([10, 11, 20, 30, 99]), 2);
    builder.addEmpty(1);
    builder.add(Uint32Array.from([0, 1, 1]), Uint32Array.from([40]), 1);
    const { docs, places, offsets } = builder.batch(new Uint32Array(0), false);
    expect(docs).toBe(4);
    expect([...offsets]).toEqual([0, 2, 3, 3, 4, 4, 4, 5, 5]);
    expect([...places]).toEqual([10, 11, 20, 30, 40]);
  });
});
