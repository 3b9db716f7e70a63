import { describe, expect, it } from 'vitest';
import { finishBatch, openBatch } from '../../../src/tasks/batch-record.js';
import { failedDetails } from '../../../src/tasks/details.js';
import type { Task } from '../../../src/types/task.js';
import { T0, kind, task } from './fixtures.js';

const START = T0 + 10_000_000_000n;
const END = START + 364_788_000n;

describe('openBatch', () => {
  const tasks = [task(0, kind.add('b', { count: 2 })), task(1, kind.add('a', { count: 3 })), task(2, kind.swap(['a', 'c']))];
  const batch = openBatch(4, tasks, 'batched all enqueued tasks', START);

  it('counts every task as processing, by type and by reported index', () => {
    expect(batch.stats).toEqual({
      totalNbTasks: 3,
      status: { processing: 3 },
      types: { documentAdditionOrUpdate: 2, indexSwap: 1 },
      indexUids: { b: 1, a: 1 },
    });
  });

  it('merges the details of its tasks as they are while enqueued', () => {
    expect(batch.details).toEqual({
      receivedDocuments: 5,
      indexedDocuments: null,
      swaps: [{ indexes: ['a', 'c'], rename: false }],
    });
  });

  it('records every touched index, the enqueue range and no end', () => {
    expect(batch).toMatchObject({
      uid: 4,
      progress: null,
      indexes: ['b', 'a', 'c'],
      enqueuedAt: { oldest: tasks[0]!.enqueuedAt, newest: tasks[2]!.enqueuedAt },
      startedAt: START,
      finishedAt: null,
      batchStrategy: 'batched all enqueued tasks',
    });
  });
});

describe('finishBatch', () => {
  const running = openBatch(0, [task(0, kind.add('a')), task(1, kind.add('a'))], 'strategy', START);

  it('stamps each task with the batch uid, start and end', () => {
    const finished: Task[] = [
      { ...task(0, kind.add('a')), status: 'succeeded', details: { kind: 'documentAdditionOrUpdate', receivedDocuments: 1, indexedDocuments: 1 } },
      { ...task(1, kind.add('a')), status: 'failed', details: failedDetails(task(1, kind.add('a')).details!) },
    ];
    const done = finishBatch(running, finished, END);
    for (const t of done.tasks) expect(t).toMatchObject({ batchUid: 0, startedAt: START, finishedAt: END });
    expect(done.batch.stats.status).toEqual({ succeeded: 1, failed: 1 });
    expect(done.batch.details).toEqual({ receivedDocuments: 2, indexedDocuments: 1 });
    expect(done.batch.finishedAt).toBe(END);
  });

  it('includes tasks added while running, such as the tasks a cancelation canceled', () => {
    const cancel = task(5, kind.cancel([3]));
    const open = openBatch(1, [cancel], 'strategy', START);
    const done = finishBatch(
      open,
      [
        { ...cancel, status: 'succeeded', details: { kind: 'taskCancelation', matchedTasks: 1, canceledTasks: 1, originalFilter: '?uids=3' } },
        { ...task(3, kind.add('a')), status: 'canceled', canceledBy: 5 },
      ],
      END,
    );
    expect(done.batch.stats).toMatchObject({ totalNbTasks: 2, status: { succeeded: 1, canceled: 1 }, indexUids: { a: 1 } });
    expect(done.batch.indexes).toEqual(['a']);
    expect(done.batch.enqueuedAt?.oldest).toBe(task(3, kind.add('a')).enqueuedAt);
    expect(done.tasks[1]).toMatchObject({ batchUid: 1, startedAt: START, finishedAt: END });
  });

  it('keeps the extra stats recorded while running and drops the progress', () => {
    const withTrace = {
      ...running,
      progress: { steps: [], percentage: 50 },
      stats: { ...running.stats, progressTrace: { 'processing tasks': '1.00ms' } },
    };
    const done = finishBatch(withTrace, [{ ...task(0, kind.add('a')), status: 'succeeded' }], END);
    expect(done.batch.progress).toBeNull();
    expect(done.batch.stats.progressTrace).toEqual({ 'processing tasks': '1.00ms' });
    expect(done.batch.stats.totalNbTasks).toBe(1);
  });

  it('refuses to close over a task that is not finished', () => {
    expect(() => finishBatch(running, [task(0, kind.add('a'))], END)).toThrow(/still enqueued/);
  });
});
