// Facet hits of several instances merged as v1.50 merges them (network.md §7.3): by value in
// UTF-8 order with equal values' counts summed, then by total count when the facet is so ordered.
import { describe, expect, it } from 'vitest';
import { isFacetSearchResponse, mergeFacetHits } from '../../../src/search/network-facet-search.js';

const hit = (value: string, count: number) => ({ value, count });

describe('mergeFacetHits', () => {
  it('merges lists by value, summing the counts of equal values', () => {
    const merged = mergeFacetHits([[hit('comedy', 2), hit('drama', 1)], [hit('drama', 2), hit('music', 1)], []], 'alpha');
    expect(merged).toEqual([hit('comedy', 2), hit('drama', 3), hit('music', 1)]);
  });

  it('compares values by their UTF-8 bytes', () => {
    expect(mergeFacetHits([[hit('\uffff', 1)], [hit('😀', 1)]], 'alpha').map(({ value }) => value)).toEqual(['\uffff', '😀']);
  });

  it('in count order, sorts each list by value first and the merged hits by total count', () => {
    const merged = mergeFacetHits([[hit('drama', 5), hit('comedy', 1)], [hit('music', 4), hit('comedy', 3)]], 'count');
    expect(merged).toEqual([hit('drama', 5), hit('comedy', 4), hit('music', 4)]);
  });

  it('leaves the lists it merges unchanged', () => {
    const list = [hit('b', 1), hit('a', 2)];
    mergeFacetHits([list, [hit('a', 1)]], 'count');
    expect(list).toEqual([hit('b', 1), hit('a', 2)]);
  });
});

describe('isFacetSearchResponse', () => {
  it('accepts a facet search result and nothing else', () => {
    expect(isFacetSearchResponse({ facetHits: [hit('a', 1)], facetQuery: null, processingTimeMs: 0 })).toBe(true);
    expect(isFacetSearchResponse({ facetHits: [], processingTimeMs: 0 })).toBe(true);
    expect(isFacetSearchResponse({ hits: [], processingTimeMs: 0 })).toBe(false);
    expect(isFacetSearchResponse({ facetHits: [{ value: 1, count: 1 }], processingTimeMs: 0 })).toBe(false);
    expect(isFacetSearchResponse({ facetHits: [], facetQuery: 3, processingTimeMs: 0 })).toBe(false);
  });
});
