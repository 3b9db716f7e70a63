// Facet search through the service: the values a search's candidates hold, and its checks.
import { describe, expect, it } from 'vitest';
import { Caller } from '../../../src/auth/caller.js';
import { facetSearch } from '../../../src/search/facet-search.js';
import { rejection } from './rejection.js';
import { searchFixtures } from './fixture.js';

const openFixture = searchFixtures();

const DOCS = [
  { id: 1, title: 'Batman', genre: 'Action' },
  { id: 2, title: 'Batman Returns', genre: 'Action' },
  { id: 3, title: 'Lego Batman', genre: 'Comedy' },
  { id: 4, title: 'Dune', genre: 'Adventure' },
];

describe('facetSearch', () => {
  it("counts the facet's values among the documents the search matches, narrowed by facetQuery", async () => {
    const fixture = openFixture({ movies: { settings: { filterableAttributes: ['genre'] }, docs: DOCS } });
    const { body: all, order } = await facetSearch(fixture.ctx, Caller.open(), 'movies', { facetName: 'genre', q: 'batman' });
    expect(order).toBe('alpha');
    expect(Object.keys(all)).toEqual(['facetHits', 'facetQuery', 'processingTimeMs']);
    expect(all.facetHits).toEqual([
      { value: 'Action', count: 2 },
      { value: 'Comedy', count: 1 },
    ]);
    expect(all.facetQuery).toBeNull();
    const { body: narrowed } = await facetSearch(fixture.ctx, Caller.open(), 'movies', { facetName: 'genre', facetQuery: 'ad' });
    expect(narrowed.facetHits).toEqual([{ value: 'Adventure', count: 1 }]);
  });

  it('refuses a disabled facet search, then a facet that is not filterable', async () => {
    const fixture = openFixture({
      off: { settings: { filterableAttributes: ['genre'], facetSearch: false }, docs: DOCS },
      on: { settings: { filterableAttributes: ['genre'] }, docs: DOCS },
    });
    expect((await rejection(() => facetSearch(fixture.ctx, Caller.open(), 'off', { facetName: 'genre' }))).code).toBe('facet_search_disabled');
    expect((await rejection(() => facetSearch(fixture.ctx, Caller.open(), 'on', { facetName: 'title' }))).code).toBe('invalid_facet_search_facet_name');
  });
});
