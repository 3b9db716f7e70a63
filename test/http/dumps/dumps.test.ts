/**
 * Dumps through the real server: `POST /dumps` with the `meilisearch` client, the archive's layout
 * and JSON shapes (dumps-snapshots-upgrade.md §3), and the round trip: a fresh db path started with
 * `--import-dump` has the same documents, settings, keys, tasks and batches.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractArchive } from '../../../src/store/archive.js';
import { settle } from '../../helpers/client.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';
const auth = { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' };

async function get(server: TestServer, route: string): Promise<any> {
  const res = await fetch(`${server.url}${route}`, { headers: auth });
  expect(res.status, route).toBe(200);
  return res.json();
}

describe('POST /dumps', () => {
  let server: TestServer;
  let client: Meilisearch;
  let dumpFile: string;
  let extracted: string;
  const movies = Array.from({ length: 300 }, (_, i) => ({ id: i, title: `movie ${i}`, genre: i % 2 === 0 ? 'drama' : 'comedy', nested: { year: 1900 + i } }));

  beforeAll(async () => {
    server = await startServer({ masterKey: MASTER_KEY });
    client = new Meilisearch({ host: server.url, apiKey: MASTER_KEY });
    await settle(client, (await client.index('movies').addDocuments(movies, { primaryKey: 'id' })).taskUid);
    await settle(client, (await client.index('movies').updateSettings({ filterableAttributes: ['genre'], stopWords: ['the'], synonyms: { film: ['movie'] } })).taskUid);
    await settle(client, (await client.createIndex('empty')).taskUid);
    await client.tasks.cancelTasks({ uids: [1000] }).then((task) => settle(client, task.taskUid));
    await client.createKey({ uid: '3dc7b4f5-7b7c-4b84-8d6e-76e0bbc3f4d1', name: 'reader', description: null as unknown as string /* the client's type omits null, which Meilisearch takes */, actions: ['search'], indexes: ['movies'], expiresAt: null });

    const enqueued = await client.createDump();
    expect(enqueued).toMatchObject({ indexUid: null, status: 'enqueued', type: 'dumpCreation' });
    const task = await client.tasks.waitForTask(enqueued.taskUid, { interval: 20 });
    expect(task.status).toBe('succeeded');
    const dumpUid = (task.details as { dumpUid: string }).dumpUid;
    expect(dumpUid).toMatch(/^\d{8}-\d{9}$/);
    const dumpDir = path.join(server.dbPath, '..', 'dumps');
    expect(readdirSync(dumpDir)).toEqual([`${dumpUid}.dump`]);
    dumpFile = path.join(dumpDir, `${dumpUid}.dump`);
    extracted = tempDir('quarry-dump-layout-');
    await extractArchive(dumpFile, extracted);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('writes the v6 layout with compact JSON files', () => {
    const read = (...parts: string[]) => readFileSync(path.join(extracted, ...parts), 'utf8');
    const metadata = read('metadata.json');
    expect(metadata.endsWith('}')).toBe(true);
    expect(JSON.parse(metadata)).toEqual({ dumpVersion: 'V6', dbVersion: '1.50.0', dumpDate: expect.stringMatching(/^\d{4}-.*Z$/) });
    expect(readdirSync(extracted).sort()).toEqual(['batches', 'chat-completions-settings', 'experimental-features.json', 'indexes', 'keys.jsonl', 'metadata.json', 'network.json', 'tasks', 'webhooks.json']);
    // v1.50 writes the folder even without any chat workspace
    expect(readdirSync(path.join(extracted, 'chat-completions-settings'))).toEqual([]);
    expect(readdirSync(path.join(extracted, 'indexes')).sort()).toEqual(['empty', 'movies']);
    expect(JSON.parse(read('indexes', 'movies', 'metadata.json'))).toEqual({ uid: 'movies', primaryKey: 'id', createdAt: expect.any(String), updatedAt: expect.any(String) });
    const docs = read('indexes', 'movies', 'documents.jsonl');
    expect(docs.endsWith('\n')).toBe(true);
    expect(docs.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(movies);
    const settings = JSON.parse(read('indexes', 'movies', 'settings.json'));
    expect(settings).toMatchObject({ filterableAttributes: ['genre'], stopWords: ['the'], synonyms: { film: ['movie'] }, embedders: {} });
    expect(read('indexes', 'empty', 'documents.jsonl')).toBe('');
    expect(JSON.parse(read('experimental-features.json'))).toMatchObject({ metrics: false, logsRoute: false });

    const keys = read('keys.jsonl').trimEnd().split('\n').map((line) => JSON.parse(line));
    const reader = keys.find((key) => key.uid === '3dc7b4f5-7b7c-4b84-8d6e-76e0bbc3f4d1');
    expect(Object.keys(reader)).toEqual(['name', 'uid', 'actions', 'indexes', 'expires_at', 'created_at', 'updated_at']);
    expect(keys).toHaveLength(5);
  });

  it('writes tasks with tagged types and internal details, the dump task as succeeded without batch', () => {
    const lines = readFileSync(path.join(extracted, 'tasks', 'queue.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((task) => task.uid)).toEqual([0, 1, 2, 3, 4]);
    expect(lines[0]).toMatchObject({
      batchUid: 0,
      indexUid: 'movies',
      status: 'succeeded',
      type: { documentImport: { primary_key: 'id', method: 'ReplaceDocuments', documents_count: 300, allow_index_creation: true } },
      details: { DocumentAdditionOrUpdate: { received_documents: 300, indexed_documents: 300 } },
    });
    expect(Object.keys(lines[0])).toEqual(['uid', 'batchUid', 'indexUid', 'status', 'type', 'details', 'enqueuedAt', 'startedAt', 'finishedAt']);
    expect(lines[2]).toMatchObject({ type: { indexCreation: { primary_key: null } }, details: { IndexInfo: { primary_key: null } } });
    expect(lines[3]).toMatchObject({ type: { taskCancelation: { query: '?uids=1000', tasks: [58, 48, 0, 0, 0, 0, 0, 0] } } });
    expect(lines[4]).toMatchObject({ batchUid: null, indexUid: null, status: 'succeeded', details: { Dump: { dump_uid: null } } });
    expect(lines[4].type.dumpCreation.keys).toHaveLength(5);
    expect(lines[4].type.dumpCreation.instance_uid).toBeNull();

    const batches = readFileSync(path.join(extracted, 'batches', 'queue.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    // the dump's own batch is not in the dump
    expect(batches.map((batch) => batch.uid)).toEqual([0, 1, 2, 3]);
    expect(Object.keys(batches[0])).toEqual(['uid', 'details', 'stats', 'startedAt', 'finishedAt', 'enqueuedAt', 'stopReason']);
    expect(batches[1].details).toMatchObject({ filterableAttributes: ['genre'] });
  });

  it('imports into a fresh db path with the same documents, settings, keys, tasks and batches', async () => {
    const dbPath = path.join(tempDir(), 'imported.ms');
    const imported = await startServer({ masterKey: MASTER_KEY, dbPath, args: ['--import-dump', dumpFile] });
    try {
      for (const route of ['/indexes/movies/settings', '/indexes/movies', '/indexes/empty', '/keys']) {
        expect(await get(imported, route), route).toEqual(await get(server, route));
      }
      // the dump's own batch is not imported (it was not dumped): compare the others
      expect((await get(imported, '/batches?from=3')).results).toEqual((await get(server, '/batches?from=3')).results);
      const tasks = await get(imported, '/tasks?from=3');
      expect(tasks).toEqual(await get(server, '/tasks?from=3'));
      const documents = await get(imported, '/indexes/movies/documents?limit=1000');
      expect(documents.results).toEqual(movies);
      const search = await (await fetch(`${imported.url}/indexes/movies/search`, { method: 'POST', headers: auth, body: JSON.stringify({ q: 'film 12', filter: 'genre = drama' }) })).json() as { hits: unknown[] };
      expect(search.hits[0]).toEqual(movies[12]);
      // the dump task shows as written: succeeded, without batch or dumpUid
      expect(await get(imported, '/tasks/4')).toMatchObject({ status: 'succeeded', batchUid: null, details: { dumpUid: null } });
      // new tasks continue after the imported ones
      const next = await (await fetch(`${imported.url}/indexes/movies/documents`, { method: 'POST', headers: auth, body: '[{"id":1000}]' })).json() as { taskUid: number };
      expect(next.taskUid).toBe(5);
    } finally {
      await imported.stop();
    }
  });
});
