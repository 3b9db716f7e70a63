// Combinations in itertools' order, which decides what a rule condition's bounded fuel reaches.
import { describe, expect, it } from 'vitest';
import { combinations } from '../../../src/search-rules/combinations.js';

describe('combinations', () => {
  it('yields every k-subset in lexicographic order of positions', () => {
    expect([...combinations(['a', 'b', 'c', 'd'], 2)]).toEqual([['a', 'b'], ['a', 'c'], ['a', 'd'], ['b', 'c'], ['b', 'd'], ['c', 'd']]);
    expect([...combinations([1, 2], 0)]).toEqual([[]]);
    expect([...combinations([1, 2], 3)]).toEqual([]);
  });
});
