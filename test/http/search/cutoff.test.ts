// `searchCutoffMs` through the real server with the `meilisearch` client and raw HTTP: a budget of
// 0 ms leaves every ranking step skipped (hits in insertion order, `skipped` score details, score
// 0) while filters and hit counts still hold, the default budget does not cut a normal search,
// and `/search` (not multi-search) counts degraded searches in `/metrics`; a multi-word synonym's
// phrase check stops once the budget is spent, and a complete one is kept for later searches.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Doc {
  id: string;
  text: string;
  rank: number;
}

/** Inserted worst match first, so insertion order and relevance disagree. */
const PUPPIES: Doc[] = [
  { id: 'p4', text: 'hella puppo kefir', rank: 1 },
  { id: 'p3', text: 'hella puppy kefir', rank: 2 },
  { id: 'p2', text: 'hello', rank: 3 },
  { id: 'p1', text: 'hello puppy', rank: 4 },
  { id: 'p0', text: 'hello puppy kefir', rank: 5 },
];
/** Enough other documents that ranking is real work; none matches the puppy query. */
const FILLER: Doc[] = Array.from({ length: 3000 }, (_, i) => ({ id: `f${i}`, text: `filler document number ${i} about kittens`, rank: i }));

let server: TestServer;
let client: Meilisearch;
let index: Index<Doc>;

/** `meilisearch_degraded_search_requests` as `/metrics` reports it. */
async function degradedSearches(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('meilisearch_degraded_search_requests '));
  return Number(line!.split(' ')[1]);
}

const QUERY = 'hello puppy kefir';

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  index = client.index<Doc>('puppies');
  await settle(client, (await index.addDocuments([...PUPPIES, ...FILLER])).taskUid);
  await settle(client, (await index.updateSettings({ filterableAttributes: ['id'], sortableAttributes: ['rank'], rankingRules: ['words', 'typo', 'sort'] })).taskUid);
  expect((await call(server, 'PATCH', '/experimental-features', { metrics: true })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await server.dispose();
});

describe('searchCutoffMs', () => {
  it('is null by default, and the default budget ranks a normal search fully', async () => {
    expect(await index.getSearchCutoffMs()).toBeNull();
    const { hits, estimatedTotalHits } = await index.search(QUERY, { showRankingScoreDetails: true, showRankingScore: true });
    expect(hits.map((hit) => hit.id)).toEqual(['p0', 'p3', 'p4', 'p1', 'p2']);
    expect(estimatedTotalHits).toBe(5);
    expect(hits[0]!._rankingScoreDetails).toEqual({
      words: { order: 0, matchingWords: 3, maxMatchingWords: 3, score: 1 },
      typo: { order: 1, typoCount: 0, maxTypoCount: 3, score: 1 },
    });
    expect(hits.every((hit) => !('skipped' in hit._rankingScoreDetails!))).toBe(true);
    expect(await degradedSearches()).toBe(0);
  });

  describe('at 0 ms', () => {
    beforeAll(async () => {
      await settle(client, (await index.updateSearchCutoffMs(0)).taskUid);
    });
    afterAll(async () => {
      await settle(client, (await index.resetSearchCutoffMs()).taskUid);
    });

    it('returns every match unranked, in insertion order, with a skipped first rule and score 0', async () => {
      const before = await degradedSearches();
      const { hits, estimatedTotalHits } = await index.search(QUERY, { showRankingScoreDetails: true, showRankingScore: true });
      expect(hits.map((hit) => hit.id)).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
      expect(estimatedTotalHits).toBe(5);
      for (const hit of hits) {
        expect(hit._rankingScoreDetails).toEqual({ skipped: { order: 0 } });
        expect(hit._rankingScore).toBe(0);
      }
      expect(await degradedSearches()).toBe(before + 1);
    });

    it('still applies the filter and paginates what it returns', async () => {
      const { hits, estimatedTotalHits } = await index.search(QUERY, { filter: 'id IN [p0, p1, p3]', limit: 2, offset: 1 });
      expect(hits.map((hit) => hit.id)).toEqual(['p1', 'p0']);
      expect(estimatedTotalHits).toBe(3);
    });

    it('counts GET searches too, but not the queries of a multi-search', async () => {
      const before = await degradedSearches();
      const get = await call(server, 'GET', `/indexes/puppies/search?q=${encodeURIComponent(QUERY)}&showRankingScoreDetails=true`);
      expect(get.status).toBe(200);
      expect(get.body.hits[0]._rankingScoreDetails).toEqual({ skipped: { order: 0 } });
      expect(await degradedSearches()).toBe(before + 1);

      const multi = await client.multiSearch({ queries: [{ indexUid: 'puppies', q: QUERY, showRankingScoreDetails: true }] });
      expect(multi.results[0]!.hits.map((hit) => hit.id)).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
      expect(multi.results[0]!.hits[0]!._rankingScoreDetails).toEqual({ skipped: { order: 0 } });
      expect(await degradedSearches()).toBe(before + 1);
    });

    it('skips the sort of a placeholder search, and leaves a placeholder search without sort alone', async () => {
      const sorted = await index.search('', { sort: ['rank:desc'], filter: 'id IN [p0, p2, p4]', showRankingScoreDetails: true });
      expect(sorted.hits.map((hit) => hit.id)).toEqual(['p4', 'p2', 'p0']);
      expect(sorted.hits[0]!._rankingScoreDetails).toEqual({ skipped: { order: 0 } });

      const before = await degradedSearches();
      const plain = await call(server, 'POST', '/indexes/puppies/search', { q: '', limit: 2, showRankingScoreDetails: true, showRankingScore: true });
      expect(plain.body.hits.map((hit: Doc) => hit.id)).toEqual(['p4', 'p3']);
      expect(plain.body.hits[0]._rankingScoreDetails).toEqual({});
      expect(plain.body.hits[0]._rankingScore).toBe(1);
      expect(await degradedSearches()).toBe(before);
    });
  });

  it('ranks fully again once reset', async () => {
    expect(await index.getSearchCutoffMs()).toBeNull();
    const { hits } = await index.search(QUERY);
    expect(hits.map((hit) => hit.id)).toEqual(['p0', 'p3', 'p4', 'p1', 'p2']);
  });
});

describe("a multi-word synonym's phrase check", () => {
  /** `zzz` stands for the phrase every filler document holds. */
  const search = async () => (await call(server, 'POST', '/indexes/puppies/search', { q: 'zzz', attributesToRetrieve: ['id'], limit: 1 })).body;
  beforeAll(async () => {
    await settle(client, (await index.updateSynonyms({ zzz: ['filler document'] })).taskUid);
  });
  afterAll(async () => {
    await settle(client, (await index.resetSynonyms()).taskUid);
    await settle(client, (await index.resetSearchCutoffMs()).taskUid);
    await settle(client, (await index.deleteDocument('f-late')).taskUid);
  });

  it('stops once the budget is spent: the documents left unchecked do not match, and the search is degraded', async () => {
    await settle(client, (await index.updateSearchCutoffMs(0)).taskUid);
    const before = await degradedSearches();
    expect((await search()).estimatedTotalHits).toBe(0);
    expect(await degradedSearches()).toBe(before + 1);
  });

  it('is kept once complete, for later searches, until a write changes one of its words', async () => {
    await settle(client, (await index.resetSearchCutoffMs()).taskUid);
    const before = await degradedSearches();
    expect((await search()).estimatedTotalHits).toBe(FILLER.length);
    expect(await degradedSearches()).toBe(before);
    // with no budget left, the kept posting still answers
    await settle(client, (await index.updateSearchCutoffMs(0)).taskUid);
    expect((await search()).estimatedTotalHits).toBe(FILLER.length);
    // a new document holding the phrase drops it: checked again, and stopped at once
    await settle(client, (await index.addDocuments([{ id: 'f-late', text: 'a late filler document', rank: 0 }])).taskUid);
    expect((await search()).estimatedTotalHits).toBe(0);
  });
});
