/**
 * Compaction through the real server: `POST /indexes/{uid}/compact` (an `indexCompaction` task that
 * keeps the index usable) and `POST /tasks/compact` (gate, synchronous answer, then writes blocked
 * and `/health` answering mustRestart until a restart, after which the data is all there; the
 * instance's other writes, keys, webhooks and features, refused too: they would be lost).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const HUMAN = /^\d+(\.\d+)? (B|KB|KiB|MB|MiB|GB|GiB)$/;

describe('POST /indexes/{uid}/compact', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('compacts an index and keeps its documents searchable and writable', async () => {
    const uid = uniqueUid('compact');
    const docs = Array.from({ length: 500 }, (_, i) => ({ id: i, text: `hello world ${i}` }));
    await run(server, 'POST', `/indexes/${uid}/documents`, docs);
    await run(server, 'POST', `/indexes/${uid}/documents/delete-batch`, docs.slice(0, 400).map((d) => d.id));

    const reply = await call(server, 'POST', `/indexes/${uid}/compact`);
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({ indexUid: uid, status: 'enqueued', type: 'indexCompaction' });
    const task = await run(server, 'POST', `/indexes/${uid}/compact`);
    expect(task.status).toBe('succeeded');
    expect(Object.keys(task.details)).toEqual(['preCompactionSize', 'postCompactionSize']);
    const trace = (await call(server, 'GET', `/batches/${task.batchUid}`)).body.stats.progressTrace;
    expect(Object.keys(trace).filter((step) => step.startsWith('processing tasks > '))).toEqual([
      'processing tasks > retrieve the index',
      'processing tasks > create temporary file',
      'processing tasks > copy and compact the index',
    ]);
    expect(task.details.preCompactionSize).toMatch(HUMAN);
    expect(task.details.postCompactionSize).toMatch(HUMAN);

    const stats = await call(server, 'GET', `/indexes/${uid}/stats`);
    expect(stats.body.numberOfDocuments).toBe(100);
    const search = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'hello', limit: 1 });
    expect(search.status).toBe(200);
    expect(search.body.estimatedTotalHits).toBe(100);
    const added = await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 'new', text: 'after compaction' }]);
    expect(added.status).toBe('succeeded');
    expect((await call(server, 'GET', `/indexes/${uid}/documents/new`)).body).toStrictEqual({ id: 'new', text: 'after compaction' });
  });

  it('keeps serving when the first batch after a compaction rewrites every posting of the index', async () => {
    // lmdb-js aborted the process in such a batch's write (store/compacted-env.ts)
    const uid = uniqueUid('compact-rewrite');
    const words = (i: number, salt: string) => Array.from({ length: 12 }, (_, k) => `${salt}${(i * 7 + k * 13) % 997}`).join(' ');
    await run(server, 'POST', `/indexes/${uid}/documents`, Array.from({ length: 6000 }, (_, i) => ({ id: i, text: words(i, 'w') })));
    expect((await run(server, 'POST', `/indexes/${uid}/compact`)).status).toBe('succeeded');
    const rewrite = await run(server, 'POST', `/indexes/${uid}/documents`, Array.from({ length: 6000 }, (_, i) => ({ id: i, text: words(i, 'v') })));
    expect(rewrite.status).toBe('succeeded');
    const search = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'v13', limit: 1 });
    expect(search.body.estimatedTotalHits).toBeGreaterThan(0);
    expect((await call(server, 'POST', `/indexes/${uid}/search`, { q: 'w13', limit: 1 })).body.estimatedTotalHits).toBe(0);
  });

  it('compacts an index created but never written, which then takes documents', async () => {
    const uid = uniqueUid('compact-empty');
    expect((await run(server, 'POST', '/indexes', { uid })).status).toBe('succeeded');
    const task = await run(server, 'POST', `/indexes/${uid}/compact`);
    expect(task.status).toBe('succeeded');
    expect(task.details.preCompactionSize).toMatch(HUMAN);
    expect(task.details.postCompactionSize).toMatch(HUMAN);
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1 }])).status).toBe('succeeded');
    expect((await call(server, 'GET', `/indexes/${uid}/stats`)).body.numberOfDocuments).toBe(1);
  });

  it('fails the task with index_not_found for a missing index', async () => {
    const uid = uniqueUid('missing');
    const task = await run(server, 'POST', `/indexes/${uid}/compact`);
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('index_not_found');
    expect(task.error.message).toBe(`Index \`${uid}\` not found.`);
    expect(task.details).toStrictEqual({});
    // it fails before its first step, as in v1.50
    const trace = (await call(server, 'GET', `/batches/${task.batchUid}`)).body.stats.progressTrace;
    expect(Object.keys(trace).filter((step) => step.includes('retrieve the index'))).toEqual([]);
  });

  it('rejects an invalid index uid', async () => {
    const reply = await call(server, 'POST', '/indexes/bad%20uid/compact');
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_index_uid');
  });
});

describe('POST /tasks/compact', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('is gated by taskQueueCompactionRoute', async () => {
    const reply = await call(server, 'POST', '/tasks/compact');
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('feature_not_enabled');
    expect(reply.body.message).toContain('`task queue compaction route`');
    expect((await call(server, 'GET', '/health')).body).toStrictEqual({ status: 'available' });
  });

  it('compacts, then blocks writes and asks for a restart; the data survives the restart', async () => {
    const uid = uniqueUid('tq');
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, a: 'b' }]);
    for (let i = 0; i < 20; i++) await call(server, 'POST', '/indexes', { uid: uniqueUid('filler') });
    expect((await call(server, 'PATCH', '/experimental-features', { taskQueueCompactionRoute: true })).status).toBe(200);

    const reply = await call(server, 'POST', '/tasks/compact');
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['preSize', 'postSize', 'status', 'actionRequired']);
    expect(reply.body.preSize).toMatch(HUMAN);
    expect(reply.body.postSize).toMatch(HUMAN);
    expect(reply.body.status).toBe('succeeded');
    expect(reply.body.actionRequired).toBe('you must restart your instance');

    const health = await call(server, 'GET', '/health');
    expect(health.status).toBe(500);
    expect(health.body).toStrictEqual({ status: 'mustRestart' });
    const write = await call(server, 'POST', '/indexes', { uid: uniqueUid('late') });
    expect(write.status).toBe(500);
    expect(write.body.code).toBe('internal');

    const tasksBefore = (await call(server, 'GET', '/tasks?limit=1000')).body.total;
    await server.stop();
    const restarted = await startServer({ dbPath: server.dbPath });
    try {
      expect((await call(restarted, 'GET', '/health')).body).toStrictEqual({ status: 'available' });
      expect((await call(restarted, 'GET', '/tasks?limit=1000')).body.total).toBe(tasksBefore);
      expect((await call(restarted, 'GET', `/indexes/${uid}/documents/1`)).body).toStrictEqual({ id: 1, a: 'b' });
      const task = await run(restarted, 'POST', '/indexes', { uid: uniqueUid('after') });
      expect(task.status).toBe('succeeded');
    } finally {
      await restarted.stop();
    }
  });

  it('refuses the instance\'s other writes after compacting, so none is answered and then lost at the restart', async () => {
    const master = 'compaction-master-key-0123456789';
    const keyed = async (target: TestServer, key: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${target.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
    };
    const guarded = await startServer({ masterKey: master });
    try {
      const key = (await keyed(guarded, master, 'POST', '/keys', { actions: ['search'], indexes: ['*'], expiresAt: null })).body;
      expect((await keyed(guarded, master, 'PATCH', '/experimental-features', { taskQueueCompactionRoute: true })).status).toBe(200);
      expect((await keyed(guarded, master, 'POST', '/tasks/compact')).status).toBe(200);

      const deleted = await keyed(guarded, master, 'DELETE', `/keys/${key.uid}`);
      expect(deleted.status).toBe(500);
      expect(deleted.body).toMatchObject({ code: 'internal', message: 'The task queue was compacted: restart the instance to write to it.' });
      expect((await keyed(guarded, key.key, 'POST', '/indexes/any/search', {})).status).not.toBe(403);
      expect((await keyed(guarded, master, 'POST', '/webhooks', { url: 'https://example.com/hook' })).status).toBe(500);
      expect((await keyed(guarded, master, 'PATCH', '/experimental-features', { metrics: true })).status).toBe(500);
      expect((await keyed(guarded, master, 'GET', '/experimental-features')).body.metrics).toBe(false);

      await guarded.stop();
      const restarted = await startServer({ dbPath: guarded.dbPath, masterKey: master });
      try {
        // what the refusals said is what the restart finds
        expect((await keyed(restarted, master, 'GET', `/keys/${key.uid}`)).status).toBe(200);
        expect((await keyed(restarted, master, 'GET', '/webhooks')).body.results).toEqual([]);
        expect((await keyed(restarted, master, 'GET', '/experimental-features')).body.metrics).toBe(false);
      } finally {
        await restarted.stop();
      }
    } finally {
      await guarded.dispose();
    }
  });
});
