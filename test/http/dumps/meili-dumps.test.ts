/**
 * Port of Meilisearch's crates/meilisearch/tests/dumps/mod.rs, as far as Quarry can be given the
 * same input.
 *
 * - the V1–V5 fixtures (v0.20–v0.28 movies/rubygems dumps) are kept in test/fixtures/dumps and
 *   ported in old-dumps.test.ts;
 * - the two V6 fixtures (`v6_v1.13.0_batches_and_enqueued_tasks`,
 *   `v6_v1.6.0_use_deactivated_experimental_setting`, crates/meilisearch/tests/assets) are kept in
 *   test/fixtures/dumps and imported as they are;
 * - `generate_and_import_dump_containing_vectors` is ported without its embedder and vectors
 *   (a dump Quarry makes, its db removed, imported back into the same db path).
 * The expected bodies are the test's snapshots, read against dumps-snapshots-upgrade.md, which
 * wins (e.g. `batchStrategy`, the v1.50 name of `batcherStoppedBecause`).
 */
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractArchive } from '../../../src/store/archive.js';
import { DURATION, RFC3339, type Reply } from '../../helpers/api.js';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { NO_EXPERIMENTAL_FEATURES } from '../../helpers/meili-datasets.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';

async function call(server: TestServer, method: string, route: string, body?: unknown): Promise<Reply> {
  const headers = { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' };
  const res = await fetch(`${server.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

async function get(server: TestServer, route: string): Promise<any> {
  const reply = await call(server, 'GET', route);
  expect(reply.status, `${route}: ${reply.text}`).toBe(200);
  return reply.body;
}

async function waitTask(server: TestServer, uid: number): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const task = await get(server, `/tasks/${uid}`);
    if (['succeeded', 'failed', 'canceled'].includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${uid} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function disposeImported(server: TestServer): Promise<void> {
  await server.kill();
  rmSync(path.dirname(server.dbPath), { recursive: true, force: true });
}

const FIXTURES = fileURLToPath(new URL('../../fixtures/dumps/', import.meta.url));

/** A server started from the fixture dump `name`; its folder is removed by `disposeImported`. */
function importFixture(name: string): Promise<TestServer> {
  const dir = tempDir('quarry-meili-dump-');
  return startServer({ masterKey: MASTER_KEY, dbPath: path.join(dir, 'db'), args: ['--import-dump', path.join(FIXTURES, `${name}.dump`)] });
}

/**
 * What GET /experimental-features answers right after importing a dump written before v1.50
 * (no `legacySearch` in it): v1.50 puts the dump's features as they are, `legacySearch` None.
 */
const IMPORTED_OLD_FEATURES = { ...NO_EXPERIMENTAL_FEATURES, legacySearch: null };

/** The default keys of the v1.13 instance, as its keys.jsonl lists them. */
const V1_13_KEYS = [
  { name: 'Default Search API Key', uid: '42092c55-5496-4579-8a51-768ad7866998' },
  { name: 'Default Admin API Key', uid: '2004d2a6-2f86-431c-ba19-35a401b1812c' },
];

describe('import_dump_v6_containing_batches_and_enqueued_tasks (a v1.13 dump)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await importFixture('v6_v1.13.0_batches_and_enqueued_tasks');
    expect((await waitTask(server, 2)).status).toBe('succeeded');
  });
  afterAll(async () => {
    await disposeImported(server);
  });

  it('keeps the dumped tasks and batches as they were, and runs the enqueued task in the next batch', async () => {
    const tasks = await get(server, '/tasks');
    const ran = tasks.results[1];
    expect(ran.startedAt).toMatch(RFC3339);
    expect(ran.finishedAt).toMatch(RFC3339);
    expect(ran.duration).toMatch(DURATION);
    expect({ ...tasks, results: [tasks.results[0], { ...ran, startedAt: '[date]', finishedAt: '[date]', duration: '[date]' }, ...tasks.results.slice(2)] }).toStrictEqual({
      results: [
        {
          uid: 3, batchUid: null, indexUid: null, status: 'succeeded', type: 'dumpCreation', canceledBy: null,
          details: { dumpUid: null }, error: null, duration: 'PT0.000629059S',
          enqueuedAt: '2025-02-04T10:22:31.318175268Z', startedAt: '2025-02-04T10:22:31.331701375Z', finishedAt: '2025-02-04T10:22:31.332330434Z',
        },
        {
          uid: 2, batchUid: 2, indexUid: 'kefir', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
          details: { receivedDocuments: 1, indexedDocuments: 1 }, error: null, duration: '[date]',
          enqueuedAt: '2025-02-04T10:15:49.212484063Z', startedAt: '[date]', finishedAt: '[date]',
        },
        {
          uid: 1, batchUid: null, indexUid: 'kefir', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
          details: { receivedDocuments: 1, indexedDocuments: 1 }, error: null, duration: 'PT0.144827890S',
          enqueuedAt: '2025-02-04T10:15:21.258630973Z', startedAt: '2025-02-04T10:15:21.275640274Z', finishedAt: '2025-02-04T10:15:21.420468164Z',
        },
        {
          uid: 0, batchUid: null, indexUid: 'kefir', status: 'succeeded', type: 'indexCreation', canceledBy: null,
          details: { primaryKey: null }, error: null, duration: 'PT0.032902186S',
          enqueuedAt: '2025-02-04T10:14:43.550379968Z', startedAt: '2025-02-04T10:14:43.559526162Z', finishedAt: '2025-02-04T10:14:43.592428348Z',
        },
      ],
      total: 4,
      limit: 20,
      from: 3,
      next: null,
    });

    const batches = await get(server, '/batches');
    const fresh = batches.results[0];
    // the run-dependent parts of the batch made after the import (its stats may carry
    // `progressTrace` and the like, which Meilisearch's snapshot redacts as well)
    expect(fresh.stats).toMatchObject({ totalNbTasks: 1, status: { succeeded: 1 }, types: { documentAdditionOrUpdate: 1 }, indexUids: { kefir: 1 } });
    expect(fresh.duration).toMatch(DURATION);
    expect(fresh.startedAt).toMatch(RFC3339);
    expect(fresh.finishedAt).toMatch(RFC3339);
    const blanked = { ...fresh, stats: '[stats]', duration: '[date]', startedAt: '[date]', finishedAt: '[date]' };
    expect({ ...batches, results: [blanked, ...batches.results.slice(1)] }).toStrictEqual({
      results: [
        { uid: 2, progress: null, details: { receivedDocuments: 1, indexedDocuments: 1 }, stats: '[stats]', duration: '[date]', startedAt: '[date]', finishedAt: '[date]', batchStrategy: 'batched all enqueued tasks' },
        {
          uid: 1, progress: null, details: { receivedDocuments: 1, indexedDocuments: 1 },
          stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { documentAdditionOrUpdate: 1 }, indexUids: { kefir: 1 } },
          duration: 'PT0.144827890S', startedAt: '2025-02-04T10:15:21.275640274Z', finishedAt: '2025-02-04T10:15:21.420468164Z', batchStrategy: 'unspecified',
        },
        {
          uid: 0, progress: null, details: {},
          stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { indexCreation: 1 }, indexUids: { kefir: 1 } },
          duration: 'PT0.032902186S', startedAt: '2025-02-04T10:14:43.559526162Z', finishedAt: '2025-02-04T10:14:43.592428348Z', batchStrategy: 'unspecified',
        },
      ],
      total: 3,
      limit: 20,
      from: 2,
      next: null,
    });

    const indexes = await get(server, '/indexes');
    expect(indexes.results.map(({ uid, primaryKey }: { uid: string; primaryKey: string }) => ({ uid, primaryKey }))).toEqual([{ uid: 'kefir', primaryKey: 'id' }]);
    expect(await get(server, '/experimental-features')).toStrictEqual(IMPORTED_OLD_FEATURES);
    expect((await call(server, 'GET', '/indexes/kefir/documents')).text).toBe(
      JSON.stringify({ results: [{ id: 1, dog: 'kefir' }, { id: 2, dog: 'intel' }], offset: 0, limit: 20, total: 2 }),
    );
  });

  // Meilisearch checks "that every reverse index of the task queue has been well built"
  it.each([
    ['uids=0&limit=1', [0], 1, null],
    ['types=documentAdditionOrUpdate&limit=1', [2], 2, 1],
    ['statuses=succeeded&limit=1', [3], 4, 2],
    // the dump task is tied to no index
    ['indexUids=kefir&limit=1', [2], 3, 1],
    ['afterEnqueuedAt=2025-02-03&limit=1', [3], 4, 2],
    // a date alone means after that whole day: only the task run since the import
    ['afterStartedAt=2025-02-04&limit=1', [2], 1, null],
    ['afterFinishedAt=2025-02-04&limit=1', [2], 1, null],
  ])('filters the imported tasks with %s', async (query, uids, total, next) => {
    const tasks = await get(server, `/tasks?${query}`);
    expect(tasks.results.map((task: { uid: number }) => task.uid)).toEqual(uids);
    expect({ ...tasks, results: [] }).toStrictEqual({ results: [], total, limit: 1, from: uids[0], next });
  });

  it('replaces the keys by the dumped ones, their values derived from the new master key', async () => {
    const keys = await get(server, '/keys');
    const derived = (uid: string) => createHmac('sha256', MASTER_KEY).update(uid).digest('hex');
    const seen = keys.results.map(({ uid, name, key }: { uid: string; name: string; key: string }) => ({ uid, name, key }));
    expect(seen).toHaveLength(2);
    expect(seen).toEqual(expect.arrayContaining(V1_13_KEYS.map(({ uid, name }) => ({ uid, name, key: derived(uid) }))));
  });
});

/** The three documents of the v1.6 fixture. */
const SOUPS = [
  { id: 1, a: 'Soup of the day', b: 'many the fish' },
  { id: 2, a: 'Soup of day', b: 'many the lazy fish' },
  { id: 3, a: 'the Soup of day', b: 'many the fish' },
];

describe('import_dump_v6_containing_experimental_features (a v1.5 dump using proximityPrecision, experimental then)', () => {
  it('keeps a setting that was experimental then, and ignores the features v1.50 no longer has', async () => {
    const server = await importFixture('v6_v1.6.0_use_deactivated_experimental_setting');
    try {
      const indexes = await get(server, '/indexes');
      expect(indexes.results.map(({ uid, primaryKey }: { uid: string; primaryKey: string }) => ({ uid, primaryKey }))).toEqual([{ uid: 'movies', primaryKey: 'id' }]);
      expect(await get(server, '/experimental-features')).toStrictEqual(IMPORTED_OLD_FEATURES);

      // the expected order is [1, 3, 2]: by attribute, 1 and 3 are as close; 2 has `the` elsewhere
      const search = await call(server, 'POST', '/indexes/movies/search', { q: 'the soup of day' });
      expect(search.body.hits).toStrictEqual([SOUPS[0], SOUPS[2], SOUPS[1]]);

      // tasks of an engine without batches show none; there are no batches to list
      const tasks = await get(server, '/tasks');
      expect(tasks.results.map(({ uid, batchUid, type, details }: { uid: number; batchUid: null; type: string; details: object }) => ({ uid, batchUid, type, details }))).toEqual([
        { uid: 3, batchUid: null, type: 'dumpCreation', details: { dumpUid: null } },
        { uid: 2, batchUid: null, type: 'documentAdditionOrUpdate', details: { receivedDocuments: 3, indexedDocuments: 3 } },
        { uid: 1, batchUid: null, type: 'settingsUpdate', details: { rankingRules: ['words', 'typo', 'proximity'] } },
        { uid: 0, batchUid: null, type: 'settingsUpdate', details: { proximityPrecision: 'byAttribute' } },
      ]);
      expect((await get(server, '/batches')).results).toEqual([]);

      // settings.json lacks what v1.5 did not have: those are at their defaults
      const settings = await get(server, '/indexes/movies/settings');
      expect((await call(server, 'POST', '/indexes', { uid: 'fresh' })).status).toBe(202);
      await waitTask(server, 4);
      const defaults = await get(server, '/indexes/fresh/settings');
      expect(settings).toStrictEqual({ ...defaults, rankingRules: ['words', 'typo', 'proximity'], proximityPrecision: 'byAttribute' });
    } finally {
      await disposeImported(server);
    }
  });
});

/**
 * The `novector` index of crates/dump's v6-with-vectors.dump (v1.8), its files as they are: no
 * embedder, and a document whose `_vectors` is a string, which v1.8 took. (The archive's other
 * index needs a Hugging Face model from the network.)
 */
const V1_8_NOVECTOR_DUMP: Record<string, string> = {
  'metadata.json': JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.8.0', dumpDate: '2024-05-16T15:51:34.151044Z' }),
  'keys.jsonl': '',
  'experimental-features.json': JSON.stringify({ vectorStore: true, metrics: false, logsRoute: false, exportPuffinReports: false }),
  'tasks/queue.jsonl': '',
  'indexes/novector/metadata.json': JSON.stringify({ uid: 'novector', primaryKey: 'id', createdAt: '2024-05-16T15:33:03.568055Z', updatedAt: '2024-05-16T15:33:07.530217Z' }),
  'indexes/novector/settings.json': JSON.stringify({ displayedAttributes: ['*'], searchableAttributes: ['*'], filterableAttributes: [], sortableAttributes: [], rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'], stopWords: [], nonSeparatorTokens: [], separatorTokens: [], dictionary: [], synonyms: {}, distinctAttribute: null, proximityPrecision: 'byWord', typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnWords: [], disableOnAttributes: [] }, faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } }, pagination: { maxTotalHits: 1000 }, searchCutoffMs: null }),
  'indexes/novector/documents.jsonl': jsonl([{ id: 'e0', other: 'random0' }, { id: 'e1', other: 'random1', _vectors: 'toto' }]),
};

describe('import_dump_v6_with_vectors (crates/dump), its index without embedder', () => {
  it('keeps a document whose `_vectors` is no object, as v1.50 imports documents without reading `_vectors` when there is no embedder', async () => {
    const dir = tempDir('quarry-meili-dump-');
    const file = path.join(dir, 'novector.dump');
    await writeArchive(file, V1_8_NOVECTOR_DUMP);
    const server = await startServer({ masterKey: MASTER_KEY, dbPath: path.join(dir, 'db'), args: ['--import-dump', file] });
    try {
      expect((await get(server, '/indexes/novector/stats')).numberOfDocuments).toBe(2);
      expect((await get(server, '/indexes/novector/documents')).results).toStrictEqual([{ id: 'e0', other: 'random0' }, { id: 'e1', other: 'random1' }]);
      // v1.50 shows the embeddings of a `_vectors` that is no object as an empty object
      expect(await get(server, '/indexes/novector/documents/e1?retrieveVectors=true')).toStrictEqual({ id: 'e1', other: 'random1', _vectors: {} });
      // and dumps the document as stored, having no embedding to add
      const dump = await waitTask(server, (await call(server, 'POST', '/dumps')).body.taskUid);
      const extracted = tempDir('quarry-meili-dump-');
      await extractArchive(path.join(dir, 'dumps', `${dump.details.dumpUid}.dump`), extracted);
      expect(readFileSync(path.join(extracted, 'indexes', 'novector', 'documents.jsonl'), 'utf8')).toBe(V1_8_NOVECTOR_DUMP['indexes/novector/documents.jsonl']);
      // a document sent later is still checked
      const sent = await waitTask(server, (await call(server, 'POST', '/indexes/novector/documents', [{ id: 'e2', _vectors: 'x' }])).body.taskUid);
      expect(sent.error.code).toBe('invalid_vectors_type');
    } finally {
      await disposeImported(server);
    }
  });
});

describe('generate_and_import_dump_containing_vectors (without embedders)', () => {
  it('imports its own dump into the same db path once the database is removed', async () => {
    const server = await startServer({ masterKey: MASTER_KEY });
    let reimported: TestServer | undefined;
    try {
      const pets = [{ id: 0, doggo: 'kefir' }, { id: 1, doggo: 'echo' }, { id: 2, doggo: 'intel' }, { id: 3, doggo: 'bill' }, { id: 4, doggo: 'max' }];
      const added = await call(server, 'POST', '/indexes/pets/documents', pets);
      expect((await waitTask(server, added.body.taskUid)).status).toBe('succeeded');
      const dump = await call(server, 'POST', '/dumps');
      expect(dump.status).toBe(202);
      const done = await waitTask(server, dump.body.taskUid);
      expect(done.status).toBe('succeeded');
      const defaults = await get(server, '/indexes/pets/settings');
      await server.stop();

      rmSync(server.dbPath, { recursive: true, force: true });
      const file = path.join(server.dbPath, '..', 'dumps', `${done.details.dumpUid}.dump`);
      expect(existsSync(file), file).toBe(true);
      reimported = await startServer({ masterKey: MASTER_KEY, dbPath: server.dbPath, args: ['--import-dump', file] });

      const indexes = await get(reimported, '/indexes');
      expect(indexes.results.map(({ uid, primaryKey }: { uid: string; primaryKey: string }) => ({ uid, primaryKey }))).toEqual([{ uid: 'pets', primaryKey: 'id' }]);
      expect(await get(reimported, '/experimental-features')).toStrictEqual(NO_EXPERIMENTAL_FEATURES);
      expect(await get(reimported, '/indexes/pets/settings')).toStrictEqual(defaults);
      expect((await call(reimported, 'POST', '/indexes/pets/search', {})).body.hits).toStrictEqual(pets);
    } finally {
      await reimported?.kill();
      await server.dispose();
    }
  });
});
