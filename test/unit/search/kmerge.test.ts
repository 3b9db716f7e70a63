// The k-way merge v1.50 merges federated hits and network document lists with (itertools' kmerge_by).
import { describe, expect, it } from 'vitest';
import { kmergeBy } from '../../../src/search/kmerge.js';

describe('kmergeBy', () => {
  it('merges lists sorted by the predicate into one sorted list, keeping each list in its order', () => {
    expect(kmergeBy([[1, 4, 9], [2, 3], [], [5, 8, 10]], (a, b) => a < b)).toEqual([1, 2, 3, 4, 5, 8, 9, 10]);
  });

  it('takes heads only, so lists sorted against the predicate come out as the heap walks them, not sorted', () => {
    // descending predicate over ascending lists: 3 is taken first, then 1 before 2 (2 is not yet a head)
    expect(kmergeBy([[1, 2], [3]], (a, b) => a > b)).toEqual([3, 1, 2]);
  });

  it('orders tied heads as the heap holds them: an exhausted list is replaced by the last one', () => {
    expect(kmergeBy([['a'], ['b'], ['c']], () => false)).toEqual(['a', 'c', 'b']);
  });
});
