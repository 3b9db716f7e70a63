// Port of Meilisearch's crates/meilisearch/tests/tasks/deletion.rs: `DELETE /tasks` by uid (200, a
// taskDeletion task whose details carry the matched and deleted counts and the original filter),
// and by a window of enqueuedAt / startedAt / finishedAt dates, after which only the tasks outside
// the window and the deletion itself are listed. Each case runs on a new server, as the Rust test's
// `Server::new()` does, since the expected uids start at 0.
import { afterEach, describe, expect, it } from 'vitest';
import { call, run, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { expectJson } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Enqueues `DELETE /tasks?{query}`, requires 200, and returns the finished deletion task. */
async function deleteTasks(query: string): Promise<any> {
  const reply = await call(server!, 'DELETE', `/tasks?${query}`);
  expect(reply.status, reply.text).toBe(200);
  const task = await waitTask(server!, reply.body.taskUid);
  expect(task.status, JSON.stringify(task)).toBe('succeeded');
  return task;
}

/** A succeeded one-document addition of index `uid`, as the listing shows it. */
const addition = (uid: number, indexUid: string) => ({
  uid,
  batchUid: '[batch]',
  indexUid,
  status: 'succeeded',
  type: 'documentAdditionOrUpdate',
  canceledBy: null,
  details: { receivedDocuments: 1, indexedDocuments: 1 },
  error: null,
  duration: '[duration]',
  enqueuedAt: '[date]',
  startedAt: '[date]',
  finishedAt: '[date]',
});

const deletion = (uid: number, matched: number, originalFilter: string) => ({
  uid,
  batchUid: '[batch]',
  indexUid: null,
  status: 'succeeded',
  type: 'taskDeletion',
  canceledBy: null,
  details: { matchedTasks: matched, deletedTasks: matched, originalFilter },
  error: null,
  duration: '[duration]',
  enqueuedAt: '[date]',
  startedAt: '[date]',
  finishedAt: '[date]',
});

describe('delete_task', () => {
  it('deletes one task by uid, and the index has no task left', async () => {
    server = await startServer();
    const index = uniqueUid('deletion');
    const added = await run(server, 'POST', `/indexes/${index}/documents?primaryKey=id`, [{ id: 1, free: 'palestine', asc_desc_rank: 1 }]);
    expect(added.status).toBe('succeeded');
    const task = await deleteTasks(`uids=${added.uid}`);
    expectJson(stable(task), deletion(task.uid, 1, '?uids=0'));
    const listed = await call(server, 'GET', `/tasks?indexUids=${index}`);
    expect(listed.status).toBe(200);
    expectJson(listed.body, { results: [], total: 0, limit: 20, from: null, next: null });
  });
});

describe.each(['EnqueuedAt', 'StartedAt', 'FinishedAt'])('delete_tasks by before and after %s', (name) => {
  it('deletes the tasks between the two dates, and lists the others', async () => {
    server = await startServer();
    const index = uniqueUid('deletion');
    const add = async (id: number) => expect((await run(server!, 'POST', `/indexes/${index}/documents?primaryKey=id`, [{ id, country: 'taiwan' }])).status).toBe('succeeded');
    // the dates are taken a few ms away from the tasks' own, which have nanoseconds where these have ms
    await add(0);
    await add(1);
    await sleep(5);
    const time1 = new Date().toISOString();
    await sleep(5);
    await add(2);
    await add(3);
    await sleep(5);
    const time2 = new Date().toISOString();
    await sleep(5);
    await add(4);
    await add(5);

    const query = `before${name}=${encodeURIComponent(time2)}&after${name}=${encodeURIComponent(time1)}`;
    const task = await deleteTasks(query);
    expectJson(stable(task), deletion(6, 2, `?${query}`));

    const listed = await call(server, 'GET', '/tasks');
    expect(listed.status).toBe(200);
    expectJson(
      { ...listed.body, results: listed.body.results.map(stable) },
      {
        results: [deletion(6, 2, `?${query}`), addition(5, index), addition(4, index), addition(1, index), addition(0, index)],
        total: 5,
        limit: 20,
        from: 6,
        next: null,
      },
    );
  });
});
