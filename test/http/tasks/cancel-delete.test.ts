/**
 * `POST /tasks/cancel` and `DELETE /tasks` through the real server.
 *
 * Index tasks run within milliseconds of their enqueue, so tasks that are still enqueued when a
 * cancelation or deletion runs are set up the way a restart finds them: the queue is filled on a
 * stopped database (with Quarry's own TaskQueue) and the server started on it. The scheduler then
 * runs the prioritised tasks first, newest cancelation first, exactly as it would have live.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInstanceStore } from '../../../src/store/env.js';
import { TaskQueue } from '../../../src/tasks/queue.js';
import type { TaskKind } from '../../../src/types/task.js';
import { SUMMARY_KEYS, call, run, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const create = (uid: string) => run(server, 'POST', '/indexes', { uid });

/** Starts a server on a database whose queue holds these tasks, all enqueued (uids from 0). */
async function startWithQueue(kinds: TaskKind[]): Promise<TestServer> {
  const dbPath = path.join(tempDir(), 'data.ms');
  const store = openInstanceStore(dbPath, '0.0.0');
  const queue = new TaskQueue(store);
  for (const kind of kinds) queue.register({ kind });
  await store.close();
  return startServer({ dbPath });
}

async function stopAndRemove(seeded: TestServer): Promise<void> {
  await seeded.kill();
  rmSync(path.dirname(seeded.dbPath), { recursive: true, force: true });
}

const creation = (indexUid: string): TaskKind => ({ name: 'indexCreation', indexUid, primaryKey: null });

describe('POST /tasks/cancel', () => {
  it('answers 200 with a global taskCancelation summary', async () => {
    const target = await create(uniqueUid('c'));
    const reply = await call(server, 'POST', `/tasks/cancel?uids=${target.uid}`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(SUMMARY_KEYS);
    expect(reply.body).toMatchObject({ indexUid: null, status: 'enqueued', type: 'taskCancelation' });
    await waitTask(server, reply.body.taskUid);
  });

  it('leaves finished tasks as they are: matched, not canceled', async () => {
    const first = await create(uniqueUid('c'));
    const second = await create(uniqueUid('c'));
    const cancel = await run(server, 'POST', `/tasks/cancel?uids=${first.uid},${second.uid},999999`);
    expect(stable(cancel)).toStrictEqual({
      uid: cancel.uid,
      batchUid: '[batch]',
      indexUid: null,
      status: 'succeeded',
      type: 'taskCancelation',
      canceledBy: null,
      details: { matchedTasks: 2, canceledTasks: 0, originalFilter: `?uids=${first.uid},${second.uid},999999` },
      error: null,
      duration: '[duration]',
      enqueuedAt: '[date]',
      startedAt: '[date]',
      finishedAt: '[date]',
    });
    expect(await waitTask(server, first.uid)).toStrictEqual(first);
    const batch = (await call(server, 'GET', `/batches/${cancel.batchUid}`)).body;
    expect(batch.batchStrategy).toBe(
      `created batch containing only task with id ${cancel.uid} of type \`taskCancelation\` that cannot be batched with any other task.`,
    );
  });

  it('keeps the raw query string as originalFilter, after a question mark', async () => {
    const uid = uniqueUid('raw');
    await create(uid);
    const raw = `indexUids=${uid}&afterEnqueuedAt=2020-01-01T00:00:00%2B00:00&statuses=succeeded,failed&types=*`;
    const cancel = await run(server, 'POST', `/tasks/cancel?${raw}`);
    expect(cancel.details).toStrictEqual({ matchedTasks: 1, canceledTasks: 0, originalFilter: `?${raw}` });
  });

  it('matches every older task with a * filter, never itself', async () => {
    const before = (await call(server, 'GET', '/tasks?limit=0')).body.total;
    const cancel = await run(server, 'POST', '/tasks/cancel?statuses=*');
    expect(cancel.details).toMatchObject({ matchedTasks: before, canceledTasks: 0, originalFilter: '?statuses=*' });
  });

  it('matches nothing when the filter matches nothing, and still runs', async () => {
    const cancel = await run(server, 'POST', `/tasks/cancel?indexUids=${uniqueUid('none')}`);
    expect(cancel).toMatchObject({ status: 'succeeded', details: { matchedTasks: 0, canceledTasks: 0 } });
  });
});

describe('DELETE /tasks', () => {
  it('answers 200 with a global taskDeletion summary and deletes the matched finished tasks', async () => {
    const first = await create(uniqueUid('d'));
    const second = await create(uniqueUid('d'));
    const reply = await call(server, 'DELETE', `/tasks?uids=${first.uid},${second.uid}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ indexUid: null, status: 'enqueued', type: 'taskDeletion' });
    const deletion = await waitTask(server, reply.body.taskUid);
    expect(stable(deletion)).toMatchObject({
      indexUid: null,
      status: 'succeeded',
      details: { matchedTasks: 2, deletedTasks: 2, originalFilter: `?uids=${first.uid},${second.uid}` },
    });
    for (const task of [first, second]) {
      expect((await call(server, 'GET', `/tasks/${task.uid}`)).status).toBe(404);
      // Each was alone in its batch, which goes with it.
      expect((await call(server, 'GET', `/batches/${task.batchUid}`)).status).toBe(404);
    }
    const batch = (await call(server, 'GET', `/batches/${deletion.batchUid}`)).body;
    expect(batch.batchStrategy).toBe('stopped after the last task of type `taskDeletion` because they cannot be batched with tasks of any other type.');
    expect(batch.details).toStrictEqual(deletion.details);
  });

  it('deletes by index, keeping the indexes themselves', async () => {
    const uid = uniqueUid('keep');
    await create(uid);
    await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'id' });
    const deletion = await run(server, 'DELETE', `/tasks?indexUids=${uid}`);
    expect(deletion.details).toMatchObject({ matchedTasks: 2, deletedTasks: 2 });
    expect((await call(server, 'GET', `/tasks?indexUids=${uid}`)).body.total).toBe(0);
    expect((await call(server, 'GET', `/indexes/${uid}`)).body.primaryKey).toBe('id');
  });

  it('can delete cancelation and deletion tasks too', async () => {
    const cancel = await run(server, 'POST', '/tasks/cancel?uids=0');
    const deletion = await run(server, 'DELETE', '/tasks?uids=999999');
    const cleanup = await run(server, 'DELETE', `/tasks?uids=${cancel.uid},${deletion.uid}`);
    expect(cleanup.details).toMatchObject({ matchedTasks: 2, deletedTasks: 2 });
  });

  it('with a * filter deletes every finished task but itself; uids are never reused', async () => {
    const last = await create(uniqueUid('last'));
    const deletion = await run(server, 'DELETE', '/tasks?statuses=*');
    expect(deletion.details.deletedTasks).toBe(deletion.details.matchedTasks);
    const left = (await call(server, 'GET', '/tasks')).body;
    expect(left.results.map((t: { uid: number }) => t.uid)).toEqual([deletion.uid]);
    expect(left.total).toBe(1);
    expect((await call(server, 'GET', '/batches')).body.results.map((b: { uid: number }) => b.uid)).toEqual([deletion.batchUid]);
    expect((await call(server, 'POST', '/indexes', { uid: uniqueUid('next') })).body.taskUid).toBe(deletion.uid + 1);
    expect(last.uid).toBeLessThan(deletion.uid);
  });
});

describe('tasks still enqueued when the cancelation runs', () => {
  let seeded: TestServer;
  beforeAll(async () => {
    seeded = await startWithQueue([
      creation('kept-0'), // 0
      creation('canceled-1'), // 1
      { name: 'indexDeletion', indexUid: 'canceled-2' }, // 2
      creation('kept-3'), // 3
      { name: 'taskCancelation', query: '?uids=1,2', tasks: [1, 2] }, // 4
    ]);
  });
  afterAll(() => stopAndRemove(seeded));

  it('are canceled by it, first of all, with canceledBy and the cancelation batch', async () => {
    const cancel = await waitTask(seeded, 4);
    expect(cancel).toMatchObject({ status: 'succeeded', details: { matchedTasks: 2, canceledTasks: 2, originalFilter: '?uids=1,2' } });
    const canceled = await waitTask(seeded, 1);
    expect(stable(canceled)).toStrictEqual({
      uid: 1,
      batchUid: '[batch]',
      indexUid: 'canceled-1',
      status: 'canceled',
      type: 'indexCreation',
      canceledBy: 4,
      details: { primaryKey: null },
      error: null,
      duration: '[duration]',
      enqueuedAt: '[date]',
      startedAt: '[date]',
      finishedAt: '[date]',
    });
    expect(canceled).toMatchObject({ batchUid: cancel.batchUid, startedAt: cancel.startedAt, finishedAt: cancel.finishedAt });
    // A canceled task's counters read 0, as a failed one's.
    expect(await waitTask(seeded, 2)).toMatchObject({ status: 'canceled', canceledBy: 4, details: { deletedDocuments: 0 } });
    expect(cancel.batchUid).toBe(0);
  });

  it('leaves the other tasks to run afterwards', async () => {
    expect(await waitTask(seeded, 0)).toMatchObject({ status: 'succeeded', batchUid: 1 });
    expect(await waitTask(seeded, 3)).toMatchObject({ status: 'succeeded' });
    expect((await call(seeded, 'GET', '/indexes/canceled-1')).status).toBe(404);
    expect((await call(seeded, 'GET', '/indexes/kept-0')).status).toBe(200);
  });

  it('are found with canceledBy and statuses=canceled, and their batch is the cancelation one', async () => {
    expect((await call(seeded, 'GET', '/tasks?canceledBy=4')).body.results.map((t: { uid: number }) => t.uid)).toEqual([2, 1]);
    expect((await call(seeded, 'GET', '/tasks?statuses=canceled')).body.total).toBe(2);
    const batch = (await call(seeded, 'GET', '/batches/0')).body;
    expect(batch.details).toStrictEqual({ deletedDocuments: 0, matchedTasks: 2, canceledTasks: 2, originalFilter: '?uids=1,2' });
    expect(batch.stats).toMatchObject({
      totalNbTasks: 3,
      status: { succeeded: 1, canceled: 2 },
      types: { indexCreation: 1, indexDeletion: 1, taskCancelation: 1 },
      indexUids: { 'canceled-1': 1, 'canceled-2': 1 },
    });
    expect((await call(seeded, 'GET', '/batches?canceledBy=4')).body.results.map((b: { uid: number }) => b.uid)).toEqual([0]);
  });
});

describe('a cancelation canceled by a newer one, and a deletion of a task not yet run', () => {
  let seeded: TestServer;
  beforeAll(async () => {
    seeded = await startWithQueue([
      creation('survivor'), // 0
      { name: 'taskCancelation', query: '?uids=0', tasks: [0] }, // 1
      { name: 'taskCancelation', query: '?uids=1', tasks: [1] }, // 2
      { name: 'taskDeletion', query: '?uids=0', tasks: [0] }, // 3
    ]);
  });
  afterAll(() => stopAndRemove(seeded));

  it('the newest cancelation runs first and cancels the older one, whose counter reads 0', async () => {
    expect(await waitTask(seeded, 2)).toMatchObject({ status: 'succeeded', batchUid: 0, details: { matchedTasks: 1, canceledTasks: 1 } });
    expect(await waitTask(seeded, 1)).toMatchObject({
      status: 'canceled',
      canceledBy: 2,
      batchUid: 0,
      details: { matchedTasks: 1, canceledTasks: 0, originalFilter: '?uids=0' },
    });
  });

  it('the deletion runs before the index task, deletes nothing unfinished, and the task runs after', async () => {
    expect(await waitTask(seeded, 3)).toMatchObject({ status: 'succeeded', batchUid: 1, details: { matchedTasks: 1, deletedTasks: 0 } });
    expect(await waitTask(seeded, 0)).toMatchObject({ status: 'succeeded', batchUid: 2, canceledBy: null });
  });
});

describe('deletions enqueued together', () => {
  let seeded: TestServer;
  beforeAll(async () => {
    seeded = await startWithQueue([
      creation('x'), // 0
      { name: 'taskDeletion', query: '?uids=0', tasks: [0] }, // 1
      { name: 'taskDeletion', query: '?types=indexCreation', tasks: [0] }, // 2
    ]);
  });
  afterAll(() => stopAndRemove(seeded));

  it('run in one batch whose details join their filters', async () => {
    const [first, second] = [await waitTask(seeded, 1), await waitTask(seeded, 2)];
    expect(first.batchUid).toBe(second.batchUid);
    const batch = (await call(seeded, 'GET', `/batches/${first.batchUid}`)).body;
    expect(batch.details).toStrictEqual({ matchedTasks: 2, deletedTasks: 0, originalFilter: '?uids=0&?types=indexCreation' });
    expect(batch.stats).toMatchObject({ totalNbTasks: 2, status: { succeeded: 2 }, types: { taskDeletion: 2 }, indexUids: {} });
  });

  it('a batch loses its deleted tasks and goes once it holds none', async () => {
    const batchUid = (await waitTask(seeded, 1)).batchUid;
    await waitTask(seeded, 0);
    await run(seeded, 'DELETE', '/tasks?uids=1');
    expect((await call(seeded, 'GET', `/batches/${batchUid}`)).status).toBe(200);
    expect((await call(seeded, 'GET', `/tasks?batchUids=${batchUid}`)).body.results.map((t: { uid: number }) => t.uid)).toEqual([2]);
    await run(seeded, 'DELETE', '/tasks?uids=2');
    expect((await call(seeded, 'GET', `/batches/${batchUid}`)).status).toBe(404);
  });
});

describe('the meilisearch client', () => {
  it('cancelTasks and deleteTasks enqueue and report like Meilisearch', async () => {
    const client = new Meilisearch({ host: server.url });
    const created = await client.createIndex(uniqueUid('client')).waitTask();
    const cancel = await client.tasks.cancelTasks({ uids: [created.uid] }).waitTask();
    expect(cancel).toMatchObject({ type: 'taskCancelation', status: 'succeeded', details: { matchedTasks: 1, canceledTasks: 0 } });
    const deletion = await client.tasks.deleteTasks({ uids: [created.uid, cancel.uid] }).waitTask();
    expect(deletion).toMatchObject({ type: 'taskDeletion', status: 'succeeded', details: { matchedTasks: 2, deletedTasks: 2 } });
    expect(deletion.details?.originalFilter).toBe(`?uids=${created.uid}%2C${cancel.uid}`);
  });
});
