// Federated search through the service: every query's hits merged into one ranked page, with
// `_federation` on each hit, the shared page window, per-index and merged facets, and its checks.
import { describe, expect, it } from 'vitest';
import { Caller } from '../../../src/auth/caller.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { federatedSearch } from '../../../src/search/federation.js';
import { rejection } from './rejection.js';
import { searchFixtures } from './fixture.js';

/** The answer as an object: these tests' answers are short (a long one is written in pieces, streamed-answer.ts). */
const federated = async (...args: Parameters<typeof federatedSearch>) => (await federatedSearch(...args)) as Record<string, any>;

const openFixture = searchFixtures();

function open() {
  return openFixture({
    books: { settings: { filterableAttributes: ['genre'] }, docs: [{ id: 1, title: 'Batman: Year One', genre: 'comics' }, { id: 2, title: 'Dune', genre: 'novel' }] },
    films: { settings: { filterableAttributes: ['genre'] }, docs: [{ id: 1, title: 'Batman', genre: 'action' }, { id: 2, title: 'Batman Forever', genre: 'action' }] },
  });
}

type Hit = { id: number; _federation: { indexUid: string; queriesPosition: number; weightedRankingScore: number } };

const LOCAL = { proxy: false, includeMetadata: false };

describe('federatedSearch', () => {
  it('merges the hits of every query by weighted score, each hit saying where it comes from', async () => {
    const body = await federated(open().ctx, Caller.open(), [{ indexUid: 'books', q: 'batman' }, { indexUid: 'films', q: 'batman', federationOptions: { weight: 0.5 } }], {}, LOCAL);
    expect(Object.keys(body)).toEqual(['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
    const hits = body.hits as Hit[];
    expect(hits.map((hit) => `${hit._federation.indexUid}:${hit.id}`)).toEqual(['books:1', 'films:1', 'films:2']);
    expect(hits.map((hit) => hit._federation.queriesPosition)).toEqual([0, 1, 1]);
    const scores = hits.map((hit) => hit._federation.weightedRankingScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Object.keys(hits[0]!)).toEqual(['id', 'title', 'genre', '_federation']);
    expect(body.estimatedTotalHits).toBe(3);
  });

  it('paginates the merged list with federation.page and hitsPerPage', async () => {
    const body = await federated(open().ctx, Caller.open(), [{ indexUid: 'books', q: 'batman' }, { indexUid: 'films', q: 'batman' }], { page: 2, hitsPerPage: 2 }, LOCAL);
    expect(body).toMatchObject({ hitsPerPage: 2, page: 2, totalPages: 2, totalHits: 3 });
    expect(body.hits).toHaveLength(1);
  });

  it('answers each index facets, or their sum with mergeFacets', async () => {
    const queries = [{ indexUid: 'books', q: '' }, { indexUid: 'films', q: 'batman' }];
    const { ctx } = open();
    const byIndex = await federated(ctx, Caller.open(), queries, { facetsByIndex: { films: ['genre'], books: ['genre'] } }, LOCAL);
    expect(byIndex.facetsByIndex).toEqual({
      books: { distribution: { genre: { comics: 1, novel: 1 } }, stats: {} },
      films: { distribution: { genre: { action: 2 } }, stats: {} },
    });
    const merged = await federated(ctx, Caller.open(), queries, { facetsByIndex: { films: ['genre'], books: ['genre'] }, mergeFacets: {} }, LOCAL);
    expect(merged.facetDistribution).toEqual({ genre: { action: 2, comics: 1, novel: 1 } });
    expect(Object.keys(merged).slice(-3)).toEqual(['facetDistribution', 'facetStats', 'requestUid']);
  });

  it('refuses pagination inside a federated query, naming the query', async () => {
    expect(await rejection(() => federated(open().ctx, Caller.open(), [{ indexUid: 'books', limit: 2 }], {}, LOCAL))).toEqual({
      code: 'invalid_multi_search_query_pagination',
      message: expect.stringMatching(/^Inside `\.queries\[0\]`: Using pagination options is not allowed in federated queries\./),
    });
  });

  it('answers 400 for a missing index, inside its query', async () => {
    try {
      await federated(open().ctx, Caller.open(), [{ indexUid: 'books' }, { indexUid: 'nowhere' }], {}, LOCAL);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toBe('Inside `.queries[1]`: Index `nowhere` not found.');
      expect((err as ApiError).status).toBe(400);
    }
  });

  it('locates a facetsByIndex error on an index no query uses', async () => {
    expect((await rejection(() => federated(open().ctx, Caller.open(), [{ indexUid: 'books' }], { facetsByIndex: { films: ['title'] } }, LOCAL))).message).toMatch(
      /^Inside `\.federation\.facetsByIndex\.films`: .*\n - Note: index `films` is not used in queries$/s,
    );
  });
});
