/**
 * Batch processors whose outcomes the HTTP tests cannot reach with index routes alone: deletion
 * batches that carry document tasks, several task deletions in one batch, and the cancelation of
 * a failed upgrade.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexEnvs } from '../../../src/engine/index-env.js';
import { IndexRegistry } from '../../../src/indexes/registry.js';
import { IndexStatsStore } from '../../../src/indexes/stats-store.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { writeTxnAsync } from '../../../src/store/write-txn.js';
import { UpdateFiles } from '../../../src/store/update-files.js';
import { SearchRuleStore } from '../../../src/search-rules/store.js';
import type { NextBatch } from '../../../src/tasks/autobatcher.js';
import type { ProcessContext } from '../../../src/tasks/process/context.js';
import { processIndexCreation, processIndexDeletion } from '../../../src/tasks/process/index-ops.js';
import { processCancelation, processDeletion } from '../../../src/tasks/process/task-ops.js';
import { Progress } from '../../../src/tasks/progress.js';
import { WorkerPools } from '../../../src/workers/pool.js';
import { TaskQueue } from '../../../src/tasks/queue.js';
import { inlineIndexWriter } from './inline-writer.js';
import type { Task, TaskKind } from '../../../src/types/task.js';
import { kind } from './fixtures.js';

let dir: string;
let store: InstanceStore;
let ctx: ProcessContext;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-process-'));
  store = openInstanceStore(dir, '0.1.0');
  const indexEnvs = new IndexEnvs(dir);
  ctx = {
    queue: new TaskQueue(store),
    indexes: new IndexRegistry(store),
    indexEnvs,
    writeIndex: inlineIndexWriter(indexEnvs),
    batchUid: 0,
    indexStats: new IndexStatsStore(store),
    updateFiles: new UpdateFiles(store),
    searchRules: new SearchRuleStore(store),
    now: 1_000n,
    // pools start lazily: none does here
    workers: new WorkerPools(1),
    signal: new AbortController().signal,
    progress: new Progress(),
  };
});

afterEach(async () => {
  await ctx.indexEnvs.closeAll();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const enqueue = (...kinds: TaskKind[]): Task[] => kinds.map((k) => ctx.queue.register({ kind: k }));

function deletionBatch(tasks: Task[], mustCreateIndex: boolean): NextBatch {
  return {
    operation: 'indexDeletion',
    taskUids: tasks.map((t) => t.uid),
    indexUid: 'a',
    mustCreateIndex,
    primaryKey: null,
    batchStrategy: '',
    reuseBatchUid: null,
  };
}

describe('an index deletion batch', () => {
  it('on a missing index fails every task of the batch with index_not_found, counters at 0', async () => {
    const tasks = enqueue(kind.add('a', { allow: false }), kind.deleteIds('a'), kind.drop('a'));
    const outcome = await processIndexDeletion(ctx, tasks, deletionBatch(tasks, false));
    expect(outcome.tasks.map((t) => t.status)).toEqual(['failed', 'failed', 'failed']);
    for (const task of outcome.tasks) expect(task.error).toMatchObject({ code: 'index_not_found', message: 'Index `a` not found.' });
    expect(outcome.tasks.map((t) => t.details)).toEqual([
      { kind: 'documentAdditionOrUpdate', receivedDocuments: 1, indexedDocuments: 0 },
      { kind: 'documentDeletion', providedIds: 1, deletedDocuments: 0 },
      { kind: 'clearAll', deletedDocuments: 0 },
    ]);
    expect(outcome.commit).toBeUndefined();
  });

  it('that may create the index succeeds, every earlier task reporting that nothing was done', async () => {
    const tasks = enqueue(kind.add('a'), kind.edit('a'), kind.clear('a'), kind.settings('a'), kind.drop('a'));
    const outcome = await processIndexDeletion(ctx, tasks, deletionBatch(tasks, true));
    expect(outcome.tasks.map((t) => t.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(outcome.tasks.map((t) => t.details)).toEqual([
      { kind: 'documentAdditionOrUpdate', receivedDocuments: 1, indexedDocuments: 0 },
      expect.objectContaining({ kind: 'documentEdition', editedDocuments: 0, deletedDocuments: 0 }),
      { kind: 'clearAll', deletedDocuments: null },
      tasks[3]!.details,
      { kind: 'clearAll', deletedDocuments: 0 },
    ]);
  });

  it('on an existing index removes it in the commit and its folder after', async () => {
    store.root.transactionSync(() => ctx.indexes.put(ctx.indexes.newRecord('a', null, 1n)));
    const tasks = enqueue(kind.drop('a'));
    const outcome = await processIndexDeletion(ctx, tasks, deletionBatch(tasks, false));
    expect(outcome.tasks[0]).toMatchObject({ status: 'succeeded', details: { deletedDocuments: 0 } });
    expect(ctx.indexes.exists('a')).toBe(true);
    store.root.transactionSync(() => outcome.commit!());
    expect(ctx.indexes.exists('a')).toBe(false);
  });
});

describe('task deletions run together', () => {
  it('count a task deleted by several of them once, for the oldest, and delete only finished tasks', async () => {
    const [done, waiting] = enqueue(kind.create('x'), kind.create('y'));
    ctx.queue.update({ ...done!, status: 'succeeded', startedAt: 1n, finishedAt: 2n });
    const deletions = enqueue(kind.deleteTasks([done!.uid, waiting!.uid]), kind.deleteTasks([done!.uid]));
    const outcome = await processDeletion(ctx, deletions, { ...deletionBatch(deletions, false), operation: 'taskDeletion', indexUid: null });
    expect(outcome.tasks.map((t) => t.details)).toEqual([
      { kind: 'taskDeletion', matchedTasks: 2, deletedTasks: 1, originalFilter: '?uids=0' },
      { kind: 'taskDeletion', matchedTasks: 1, deletedTasks: 0, originalFilter: '?uids=0' },
    ]);
    store.root.transactionSync(() => outcome.commit!());
    expect(ctx.queue.get(done!.uid)).toBeUndefined();
    expect(ctx.queue.get(waiting!.uid)).toBeDefined();
  });
});

describe('a cancelation', () => {
  it('cancels a failed upgradeDatabase task, as v1.50, but no other failed task', async () => {
    const [upgrade, create] = enqueue(kind.upgrade(), kind.create('x'));
    for (const task of [upgrade!, create!]) ctx.queue.update({ ...task, status: 'failed', startedAt: 1n, finishedAt: 2n });
    const [cancel] = enqueue(kind.cancel([upgrade!.uid, create!.uid]));
    const outcome = await processCancelation(ctx, [cancel!], { ...deletionBatch([cancel!], false), operation: 'taskCancelation', indexUid: null });
    expect(outcome.tasks.map((t) => [t.uid, t.status, t.canceledBy])).toEqual([
      [cancel!.uid, 'succeeded', null],
      [upgrade!.uid, 'canceled', cancel!.uid],
    ]);
  });
});

describe('an index creation batch', () => {
  const creationBatch = (task: Task): NextBatch => ({
    operation: 'indexCreation',
    taskUids: [task.uid],
    indexUid: 'made',
    mustCreateIndex: true,
    primaryKey: null,
    batchStrategy: '',
    reuseBatchUid: null,
  });

  it.each([
    ['with a primary key, measured from the environment it made', 'id'],
    ['without one, empty with nothing on disk', null],
  ])('stores the new index statistics with it, %s (GET /stats then opens no new index)', async (_, primaryKey) => {
    const [task] = enqueue(kind.create('made', primaryKey));
    const outcome = await processIndexCreation(ctx, [task!], creationBatch(task!));
    outcome.commit?.();
    const record = ctx.indexes.get('made')!;
    expect(ctx.indexStats.get(record.uuid)).toMatchObject({ numberOfDocuments: 0, fieldDistribution: primaryKey === null ? {} : expect.any(Object) });
    expect(ctx.indexStats.get(record.uuid)!.databaseSize > 0).toBe(primaryKey !== null);
  });
});

describe('a deletion batch of many tasks', () => {
  /** `count` finished tasks, stored at once (a dump import's way), then one deletion of them all. */
  function finishedTasks(count: number): { deletion: Task; uids: number[] } {
    const [template] = enqueue(kind.create('x'));
    const uids = Array.from({ length: count }, (_, k) => template!.uid + 1 + k);
    ctx.queue.restoreTasks(uids.map((uid) => ({ ...template!, uid, status: 'succeeded', startedAt: 1n, finishedAt: 2n })));
    const [deletion] = enqueue(kind.deleteTasks(uids));
    return { deletion: deletion!, uids };
  }
  const taskDeletionBatch = (deletion: Task): NextBatch => ({ ...deletionBatch([deletion], false), operation: 'taskDeletion', indexUid: null });

  it('deletes in slices that let the event loop turn: 40,000 tasks, in slices of at most 2,000 with a turn between two', async () => {
    const { deletion, uids } = finishedTasks(40_000);
    let turns = 0;
    let running = true;
    const ticks = (async () => {
      while (running) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
    })();
    // each slice's size and the turns counted when it began (counted, not timed: a loaded machine
    // slows a slice and the loop alike)
    const slices: { size: number; turns: number }[] = [];
    const deleteSlice = ctx.queue.deleteSlice.bind(ctx.queue);
    ctx.queue.deleteSlice = (slice, ...rest) => {
      slices.push({ size: slice.length, turns });
      return deleteSlice(slice, ...rest);
    };
    const outcome = await processDeletion(ctx, [deletion], taskDeletionBatch(deletion));
    await writeTxnAsync(store.root, () => outcome.commit!());
    running = false;
    await ticks;
    expect(outcome.tasks[0]!.details).toMatchObject({ deletedTasks: 40_000 });
    expect(ctx.queue.get(uids[0]!)).toBeUndefined();
    expect(ctx.queue.get(uids.at(-1)!)).toBeUndefined();
    expect(ctx.queue.query({}).total).toBe(2);
    // one transaction of 40,000 deletions held the loop ~1-2 s
    expect(slices.reduce((sum, { size }) => sum + size, 0)).toBe(40_000);
    expect(Math.max(...slices.map(({ size }) => size))).toBeLessThanOrEqual(2_000);
    for (let i = 1; i < slices.length; i++) expect(slices[i]!.turns).toBeGreaterThan(slices[i - 1]!.turns);
  }, 60_000);

  it('resumes a batch a crash interrupted between slices with the counts its committed slices recorded', async () => {
    const { deletion, uids } = finishedTasks(3_000);
    // the first slice committed before the crash: its tasks are gone, its count recorded
    await ctx.queue.deleteSlice(uids.slice(0, 2_000), deletion.uid, new Map());
    const outcome = await processDeletion(ctx, [deletion], taskDeletionBatch(deletion));
    expect(outcome.tasks[0]!.details).toMatchObject({ matchedTasks: 3_000, deletedTasks: 3_000 });
    await writeTxnAsync(store.root, () => outcome.commit!());
    expect(ctx.queue.deletionProgress()).toEqual(new Map());
  });
});
