/**
 * One bad write fails only its own task (issue 25): an id no document can have (longer than
 * 511 bytes) matches nothing on every path instead of reaching LMDB as an oversized key; a
 * document nested deeper than serde_json reads fails its task with `malformed_payload` instead
 * of overflowing a recursive walk; and a task whose write throws (an invalid `_geo`) fails alone
 * while the tasks batched with it apply, also when the extraction workers read the batch's
 * payloads (the write then runs again without the refused one). The batch comes from a dump's
 * enqueued tasks, which run together once the server is up and whose update files never went
 * through the routes' checks.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, waitTask } from '../../helpers/api.js';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

const HUGE_ID = 'x'.repeat(100_000);
const LONG_ID = 'y'.repeat(5_000);

/** A document whose field `f` nests `levels` objects, and where its 129th level opens (1-based byte column). */
const deepObjects = (levels: number) => ({ line: `{"id":"deep","f":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`, column: '{"id":"deep","f":'.length + 127 * 5 + 1 });
/** A document whose field `f` nests `levels` arrays, and where its 129th level opens. */
const deepArrays = (levels: number) => ({ line: `{"id":"arr","f":${'['.repeat(levels)}${']'.repeat(levels)}}`, column: '{"id":"arr","f":'.length + 127 + 1 });

const tooDeep = (column: number) => ({
  code: 'malformed_payload',
  message: `The \`ndjson\` payload provided is malformed. \`Couldn't serialize document value: recursion limit exceeded at line 1 column ${column}\`.`,
});

/** A dump's enqueued addition of `count` documents to index `indexUid` (its update file: `tasks/update_files/<uid>.jsonl`). */
const addition = (uid: number, count: number, indexUid = 'd', primaryKey: string | null = null) => ({
  uid, batchUid: null, indexUid, status: 'enqueued',
  type: { documentImport: { primary_key: primaryKey, method: 'ReplaceDocuments', documents_count: count, allow_index_creation: true } },
  details: { DocumentAdditionOrUpdate: { received_documents: count, indexed_documents: null } },
  enqueuedAt: `2025-02-04T10:17:2${uid}.258630973Z`,
});

describe('ids no document can have', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await call(server, 'POST', '/indexes', { uid: 'd', primaryKey: 'id' }).then((reply) => waitTask(server, reply.body.taskUid));
    const added = await call(server, 'POST', '/indexes/d/documents', [{ id: 'kept' }, { id: 'gone' }]);
    expect((await waitTask(server, added.body.taskUid)).status).toBe('succeeded');
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('deletes nothing for an oversized id in delete-batch, and the other ids of the task', async () => {
    const reply = await call(server, 'POST', '/indexes/d/documents/delete-batch', [HUGE_ID, 'gone']);
    expect(reply.status).toBe(202);
    const task = await waitTask(server, reply.body.taskUid);
    expect(task).toMatchObject({ status: 'succeeded', error: null, details: { providedIds: 2, deletedDocuments: 1 } });
    expect((await call(server, 'GET', '/indexes/d/documents')).body.results).toEqual([{ id: 'kept' }]);
  });

  it('deletes nothing for an oversized id in DELETE /documents/{id}', async () => {
    const reply = await call(server, 'DELETE', `/indexes/d/documents/${LONG_ID}`);
    expect(reply.status).toBe(202);
    expect(await waitTask(server, reply.body.taskUid)).toMatchObject({ status: 'succeeded', error: null, details: { providedIds: 1, deletedDocuments: 0 } });
  });

  it('finds no document under an oversized id', async () => {
    const reply = await call(server, 'GET', `/indexes/d/documents/${LONG_ID}`);
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('document_not_found');
  });
});

describe('a batch with bad tasks in the middle', () => {
  let server: TestServer;
  const objects = deepObjects(5_000);
  const arrays = deepArrays(20_000);
  const deletion = (uid: number, ids: string[]) => ({
    uid, batchUid: null, indexUid: 'd', status: 'enqueued',
    type: { documentDeletion: { documents_ids: ids } },
    details: { DocumentDeletion: { provided_ids: ids.length, deleted_documents: null } },
    enqueuedAt: `2025-02-04T10:17:2${uid}.258630973Z`,
  });

  beforeAll(async () => {
    const dir = tempDir();
    const file = path.join(dir, 'isolation.dump');
    await writeArchive(file, {
      'metadata.json': JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.50.0', dumpDate: '2025-02-04T10:22:31.331764736Z' }),
      'keys.jsonl': '',
      'tasks/queue.jsonl': jsonl([
        addition(0, 1),
        addition(1, 1),
        deletion(2, [HUGE_ID, 'seed']),
        addition(3, 1),
        addition(4, 1),
        deletion(5, ['other']),
        addition(6, 1),
      ]),
      'tasks/update_files/0.jsonl': jsonl([{ id: 'a', title: 'first client' }]),
      'tasks/update_files/1.jsonl': `${objects.line}\n`,
      'tasks/update_files/3.jsonl': jsonl([{ id: 'g', _geo: 'foobar' }]),
      'tasks/update_files/4.jsonl': `${arrays.line}\n`,
      'tasks/update_files/6.jsonl': jsonl([{ id: 'b', title: 'last client' }]),
      'batches/queue.jsonl': '',
      'indexes/d/metadata.json': JSON.stringify({ uid: 'd', primaryKey: 'id', createdAt: '2025-02-04T10:15:21.3Z', updatedAt: '2025-02-04T10:15:21.42Z' }),
      'indexes/d/settings.json': JSON.stringify({ filterableAttributes: ['_geo'] }),
      'indexes/d/documents.jsonl': jsonl([{ id: 'seed' }, { id: 'other' }]),
    });
    server = await startServer({ dbPath: path.join(dir, 'db'), args: ['--import-dump', file] });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('fails each bad task alone, with its own error, and applies the others in the same batch', async () => {
    const tasks = await Promise.all([0, 1, 2, 3, 4, 5, 6].map((uid) => waitTask(server, uid)));
    expect(tasks.map((task) => task.status)).toEqual(['succeeded', 'failed', 'succeeded', 'failed', 'failed', 'succeeded', 'succeeded']);
    expect(new Set(tasks.map((task) => task.batchUid)).size).toBe(1);
    expect(tasks[1].error).toMatchObject(tooDeep(objects.column));
    expect(tasks[3].error).toMatchObject({
      code: 'invalid_document_geo_field',
      message: 'Index `d`: The `_geo` field in the document with the id: `"g"` is not an object. Was expecting an object with the `_geo.lat` and `_geo.lng` fields but instead got `"foobar"`.',
    });
    expect(tasks[4].error).toMatchObject(tooDeep(arrays.column));
    for (const task of tasks) expect(task.error?.code).not.toBe('internal');
    const documents = await call(server, 'GET', '/indexes/d/documents');
    expect(documents.body.results).toEqual([{ id: 'a', title: 'first client' }, { id: 'b', title: 'last client' }]);
  });

  it('never answers internal for deep documents sent as NDJSON, and keeps serving', async () => {
    for (const { line } of [objects, arrays]) {
      const reply = await callRaw(server, 'POST', '/indexes/d/documents', `${line}\n`, { 'content-type': 'application/x-ndjson' });
      // refused at enqueue by the routes' own check, or failed alone by the engine's
      const error = reply.status === 202 ? (await waitTask(server, reply.body.taskUid)).error : reply.body;
      expect(error.code).toBe('malformed_payload');
    }
    expect((await call(server, 'GET', '/health')).status).toBe(200);
  });
});

describe('a batch of additions the extraction workers read, one refused late in its payload', () => {
  let server: TestServer;
  // 6,000 documents of about 200 bytes a payload: well past the megabyte from which the workers extract
  const docs = (from: number, word: string) => Array.from({ length: 6_000 }, (_, i) => ({ id: from + i, text: `${word} common filler text number ${i} `.repeat(5) }));

  beforeAll(async () => {
    const dir = tempDir();
    const file = path.join(dir, 'refused.dump');
    await writeArchive(file, {
      'metadata.json': JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.50.0', dumpDate: '2025-02-04T10:22:31.331764736Z' }),
      'keys.jsonl': '',
      'tasks/queue.jsonl': jsonl([addition(0, 6_000, 'w', 'id'), addition(1, 6_001, 'w', 'id'), addition(2, 6_000, 'w', 'id')]),
      'tasks/update_files/0.jsonl': jsonl(docs(0, 'alpha')),
      'tasks/update_files/1.jsonl': jsonl([...docs(10_000, 'beta'), { id: 'bad id', text: 'beta' }]),
      'tasks/update_files/2.jsonl': jsonl(docs(20_000, 'gamma')),
      'batches/queue.jsonl': '',
    });
    server = await startServer({ dbPath: path.join(dir, 'db'), args: ['--import-dump', file] });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('fails the refused addition alone and indexes the others whole, their words searchable', async () => {
    const tasks = await Promise.all([0, 1, 2].map((uid) => waitTask(server, uid)));
    expect(tasks.map((task) => task.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(new Set(tasks.map((task) => task.batchUid)).size).toBe(1);
    expect(tasks[1].error).toMatchObject({ code: 'invalid_document_id' });
    // the workers extracted the payloads (of the run that committed)
    const batch = await call(server, 'GET', `/batches/${tasks[0].batchUid}`);
    expect(batch.body.stats.writeChannelCongestion.attempts).toBeGreaterThan(0);
    expect(tasks[0].details).toMatchObject({ indexedDocuments: 6_000 });
    expect(tasks[2].details).toMatchObject({ indexedDocuments: 6_000 });
    const stats = await call(server, 'GET', '/indexes/w/stats');
    expect(stats.body.numberOfDocuments).toBe(12_000);
    for (const [word, total] of [['alpha', 6_000], ['beta', 0], ['gamma', 6_000]] as const) {
      const found = await call(server, 'POST', '/indexes/w/search', { q: word, limit: 1 });
      expect(found.body.estimatedTotalHits, word).toBe(total);
    }
  });
});
