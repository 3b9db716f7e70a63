// `POST /multi-search` through the `meilisearch` client (non-federated and federated answers,
// weights, federation pagination) and raw HTTP for every bad input, including the per-query
// ``Inside `.queries[i]`: `` prefix and API keys limited to some indexes.
import { Meilisearch, type Settings } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const MASTER = 'multi-search-master-key-0123456789';
let server: TestServer;
let client: Meilisearch;

const BOOKS = [
  { id: 'A', title: 'Batman the dark knight returns: Part 1', genre: 'comics' },
  { id: 'B', title: 'Batman the dark knight returns: Part 2', genre: 'comics' },
  { id: 'C', title: 'Batman Returns', genre: 'comics' },
  { id: 'D', title: 'Batman', genre: 'comics' },
  { id: 'E', title: 'Badman', genre: 'parody' },
];
const FILMS = [
  { id: 1, title: 'Batman Begins', year: 2005, genre: 'comics' },
  { id: 2, title: 'Gläss', year: 2019, genre: 'drama' },
  { id: 3, title: 'Captain Marvel', year: 2019, genre: 'comics' },
];

beforeAll(async () => {
  server = await startServer({ masterKey: MASTER });
  client = new Meilisearch({ host: server.url, apiKey: MASTER });
  const setups: readonly (readonly [string, readonly object[], Settings])[] = [
    ['books', BOOKS, { searchableAttributes: ['title'], filterableAttributes: ['genre'] }],
    ['films', FILMS, { searchableAttributes: ['title'], sortableAttributes: ['year'], filterableAttributes: ['year', 'genre'] }],
    // Same documents, values ordered by count: mergeFacets refuses to mix it with `films`.
    ['films-by-count', FILMS, { searchableAttributes: ['title'], filterableAttributes: ['genre'], faceting: { sortFacetValuesBy: { '*': 'count' } } }],
  ];
  for (const [uid, docs, settings] of setups) {
    await client.tasks.waitForTask((await client.index(uid).addDocuments([...docs])).taskUid, { interval: 20 });
    const task = await client.tasks.waitForTask((await client.index(uid).updateSettings(settings)).taskUid, { interval: 20 });
    expect(task.status).toBe('succeeded');
  }
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

async function post(body: unknown, key = MASTER) {
  const res = await fetch(`${server.url}/multi-search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

describe('multi-search without federation', () => {
  it('answers one search response per query, in order, with indexUid first', async () => {
    const { results } = await client.multiSearch({
      queries: [
        { indexUid: 'books', q: 'batman', limit: 2 },
        { indexUid: 'films', q: 'captain', showRankingScore: true },
        { indexUid: 'films', q: '', page: 1, hitsPerPage: 2 },
      ],
    });
    expect(results.map((r) => r.indexUid)).toEqual(['books', 'films', 'films']);
    expect(Object.keys(results[0]!)).toEqual(['indexUid', 'hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
    expect(results[0]!.hits).toHaveLength(2);
    expect(results[0]!.hits[0]!.id).toBe('D');
    // `badman` is one typo away.
    expect(results[0]!.estimatedTotalHits).toBe(5);
    expect(results[1]!.hits).toEqual([{ id: 3, title: 'Captain Marvel', year: 2019, genre: 'comics', _rankingScore: expect.closeTo(0.9848, 4) }]);
    expect(Object.keys(results[2]!)).toEqual(['indexUid', 'hits', 'query', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits', 'requestUid']);
    expect(results[2]!.totalHits).toBe(3);
    // One request, one uid.
    expect(new Set(results.map((r) => (r as { requestUid?: string }).requestUid)).size).toBe(1);
  });

  it('accepts an empty list', async () => {
    expect(await client.multiSearch({ queries: [] })).toEqual({ results: [] });
  });

  it('reads a null offset, limit or showPerformanceDetails of a query as absent (v1.50 SearchQueryWithIndex options)', async () => {
    const { results } = await client.multiSearch({ queries: [{ indexUid: 'books', q: '', offset: null, limit: null, showPerformanceDetails: null } as never] });
    expect(results[0]).toMatchObject({ offset: 0, limit: 20 });
    expect(results[0]).not.toHaveProperty('performanceDetails');
    const federated = await client.multiSearch({ federation: {}, queries: [{ indexUid: 'books', q: '', limit: null, showPerformanceDetails: null } as never] });
    expect(federated.hits.length).toBeGreaterThan(0);
  });
});

describe('federated multi-search', () => {
  it('merges hits by weighted ranking score and tags them with _federation', async () => {
    const response = await client.multiSearch({
      federation: {},
      queries: [
        { indexUid: 'books', q: 'badman returns' },
        { indexUid: 'books', q: 'batman' },
        { indexUid: 'films', q: 'batman' },
      ],
    });
    expect(Object.keys(response)).toEqual(['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
    const { hits } = response;
    // Exact matches first (score 1.0), the earlier query winning ties; each document once.
    expect(hits[0]).toEqual({ id: 'D', title: 'Batman', genre: 'comics', _federation: { indexUid: 'books', queriesPosition: 1, weightedRankingScore: 1 } });
    expect(Object.keys(hits[0]!)).toEqual(['id', 'title', 'genre', '_federation']);
    const scores = hits.map((hit) => hit._federation!.weightedRankingScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const keys = hits.map((hit) => `${hit._federation!.indexUid}/${hit.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('films/1');
    expect(keys).toContain('books/E');
    expect(response.estimatedTotalHits).toBe(6);
    expect(response).toMatchObject({ limit: 20, offset: 0 });
  });

  it('multiplies scores by federationOptions.weight', async () => {
    const { hits } = await client.multiSearch({
      federation: {},
      queries: [
        { indexUid: 'books', q: 'batman', federationOptions: { weight: 0.5 } },
        { indexUid: 'films', q: 'captain marvel', federationOptions: { weight: 2 } },
      ],
    });
    expect(hits[0]!._federation).toEqual({ indexUid: 'films', queriesPosition: 1, weightedRankingScore: 2 });
    expect(hits[1]!._federation).toEqual({ indexUid: 'books', queriesPosition: 0, weightedRankingScore: 0.5 });
  });

  it('paginates the merged list with federation offset/limit and page/hitsPerPage', async () => {
    const queries = [
      { indexUid: 'books', q: 'batman' },
      { indexUid: 'films', q: '' },
    ];
    const all = await client.multiSearch({ federation: {}, queries });
    const ids = all.hits.map((hit) => `${hit._federation!.indexUid}/${hit.id}`);
    expect(ids).toHaveLength(8);
    const window = await client.multiSearch({ federation: { offset: 2, limit: 3 }, queries });
    expect(window.hits.map((hit) => `${hit._federation!.indexUid}/${hit.id}`)).toEqual(ids.slice(2, 5));
    expect(window).toMatchObject({ offset: 2, limit: 3, estimatedTotalHits: 8 });
    const paged = await post({ federation: { page: 2, hitsPerPage: 3 }, queries });
    expect(Object.keys(paged.body)).toEqual(['hits', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits', 'requestUid']);
    expect(paged.body).toMatchObject({ hitsPerPage: 3, page: 2, totalPages: 3, totalHits: 8 });
    expect(paged.body.hits.map((hit: { _federation: { indexUid: string }; id: unknown }) => `${hit._federation.indexUid}/${hit.id}`)).toEqual(ids.slice(3, 6));
  });

  it('compares sort values across queries sorting on the same field', async () => {
    const { hits } = await client.multiSearch({
      federation: {},
      queries: [
        { indexUid: 'films', q: '', filter: 'year = 2019', sort: ['year:asc'] },
        { indexUid: 'films', q: '', filter: 'year = 2005', sort: ['year:asc'] },
      ],
    });
    expect(hits.map((hit) => hit.id)).toEqual([1, 2, 3]);
  });

  it('highlights each hit with the options of its own query', async () => {
    const { hits } = await client.multiSearch({
      federation: {},
      queries: [
        { indexUid: 'books', q: 'batman', filter: 'genre = parody', attributesToHighlight: ['title'] },
        { indexUid: 'films', q: 'captain', attributesToHighlight: ['title'], highlightPreTag: '[', highlightPostTag: ']' },
      ],
    });
    const formatted = Object.fromEntries(hits.map((hit) => [hit.id, hit._formatted?.title]));
    expect(formatted).toEqual({ E: '<em>Badman</em>', 3: '[Captain] Marvel' });
  });

  it('computes facetsByIndex over the union of each index\'s queries', async () => {
    const reply = await post({
      federation: { facetsByIndex: { books: ['genre'], films: ['genre', 'year'], 'films-by-count': ['genre'] } },
      queries: [
        { indexUid: 'books', q: 'batman' },
        { indexUid: 'films', q: 'batman' },
        { indexUid: 'films', q: 'glass' },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetsByIndex', 'requestUid']);
    expect(reply.body.facetsByIndex).toEqual({
      books: { distribution: { genre: { comics: 4, parody: 1 } }, stats: {} },
      films: { distribution: { genre: { comics: 1, drama: 1 }, year: { '2005': 1, '2019': 1 } }, stats: { year: { min: 2005, max: 2019 } } },
      // 'films-by-count' no query names: checked, not answered (v1.50 check_unused_facets)
    });
  });

  it('answers no facetsByIndex for an index no query names, nor for null patterns', async () => {
    const reply = await post({ federation: { facetsByIndex: { films: null, books: ['genre'] } }, queries: [{ indexUid: 'films', q: 'glass' }] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).not.toHaveProperty('facetsByIndex');
  });

  it('refuses a facetsByIndex key that is not an index uid, as deserr reads IndexUid keys', async () => {
    expectError(
      await post({ federation: { facetsByIndex: { 'mo vies': ['x'] } }, queries: [{ indexUid: 'films' }] }),
      400,
      'invalid_multi_search_facets_by_index',
      'Invalid value at `.federation.facetsByIndex`: the key "mo vies" could not be deserialized into the key type `meilisearch_types::index_uid::IndexUid`',
    );
  });

  it('merges the facets of every index with mergeFacets', async () => {
    const response = await client.multiSearch({
      federation: { facetsByIndex: { books: ['genre'], films: ['genre', 'year'] }, mergeFacets: { maxValuesPerFacet: 2 } },
      queries: [
        { indexUid: 'books', q: 'batman' },
        { indexUid: 'films', q: '' },
      ],
    });
    expect(response.facetDistribution).toEqual({ genre: { comics: 6, drama: 1 }, year: { '2005': 1, '2019': 2 } });
    expect(response.facetStats).toEqual({ year: { min: 2005, max: 2019 } });
    expect(response).not.toHaveProperty('facetsByIndex');
  });

  it('places _federation after the document fields, before _formatted and _rankingScore', async () => {
    const reply = await post({
      federation: {},
      queries: [{ indexUid: 'films', q: 'captain', attributesToHighlight: ['title'], showMatchesPosition: true, showRankingScore: true }],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body.hits[0])).toEqual(['id', 'title', 'year', 'genre', '_federation', '_formatted', '_matchesPosition', '_rankingScore']);
  });

  it('lists facetsByIndex by index uid, whatever the request order', async () => {
    const reply = await post({
      federation: { facetsByIndex: { 'films-by-count': ['genre'], films: ['genre'], books: ['genre'] } },
      queries: [{ indexUid: 'films-by-count', q: 'glass' }, { indexUid: 'films', q: 'glass' }, { indexUid: 'books', q: 'glass' }],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body.facetsByIndex)).toEqual(['books', 'films', 'films-by-count']);
  });

  it('answers the empty shape for no queries', async () => {
    const reply = await post({ federation: {}, queries: [] });
    expect(reply.body).toMatchObject({ hits: [], limit: 20, offset: 0, estimatedTotalHits: 0 });
  });
});

describe('multi-search errors', () => {
  it.each([
    ['a missing queries', {}, 'bad_request', 'Missing field `queries`'],
    ['a missing indexUid', { queries: [{ indexUid: 'books' }, { q: 'glass' }] }, 'missing_index_uid', 'Missing field `indexUid` inside `.queries[1]`'],
    [
      'an invalid indexUid',
      { queries: [{ indexUid: 'hé', q: 'glass' }] },
      'invalid_index_uid',
      'Invalid value at `.queries[0].indexUid`: `hé` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.',
    ],
    ['a bad q', { queries: [{ indexUid: 'books', q: 1 }] }, 'invalid_search_q', 'Invalid value type at `.queries[0].q`: expected a string, but found a positive integer: `1`'],
    [
      'a negative weight',
      { federation: {}, queries: [{ indexUid: 'books' }, { indexUid: 'books', federationOptions: { weight: -1 } }] },
      'invalid_multi_search_weight',
      'Invalid value at `.queries[1].federationOptions.weight`: the value of `weight` is invalid, expected a positive float (>= 0.0).',
    ],
    [
      'an unknown federationOptions field (FederationOptions has no error code of its own)',
      { federation: {}, queries: [{ indexUid: 'books', federationOptions: { foo: 1 } }] },
      'bad_request',
      'Unknown field `foo` inside `.queries[0].federationOptions`: expected one of `weight`, `remote`, `queryPosition`',
    ],
    [
      'federationOptions that are not an object',
      { federation: {}, queries: [{ indexUid: 'books', federationOptions: 1 }] },
      'bad_request',
      'Invalid value type at `.queries[0].federationOptions`: expected an object, but found a positive integer: `1`',
    ],
    [
      'a bad federation.limit',
      { federation: { limit: 'x' }, queries: [] },
      'invalid_search_limit',
      'Invalid value type at `.federation.limit`: expected a positive integer, but found a string: `"x"`',
    ],
    [
      'a bad maxValuesPerFacet',
      { federation: { mergeFacets: { maxValuesPerFacet: -1 } }, queries: [] },
      'invalid_multi_search_max_values_per_facet',
      'Invalid value type at `.federation.mergeFacets.maxValuesPerFacet`: expected a positive integer, but found a negative integer: `-1`',
    ],
    [
      'federationOptions without federation',
      { queries: [{ indexUid: 'books' }, { indexUid: 'books', federationOptions: { weight: 1 } }] },
      'invalid_multi_search_federation_options',
      'Inside `.queries[1]`: Using `federationOptions` is not allowed in a non-federated search.\n - Hint: remove `federationOptions` from the query or add `federation` to the request.',
    ],
    [
      'pagination in a federated query',
      { federation: {}, queries: [{ indexUid: 'books' }, { indexUid: 'books', limit: 5 }] },
      'invalid_multi_search_query_pagination',
      'Inside `.queries[1]`: Using pagination options is not allowed in federated queries.\n - Hint: remove `limit` from the query or remove `federation` from the request\n - Hint: pass `federation.limit` and `federation.offset` for pagination in federated search',
    ],
    [
      'facets in a federated query',
      { federation: {}, queries: [{ indexUid: 'books', facets: ['title', 'id'] }] },
      'invalid_multi_search_query_facets',
      'Inside `.queries[0]`: Using facet options is not allowed in federated queries.\n - Hint: remove `facets` from the query or remove `federation` from the request\n - Hint: pass `federation.facetsByIndex.books: ["title", "id"]` for facets in federated search',
    ],
    [
      'showPerformanceDetails in a federated query',
      { federation: {}, queries: [{ indexUid: 'books', showPerformanceDetails: true }] },
      'invalid_multi_search_query_show_performance_details',
      'Inside `.queries[0]`: Using `.showPerformanceDetails` is not allowed in federated queries.\n - Hint: remove `showPerformanceDetails` from the query or remove `federation` from the request',
    ],
    [
      'a sort on a non-sortable attribute',
      { queries: [{ indexUid: 'books' }, { indexUid: 'books', sort: ['title:asc'] }] },
      'invalid_search_sort',
      'Inside `.queries[1]`: Index `books`: Attribute `title` is not sortable. This index does not have configured sortable attributes.',
    ],
  ])('rejects %s', async (_name, body, code, message) => {
    expectError(await post(body), 400, code, message);
  });

  it('locates facetsByIndex errors on the index and its first query', async () => {
    expectError(
      await post({ federation: { facetsByIndex: { zorglub: ['genre'] } }, queries: [] }),
      400,
      'index_not_found',
      'Inside `.federation.facetsByIndex.zorglub`: Index `zorglub` not found.\n - Note: index `zorglub` is not used in queries',
    );
    const queried = await post({ federation: { facetsByIndex: { books: ['title'] } }, queries: [{ indexUid: 'films' }, { indexUid: 'books' }] });
    expect(queried.body.code).toBe('invalid_search_facets');
    expect(queried.body.message).toBe(
      'Inside `.queries[1]`: Inside `.federation.facetsByIndex.books`: Invalid facet distribution: Pattern `title` is not filterable. Available filterable attributes patterns are: `genre`.',
    );
    const unused = await post({ federation: { facetsByIndex: { books: ['title'] } }, queries: [] });
    expect(unused.body.message).toMatch(/^Inside `\.federation\.facetsByIndex\.books`: Invalid facet distribution: .*\n - Note: index `books` is not used in queries$/s);
  });

  it('refuses to merge facets ordered differently, locating the index in facetsByIndex', async () => {
    expectError(
      await post({ federation: { facetsByIndex: { films: ['genre'], 'films-by-count': ['genre'] }, mergeFacets: {} }, queries: [] }),
      400,
      'invalid_multi_search_facet_order',
      'Inside `.federation.facetsByIndex.films-by-count`: Inconsistent order for values in facet `genre`: index `films` orders alphabetically, but index `films-by-count` orders by count.\n - Hint: Remove `federation.mergeFacets` or change `faceting.sortFacetValuesBy` to be consistent in settings.\n - Note: index `films-by-count` is not used in queries',
    );
  });

  it('rejects an unknown field in a query or in federation', async () => {
    const query = await post({ queries: [{ indexUid: 'books', doggo: 1 }] });
    expect(query.body.code).toBe('bad_request');
    expect(query.body.message).toMatch(/^Unknown field `doggo` inside `\.queries\[0\]`: expected one of `indexUid`, `q`,/);
    const federation = await post({ federation: { doggo: 1 }, queries: [] });
    expect(federation.body.code).toBe('bad_request');
    expect(federation.body.message).toMatch(/^Unknown field `doggo` inside `\.federation`: expected one of `limit`, `offset`/);
  });

  it('names the query of an unknown index, federated or not, with status 400 as Meilisearch multi-search answers', async () => {
    for (const federation of [undefined, {}]) {
      const reply = await post({ federation, queries: [{ indexUid: 'books' }, { indexUid: 'nope' }] });
      expectError(reply, 400, 'index_not_found', 'Inside `.queries[1]`: Index `nope` not found.');
    }
  });

  it('checks the key against every queried index', async () => {
    const created = await call(server, 'GET', '/keys');
    expect(created.status).toBe(401);
    const keyReply = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${MASTER}` },
      body: JSON.stringify({ actions: ['search'], indexes: ['books'], expiresAt: null }),
    });
    const { key } = (await keyReply.json()) as { key: string };
    const allowed = await post({ queries: [{ indexUid: 'books', q: 'batman' }] }, key);
    expect(allowed.status).toBe(200);
    for (const federation of [undefined, {}]) {
      const reply = await post({ federation, queries: [{ indexUid: 'books' }, { indexUid: 'films' }] }, key);
      expectError(reply, 403, 'invalid_api_key', 'Inside `.queries[1]`: The provided API key is invalid.', 'auth');
    }
  });
});
