// A batch write whose outcomes are known before it: recorded with them in the index, and refused
// whole (every task of the batch fails with the index's error, the processor's commit dropped).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/errors/api-error.js';
import type { IndexWrite } from '../../../../src/engine/indexer/commit.js';
import { writeKnownOutcome } from '../../../../src/tasks/process/batch-write.js';
import type { IndexWriter, ProcessContext } from '../../../../src/tasks/process/context.js';
import { succeeded } from '../../../../src/tasks/process/outcome.js';
import { Progress } from '../../../../src/tasks/progress.js';
import type { Task } from '../../../../src/types/task.js';
import { kind } from '../fixtures.js';

const task = (uid: number): Task =>
  ({ uid, batchUid: null, indexUid: 'movies', status: 'enqueued', kind: kind.settings('movies'), details: null, error: null, canceledBy: null, enqueuedAt: 1n, startedAt: null, finishedAt: null }) as unknown as Task;

function context(writeIndex: IndexWriter): ProcessContext {
  return { writeIndex, batchUid: 7, progress: new Progress(), signal: new AbortController().signal } as unknown as ProcessContext;
}

const write: IndexWrite = { kind: 'reshard', sharding: { shards: ['s0'] } };

describe('writeKnownOutcome', () => {
  it('writes with the batch and its tasks outcomes recorded, answering the outcome with the written index', async () => {
    const writes: IndexWrite[] = [];
    const ctx = context(async (_uuid, sent) => {
      writes.push(sent);
      return null as never;
    });
    const tasks = [task(1), task(2)];
    const commit = () => {};
    const outcome = await writeKnownOutcome(ctx, 'movies', tasks, 'uuid-1', write, { tasks: tasks.map((t) => succeeded(t)), commit });
    expect(writes).toEqual([{ ...write, applied: { batchUid: 7, tasks: [{ uid: 1, details: null }, { uid: 2, details: null }] } }]);
    expect(outcome).toMatchObject({ indexWritten: 'uuid-1', commit });
    expect(outcome.tasks.map((t) => t.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('fails every task with the index error of a refused write, and drops the commit', async () => {
    const ctx = context(async () => {
      throw new ApiError('invalid_document_geo_field', 'The `_geo` field is invalid.');
    });
    const tasks = [task(1), task(2)];
    const outcome = await writeKnownOutcome(ctx, 'movies', tasks, 'uuid-1', write, { tasks: tasks.map((t) => succeeded(t)), commit: () => {} });
    expect(outcome.commit).toBeUndefined();
    expect(outcome.indexWritten).toBeUndefined();
    expect(outcome.tasks.map((t) => [t.status, t.error?.code, t.error?.message])).toEqual([
      ['failed', 'invalid_document_geo_field', 'Index `movies`: The `_geo` field is invalid.'],
      ['failed', 'invalid_document_geo_field', 'Index `movies`: The `_geo` field is invalid.'],
    ]);
  });

  it('lets an unexpected error through, for the scheduler to fail the batch as a crash', async () => {
    const ctx = context(async () => {
      throw new Error('disk on fire');
    });
    await expect(writeKnownOutcome(ctx, 'movies', [task(1)], 'uuid-1', write, { tasks: [] })).rejects.toThrow('disk on fire');
  });
});
