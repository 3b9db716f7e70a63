// `POST /indexes/{uid}/facet-search` through the real server with the `meilisearch` client
// (`searchForFacetValues`) and raw HTTP: prefix and typo matching on facet strings, counts over the
// search's candidates (q, filter), ordering and limits from `faceting`, the `facetSearch` setting,
// granular `features.facetSearch`, and every error with its code and message.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const MOVIES = [
  { id: 1, title: 'Blade Runner', genres: ['Science Fiction', 'Thriller'], year: 1982, studio: 'Warner' },
  { id: 2, title: 'Alien', genres: ['science fiction', 'Horror'], year: 1979, studio: 'Fox' },
  { id: 3, title: 'Heat', genres: ['Action', 'Thriller'], year: 1995, studio: 'Warner' },
  { id: 4, title: 'Die Hard', genres: ['Action'], year: 1988, studio: 'Fox' },
  { id: 5, title: 'Amélie', genres: ['Comédie', 'Romance'], year: 2001, studio: 'UGC' },
  { id: 6, title: 'Speed', genres: ['Action', 'Adventure'], year: 1994, studio: 'Fox' },
];

let server: TestServer;
let client: Meilisearch;
let movies: Index;

async function settle(taskUid: number): Promise<void> {
  const task = await client.tasks.waitForTask(taskUid, { interval: 20, timeout: 30_000 });
  expect(task.status).toBe('succeeded');
}

const facetSearch = (uid: string, body: unknown) => call(server, 'POST', `/indexes/${uid}/facet-search`, body);

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  movies = client.index('movies');
  await settle((await movies.addDocuments(MOVIES)).taskUid);
  await settle(
    (
      await movies.updateSettings({
        filterableAttributes: ['genres', 'year', { attributePatterns: ['studio'], features: { facetSearch: false, filter: { equality: true, comparison: false } } }],
      })
    ).taskUid,
  );
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('facet values', () => {
  it('lists every value held by a document, in value order, with original spellings', async () => {
    const res = await movies.searchForFacetValues({ facetName: 'genres' });
    expect(res.facetQuery).toBeNull();
    expect(res.facetHits).toEqual([
      { value: 'Action', count: 3 },
      { value: 'Adventure', count: 1 },
      { value: 'Comédie', count: 1 },
      { value: 'Horror', count: 1 },
      { value: 'Romance', count: 1 },
      { value: 'Science Fiction', count: 2 },
      { value: 'Thriller', count: 2 },
    ]);
    expect(typeof res.processingTimeMs).toBe('number');
  });

  it('matches the query as a prefix of the whole value, spaces included', async () => {
    for (const facetQuery of ['sci', 'science f', 'SCIENCE']) {
      const res = await movies.searchForFacetValues({ facetName: 'genres', facetQuery });
      expect(res.facetHits).toEqual([{ value: 'Science Fiction', count: 2 }]);
      expect(res.facetQuery).toBe(facetQuery);
    }
  });

  it('ignores accents on both sides', async () => {
    const res = await movies.searchForFacetValues({ facetName: 'genres', facetQuery: 'come' });
    expect(res.facetHits).toEqual([{ value: 'Comédie', count: 1 }]);
  });

  it('tolerates one typo from five bytes and none below', async () => {
    expect((await movies.searchForFacetValues({ facetName: 'genres', facetQuery: 'thriler' })).facetHits).toEqual([{ value: 'Thriller', count: 2 }]);
    expect((await movies.searchForFacetValues({ facetName: 'genres', facetQuery: 'acton' })).facetHits).toEqual([{ value: 'Action', count: 3 }]);
    // four bytes: no typo allowed, so `actn` is not `act…`
    expect((await movies.searchForFacetValues({ facetName: 'genres', facetQuery: 'actn' })).facetHits).toEqual([]);
  });

  it('takes no typo when typo tolerance is off for the attribute', async () => {
    const index = client.index('strict');
    await settle((await index.addDocuments([{ id: 1, genre: 'Thriller' }])).taskUid);
    await settle((await index.updateSettings({ filterableAttributes: ['genre'], typoTolerance: { disableOnAttributes: ['genre'] } })).taskUid);
    expect((await index.searchForFacetValues({ facetName: 'genre', facetQuery: 'thriler' })).facetHits).toEqual([]);
    expect((await index.searchForFacetValues({ facetName: 'genre', facetQuery: 'thrill' })).facetHits).toEqual([{ value: 'Thriller', count: 1 }]);
  });

  it('counts over the documents matching q and filter', async () => {
    const byQuery = await movies.searchForFacetValues({ facetName: 'genres', q: 'heat' });
    expect(byQuery.facetHits).toEqual([
      { value: 'Action', count: 1 },
      { value: 'Thriller', count: 1 },
    ]);
    const byFilter = await movies.searchForFacetValues({ facetName: 'genres', facetQuery: 'a', filter: 'year < 1990' });
    expect(byFilter.facetHits).toEqual([{ value: 'Action', count: 1 }]);
    const res = await facetSearch('movies', { facetName: 'genres', q: 'alien', matchingStrategy: 'all', attributesToSearchOn: ['title'], exhaustiveFacetCount: true });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['facetHits', 'facetQuery', 'processingTimeMs']);
    // The spelling comes from the value's first document overall (Blade Runner), as in Meilisearch.
    expect(res.body.facetHits).toEqual([
      { value: 'Horror', count: 1 },
      { value: 'Science Fiction', count: 1 },
    ]);
  });

  it('keeps the best counts when truncating by count, replacing ties by later values', async () => {
    const index = client.index('by-count');
    await settle((await index.addDocuments([{ id: 1, tag: ['b', 'a'] }, { id: 2, tag: ['c', 'a'] }, { id: 3, tag: ['d'] }])).taskUid);
    await settle((await index.updateSettings({ filterableAttributes: ['tag'], faceting: { maxValuesPerFacet: 2, sortFacetValuesBy: { '*': 'count' } } })).taskUid);
    // a (2) stays; b, c, d (1 each) in turn replace the worst kept hit: d is the last one.
    expect((await index.searchForFacetValues({ facetName: 'tag' })).facetHits).toEqual([
      { value: 'a', count: 2 },
      { value: 'd', count: 1 },
    ]);
  });

  it('orders hits of a query by their accent-free form', async () => {
    const index = client.index('accents');
    await settle((await index.addDocuments([{ id: 1, name: 'Élan' }, { id: 2, name: 'Ezra' }, { id: 3, name: 'Eagle' }])).taskUid);
    await settle((await index.updateSettings({ filterableAttributes: ['name'] })).taskUid);
    const res = await index.searchForFacetValues({ facetName: 'name', facetQuery: 'e' });
    expect(res.facetHits.map((hit) => hit.value)).toEqual(['Eagle', 'Élan', 'Ezra']);
    // Without a query the normalised (accented) order is kept: é sorts after z.
    expect((await index.searchForFacetValues({ facetName: 'name' })).facetHits.map((hit) => hit.value)).toEqual(['Eagle', 'Ezra', 'Élan']);
  });

  it('never returns numbers, and an unknown faceted field has no hits', async () => {
    expect((await movies.searchForFacetValues({ facetName: 'year', facetQuery: '19' })).facetHits).toEqual([]);
    const index = client.index('empty-facets');
    await settle((await index.updateSettings({ filterableAttributes: ['color'] })).taskUid);
    expect((await index.searchForFacetValues({ facetName: 'color' })).facetHits).toEqual([]);
  });

  it('limits to maxValuesPerFacet and sorts by count when asked (ties: value descending)', async () => {
    await settle((await movies.updateSettings({ faceting: { maxValuesPerFacet: 3, sortFacetValuesBy: { genres: 'count' } } })).taskUid);
    try {
      const res = await movies.searchForFacetValues({ facetName: 'genres' });
      expect(res.facetHits).toEqual([
        { value: 'Action', count: 3 },
        { value: 'Thriller', count: 2 },
        { value: 'Science Fiction', count: 2 },
      ]);
    } finally {
      await settle((await movies.resetFaceting()).taskUid);
    }
    const alpha = await facetSearch('movies', { facetName: 'genres', facetQuery: 'a' });
    expect(alpha.body.facetHits).toEqual([
      { value: 'Action', count: 3 },
      { value: 'Adventure', count: 1 },
    ]);
  });
});

describe('facet search across scripts and locales (v1.50 locales.rs)', () => {
  const ANIME = [
    { id: 852, name_en: 'Attack on Titan', name_ja: '進撃の巨人' },
    { id: 853, name_zh: '进击的巨人' },
    { id: 654, name_en: 'One Piece', name_ja: 'ワンピース' },
  ];
  const hits = async (uid: string, body: Record<string, unknown>) => (await facetSearch(uid, body)).body.facetHits;

  beforeAll(async () => {
    const plain = client.index('anime');
    await settle((await plain.updateSettings({ filterableAttributes: ['name_en', 'name_ja', 'name_zh'] })).taskUid);
    await settle((await plain.addDocuments(ANIME)).taskUid);
    const japanese = client.index('anime-ja');
    await settle(
      (await japanese.updateSettings({ filterableAttributes: ['name_ja', 'name_zh'], localizedAttributes: [{ attributePatterns: ['*_ja', '*_zh'], locales: ['jpn'] }] })).taskUid,
    );
    await settle((await japanese.addDocuments(ANIME)).taskUid);
  }, 60_000);

  it('matches traditional and Japanese forms of Chinese ideographs on a field without locales', async () => {
    for (const locales of [['cmn'], ['jpn'], undefined]) {
      expect(await hits('anime', { facetName: 'name_zh', facetQuery: '進撃', locales }), String(locales)).toEqual([{ value: '进击的巨人', count: 1 }]);
    }
  });

  it('normalises with the locales of the field narrowed to the request: none left, no common form', async () => {
    expect(await hits('anime-ja', { facetName: 'name_zh', facetQuery: '进击', locales: ['cmn'] })).toEqual([]);
    expect(await hits('anime-ja', { facetName: 'name_zh', facetQuery: '进击', locales: ['jpn'] })).toEqual([{ value: '进击的巨人', count: 1 }]);
    expect(await hits('anime-ja', { facetName: 'name_zh', facetQuery: '进击' })).toEqual([{ value: '进击的巨人', count: 1 }]);
  });

  it('matches katakana values with a hiragana query', async () => {
    expect(await hits('anime', { facetName: 'name_ja', facetQuery: 'わん' })).toEqual([{ value: 'ワンピース', count: 1 }]);
  });
});

describe('facet counts with a distinct attribute', () => {
  // 40 variants of 30 models: models 0–4 and 25–29 have a second variant (ids 30–34 and 35–39)
  const VARIANTS = Array.from({ length: 40 }, (_, id) => ({ id, model: id < 30 ? id : id < 35 ? id - 30 : id - 10, tag: 'Sale' }));

  beforeAll(async () => {
    const variants = client.index('variants');
    await settle((await variants.addDocuments(VARIANTS)).taskUid);
    await settle((await variants.updateSettings({ filterableAttributes: ['tag', 'model'], distinctAttribute: 'model' })).taskUid);
  }, 60_000);

  it('counts the candidates of a default search: the 20 hits it ranks take their other variants out', async () => {
    const { body } = await facetSearch('variants', { facetName: 'tag', facetQuery: 'sa' });
    expect(body.facetHits).toEqual([{ value: 'Sale', count: 35 }]);
  });

  it('counts one document per model with exhaustiveFacetCount', async () => {
    const { body } = await facetSearch('variants', { facetName: 'tag', facetQuery: 'sa', exhaustiveFacetCount: true });
    expect(body.facetHits).toEqual([{ value: 'Sale', count: 30 }]);
  });
});

describe('facet search errors', () => {
  it('requires facetName', async () => {
    const res = await facetSearch('movies', { facetQuery: 'a' });
    expectError(res, 400, 'missing_facet_search_facet_name', 'Missing field `facetName`');
  });

  it('checks the parameter types', async () => {
    expectError(await facetSearch('movies', { facetName: 1 }), 400, 'invalid_facet_search_facet_name', 'Invalid value type at `.facetName`: expected a string, but found a positive integer: `1`');
    expectError(await facetSearch('movies', { facetName: 'genres', facetQuery: 2 }), 400, 'invalid_facet_search_query', 'Invalid value type at `.facetQuery`: expected a string, but found a positive integer: `2`');
    expectError(
      await facetSearch('movies', { facetName: 'genres', exhaustiveFacetCount: 'yes' }),
      400,
      'invalid_facet_search_exhaustive_facet_count',
      'Invalid value type at `.exhaustiveFacetCount`: expected a boolean, but found a string: `"yes"`',
    );
    expectError(await facetSearch('movies', { facetName: 'genres', q: 3 }), 400, 'invalid_search_q', 'Invalid value type at `.q`: expected a string, but found a positive integer: `3`');
  });

  it('ignores the search parameters and unknown fields a client sends along (v1.50: allow_unknown_fields)', async () => {
    const plain = await facetSearch('movies', { facetName: 'genres' });
    expect(plain.status).toBe(200);
    // instant-meilisearch sends its whole search with the facet search: none of it narrows or fails the answer
    const along = await facetSearch('movies', { facetName: 'genres', limit: 1, offset: 5, sort: ['nope:asc'], facets: ['nope'], attributesToRetrieve: ['x'], marin: 1 });
    expect(along.status).toBe(200);
    expect(along.body.facetHits).toEqual(plain.body.facetHits);
  });

  it('rejects an attribute that is not facet-searchable', async () => {
    expectError(
      await facetSearch('movies', { facetName: 'title' }),
      400,
      'invalid_facet_search_facet_name',
      'Attribute `title` is not facet-searchable. Available facet-searchable attributes patterns are: `genres, year`. To make it facet-searchable add it to the `filterableAttributes` index settings.',
    );
    expectError(
      await facetSearch('movies', { facetName: 'studio' }),
      400,
      'invalid_facet_search_facet_name',
      'Attribute `studio` is not facet-searchable. Note: this attribute matches rule #2 in filterableAttributes, but this rule does not enable facetSearch.\n' +
        'Hint: enable facetSearch in rule #2 by adding `"facetSearch": true` to the rule.\n' +
        'Hint: prepend another rule matching studio with facetSearch: true before rule #2',
    );
    await expect(movies.searchForFacetValues({ facetName: 'title' })).rejects.toMatchObject({ cause: { code: 'invalid_facet_search_facet_name' } });
  });

  it('says when no attribute is facet-searchable', async () => {
    const index = client.index('no-facets');
    await settle((await index.addDocuments([{ id: 1, color: 'red' }])).taskUid);
    expectError(
      await facetSearch('no-facets', { facetName: 'color' }),
      400,
      'invalid_facet_search_facet_name',
      'Attribute `color` is not facet-searchable. This index does not have configured facet-searchable attributes. To make it facet-searchable add it to the `filterableAttributes` index settings.',
    );
  });

  it('lists only displayed attributes among the facet-searchable ones, and says others are hidden', async () => {
    const index = client.index('hidden-facets');
    await settle((await index.addDocuments([{ id: 1, color: 'red', size: 'L' }])).taskUid);
    await settle((await index.updateSettings({ filterableAttributes: ['color', 'size'], displayedAttributes: ['color'] })).taskUid);
    expectError(
      await facetSearch('hidden-facets', { facetName: 'id' }),
      400,
      'invalid_facet_search_facet_name',
      'Attribute `id` is not facet-searchable. Available facet-searchable attributes patterns are: `color, <..hidden-attributes>`. To make it facet-searchable add it to the `filterableAttributes` index settings.',
    );
    // every facet-searchable attribute hidden: v1.50 says none is configured
    await settle((await index.updateSettings({ displayedAttributes: ['id'] })).taskUid);
    expectError(
      await facetSearch('hidden-facets', { facetName: 'id' }),
      400,
      'invalid_facet_search_facet_name',
      'Attribute `id` is not facet-searchable. This index does not have configured facet-searchable attributes. To make it facet-searchable add it to the `filterableAttributes` index settings.',
    );
  });

  it('honours the facetSearch setting', async () => {
    await settle((await movies.updateSettings({ facetSearch: false })).taskUid);
    try {
      expectError(await facetSearch('movies', { facetName: 'genres' }), 400, 'facet_search_disabled', 'The facet search is disabled for this index');
      // v1.50 prepares the search first (search kind, filter syntax and features), then checks the setting
      expectError(await facetSearch('movies', { facetName: 'genres', filter: 'title = ' }), 400, 'invalid_search_filter', 'Was expecting a value but instead got nothing.\n9:9 title = ');
      const contains = await facetSearch('movies', { facetName: 'genres', filter: 'title CONTAINS a' });
      expect([contains.status, contains.body.code]).toEqual([400, 'feature_not_enabled']);
      expectError(await facetSearch('movies', { facetName: 'genres', q: 'a', hybrid: { embedder: 'x' } }), 400, 'invalid_search_embedder', 'Cannot find embedder with name `x`.');
      // the search's execution comes after it: a filter on an attribute that is not filterable is not reached
      expectError(await facetSearch('movies', { facetName: 'genres', filter: 'title = a' }), 400, 'facet_search_disabled', 'The facet search is disabled for this index');
    } finally {
      await settle((await movies.updateSettings({ facetSearch: true })).taskUid);
    }
  });

  it('reports a missing index and a bad filter', async () => {
    const missing = await facetSearch('nope', { facetName: 'genres' });
    expectError(missing, 404, 'index_not_found', 'Index `nope` not found.');
    // The search's own errors come before the facet name's.
    const filter = await facetSearch('movies', { facetName: 'title', filter: 'title = x' });
    expect(filter.status).toBe(400);
    expect(filter.body.code).toBe('invalid_search_filter');
  });

  it("words the search's execution errors without the index's name, as v1.50's facet search passes milli's on", async () => {
    expectError(
      await facetSearch('movies', { facetName: 'nope', filter: 'title = a' }),
      400,
      'invalid_search_filter',
      'Attribute `title` is not filterable. Available filterable attribute patterns are: `genres`, `studio`, `year`.\n1:6 title = a',
    );
    const operator = await facetSearch('movies', { facetName: 'genres', filter: 'studio > a' });
    expect([operator.status, operator.body.code]).toEqual([400, 'invalid_search_filter']);
    expect(operator.body.message).toMatch(/^Filter operator `>` is not allowed/);
    // `/search` names the index in the same errors
    expect((await call(server, 'POST', '/indexes/movies/search', { filter: 'title = a' })).body.message).toMatch(/^Index `movies`: Attribute `title` is not filterable/);
  });
});
