// The automatic cleanup of a full task queue (tasks-batches.md §6, v1.50's `cleanup_task_queue`):
// once the queue holds its maximum of tasks (1,000,000; lowered here by the test hook
// QUARRY_TEST_MAX_NUMBER_OF_TASKS, as v1.50's own tests lower `max_number_of_tasks`), the
// scheduler registers by itself a `taskDeletion` of the oldest finished tasks before its next
// batch, and `--experimental-replication-parameters` turns it off.
import { afterEach, describe, expect, it } from 'vitest';
import { formatRfc3339, instantOfRfc3339 } from '../../../src/types/dates.js';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** Enqueues the creation of index `uid` and returns its finished task. */
async function createIndex(uid: string): Promise<any> {
  const reply = await call(server!, 'POST', '/indexes', { uid });
  expect(reply.status, reply.text).toBe(202);
  return waitTask(server!, reply.body.taskUid);
}

const uidsListed = async () => ((await call(server!, 'GET', '/tasks')).body.results as { uid: number }[]).map((task) => task.uid);

describe('the automatic cleanup of a full task queue', () => {
  it('deletes the oldest finished tasks with a taskDeletion of its own once the queue holds its maximum', async () => {
    server = await startServer({ env: { QUARRY_TEST_MAX_NUMBER_OF_TASKS: '3', QUARRY_LOG_LEVEL: 'INFO' } });
    await createIndex('a');
    const second = await createIndex('b');
    expect(await uidsListed()).toEqual([1, 0]);
    // the third task fills the queue: before its batch, the scheduler deletes the two finished ones
    await createIndex('c');
    const deletion = await waitTask(server, 3);
    const filter = `?beforeEnqueuedAt=${formatRfc3339(instantOfRfc3339(second.enqueuedAt) + 1n)}&statuses=succeeded,failed,canceled`;
    expect(deletion).toMatchObject({
      uid: 3,
      indexUid: null,
      status: 'succeeded',
      type: 'taskDeletion',
      details: { matchedTasks: 2, deletedTasks: 2, originalFilter: filter },
      error: null,
    });
    expect(await uidsListed()).toEqual([3, 2]);
    expect((await call(server, 'GET', '/tasks/2')).body).toMatchObject({ status: 'succeeded', indexUid: 'c' });
    expect(server.output()).toContain('The task queue is almost full. Deleting the oldest 2 finished tasks.');
    // at the maximum again: the next cleanup takes the tasks left, its own deletion included
    await createIndex('d');
    expect(await waitTask(server, 5)).toMatchObject({ type: 'taskDeletion', details: { matchedTasks: 2, deletedTasks: 2 } });
    expect(await uidsListed()).toEqual([5, 4]);
  });

  it('is off with --experimental-replication-parameters', async () => {
    server = await startServer({ args: ['--experimental-replication-parameters'], env: { QUARRY_TEST_MAX_NUMBER_OF_TASKS: '3', QUARRY_LOG_LEVEL: 'INFO' } });
    for (const uid of ['a', 'b', 'c', 'd']) await createIndex(uid);
    expect(await uidsListed()).toEqual([3, 2, 1, 0]);
    expect(server.output()).not.toContain('The task queue is almost full');
  });
});
