/**
 * Task objects through the real server (`GET /tasks/{uid}` and the items of `GET /tasks`): the
 * field order, dates and durations, details per type, and the `meilisearch` client's task calls.
 */
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DURATION, RFC3339, SUMMARY_KEYS, TASK_KEYS, call, errorBody, nanos, run, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let client: Meilisearch;

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
});
afterAll(async () => {
  await server.dispose();
});

/** An ISO 8601 duration `P[nD]T<s>[.<fraction>]S` in nanoseconds. */
function durationNanos(duration: string): bigint {
  const [, days = '0', seconds = '0', fraction = ''] = /^P(?:(\d+)D)?(?:T(\d+)(?:\.(\d+))?S)?$/.exec(duration)!;
  return (BigInt(days) * 86_400n + BigInt(seconds)) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
}

describe('the task object', () => {
  it('has every field in Meilisearch order, the same in GET /tasks/{uid} and in GET /tasks', async () => {
    const uid = uniqueUid('task');
    const task = await run(server, 'POST', '/indexes', { uid });
    expect(Object.keys(task)).toEqual(TASK_KEYS);
    const listed = (await call(server, 'GET', `/tasks?uids=${task.uid}`)).body.results[0];
    expect(listed).toStrictEqual(task);
  });

  it('prints RFC 3339 dates and an ISO 8601 duration equal to finishedAt minus startedAt', async () => {
    const task = await run(server, 'POST', '/indexes', { uid: uniqueUid('dates') });
    for (const date of [task.enqueuedAt, task.startedAt, task.finishedAt]) expect(date).toMatch(RFC3339);
    expect(task.duration).toMatch(DURATION);
    expect(durationNanos(task.duration)).toBe(nanos(task.finishedAt) - nanos(task.startedAt));
    expect(nanos(task.startedAt)).toBeGreaterThanOrEqual(nanos(task.enqueuedAt));
  });

  it('has the enqueue date of its summarized task, and a uid one more than the previous task', async () => {
    const first = await call(server, 'POST', '/indexes', { uid: uniqueUid('seq') });
    const second = await call(server, 'POST', '/indexes', { uid: uniqueUid('seq') });
    expect(Object.keys(second.body)).toEqual(SUMMARY_KEYS);
    expect(second.body.taskUid).toBe(first.body.taskUid + 1);
    const task = await waitTask(server, second.body.taskUid);
    expect(task.enqueuedAt).toBe(second.body.enqueuedAt);
    expect(nanos(second.body.enqueuedAt)).toBeGreaterThan(nanos(first.body.enqueuedAt));
  });

  it('belongs to the batch its batchUid names', async () => {
    const task = await run(server, 'POST', '/indexes', { uid: uniqueUid('batch') });
    const batch = (await call(server, 'GET', `/batches/${task.batchUid}`)).body;
    expect(batch).toMatchObject({ uid: task.batchUid, startedAt: task.startedAt, finishedAt: task.finishedAt, duration: task.duration });
    expect((await call(server, 'GET', `/tasks?batchUids=${task.batchUid}`)).body.results.map((t: { uid: number }) => t.uid)).toEqual([task.uid]);
  });

  it('carries details by type: creation, update, rename, deletion, swap', async () => {
    const a = uniqueUid('a');
    const b = uniqueUid('b');
    expect((await run(server, 'POST', '/indexes', { uid: a, primaryKey: 'id' })).details).toStrictEqual({ primaryKey: 'id' });
    expect((await run(server, 'POST', '/indexes', { uid: b })).details).toStrictEqual({ primaryKey: null });
    expect((await run(server, 'PATCH', `/indexes/${a}`, { primaryKey: 'sku' })).details).toStrictEqual({ primaryKey: 'sku' });
    const c = uniqueUid('c');
    expect((await run(server, 'PATCH', `/indexes/${b}`, { uid: c, primaryKey: null })).details).toStrictEqual({
      primaryKey: null,
      oldIndexUid: b,
      newIndexUid: c,
    });
    const swap = await run(server, 'POST', '/swap-indexes', [{ indexes: [a, c] }]);
    expect(swap).toMatchObject({ indexUid: null, details: { swaps: [{ indexes: [a, c], rename: false }] } });
    expect((await run(server, 'DELETE', `/indexes/${a}`)).details).toStrictEqual({ deletedDocuments: 0 });
  });

  it('a failed task carries the 4-key error and only that task fails', async () => {
    const uid = uniqueUid('fail');
    const good = await call(server, 'POST', '/indexes', { uid });
    const bad = await call(server, 'POST', '/indexes', { uid });
    const after = await call(server, 'POST', '/indexes', { uid: uniqueUid('fine') });
    expect((await waitTask(server, good.body.taskUid)).status).toBe('succeeded');
    expect(stable(await waitTask(server, bad.body.taskUid))).toMatchObject({
      status: 'failed',
      error: errorBody('index_already_exists', `Index \`${uid}\` already exists.`),
    });
    expect((await waitTask(server, after.body.taskUid)).status).toBe('succeeded');
  });
});

describe('the meilisearch client', () => {
  it('getTask, getTasks with filters, waitForTask and waitForTasks', async () => {
    const uid = uniqueUid('client');
    const enqueued = await client.createIndex(uid);
    const done = await client.tasks.waitForTask(enqueued.taskUid);
    expect(done).toMatchObject({ uid: enqueued.taskUid, status: 'succeeded', indexUid: uid });
    expect(await client.tasks.getTask(enqueued.taskUid)).toStrictEqual(done);

    const listed = await client.tasks.getTasks({ indexUids: [uid], statuses: ['succeeded'], types: ['indexCreation'] });
    expect(listed.results.map((t) => t.uid)).toEqual([enqueued.taskUid]);
    expect(listed).toMatchObject({ total: 1, limit: 20, from: enqueued.taskUid, next: null });
    expect((await client.tasks.getTasks({ uids: [enqueued.taskUid], reverse: true, limit: 1 })).results).toHaveLength(1);

    const more = [await client.createIndex(uniqueUid('client')), await client.createIndex(uniqueUid('client'))];
    const finished = await client.tasks.waitForTasks(more);
    expect(finished.map((t) => t.status)).toEqual(['succeeded', 'succeeded']);
  });
});
