// One search on one index through the request-level service: the response body in v1.50's key
// order, the hit views, the page window, facets, metadata and the checks that need the index.
import { describe, expect, it } from 'vitest';
import { Caller } from '../../../src/auth/caller.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { searchIndex, searchResponse } from '../../../src/search/single.js';
import { markupBudget } from '../../../src/engine/search/format.js';
import type { SearchQuery } from '../../../src/search/query.js';
import { rejection } from './rejection.js';
import { searchFixtures, type SearchFixture } from './fixture.js';

const MOVIES = [
  { id: 1, title: 'Batman Returns', genre: 'action', year: 1992, secret: 'a' },
  { id: 2, title: 'Batman', genre: 'action', year: 1989, secret: 'b' },
  { id: 3, title: 'The Lego Batman Movie', genre: 'comedy', year: 2017, secret: 'c' },
  { id: 4, title: 'Dragonheart', genre: 'fantasy', year: 1996, secret: 'd' },
];

const openFixture = searchFixtures();

function open() {
  return openFixture({
    movies: {
      settings: { displayedAttributes: ['id', 'title', 'genre', 'year'], filterableAttributes: ['genre', 'year'], sortableAttributes: ['year'] },
      docs: MOVIES,
    },
  });
}

const search = async (f: SearchFixture, query: SearchQuery, metadata = false) => (await searchResponse(f.ctx, Caller.open(), 'movies', query, 'request-uid', metadata)).body;

describe('searchResponse', () => {
  it('answers hits, query, processingTimeMs, the offset window and requestUid in that order, showing displayed fields only', async () => {
    const body = await search(open(), { q: 'batman', limit: 2 });
    expect(Object.keys(body)).toEqual(['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
    expect(body.hits).toEqual([
      { id: 2, title: 'Batman', genre: 'action', year: 1989 },
      { id: 1, title: 'Batman Returns', genre: 'action', year: 1992 },
    ]);
    expect(body).toMatchObject({ query: 'batman', limit: 2, offset: 0, estimatedTotalHits: 3, requestUid: 'request-uid' });
  });

  it('answers the page fields with an exact total in page mode', async () => {
    const body = await search(open(), { q: 'batman', hitsPerPage: 2, page: 2 });
    expect(Object.keys(body)).toEqual(['hits', 'query', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits', 'requestUid']);
    expect(body).toMatchObject({ hitsPerPage: 2, page: 2, totalPages: 2, totalHits: 3 });
    expect((body.hits as { id: number }[]).map((hit) => hit.id)).toEqual([3]);
  });

  it('adds the facet distribution and stats of every matching document before requestUid', async () => {
    const body = await search(open(), { q: 'batman', limit: 1, facets: ['genre', 'year'] });
    expect(Object.keys(body).slice(-3)).toEqual(['facetDistribution', 'facetStats', 'requestUid']);
    expect(body.facetDistribution).toEqual({ genre: { action: 2, comedy: 1 }, year: { '1989': 1, '1992': 1, '2017': 1 } });
    expect(body.facetStats).toEqual({ year: { min: 1989, max: 2017 } });
  });

  it('adds metadata naming the index and its primary key when asked', async () => {
    const body = await search(open(), { q: 'dragon' }, true);
    expect(body.metadata).toMatchObject({ indexUid: 'movies', primaryKey: 'id' });
    expect(Object.keys(body).at(-1)).toBe('metadata');
  });

  it('puts _formatted after the document fields and the ranking score after it', async () => {
    const body = await search(open(), { q: 'dragon', attributesToRetrieve: ['title'], attributesToHighlight: ['title'], showRankingScore: true });
    const [hit] = body.hits as Record<string, unknown>[];
    expect(Object.keys(hit!)).toEqual(['title', '_formatted', '_rankingScore']);
    expect(hit!._formatted).toEqual({ title: '<em>Dragon</em>heart' });
  });

  it('filters and sorts with the query parameters', async () => {
    const body = await search(open(), { filter: 'genre = action', sort: ['year:desc'] });
    expect((body.hits as { id: number }[]).map((hit) => hit.id)).toEqual([1, 2]);
  });

  it('names the index in errors raised inside it', async () => {
    const f = open();
    expect(await rejection(() => search(f, { sort: ['title:asc'] }))).toEqual({
      code: 'invalid_search_sort',
      message: expect.stringMatching(/^Index `movies`: Attribute `title` is not sortable\./),
    });
    expect((await rejection(() => search(f, { filter: 'secret = a' }))).message).toMatch(/^Index `movies`: Attribute `secret` is not filterable\./);
  });

  it('looks the index up before refusing a vector without hybrid (v1.50 search_kind reads the index)', async () => {
    const f = open();
    expect(await rejection(() => searchResponse(f.ctx, Caller.open(), 'nowhere', { vector: [1] }, 'r', false))).toEqual({ code: 'index_not_found', message: 'Index `nowhere` not found.' });
    expect((await rejection(() => searchResponse(f.ctx, Caller.open(), 'movies', { vector: [1] }, 'r', false))).code).toBe('missing_search_hybrid');
  });
});

describe('searchIndex', () => {
  it('ranks offset + limit hits and counts every candidate', async () => {
    const f = open();
    const { outcome, view } = await searchIndex(f.ctx, Caller.open(), 'movies', { q: 'batman', showRankingScore: true }, { offset: 1, limit: 1, exhaustive: false });
    expect(outcome.hits).toHaveLength(2);
    expect(outcome.candidates.length).toBe(3);
    expect(view(outcome.hits[1]!, markupBudget())).toMatchObject({ id: 1, _rankingScore: expect.any(Number) });
  });

  it("runs the caller's ranking-rules check on the index settings, before the filter is checked", async () => {
    const f = open();
    const seen: string[][] = [];
    await searchIndex(f.ctx, Caller.open(), 'movies', {}, { offset: 0, limit: 1, exhaustive: false }, { checkRules: (settings) => seen.push(settings.rankingRules) });
    expect(seen).toEqual([f.index('movies').settings.rankingRules]);
    const refuse = () => {
      throw new ApiError('invalid_multi_search_query_ranking_rules', 'rules differ');
    };
    expect((await rejection(() => searchIndex(f.ctx, Caller.open(), 'movies', { filter: 'genre =' }, { offset: 0, limit: 1, exhaustive: false }, { checkRules: refuse }))).message).toBe(
      'rules differ',
    );
  });
});
