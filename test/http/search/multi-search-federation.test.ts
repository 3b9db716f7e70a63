// Federated multi-search across queries whose ranking rules must be compared (the
// `invalid_multi_search_query_ranking_rules` error, messages as Meilisearch's test snapshots show
// them) and `federation.distinct` (hits, hit counts, facets and its errors).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

const PEOPLE = [
  { id: 852, father: 'jean', mother: 'michelle', family: 'martin' },
  { id: 951, father: 'jean-baptiste', mother: 'sophie', family: 'martin' },
  { id: 750, father: 'romain', mother: 'michelle', family: 'durand' },
  { id: 654, father: 'pierre', mother: 'sabine', family: 'petit' },
];
const SORT_FIRST = ['sort', 'words', 'typo', 'proximity', 'attribute', 'exactness'];
const PLACEHOLDER_NOTES = (query: number) =>
  `  - note: The ranking rules of query #${query} were modified during canonicalization:\n` +
  ['words', 'typo', 'proximity', 'attribute', 'exactness']
    .map((rule, i) => `    ${i + 1}. Removed relevancy rule \`${rule}\` at position #${i + 1} in ranking rules because the query is a placeholder search (\`q\`: "")\n`)
    .join('');

const BOOKS = [
  { id: 'A', title: 'Batman the dark knight returns', family: 'batman', genre: 'comics' },
  { id: 'B', title: 'Batman Returns', family: 'batman', genre: 'comics' },
  { id: 'C', title: 'Badman', family: 'parody', genre: 'parody' },
];
const FILMS = [
  { id: 1, title: 'Batman Begins', family: 'batman', genre: 'comics' },
  { id: 2, title: 'Batman Forever', family: 'batman', genre: 'comics' },
  { id: 3, title: 'Captain Marvel', family: 'marvel', genre: 'comics' },
];

const TIMED = Array.from({ length: 3000 }, (_, id) => ({ id, title: `common word ${id}` }));

beforeAll(async () => {
  server = await startServer();
  const setups: [string, object[], object][] = [
    ['people', PEOPLE, { rankingRules: SORT_FIRST, sortableAttributes: ['mother', 'father'], filterableAttributes: ['family'] }],
    ['books', BOOKS, { searchableAttributes: ['title'], sortableAttributes: ['title'], filterableAttributes: ['family', 'genre'] }],
    ['films', FILMS, { searchableAttributes: ['title'], rankingRules: SORT_FIRST, sortableAttributes: ['title'], filterableAttributes: ['family', 'genre'] }],
    ['plain', FILMS, { searchableAttributes: ['title'] }],
    ['timed', TIMED, { filterableAttributes: ['id'], searchCutoffMs: 100 }],
  ];
  for (const [uid, docs, settings] of setups) {
    await run(server, 'POST', `/indexes/${uid}/documents`, docs);
    await run(server, 'PATCH', `/indexes/${uid}/settings`, settings);
  }
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const post = (body: unknown) => call(server, 'POST', '/multi-search', body);

const ids = (body: { hits: { id: unknown }[] }) => body.hits.map((hit) => hit.id);

describe('federated ranking rules that cannot be compared', () => {
  it('rejects placeholder queries sorting one field in opposite directions, listing both canonicalizations', async () => {
    expectError(
      await post({ federation: {}, queries: [{ indexUid: 'people', q: '', sort: ['mother:asc'] }, { indexUid: 'people', q: '', sort: ['mother:desc'] }] }),
      400,
      'invalid_multi_search_query_ranking_rules',
      'Inside `.queries[1]`: The results of queries #0 and #1 are incompatible: \n' +
        '  1. `queries[0].sort[0]`, `people.rankingRules[0]`: ascending sort rule(s) on field `mother`\n' +
        '  2. `queries[1].sort[0]`, `people.rankingRules[0]`: descending sort rule(s) on field `mother`\n' +
        '  - cannot compare two sort rules in opposite directions\n' +
        PLACEHOLDER_NOTES(0) +
        PLACEHOLDER_NOTES(1),
    );
  });

  it('rejects keyword queries sorting different fields in opposite directions, without notes', async () => {
    expectError(
      await post({ federation: {}, queries: [{ indexUid: 'people', q: 'sabine', sort: ['mother:asc'] }, { indexUid: 'people', q: 'jean', sort: ['father:desc'] }] }),
      400,
      'invalid_multi_search_query_ranking_rules',
      'Inside `.queries[1]`: The results of queries #0 and #1 are incompatible: \n' +
        '  1. `queries[0].sort[0]`, `people.rankingRules[0]`: ascending sort rule(s) on field `mother`\n' +
        '  2. `queries[1].sort[0]`, `people.rankingRules[0]`: descending sort rule(s) on field `father`\n' +
        '  - cannot compare two sort rules in opposite directions\n',
    );
  });

  it('compares indexes in uid order, each query with the most constrained before it: relevancy facing a sort', async () => {
    // `books` (default rules) runs before `films` (sort first) whatever the request order.
    expectError(
      await post({
        federation: {},
        queries: [
          { indexUid: 'books', q: 'badman returns', sort: ['title:desc'] },
          { indexUid: 'films', q: 'captain', sort: ['title:desc'] },
          { indexUid: 'books', q: 'the bat', sort: ['title:desc'] },
        ],
      }),
      400,
      'invalid_multi_search_query_ranking_rules',
      'Inside `.queries[1]`: The results of queries #2 and #1 are incompatible: \n' +
        '  1. `queries[2]`, `books.rankingRules[0..=3]`: relevancy rule(s) words, typo, proximity, attributeRank\n' +
        '  2. `queries[1].sort[0]`, `films.rankingRules[0]`: descending sort rule(s) on field `title`\n' +
        '  - cannot compare a relevancy rule with a sort rule\n',
    );
  });

  it('notes the prepended words rule and the sort rule dropped without a sort parameter', async () => {
    await run(server, 'PATCH', '/indexes/people/settings', { rankingRules: ['typo', 'sort', 'father:desc'] });
    try {
      expectError(
        await post({ federation: {}, queries: [{ indexUid: 'people', q: 'jean' }, { indexUid: 'people', q: '', sort: ['mother:asc'] }] }),
        400,
        'invalid_multi_search_query_ranking_rules',
        'Inside `.queries[1]`: The results of queries #0 and #1 are incompatible: \n' +
          '  1. `queries[0]`, `people.rankingRules[0..=1]`: relevancy rule(s) words, typo\n' +
          '  2. `queries[1].sort[0]`, `people.rankingRules[0]`: ascending sort rule(s) on field `mother`\n' +
          '  - cannot compare a relevancy rule with a sort rule\n' +
          '  - note: The ranking rules of query #0 were modified during canonicalization:\n' +
          '    1. Prepended rule `words` before first relevancy rule `typo` at position #0 in ranking rules\n' +
          '   2. Removed rule `sort` at position #1 in ranking rules because `query.sort` is empty\n' +
          '  - note: The ranking rules of query #1 were modified during canonicalization:\n' +
          '    1. Removed relevancy rule `typo` at position #0 in ranking rules because the query is a placeholder search (`q`: "")\n',
      );
    } finally {
      await run(server, 'PATCH', '/indexes/people/settings', { rankingRules: SORT_FIRST });
    }
  });

  it('merges queries sorting different fields in the same direction', async () => {
    const reply = await post({ federation: {}, queries: [{ indexUid: 'people', q: '', sort: ['mother:asc'] }, { indexUid: 'people', q: '', sort: ['father:asc'] }] });
    expect(reply.status).toBe(200);
    expect(ids(reply.body)).toEqual([852, 951, 750, 654]);
    expect(reply.body.estimatedTotalHits).toBe(4);
  });
});

describe('federation.distinct', () => {
  it('keeps the best-ranked hit of each value across indexes and counts the others out', async () => {
    const reply = await post({
      federation: { distinct: 'family' },
      queries: [{ indexUid: 'books', q: 'batman' }, { indexUid: 'films', q: 'batman', federationOptions: { weight: 0.5 } }],
    });
    expect(reply.status).toBe(200);
    // B loses to A inside `books`, film 2 to film 1 inside `films`, then film 1 to A across indexes
    // (`Badman` is a typo away from `batman`)
    expect(ids(reply.body)).toEqual(['A', 'C']);
    expect(reply.body.estimatedTotalHits).toBe(2);
  });

  it('applies within one index, after merging its queries', async () => {
    const reply = await post({ federation: { distinct: 'family' }, queries: [{ indexUid: 'books', q: 'batman' }, { indexUid: 'books', q: 'badman' }] });
    // B, found by the first query only, shares A's family
    expect(ids(reply.body)).toEqual(['C', 'A']);
    expect(reply.body.estimatedTotalHits).toBe(2);
  });

  it('adjusts totalHits in page mode and the facets of the removed hits', async () => {
    const reply = await post({
      federation: { distinct: 'genre', hitsPerPage: 10, facetsByIndex: { books: ['genre'], films: ['genre'] } },
      queries: [{ indexUid: 'books', q: '' }, { indexUid: 'films', q: '' }],
    });
    expect(reply.status).toBe(200);
    expect(ids(reply.body)).toEqual(['A', 'C']);
    expect(reply.body.totalHits).toBe(2);
    expect(reply.body.totalPages).toBe(1);
    expect(reply.body.facetsByIndex).toEqual({
      books: { distribution: { genre: { comics: 1, parody: 1 } }, stats: {} },
      films: { distribution: { genre: {} }, stats: {} },
    });
  });

  it('rejects an attribute not filterable in one of the queried indexes', async () => {
    expectError(
      await post({ federation: { distinct: 'family' }, queries: [{ indexUid: 'plain', q: 'batman' }, { indexUid: 'books', q: 'batman' }] }),
      400,
      'invalid_search_distinct',
      'Inside `.queries[0]`: Index `plain`: Attribute `family` is not filterable and thus, cannot be used as distinct attribute. This index does not have configured filterable attributes.',
    );
  });

  it('rejects distinct both in a query and in federation', async () => {
    expectError(
      await post({ federation: { distinct: 'family' }, queries: [{ indexUid: 'books' }, { indexUid: 'books', distinct: 'genre' }] }),
      400,
      'invalid_multi_search_distinct',
      'Inside `.queries[1]`: Using `distinct` options is not allowed in federated queries when it also appears in `.federation.distinct`.\n - Hint: remove `distinct` from the query or remove `federation` from the request\n  - Note: `distinct` at the query level is discouraged in federated search.',
    );
  });
});

describe('the search cutoff', () => {
  // 3,000 queries of a fraction of a millisecond each, on an index whose searchCutoffMs is 100
  const queries = TIMED.map(({ id }) => ({ indexUid: 'timed', q: 'common', filter: `id = ${id}` }));

  it('gives all the queries of a federated search on one index one budget, as v1.50 one deadline', async () => {
    const { status, body } = await post({ federation: { limit: TIMED.length }, queries });
    expect(status).toBe(200);
    const hits = body.hits as { id: number; _federation: { queriesPosition: number; weightedRankingScore: number } }[];
    expect(hits).toHaveLength(TIMED.length);
    // once the budget is spent, the rest of the queries rank nothing: their hits score 0, last
    const ranked = hits.filter((hit) => hit._federation.weightedRankingScore > 0).map((hit) => hit._federation.queriesPosition);
    const skipped = hits.filter((hit) => hit._federation.weightedRankingScore === 0).map((hit) => hit._federation.queriesPosition);
    // (hits of equal scores come in the k-way merge's order, not the queries')
    expect(Math.min(...ranked)).toBe(0);
    expect(skipped.length).toBeGreaterThan(0);
    expect(Math.max(...ranked)).toBeLessThan(Math.min(...skipped));
  }, 60_000);

  it('gives each query of a multi-search without federation its own budget', async () => {
    const { status, body } = await post({ queries: queries.map((query) => ({ ...query, showRankingScore: true })) });
    expect(status).toBe(200);
    const scores = (body.results as { hits: { _rankingScore: number }[] }[]).map((result) => result.hits[0]!._rankingScore);
    // one shared budget would leave most of the 3,000 unranked (the test above); a query alone
    // may still pass its 100 ms when a collection or the other core's load lands in it (seen once
    // in a full suite run on the shared 2-core machine)
    expect(scores.filter((score) => score === 0).length).toBeLessThan(queries.length / 100);
  }, 60_000);
});

describe('the order of a federated search\'s checks, and facets no index answered', () => {
  const post = (body: unknown) => call(server, 'POST', '/multi-search', body);

  it('parses every query\'s filter before any other per-query check (v1.50 does it before partitioning)', async () => {
    expectError(
      await post({ federation: {}, queries: [{ indexUid: 'books', q: 'x', filter: 'title = ' }, { indexUid: 'books', limit: 1 }] }),
      400,
      'invalid_search_filter',
      'Inside `.queries[0]`: Was expecting a value but instead got nothing.\n9:9 title = ',
    );
    expectError(
      await post({ federation: {}, queries: [{ indexUid: 'zzz1', filter: 'a = ' }, { indexUid: 'aaa2' }] }),
      400,
      'invalid_search_filter',
      'Inside `.queries[0]`: Was expecting a value but instead got nothing.\n5:5 a = ',
    );
  });

  it('checks remote with useNetwork before showPerformanceDetails, and prefixes the network feature error', async () => {
    const both = await post({ federation: {}, queries: [{ indexUid: 'books', showPerformanceDetails: true, useNetwork: true, federationOptions: { remote: 'x' } }] });
    expect(both.body).toMatchObject({ code: 'invalid_multi_search_federation_options' });
    expect(both.body.message).toMatch(/^Inside `\.queries\[0\]`: Using `\.useNetwork` is not allowed as the same time as `\.federationOptions\.remote`/);
    const network = await post({ federation: {}, queries: [{ indexUid: 'books', q: 'batman', useNetwork: true }] });
    expect(network.body).toMatchObject({ code: 'feature_not_enabled' });
    expect(network.body.message).toMatch(/^Inside `\.queries\[0\]`: passing `useNetwork` in a search query requires enabling the `network` experimental feature/);
  });

  it('leaves facetDistribution and facetStats out of merged facets no queried index answered', async () => {
    const cases = [
      { federation: { mergeFacets: {}, facetsByIndex: { books: null } }, queries: [{ indexUid: 'books', q: 'batman' }] },
      { federation: { mergeFacets: {}, facetsByIndex: { films: ['genre'] } }, queries: [{ indexUid: 'books', q: 'batman' }] },
    ];
    for (const body of cases) {
      const reply = await post(body);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body).not.toHaveProperty('facetDistribution');
      expect(reply.body).not.toHaveProperty('facetStats');
    }
    const answered = await post({ federation: { mergeFacets: {}, facetsByIndex: { books: ['genre'] } }, queries: [{ indexUid: 'books', q: 'batman' }] });
    expect(answered.body.facetDistribution).toEqual({ genre: { comics: 2, parody: 1 } });
  });
});
