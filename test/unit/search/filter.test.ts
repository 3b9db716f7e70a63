// A request's filter checked before any index is read, as search and the document routes do it.
import { describe, expect, it } from 'vitest';
import { checkedFilter, fuseFilters } from '../../../src/search/filter.js';
import { apiErrorOf } from '../validation/expect-api-error.js';

const off = { enabled: () => false };
const on = { enabled: () => true };

describe('checkedFilter', () => {
  it('has no filter for absent, null, blank and empty-array filters', () => {
    for (const filter of [undefined, null, '  ', []]) expect(checkedFilter(off, filter, 'invalid_document_filter')).toBeNull();
  });

  it('answers the syntax tree of a filter, text or array', () => {
    expect(checkedFilter(off, 'genre = action', 'invalid_search_filter')).not.toBeNull();
    expect(checkedFilter(off, [['genre = action', 'genre = drama'], 'year > 2000'], 'invalid_search_filter')).not.toBeNull();
  });

  it("reports syntax errors with the route's code", () => {
    expect(apiErrorOf(() => checkedFilter(off, 'genre =', 'invalid_document_filter')).code).toBe('invalid_document_filter');
  });

  it('refuses CONTAINS unless its experimental feature is on', () => {
    expect(apiErrorOf(() => checkedFilter(off, 'title CONTAINS bat', 'invalid_search_filter')).code).toBe('feature_not_enabled');
    expect(checkedFilter(on, 'title CONTAINS bat', 'invalid_search_filter')).not.toBeNull();
  });
});

describe('fuseFilters', () => {
  it('keeps either side alone, else concatenates them as arrays', () => {
    expect(fuseFilters(undefined, 'b = 1')).toBe('b = 1');
    expect(fuseFilters('a = 1', null)).toBe('a = 1');
    expect(fuseFilters(null, null)).toBeNull();
    expect(fuseFilters('a = 1', 'b = 1')).toEqual(['a = 1', 'b = 1']);
    expect(fuseFilters(['a = 1', ['c = 1', 'd = 1']], [['x', 'y']])).toEqual(['a = 1', ['c = 1', 'd = 1'], ['x', 'y']]);
  });
});
