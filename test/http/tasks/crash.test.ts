/**
 * Crash safety through the real process: a `kill -9` right after the 202s loses no acknowledged
 * task nor its payload, and the restarted server processes them; a graceful restart keeps tasks, batches and
 * indexes as they were; start-up removes the update files no task needs.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, run, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const started: TestServer[] = [];

/** Starts a server, on a new db path or on the given one; every server is killed after its test. */
async function start(dbPath?: string): Promise<TestServer> {
  const server = await startServer(dbPath === undefined ? {} : { dbPath });
  started.push(server);
  return server;
}

afterEach(async () => {
  const dbPaths = new Set(started.map((server) => server.dbPath));
  for (const server of started.splice(0)) await server.kill();
  for (const dbPath of dbPaths) rmSync(path.dirname(dbPath), { recursive: true, force: true });
});

describe('kill -9', () => {
  it('right after the 202s loses no acknowledged task, and the restarted server processes them all', async () => {
    const first = await start();
    const acknowledged: { taskUid: number; indexUid: string; type: string; enqueuedAt: string }[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = 0; i < 15; i++) {
          const reply = await call(first, 'POST', '/indexes', { uid: `crash-${worker}-${i}` });
          expect(reply.status).toBe(202);
          acknowledged.push(reply.body);
        }
      }),
    );
    await first.kill();

    const second = await start(first.dbPath);
    expect((await call(second, 'GET', '/tasks?limit=0')).body.total).toBe(acknowledged.length);
    for (const summary of acknowledged) {
      const task = await waitTask(second, summary.taskUid);
      expect(task).toMatchObject({ status: 'succeeded', type: summary.type, indexUid: summary.indexUid, enqueuedAt: summary.enqueuedAt });
      expect((await call(second, 'GET', `/indexes/${summary.indexUid}`)).status).toBe(200);
    }
    // Uids go on from the last acknowledged one.
    const next = await call(second, 'POST', '/indexes', { uid: 'after-crash' });
    expect(next.body.taskUid).toBe(acknowledged.length);
  });
});

describe('kill -9 with document payloads', () => {
  it('loses none of the acknowledged small (kept in LMDB) and large (kept in a file) payloads', async () => {
    const first = await start();
    const large = Array.from({ length: 4000 }, (_, i) => ({ id: `big-${i}`, text: 'x'.repeat(100) }));
    const replies = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => call(first, 'POST', '/indexes/docs/documents', [{ id: `small-${i}`, n: i }])),
      call(first, 'POST', '/indexes/docs/documents', large),
    ]);
    for (const reply of replies) expect(reply.status).toBe(202);
    await first.kill();

    const second = await start(first.dbPath);
    for (const reply of replies) expect(await waitTask(second, reply.body.taskUid, 30_000)).toMatchObject({ status: 'succeeded' });
    expect((await call(second, 'GET', '/indexes/docs/stats')).body.numberOfDocuments).toBe(30 + large.length);
    expect((await call(second, 'GET', '/indexes/docs/documents/small-29')).body).toEqual({ id: 'small-29', n: 29 });
  });
});

describe('a graceful restart', () => {
  it('keeps tasks, batches and indexes exactly, and goes on with the next uids', async () => {
    const first = await start();
    await run(first, 'POST', '/indexes', { uid: 'kept', primaryKey: 'id' });
    await run(first, 'PATCH', '/indexes/kept', { uid: 'renamed' });
    await run(first, 'POST', '/indexes', { uid: 'kept' });
    await run(first, 'POST', '/swap-indexes', [{ indexes: ['kept', 'renamed'] }]);
    await run(first, 'DELETE', '/tasks?uids=0');
    await run(first, 'POST', '/tasks/cancel?statuses=succeeded');
    const snapshot = async (server: TestServer) =>
      Promise.all(['/tasks?limit=100', '/batches?limit=100', '/indexes', '/indexes/kept', '/indexes/renamed'].map(async (route) => (await call(server, 'GET', route)).body));
    const before = await snapshot(first);
    await first.stop();
    expect(first.process.exitCode).toBe(0);

    const second = await start(first.dbPath);
    expect(await snapshot(second)).toStrictEqual(before);
    const next = await run(second, 'POST', '/indexes', { uid: 'after-restart' });
    expect(next.uid).toBe(before[0].results[0].uid + 1);
    expect(next.batchUid).toBe(before[1].results[0].uid + 1);
  });
});

describe('start-up', () => {
  it('removes update files no enqueued task refers to, and unfinished ones', async () => {
    const first = await start();
    await first.stop();
    const dir = path.join(first.dbPath, 'update_files');
    mkdirSync(dir, { recursive: true });
    const stray = path.join(dir, '3f0e8d2a-5b1c-4e7a-9d6f-1a2b3c4d5e6f');
    const partial = path.join(dir, '7c9e6679-7425-40de-944b-e07fc1f90ae7.tmp');
    writeFileSync(stray, '{"id":1}\n');
    writeFileSync(partial, '{"id":');

    await start(first.dbPath);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(partial)).toBe(false);
  });
});
