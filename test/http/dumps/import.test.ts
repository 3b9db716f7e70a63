/**
 * `--import-dump` of an archive shaped as Meilisearch v1.50 writes it (dumps-snapshots-upgrade.md
 * §3): `./`-prefixed names, an AppleDouble file to skip, an instance uid, features with unknown
 * and null flags, a task set as roaring bytes, an index whose folder name is not its uid, and an
 * enqueued document task with its update file, which runs once the server is up.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { runCli, startServer, tempDir, type TestServer } from '../../helpers/server.js';

const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';

async function call(server: TestServer, method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers = { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' };
  const res = await fetch(`${server.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function waitTask(server: TestServer, uid: number): Promise<any> {
  for (;;) {
    const { body } = await call(server, 'GET', `/tasks/${uid}`);
    if (['succeeded', 'failed', 'canceled'].includes(body.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const FILES: Record<string, string> = {
  'metadata.json': JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.50.0', dumpDate: '2025-02-04T10:22:31.331764736Z' }),
  'instance_uid.uuid': '972b0d34-a73b-4b37-9a06-eac9af32c9b3',
  '._metadata.json': 'AppleDouble junk',
  'keys.jsonl': jsonl([
    { name: 'kefir key', uid: '42092c55-5496-4579-8a51-768ad7866998', actions: ['search', 'documents.get'], indexes: ['kefir'], expires_at: null, created_at: '2025-02-04T10:14:11.442986832Z', updated_at: '2025-02-04T10:14:11.442986832Z' },
  ]),
  'experimental-features.json': JSON.stringify({ metrics: true, legacySearch: null, someFutureFlag: true }),
  'tasks/queue.jsonl': jsonl([
    {
      uid: 0, batchUid: 0, indexUid: 'kefir', status: 'succeeded',
      type: { documentImport: { primary_key: null, method: 'ReplaceDocuments', documents_count: 2, allow_index_creation: true } },
      details: { DocumentAdditionOrUpdate: { received_documents: 2, indexed_documents: 2 } },
      enqueuedAt: '2025-02-04T10:15:21.258630973Z', startedAt: '2025-02-04T10:15:21.275640274Z', finishedAt: '2025-02-04T10:15:21.420468164Z',
    },
    {
      uid: 1, batchUid: 1, indexUid: null, status: 'succeeded',
      type: { tasksDeletion: { query: '?uids=0', tasks: [58, 48, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0] } },
      details: { TaskDeletion: { matched_tasks: 1, deleted_tasks: 0, original_filter: '?uids=0' } },
      enqueuedAt: '2025-02-04T10:16:21.258630973Z', startedAt: '2025-02-04T10:16:21.275640274Z', finishedAt: '2025-02-04T10:16:21.420468164Z',
    },
    {
      uid: 2, batchUid: null, indexUid: 'kefir', status: 'enqueued',
      type: { documentImport: { primary_key: null, method: 'UpdateDocuments', documents_count: 1, allow_index_creation: true } },
      details: { DocumentAdditionOrUpdate: { received_documents: 1, indexed_documents: null } },
      enqueuedAt: '2025-02-04T10:17:21.258630973Z',
    },
  ]),
  'tasks/update_files/2.jsonl': jsonl([{ id: 3, name: 'added after import' }]),
  'batches/queue.jsonl': jsonl([
    {
      uid: 0, details: { receivedDocuments: 2, indexedDocuments: 2 },
      stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { documentAdditionOrUpdate: 1 }, indexUids: { kefir: 1 } },
      startedAt: '2025-02-04T10:15:21.275640274Z', finishedAt: '2025-02-04T10:15:21.420468164Z',
      enqueuedAt: { earliest: '2025-02-04T10:15:21.258630973Z', oldest: '2025-02-04T10:15:21.258630973Z' },
      stopReason: 'batched all enqueued tasks',
    },
    {
      uid: 1, details: { matchedTasks: 1, deletedTasks: 0, originalFilter: '?uids=0' },
      stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { taskDeletion: 1 }, indexUids: {} },
      startedAt: '2025-02-04T10:16:21.275640274Z', finishedAt: '2025-02-04T10:16:21.420468164Z', enqueuedAt: null,
    },
  ]),
  'indexes/folder-name/metadata.json': JSON.stringify({ uid: 'kefir', primaryKey: 'id', createdAt: '2025-02-04T10:15:21.3Z', updatedAt: '2025-02-04T10:15:21.42Z' }),
  'indexes/folder-name/settings.json': JSON.stringify({ filterableAttributes: ['name'], rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'], someFutureSetting: 1 }),
  'indexes/folder-name/documents.jsonl': jsonl([{ id: 1, name: 'kefir' }, { id: 2, name: 'intel' }]),
};

describe('--import-dump of a Meilisearch dump', () => {
  it('imports keys, features, indexes, batches and tasks, then runs the enqueued task', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'meili.dump');
    await writeArchive(file, FILES);
    const server = await startServer({ masterKey: MASTER_KEY, dbPath: path.join(dir, 'db'), args: ['--import-dump', file] });
    try {
      expect(readFileSync(path.join(server.dbPath, 'instance-uid'), 'utf8')).toBe('972b0d34-a73b-4b37-9a06-eac9af32c9b3');
      const keys = await call(server, 'GET', '/keys');
      expect(keys.body.results).toEqual([expect.objectContaining({ uid: '42092c55-5496-4579-8a51-768ad7866998', name: 'kefir key', description: null, indexes: ['kefir'] })]);
      expect((await call(server, 'GET', '/experimental-features')).body).toMatchObject({ metrics: true, logsRoute: false });
      // (updatedAt moves as soon as the enqueued task runs)
      expect((await call(server, 'GET', '/indexes/kefir')).body).toMatchObject({ uid: 'kefir', primaryKey: 'id', createdAt: '2025-02-04T10:15:21.3Z' });
      expect((await call(server, 'GET', '/indexes/kefir/settings/ranking-rules')).body).toEqual(['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness']);

      const deletion = await call(server, 'GET', '/tasks/1');
      expect(deletion.body).toMatchObject({ type: 'taskDeletion', batchUid: 1, details: { matchedTasks: 1, deletedTasks: 0, originalFilter: '?uids=0' } });
      expect((await call(server, 'GET', '/batches/1')).body).toMatchObject({ batchStrategy: 'unspecified', details: { matchedTasks: 1 } });

      const enqueued = await waitTask(server, 2);
      expect(enqueued).toMatchObject({ status: 'succeeded', type: 'documentAdditionOrUpdate', details: { receivedDocuments: 1, indexedDocuments: 1 } });
      expect(enqueued.batchUid).toBe(2);
      const documents = await call(server, 'GET', '/indexes/kefir/documents');
      expect(documents.body.results).toEqual([{ id: 1, name: 'kefir' }, { id: 2, name: 'intel' }, { id: 3, name: 'added after import' }]);
      const search = await call(server, 'POST', '/indexes/kefir/search', { filter: 'name = intel' });
      expect(search.body.hits).toEqual([{ id: 2, name: 'intel' }]);
    } finally {
      await server.dispose();
    }
  });

  it('puts the dump\'s flags in force until a restart: legacySearch null and off when the dump leaves it unset, a flag it omits off', async () => {
    for (const features of [{ metrics: true, legacySearch: null }, { metrics: true }]) {
      const dir = tempDir();
      const file = path.join(dir, 'features.dump');
      await writeArchive(file, { 'metadata.json': FILES['metadata.json']!, 'experimental-features.json': JSON.stringify(features) });
      const dbPath = path.join(dir, 'db');
      const args = ['--experimental-legacy-search-default', '--experimental-contains-filter'];
      const imported = await startServer({ masterKey: MASTER_KEY, dbPath, args: [...args, '--import-dump', file] });
      try {
        // v1.50 puts the dump's features as they are (crates/meilisearch/src/lib.rs, step 5)
        expect((await call(imported, 'GET', '/experimental-features')).body).toMatchObject({ metrics: true, containsFilter: false, legacySearch: null });
        // a PATCH that leaves legacySearch out keeps it null (v1.50: `new.or(old)`)
        expect((await call(imported, 'PATCH', '/experimental-features', { logsRoute: true })).body).toMatchObject({ logsRoute: true, legacySearch: null });
        // while null the legacy pipeline is off: the count is not clipped at maxTotalHits
        const settings = await call(imported, 'PATCH', '/indexes/pets/settings', { pagination: { maxTotalHits: 1 } });
        await waitTask(imported, settings.body.taskUid);
        const added = await call(imported, 'POST', '/indexes/pets/documents', [{ id: 1 }, { id: 2 }]);
        await waitTask(imported, added.body.taskUid);
        expect((await call(imported, 'POST', '/indexes/pets/search', {})).body.estimatedTotalHits).toBe(2);
      } finally {
        await imported.stop();
      }
      // the next start gives legacySearch its command-line default and ORs the forced flags back in
      const restarted = await startServer({ masterKey: MASTER_KEY, dbPath, args });
      try {
        expect((await call(restarted, 'GET', '/experimental-features')).body).toMatchObject({ metrics: true, logsRoute: true, containsFilter: true, legacySearch: true });
        expect((await call(restarted, 'POST', '/indexes/pets/search', {})).body.estimatedTotalHits).toBe(1);
      } finally {
        await restarted.dispose();
      }
    }
  });

  it('numbers the primary key of an index dumped without documents, as v1.50 sets it with the settings', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'keyed.dump');
    const metadata = JSON.stringify({ uid: 'keyed', primaryKey: 'ref', createdAt: '2025-02-04T10:15:21.3Z', updatedAt: '2025-02-04T10:15:21.42Z' });
    await writeArchive(file, { 'metadata.json': FILES['metadata.json']!, 'indexes/keyed/metadata.json': metadata, 'indexes/keyed/settings.json': '{}' });
    const server = await startServer({ masterKey: MASTER_KEY, dbPath: path.join(dir, 'db'), args: ['--import-dump', file] });
    try {
      const fields = await call(server, 'POST', '/indexes/keyed/fields', {});
      expect(fields.body.results.map((field: { name: string }) => field.name)).toEqual(['ref']);
    } finally {
      await server.dispose();
    }
  });

  it('refuses a dump version it does not know and removes the half-made db path', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'v7.dump');
    await writeArchive(file, { 'metadata.json': JSON.stringify({ dumpVersion: 'V7', dbVersion: '2.0.0', dumpDate: '2030-01-01T00:00:00Z' }) });
    const dbPath = path.join(dir, 'db');
    const { code, stderr } = await runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--import-dump', file]);
    expect(code).toBe(1);
    expect(stderr).toContain('version V7');
    expect(existsSync(dbPath)).toBe(false);
  });

  it('refuses an index whose uid the API could not name, and removes the half-made db path', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bad-uid.dump');
    const metadata = JSON.stringify({ uid: 'not a uid!', primaryKey: 'id', createdAt: '2025-02-04T10:15:21.3Z', updatedAt: '2025-02-04T10:15:21.42Z' });
    await writeArchive(file, { 'metadata.json': FILES['metadata.json']!, 'indexes/bad/metadata.json': metadata, 'indexes/bad/settings.json': '{}', 'indexes/bad/documents.jsonl': '' });
    const dbPath = path.join(dir, 'db');
    const { code, stderr } = await runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--import-dump', file]);
    expect(code).toBe(1);
    expect(stderr).toContain('`not a uid!` is not a valid index uid');
    expect(existsSync(dbPath)).toBe(false);
  });

  it('refuses a file that is no archive', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'garbage.dump');
    writeFileSync(file, 'not a tarball');
    const { code, stderr } = await runCli(['--db-path', path.join(dir, 'db'), '--http-addr', '127.0.0.1:0', '--import-dump', file]);
    expect(code).toBe(1);
    expect(stderr).toContain('importing the dump failed');
  });
});
