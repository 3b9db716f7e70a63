/** Set algebra over ascending uid lists and the cursor page of such a list. */
import { describe, expect, it } from 'vitest';
import { intersect, pageOfSorted, sortedUnique } from '../../../src/tasks/uid-sets.js';

describe('intersect', () => {
  it('keeps the uids of every list, whatever their sizes', () => {
    const evens = Array.from({ length: 1000 }, (_, i) => i * 2);
    expect(intersect([[3, 4, 10, 1998, 2001], evens])).toEqual([4, 10, 1998]);
    expect(intersect([evens, [0, 1, 2], [0, 2, 7]])).toEqual([0, 2]);
    expect(intersect([[1, 5, 9], [2, 5, 8, 9]])).toEqual([5, 9]);
    expect(intersect([[1], []])).toEqual([]);
    expect(intersect([])).toEqual([]);
  });
});

describe('sortedUnique', () => {
  it('sorts numerically and drops duplicates', () => {
    expect(sortedUnique([10, 2, 2, 33, 1])).toEqual([1, 2, 10, 33]);
  });
});

describe('pageOfSorted', () => {
  const list = [0, 2, 4, 6, 8];
  it.each([
    [{}, 3, [8, 6, 4]],
    [{ from: 5 }, 3, [4, 2, 0]],
    [{ from: 4 }, 2, [4, 2]],
    [{ reverse: true }, 2, [0, 2]],
    [{ reverse: true, from: 3 }, 2, [4, 6]],
    [{ reverse: true, from: 9 }, 2, []],
    [{ from: 100 }, 1, [8]],
  ])('%o, %i items', (cursor, count, expected) => {
    expect(pageOfSorted(list, cursor, count, null)).toEqual(expected);
  });

  it('skips hidden uids and still fills the page', () => {
    expect(pageOfSorted(list, {}, 3, new Set([6, 4]))).toEqual([8, 2, 0]);
    expect(pageOfSorted(list, { reverse: true }, 2, new Set([0]))).toEqual([2, 4]);
  });
});
