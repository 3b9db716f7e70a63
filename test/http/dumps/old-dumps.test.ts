/**
 * Dumps of Meilisearch v0.20–v0.28 (dump versions V1–V5) import: Meilisearch's own test dumps
 * (crates/meilisearch/tests/assets, and v4.dump and v2-v0.22.0.dump of crates/dump/tests/assets, kept in
 * test/fixtures/dumps) checked against what its crates/meilisearch/tests/dumps/mod.rs and
 * crates/dump/src/reader/mod.rs assert after reading or importing them — indexes and their dates,
 * documents, settings (with the steps' renames), tasks (renumbered, dated, with details and
 * errors), keys, the task queue's filters, and unfinished tasks that run again.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/dumps/', import.meta.url));
const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';

async function get(server: TestServer, route: string): Promise<any> {
  const res = await fetch(`${server.url}${route}`, { headers: { authorization: `Bearer ${MASTER_KEY}` } });
  const text = await res.text();
  expect(res.status, `${route}: ${text}`).toBe(200);
  return JSON.parse(text);
}

/** Starts a server from the fixture dump `fixture` for the enclosing describe. */
function importing(fixture: string): { server: () => TestServer } {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ masterKey: MASTER_KEY, args: ['--import-dump', path.join(FIXTURES, `${fixture}.dump`)] });
  });
  afterAll(async () => {
    await server.dispose();
  });
  return { server: () => server };
}

/** v1.50's defaults for what a v0.2x dump cannot set. */
const DEFAULTS = {
  nonSeparatorTokens: [],
  separatorTokens: [],
  dictionary: [],
  synonyms: {},
  distinctAttribute: null,
  proximityPrecision: 'byWord',
  typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnWords: [], disableOnAttributes: [], disableOnNumbers: false },
  faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } },
  pagination: { maxTotalHits: 1000 },
  embedders: {},
  searchCutoffMs: null,
  localizedAttributes: null,
  facetSearch: true,
  prefixSearch: 'indexingTime',
};

const MOVIE_FIELDS = { genres: 53, id: 53, overview: 53, poster: 53, release_date: 53, title: 53 };
const GEM_FIELDS = { description: 53, id: 53, name: 53, summary: 53, total_downloads: 53, version: 53 };
const MOVIE_100 = {
  id: 100,
  title: 'Lock, Stock and Two Smoking Barrels',
  genres: ['Comedy', 'Crime'],
  overview:
    'A card shark and his unwillingly-enlisted friends need to make a lot of cash quick after losing a sketchy poker match. To do this they decide to pull a heist on a small-time gang who happen to be operating out of the flat next door.',
  poster: 'https://image.tmdb.org/t/p/w500/8kSerJrhrJWKLk1LViesGcnrUPE.jpg',
  release_date: 889056000,
};
const GEM_188040 = {
  name: 'meilisearch',
  summary: 'An easy-to-use ruby client for Meilisearch API',
  description: 'An easy-to-use ruby client for Meilisearch API. See https://github.com/meilisearch/MeiliSearch',
  id: '188040',
  version: '0.15.2',
  total_downloads: '7465',
};

/** The two tasks of the v2–v4 movie dumps (v0.21–v0.25 wrote the same queue). */
const MOVIE_TASKS_V2_V4 = {
  results: [
    {
      uid: 1, batchUid: null, indexUid: 'indexUID', status: 'succeeded', type: 'settingsUpdate', canceledBy: null,
      details: { displayedAttributes: ['title', 'genres', 'overview', 'poster', 'release_date'], searchableAttributes: ['title', 'overview'], filterableAttributes: ['genres'], stopWords: ['of', 'the'] },
      error: null, duration: 'PT37.488777S', enqueuedAt: '2021-09-08T08:24:02.323444Z', startedAt: '2021-09-08T08:24:02.324145Z', finishedAt: '2021-09-08T08:24:39.812922Z',
    },
    {
      uid: 0, batchUid: null, indexUid: 'indexUID', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
      details: { receivedDocuments: 0, indexedDocuments: 31944 },
      error: null, duration: 'PT39.941318S', enqueuedAt: '2021-09-08T08:21:14.742672Z', startedAt: '2021-09-08T08:21:14.750166Z', finishedAt: '2021-09-08T08:21:54.691484Z',
    },
  ],
  total: 2, limit: 20, from: 1, next: null,
};

const MOVIE_SETTINGS_V2_V4 = {
  displayedAttributes: ['title', 'genres', 'overview', 'poster', 'release_date'],
  searchableAttributes: ['title', 'overview'],
  filterableAttributes: ['genres'],
  sortableAttributes: [],
  rankingRules: ['words', 'typo', 'proximity', 'attribute', 'exactness'],
  stopWords: ['of', 'the'],
  ...DEFAULTS,
};

describe('a v1 dump (v0.20) with settings', () => {
  const { server } = importing('v1_v0.20.0_movies_with_settings');

  it('keeps the index, its documents and dates', async () => {
    const indexes = await get(server(), '/indexes');
    expect(indexes.results).toEqual([{ uid: 'indexUID', primaryKey: 'id', createdAt: '2021-09-08T09:34:15.869123Z', updatedAt: '2021-09-08T09:34:48.344786Z' }]);
    const stats = await get(server(), '/indexes/indexUID/stats');
    expect(stats).toMatchObject({ numberOfDocuments: 53, isIndexing: false, fieldDistribution: MOVIE_FIELDS });
    expect(await get(server(), '/indexes/indexUID/documents/100')).toEqual(MOVIE_100);
  });

  it('makes attributesForFaceting filterable and sortable, and drops wordsPosition', async () => {
    expect(await get(server(), '/indexes/indexUID/settings')).toEqual({
      displayedAttributes: ['genres', 'id', 'overview', 'poster', 'release_date', 'title'],
      searchableAttributes: ['title', 'overview'],
      filterableAttributes: ['genres'],
      sortableAttributes: ['genres'],
      rankingRules: ['typo', 'words', 'proximity', 'attribute', 'exactness'],
      stopWords: ['of', 'the'],
      ...DEFAULTS,
    });
  });

  it('turns its updates into tasks started `duration` before they were processed', async () => {
    expect(await get(server(), '/tasks?indexUids=indexUID')).toEqual({
      results: [
        {
          uid: 1, batchUid: null, indexUid: 'indexUID', status: 'succeeded', type: 'settingsUpdate', canceledBy: null,
          details: { displayedAttributes: ['genres', 'id', 'overview', 'poster', 'release_date', 'title'], searchableAttributes: ['title', 'overview'], filterableAttributes: ['genres'], sortableAttributes: ['genres'], stopWords: ['of', 'the'] },
          error: null, duration: 'PT7.288826907S', enqueuedAt: '2021-09-08T09:34:40.882977Z', startedAt: '2021-09-08T09:34:40.883073093Z', finishedAt: '2021-09-08T09:34:48.1719Z',
        },
        {
          uid: 0, batchUid: null, indexUid: 'indexUID', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
          details: { receivedDocuments: 0, indexedDocuments: 31968 },
          error: null, duration: 'PT9.090735774S', enqueuedAt: '2021-09-08T09:34:16.036101Z', startedAt: '2021-09-08T09:34:16.261191226Z', finishedAt: '2021-09-08T09:34:25.351927Z',
        },
      ],
      total: 2, limit: 20, from: 1, next: null,
    });
  });

  it('fills the task queue filters', async () => {
    for (const filter of ['uids=0', 'types=documentAdditionOrUpdate', 'indexUids=indexUID', 'afterStartedAt=2021-09-06']) {
      const tasks = await get(server(), `/tasks?${filter}&limit=1`);
      expect(tasks.results, filter).toHaveLength(1);
    }
    expect((await get(server(), '/tasks?statuses=succeeded')).total).toBe(2);
  });
});

describe('a v1 dump (v0.20) with custom ranking rules', () => {
  const { server } = importing('v1_v0.20.0_rubygems_with_settings');

  it('renames desc(field) to field:desc and keeps the 93 updates in order', async () => {
    const settings = await get(server(), '/indexes/rubygems/settings');
    expect(settings).toMatchObject({
      rankingRules: ['typo', 'words', 'fame:desc', 'proximity', 'attribute', 'exactness', 'total_downloads:desc'],
      filterableAttributes: ['version'],
      sortableAttributes: ['version'],
    });
    expect((await get(server(), '/indexes/rubygems/stats')).fieldDistribution).toEqual(GEM_FIELDS);
    const tasks = await get(server(), '/tasks?indexUids=rubygems');
    expect(tasks.total).toBe(93);
    expect(tasks.results[0]).toEqual({
      uid: 92, batchUid: null, indexUid: 'rubygems', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
      details: { receivedDocuments: 0, indexedDocuments: 1042 },
      error: null, duration: 'PT1.487793839S', enqueuedAt: '2021-09-08T09:27:01.465296Z', startedAt: '2021-09-08T09:28:44.882177161Z', finishedAt: '2021-09-08T09:28:46.369971Z',
    });
    expect(await get(server(), '/indexes/rubygems/documents/188040')).toEqual(GEM_188040);
  });
});

/**
 * The index's dates: v2 and v3 readers take the end of the first document or settings update and of
 * the last update; v4's the creation of the task that created the index and the end of its last task.
 */
const MOVIE_DATES: Record<string, [createdAt: string, updatedAt: string]> = {
  'v2_v0.21.1_movies_with_settings': ['2021-09-08T08:21:54.691484Z', '2021-09-08T08:24:39.812922Z'],
  'v3_v0.24.0_movies_with_settings': ['2021-09-08T08:21:54.691484Z', '2021-09-08T08:24:39.812922Z'],
  'v4_v0.25.2_movies_with_settings': ['2021-09-08T08:21:14.742672Z', '2021-09-08T08:24:39.812922Z'],
};

for (const fixture of ['v2_v0.21.1_movies_with_settings', 'v3_v0.24.0_movies_with_settings', 'v4_v0.25.2_movies_with_settings']) {
  describe(`a ${fixture.slice(0, 2)} dump (${fixture.split('_')[1]}) with settings`, () => {
    const { server } = importing(fixture);

    it('keeps the index, its dates, documents, settings and tasks', async () => {
      const indexes = await get(server(), '/indexes');
      const [createdAt, updatedAt] = MOVIE_DATES[fixture]!;
      expect(indexes.results).toEqual([{ uid: 'indexUID', primaryKey: 'id', createdAt, updatedAt }]);
      expect(await get(server(), '/indexes/indexUID/stats')).toMatchObject({ numberOfDocuments: 53, fieldDistribution: MOVIE_FIELDS });
      expect(await get(server(), '/indexes/indexUID/settings')).toEqual(MOVIE_SETTINGS_V2_V4);
      expect(await get(server(), '/tasks?indexUids=indexUID')).toEqual(MOVIE_TASKS_V2_V4);
      expect(await get(server(), '/indexes/indexUID/documents/100')).toEqual(MOVIE_100);
      expect((await get(server(), '/tasks?afterFinishedAt=2021-09-07&limit=1')).results[0].uid).toBe(1);
    });
  });
}

describe('a v4 dump (v0.25) with keys', () => {
  const { server } = importing('v4_v0.25.2_rubygems_with_settings');

  it('keeps the settings and tasks, and gives its keys new uids', async () => {
    expect(await get(server(), '/indexes/rubygems/settings')).toMatchObject({
      displayedAttributes: ['name', 'summary', 'description', 'version', 'total_downloads'],
      filterableAttributes: ['version'],
      sortableAttributes: [],
      rankingRules: ['typo', 'words', 'fame:desc', 'proximity', 'attribute', 'exactness', 'total_downloads:desc'],
    });
    const tasks = await get(server(), '/tasks?indexUids=rubygems');
    expect(tasks.results[0]).toEqual({
      uid: 92, batchUid: null, indexUid: 'rubygems', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
      details: { receivedDocuments: 0, indexedDocuments: 1042 },
      error: null, duration: 'PT14.034672S', enqueuedAt: '2021-09-08T08:40:31.390775Z', startedAt: '2021-09-08T08:51:39.060642Z', finishedAt: '2021-09-08T08:51:53.095314Z',
    });
    expect(await get(server(), '/indexes/rubygems/documents/188040')).toEqual(GEM_188040);
    const keys = await get(server(), '/keys');
    expect(keys.results.map((key: any) => [key.description, key.actions, key.indexes])).toEqual(
      expect.arrayContaining([
        ['Default Search API Key (Use it to search from the frontend)', ['search'], ['*']],
        ['Default Admin API Key (Use it for all other operations. Caution! Do not use it on a public frontend)', ['*'], ['*']],
      ]),
    );
    expect(keys.results).toHaveLength(2);
    for (const key of keys.results) expect(key.uid).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a v5 dump (v0.28) with two indexes, keys and an unfinished dump task', () => {
  const { server } = importing('v5_v0.28.0_test_dump');

  it('keeps both indexes and their documents', async () => {
    const indexes = await get(server(), '/indexes');
    expect(indexes.results.map((index: any) => [index.uid, index.primaryKey])).toEqual([['test', 'id'], ['test2', 'id']]);
    for (const uid of ['test', 'test2']) {
      expect((await get(server(), `/indexes/${uid}/stats`)).numberOfDocuments).toBe(10);
      expect((await get(server(), `/indexes/${uid}/documents`)).results).toHaveLength(10);
    }
    expect((await get(server(), '/indexes/test/settings')).typoTolerance.minWordSizeForTypos).toEqual({ oneTypo: 10, twoTypos: 17 });
    expect((await get(server(), '/indexes/test2/settings')).typoTolerance.minWordSizeForTypos).toEqual({ oneTypo: 5, twoTypos: 9 });
  });

  it('keeps its keys, uids and names included', async () => {
    const keys = await get(server(), '/keys');
    expect(keys.results[0]).toMatchObject({ name: 'my key', uid: 'e12d5284-0b94-4604-b254-c8671f92188c', actions: ['search'], indexes: ['test'], expiresAt: '2023-11-13T00:00:00Z' });
    expect(keys.results.map((key: any) => key.name)).toEqual(['my key', 'Default Search API Key', 'Default Admin API Key']);
  });

  it('keeps the finished tasks and runs the dump that was processing', async () => {
    expect((await get(server(), '/tasks?uids=0')).results[0]).toEqual({
      uid: 0, batchUid: null, indexUid: 'test', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
      details: { receivedDocuments: 10, indexedDocuments: 10 },
      error: null, duration: 'PT0.079460S', enqueuedAt: '2022-06-08T14:59:24.724025Z', startedAt: '2022-06-08T14:59:24.724983Z', finishedAt: '2022-06-08T14:59:24.804443Z',
    });
    const settings = await get(server(), '/tasks?indexUids=test&types=settingsUpdate');
    expect(settings.results[0]).toMatchObject({ uid: 2, status: 'succeeded', details: { typoTolerance: { minWordSizeForTypos: { oneTypo: 10, twoTypos: 17 } } } });
    const deadline = Date.now() + 10_000;
    let dump = await get(server(), '/tasks/4');
    while (dump.status !== 'succeeded' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      dump = await get(server(), '/tasks/4');
    }
    expect(dump).toMatchObject({ uid: 4, batchUid: 0, indexUid: null, status: 'succeeded', type: 'dumpCreation', enqueuedAt: '2022-06-08T15:11:40.604805Z' });
    const succeeded = await get(server(), '/tasks?statuses=succeeded&limit=1');
    expect([succeeded.total, succeeded.results[0].uid, succeeded.next]).toEqual([5, 4, 3]);
  });
});

describe('a v4 dump (v0.25) with an enqueued document addition and a failed task', () => {
  const { server } = importing('v4');

  it('keeps the three indexes with their dates, documents and settings', async () => {
    const indexes = await get(server(), '/indexes');
    // the dump's enqueued addition creates `movies_2` when it runs, which may be before this read
    expect(indexes.results.filter((index: { uid: string }) => index.uid !== 'movies_2')).toEqual([
      { uid: 'dnd_spells', primaryKey: 'index', createdAt: '2022-10-06T12:53:40.831649057Z', updatedAt: '2022-10-06T12:53:41.116036186Z' },
      { uid: 'movies', primaryKey: 'id', createdAt: '2022-10-06T12:53:38.710611568Z', updatedAt: '2022-10-06T12:53:49.785862546Z' },
      { uid: 'products', primaryKey: 'sku', createdAt: '2022-10-06T12:53:39.360187055Z', updatedAt: '2022-10-06T12:53:40.603035979Z' },
    ]);
    for (const [uid, count] of [['dnd_spells', 10], ['movies', 110], ['products', 10]] as const) {
      expect((await get(server(), `/indexes/${uid}/stats`)).numberOfDocuments, uid).toBe(count);
    }
    expect(await get(server(), '/indexes/movies/settings')).toMatchObject({
      filterableAttributes: ['genres', 'id'],
      sortableAttributes: ['release_date'],
      rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', 'release_date:asc'],
    });
    expect((await get(server(), '/indexes/products/settings')).synonyms).toEqual({ android: ['phone', 'smartphone'], iphone: ['phone', 'smartphone'], phone: ['android', 'iphone', 'smartphone'] });
  });

  it('reports the failed task under the current error code', async () => {
    const task = await get(server(), '/tasks/4');
    expect(task).toMatchObject({ indexUid: 'products', status: 'failed', type: 'documentAdditionOrUpdate', details: { receivedDocuments: 10, indexedDocuments: 0 } });
    expect(task.error).toEqual({
      message:
        'The primary key inference process failed because the engine did not find any fields containing `id` substring in their name. If your document identifier does not contain any `id` substring, you can set the primary key of the index.',
      code: 'index_primary_key_no_candidate_found',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#index_primary_key_no_candidate_found',
    });
  });

  it('runs the enqueued document addition with its payload once the server is up', async () => {
    const deadline = Date.now() + 20_000;
    let task = await get(server(), '/tasks/9');
    while (!['succeeded', 'failed'].includes(task.status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      task = await get(server(), '/tasks/9');
    }
    expect(task).toMatchObject({ uid: 9, indexUid: 'movies_2', status: 'succeeded', details: { receivedDocuments: 200, indexedDocuments: 200 }, enqueuedAt: '2022-10-06T12:53:49.125132233Z' });
    expect((await get(server(), '/indexes/movies_2/stats')).numberOfDocuments).toBe(200);
  });
});

describe('a v2 dump of v0.22 (crates/dump, issue 3435)', () => {
  const { server } = importing('v2-v0.22.0');

  it('keeps the three indexes with their dates, documents and settings', async () => {
    const indexes = await get(server(), '/indexes');
    expect(indexes.results).toEqual([
      { uid: 'dnd_spells', primaryKey: 'index', createdAt: '2023-01-30T16:25:58.876405Z', updatedAt: '2023-01-30T16:25:59.079906Z' },
      { uid: 'movies', primaryKey: 'id', createdAt: '2023-01-30T16:25:56.192178Z', updatedAt: '2023-01-30T16:25:56.455714Z' },
      { uid: 'products', primaryKey: 'sku', createdAt: '2023-01-30T16:25:56.595257Z', updatedAt: '2023-01-30T16:25:58.70348Z' },
    ]);
    for (const uid of ['dnd_spells', 'movies', 'products']) expect((await get(server(), `/indexes/${uid}/stats`)).numberOfDocuments, uid).toBe(10);
    expect(await get(server(), '/indexes/movies/settings')).toMatchObject({
      filterableAttributes: ['genres', 'id'],
      sortableAttributes: ['release_date'],
      rankingRules: ['words', 'typo', 'proximity', 'attribute', 'exactness', 'release_date:asc'],
    });
  });

  it('numbers its eight updates in queue order and reports v0.22 error codes under their current names', async () => {
    const tasks = await get(server(), '/tasks');
    expect(tasks.total).toBe(8);
    expect(tasks.results.map((task: any) => [task.uid, task.indexUid, task.status])).toEqual([
      [7, 'dnd_spells', 'succeeded'],
      [6, 'dnd_spells', 'failed'],
      [5, 'products', 'succeeded'],
      [4, 'products', 'failed'],
      [3, 'products', 'succeeded'],
      [2, 'movies', 'succeeded'],
      [1, 'movies', 'succeeded'],
      [0, 'movies', 'succeeded'],
    ]);
    expect(tasks.results[1].error).toEqual({
      message: 'missing primary key',
      code: 'index_primary_key_no_candidate_found',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#index_primary_key_no_candidate_found',
    });
  });
});
