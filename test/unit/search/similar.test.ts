// The merge of a target's per-embedding neighbour lists (src/search/similar.ts): each document once,
// at its best distance, nearest first, ties by docid.
import { describe, expect, it } from 'vitest';
import { mergeByDistance } from '../../../src/search/similar.js';

const n = (docid: number, distance: number) => ({ docid, distance, score: 1 - distance });

describe('mergeByDistance', () => {
  it('keeps each document at the best distance any embedding found for it', () => {
    const merged = mergeByDistance([
      [n(4, 0.1), n(2, 0.3), n(7, 0.5)],
      [n(2, 0.05), n(9, 0.3), n(4, 0.4)],
    ]);
    expect(merged.map(({ docid, distance }) => [docid, distance])).toEqual([
      [2, 0.05],
      [4, 0.1],
      [9, 0.3],
      [7, 0.5],
    ]);
  });

  it('puts a NaN distance after every other, and a document\'s real distance before its NaN one', () => {
    const merged = mergeByDistance([
      [n(3, Number.NaN), n(1, 0.6), n(5, Number.NaN)],
      [n(5, 0.2), n(8, Number.NaN), n(6, 0.9)],
    ]);
    expect(merged.map(({ docid }) => docid)).toEqual([5, 1, 6, 3, 8]);
  });

  it('answers nothing for a target without embeddings', () => {
    expect(mergeByDistance([])).toEqual([]);
  });
});
