import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { finishBatch, openBatch } from '../../../src/tasks/batch-record.js';
import { nextBatch } from '../../../src/tasks/autobatcher.js';
import { Progress } from '../../../src/tasks/progress.js';
import { TaskQueue } from '../../../src/tasks/queue.js';
import { TaskRecordPackr } from '../../../src/tasks/record-codecs.js';
import { UpdateFiles } from '../../../src/store/update-files.js';
import { parseTaskDate } from '../../../src/validation/task-filter-values.js';
import type { TaskQuery } from '../../../src/tasks/query.js';
import type { Task, TaskKind, Timestamp } from '../../../src/types/task.js';
import { formatRfc3339 } from '../../../src/types/dates.js';
import { kind } from './fixtures.js';

let dir: string;
let store: InstanceStore;
let queue: TaskQueue;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-queue-'));
  store = openInstanceStore(dir, '0.1.0');
  queue = new TaskQueue(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function reopen(): Promise<void> {
  await store.close();
  store = openInstanceStore(dir, '0.1.0');
  queue = new TaskQueue(store);
}

function enqueue(...kinds: TaskKind[]): Task[] {
  return kinds.map((k) => queue.register({ kind: k }));
}

const S = 1_000_000_000n;

interface RunOptions {
  outcome?: (task: Task) => Partial<Task>;
  startedAt?: Timestamp;
  finishedAt?: Timestamp;
  /** the queue that runs it (the shared one unless said) */
  on?: TaskQueue;
}

/** Runs the given enqueued tasks as one batch, the way the scheduler does, and commits it. */
function runBatch(uids: number[], { outcome = () => ({ status: 'succeeded' }), startedAt, finishedAt, on = queue }: RunOptions = {}) {
  const tasks = uids.map((uid) => on.get(uid)!);
  const start = startedAt ?? tasks[tasks.length - 1]!.enqueuedAt + S;
  const batch = openBatch(on.nextBatchUid(), tasks, 'test strategy', start);
  const done = finishBatch(
    batch,
    tasks.map((task) => ({ ...task, ...outcome(task) })),
    finishedAt ?? start + S,
  );
  on.commitBatch(done.batch, done.tasks);
  return done;
}

const uidsOf = (q: TaskQuery = {}) => queue.query(q).results.map((task) => task.uid);
const batchUidsOf = (q: TaskQuery = {}) => queue.queryBatches(q).results.map((batch) => batch.uid);

describe('uid allocation and persistence', () => {
  it('gives tasks sequential uids from 0', () => {
    expect(enqueue(kind.add('a'), kind.add('b'), kind.create('c')).map((t) => t.uid)).toEqual([0, 1, 2]);
    expect(queue.nextTaskUid()).toBe(3);
  });

  it('gives a task the uid it asks for when that is not below the next one, and the next uids follow it', async () => {
    enqueue(kind.add('a'));
    expect(queue.register({ kind: kind.add('a'), uid: 25 }).uid).toBe(25);
    expect(() => queue.register({ kind: kind.add('a'), uid: 25 })).toThrow('Received bad task id: 25 should be >= to 26.');
    expect((await queue.enqueue({ kind: kind.add('a') })).uid).toBe(26);
    expect((await queue.enqueue({ kind: kind.add('a'), uid: 27 })).uid).toBe(27);
    await reopen();
    expect(queue.nextTaskUid()).toBe(28);
  });

  it('stores nothing and takes no uid for a dry run', async () => {
    enqueue(kind.add('a'));
    expect((await queue.enqueue({ kind: kind.add('a'), dryRun: true })).uid).toBe(1);
    expect(queue.register({ kind: kind.add('a'), dryRun: true, uid: 9 }).uid).toBe(9);
    expect(queue.get(1)).toBeUndefined();
    expect(queue.get(9)).toBeUndefined();
    expect(queue.nextTaskUid()).toBe(1);
    expect(queue.query({}).total).toBe(1);
  });

  it('keeps tasks, their nanosecond dates and the next uid across close and reopen', async () => {
    const [first] = enqueue(kind.add('a'), kind.add('b'));
    await reopen();
    expect(queue.get(0)).toEqual(first);
    expect(typeof queue.get(0)!.enqueuedAt).toBe('bigint');
    expect(enqueue(kind.add('c'))[0]!.uid).toBe(2);
  });

  it('enqueues with status enqueued, default details and increasing enqueue dates', () => {
    const [a, b] = enqueue(kind.add('a', { count: 4 }), kind.snapshot());
    expect(a).toMatchObject({
      status: 'enqueued',
      batchUid: null,
      details: { kind: 'documentAdditionOrUpdate', receivedDocuments: 4, indexedDocuments: null },
      error: null,
      canceledBy: null,
      startedAt: null,
      finishedAt: null,
      customMetadata: null,
    });
    expect(b!.details).toBeNull();
    expect(b!.enqueuedAt > a!.enqueuedAt).toBe(true);
  });

  it('stores the custom metadata given at enqueue time', () => {
    expect(queue.register({ kind: kind.add('a'), customMetadata: 'abc' }).customMetadata).toBe('abc');
  });

  it('gives batches sequential uids from the stored ones, also after reopening', async () => {
    enqueue(kind.add('a'), kind.add('a'));
    expect(queue.nextBatchUid()).toBe(0);
    runBatch([0]);
    runBatch([1]);
    await reopen();
    expect(queue.nextBatchUid()).toBe(2);
    expect(queue.getBatch(1)).toMatchObject({ uid: 1, batchStrategy: 'test strategy' });
  });

  it('registers inside a caller transaction and rolls back with it', () => {
    expect(() =>
      store.root.transactionSync(() => {
        enqueue(kind.add('a'));
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(queue.nextTaskUid()).toBe(0);
    expect(queue.query({}).total).toBe(0);
    store.root.transactionSync(() => enqueue(kind.add('a'), kind.add('b')));
    expect(uidsOf()).toEqual([1, 0]);
  });

  it('drops the cancelation targets that are not older than the cancelation itself', () => {
    enqueue(kind.add('a'), kind.add('a'));
    const cancel = queue.register({ kind: kind.cancel([0, 1, 2, 5]) });
    expect(cancel.kind).toMatchObject({ tasks: [0, 1] });
    expect(cancel.details).toMatchObject({ matchedTasks: 2 });
  });
});

describe('commitBatch', () => {
  it('replaces the records its batch read, unchanged since, without decoding them again', () => {
    const [settings, add] = enqueue(kind.settings('a', { synonyms: { a: ['b'] } }), kind.add('b'));
    const tasks = [queue.get(settings!.uid)!, queue.get(add!.uid)!];
    const read = queue.readRecords(tasks);
    const batch = openBatch(queue.nextBatchUid(), tasks, 'test strategy', tasks[1]!.enqueuedAt + S);
    const done = finishBatch(batch, tasks.map((task) => ({ ...task, status: 'succeeded' as const })), tasks[1]!.enqueuedAt + 2n * S);
    const decodes = vi.spyOn(TaskRecordPackr.prototype, 'unpack');
    queue.commitBatch(done.batch, done.tasks, undefined, read);
    expect(decodes).not.toHaveBeenCalled();
    decodes.mockRestore();
    expect(uidsOf({ statuses: ['enqueued'] })).toEqual([]);
    expect(uidsOf({ statuses: ['succeeded'] })).toEqual([1, 0]);
    expect(queue.get(0)!.details).toEqual({ kind: 'settingsUpdate', settings: { synonyms: { a: ['b'] } } });
  });
});

describe('update', () => {
  it('moves the task in the indexes', () => {
    enqueue(kind.add('a'));
    queue.update({ ...queue.get(0)!, status: 'failed' });
    expect(uidsOf({ statuses: ['enqueued'] })).toEqual([]);
    expect(uidsOf({ statuses: ['failed'] })).toEqual([0]);
  });

  it('refuses to store the processing status', () => {
    enqueue(kind.add('a'));
    expect(() => queue.update({ ...queue.get(0)!, status: 'processing' })).toThrow(/never stored/);
  });

  it('refuses to update a task that does not exist', () => {
    const [task] = enqueue(kind.add('a'));
    expect(() => queue.update({ ...task!, uid: 9 })).toThrow(/does not exist/);
  });

  it('refuses to store a running batch', () => {
    const [task] = enqueue(kind.add('a'));
    expect(() => queue.writeBatch(openBatch(0, [task!], 's', 1n))).toThrow(/still running/);
  });
});

describe('pagination', () => {
  beforeEach(() => {
    enqueue(...Array.from({ length: 10 }, () => kind.add('a')));
  });

  it('returns the 20 newest by default with the envelope of GET /tasks', () => {
    enqueue(...Array.from({ length: 15 }, () => kind.add('a')));
    const page = queue.query({});
    expect(page.results.map((t) => t.uid)).toEqual(Array.from({ length: 20 }, (_, i) => 24 - i));
    expect({ ...page, results: undefined }).toEqual({ results: undefined, total: 25, limit: 20, from: 24, next: 4 });
  });

  it.each<[string, TaskQuery, number[], number | null]>([
    ['limit=3', { limit: 3 }, [9, 8, 7], 6],
    ['limit=3&from=1', { limit: 3, from: 1 }, [1, 0], null],
    ['limit=3&reverse=true', { limit: 3, reverse: true }, [0, 1, 2], 3],
    ['limit=3&from=8&reverse=true', { limit: 3, from: 8, reverse: true }, [8, 9], null],
    ['from=20 (past the newest)', { limit: 2, from: 20 }, [9, 8], 7],
    ['limit=10 (exactly all)', { limit: 10 }, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0], null],
  ])('pages %s like Meilisearch', (_name, q, uids, next) => {
    const page = queue.query(q);
    expect(page.results.map((t) => t.uid)).toEqual(uids);
    expect(page.next).toBe(next);
    expect(page.from).toBe(uids[0] ?? null);
    expect(page.total).toBe(10);
  });

  it.each<[string, TaskQuery, number[], number | null]>([
    ['limit=3', { limit: 3 }, [8, 6, 4], 2],
    ['limit=3&from=5', { limit: 3, from: 5 }, [4, 2, 0], null],
    ['limit=2&reverse=true&from=3', { limit: 2, reverse: true, from: 3 }, [4, 6], 8],
  ])('pages a filtered list %s the same way', (_name, q, uids, next) => {
    const page = queue.query({ ...q, uids: [0, 2, 4, 6, 8] });
    expect(page.results.map((t) => t.uid)).toEqual(uids);
    expect(page.next).toBe(next);
    expect(page.total).toBe(5);
  });

  it('answers limit=0 with no result and the first match as next', () => {
    expect(queue.query({ limit: 0 })).toEqual({ results: [], total: 10, limit: 0, from: null, next: 9 });
    expect(queue.query({ limit: 0, uids: [3, 4] })).toEqual({ results: [], total: 2, limit: 0, from: null, next: 4 });
  });

  it('answers an empty page with null cursors', () => {
    expect(queue.query({ uids: [42] })).toEqual({ results: [], total: 0, limit: 20, from: null, next: null });
  });
});

describe('filters', () => {
  beforeEach(() => {
    enqueue(
      kind.create('movies'), // 0
      kind.add('movies'), // 1
      kind.deleteFilter('movies'), // 2
      kind.clear('books'), // 3
      kind.settings('books'), // 4
      kind.swap(['movies', 'books']), // 5
      kind.update('books', null, 'novels'), // 6
      kind.dump(), // 7
    );
  });

  it('matches uids', () => {
    expect(uidsOf({ uids: [1, 3, 99] })).toEqual([3, 1]);
  });

  it('matches statuses', () => {
    runBatch([0]);
    runBatch([1], { outcome: () => ({ status: 'failed' }) });
    expect(uidsOf({ statuses: ['succeeded'] })).toEqual([0]);
    expect(uidsOf({ statuses: ['failed', 'succeeded'] })).toEqual([1, 0]);
    expect(uidsOf({ statuses: ['enqueued'] })).toEqual([7, 6, 5, 4, 3, 2]);
    expect(uidsOf({ statuses: ['canceled'] })).toEqual([]);
  });

  it('matches types, documentDeletion covering deletions by filter and clears', () => {
    expect(uidsOf({ types: ['documentDeletion'] })).toEqual([3, 2]);
    expect(uidsOf({ types: ['indexCreation', 'dumpCreation'] })).toEqual([7, 0]);
  });

  it('matches index uids, a rename under both uids, and hides swaps and global tasks from results only', () => {
    const movies = queue.query({ indexUids: ['movies'] });
    expect(movies.results.map((t) => t.uid)).toEqual([2, 1, 0]);
    // The swap touches movies: counted, not shown.
    expect(movies.total).toBe(4);
    expect(uidsOf({ indexUids: ['novels'] })).toEqual([6]);
    expect(uidsOf({ indexUids: ['books'] })).toEqual([6, 4, 3]);
    expect(uidsOf({ indexUids: ['nothing'] })).toEqual([]);
  });

  it('matches batch uids', () => {
    runBatch([3, 4]);
    runBatch([1]);
    expect(uidsOf({ batchUids: [0] })).toEqual([4, 3]);
    expect(uidsOf({ batchUids: [1, 0] })).toEqual([4, 3, 1]);
    expect(uidsOf({ batchUids: [5] })).toEqual([]);
  });

  it('matches canceledBy, and nothing when the given cancelations canceled nothing', () => {
    const cancel = queue.register({ kind: kind.cancel([1, 2]) });
    runBatch([1, 2, cancel.uid], {
      outcome: (t) => (t.uid === cancel.uid ? { status: 'succeeded' } : { status: 'canceled', canceledBy: cancel.uid }),
    });
    expect(uidsOf({ canceledBy: [cancel.uid] })).toEqual([2, 1]);
    expect(uidsOf({ canceledBy: [cancel.uid, 77] })).toEqual([2, 1]);
    expect(queue.query({ canceledBy: [77] })).toMatchObject({ results: [], total: 0 });
  });

  it('reads a list of thousands of index, batch or canceling uids in a few range reads, not one per value', () => {
    const cancel = queue.register({ kind: kind.cancel([1, 2]) });
    runBatch([1, 2, cancel.uid], {
      outcome: (t) => (t.uid === cancel.uid ? { status: 'succeeded' } : { status: 'canceled', canceledBy: cancel.uid }),
    });
    runBatch([3]);
    const taskIndex = (queue as unknown as { dbs: { taskIndex: { getKeys: unknown; getCount: unknown } } }).dbs.taskIndex;
    const keys = vi.spyOn(taskIndex as { getKeys: () => unknown }, 'getKeys');
    const counts = vi.spyOn(taskIndex as { getCount: () => unknown }, 'getCount');
    const many = Array.from({ length: 20_000 }, (_, i) => i + 100);
    expect(uidsOf({ canceledBy: [...many, cancel.uid] })).toEqual([2, 1]);
    expect(uidsOf({ indexUids: [...many.map((i) => `i${i}`), 'novels'] })).toEqual([6]);
    expect(uidsOf({ batchUids: [...many, 0] })).toEqual([cancel.uid, 2, 1]);
    expect(batchUidsOf({ indexUids: [...many.map((i) => `i${i}`), 'books'] })).toEqual([1]);
    expect(keys.mock.calls.length + counts.mock.calls.length).toBeLessThan(100);
  });

  it('treats a list containing * as no restriction', () => {
    expect(uidsOf({ statuses: ['*', 'failed'] })).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    expect(uidsOf({ uids: ['*'], types: ['*'], canceledBy: ['*'], batchUids: ['*'] })).toHaveLength(8);
    // `indexUids=*` restricts nothing, so global tasks stay visible.
    expect(uidsOf({ indexUids: ['*'] })).toHaveLength(8);
  });

  it('ANDs the filters and ORs the values of one filter', () => {
    runBatch([0, 1]);
    expect(uidsOf({ indexUids: ['movies', 'books'], statuses: ['enqueued'], types: ['documentDeletion', 'settingsUpdate'] })).toEqual([
      4, 3, 2,
    ]);
    expect(uidsOf({ uids: [0, 1, 2], statuses: ['succeeded'], types: ['documentAdditionOrUpdate'] })).toEqual([1]);
  });
});

describe('filters matching most tasks', () => {
  it('pages a status and a type that each match most tasks like the plain intersection, totals included', () => {
    const all = enqueue(...Array.from({ length: 80 }, (_, i) => (i % 9 === 0 ? kind.create(`i${i}`) : kind.add(i % 2 === 0 ? 'a' : 'b'))));
    enqueue(kind.dump());
    runBatch(all.filter((t) => t.uid % 13 !== 0).map((t) => t.uid), { outcome: (t) => ({ status: t.uid % 17 === 0 ? 'succeeded' : 'failed' }) });
    const stored = all.map((t) => queue.get(t.uid)!);
    const expected = (q: TaskQuery) =>
      stored
        .filter((t) => q.statuses!.includes(t.status as never) && (q.types === undefined || t.kind.name === q.types[0]) && (q.indexUids === undefined || 'indexUid' in t.kind && t.kind.indexUid === q.indexUids[0]))
        .map((t) => t.uid)
        .reverse();
    for (const q of [
      { statuses: ['failed'], types: ['documentAdditionOrUpdate'] },
      { statuses: ['failed'], indexUids: ['a'] },
      { statuses: ['failed', 'succeeded'], types: ['documentAdditionOrUpdate'] },
    ] as TaskQuery[]) {
      const want = expected(q);
      expect(want.length).toBeGreaterThan(10);
      const first = queue.query({ ...q, limit: 4 });
      expect({ uids: first.results.map((t) => t.uid), total: first.total, next: first.next }).toEqual({ uids: want.slice(0, 4), total: want.length, next: want[4] });
      expect(uidsOf({ ...q, limit: 3, from: want[5] })).toEqual(want.slice(5, 8));
      expect(uidsOf({ ...q, limit: 3, reverse: true })).toEqual([...want].reverse().slice(0, 3));
    }
  });
});

describe('status and type counts', () => {
  const totals = () => ({
    failed: queue.query({ statuses: ['failed'] }).total,
    enqueued: queue.query({ statuses: ['enqueued'] }).total,
    additions: queue.query({ types: ['documentAdditionOrUpdate'] }).total,
    creations: queue.query({ types: ['indexCreation'] }).total,
  });

  it('stay exact through updates and deletions, and are rebuilt for a store written without them', async () => {
    enqueue(kind.add('a'), kind.add('a'), kind.create('b'), kind.add('b'));
    runBatch([0, 1, 2], { outcome: (t) => ({ status: t.uid === 1 ? 'succeeded' : 'failed' }) });
    expect(totals()).toEqual({ failed: 2, enqueued: 1, additions: 3, creations: 1 });
    await queue.deleteSlice([0, 2], 99, new Map());
    expect(totals()).toEqual({ failed: 0, enqueued: 1, additions: 2, creations: 0 });

    const counts = store.root.openDB({ name: 'task-counts' });
    await counts.clearAsync();
    await reopen();
    expect(totals()).toEqual({ failed: 0, enqueued: 1, additions: 2, creations: 0 });
  });
});

describe('date filters', () => {
  let tasks: Task[];
  beforeEach(() => {
    tasks = enqueue(kind.add('a'), kind.add('a'), kind.add('a'), kind.add('a'));
  });

  it('compares enqueue dates strictly', () => {
    const at = tasks[1]!.enqueuedAt;
    expect(uidsOf({ afterEnqueuedAt: at })).toEqual([3, 2]);
    expect(uidsOf({ beforeEnqueuedAt: at })).toEqual([0]);
    expect(uidsOf({ afterEnqueuedAt: tasks[0]!.enqueuedAt, beforeEnqueuedAt: tasks[3]!.enqueuedAt })).toEqual([2, 1]);
    expect(uidsOf({ afterEnqueuedAt: at, beforeEnqueuedAt: at })).toEqual([]);
  });

  it('excludes the whole day of a bare after* date and includes none of it for before*', () => {
    const today = new Date(Number(tasks[0]!.enqueuedAt / 1_000_000n)).toISOString().slice(0, 10);
    expect(uidsOf({ afterEnqueuedAt: parseTaskDate('after')(today) })).toEqual([]);
    expect(uidsOf({ beforeEnqueuedAt: parseTaskDate('before')(today) })).toEqual([]);
    expect(uidsOf({ afterEnqueuedAt: parseTaskDate('before')(today) })).toEqual([3, 2, 1, 0]);
  });

  it('pages a wide date bound (walked in the task table) and a narrow one (read from the index) alike', () => {
    const more = enqueue(...Array.from({ length: 36 }, () => kind.add('a')));
    // wide: 38 of 40 tasks match
    const wide = queue.query({ afterEnqueuedAt: tasks[1]!.enqueuedAt, limit: 5, from: 30 });
    expect(wide.results.map((t) => t.uid)).toEqual([30, 29, 28, 27, 26]);
    expect({ total: wide.total, next: wide.next }).toEqual({ total: 38, next: 25 });
    expect(queue.query({ afterEnqueuedAt: tasks[1]!.enqueuedAt, limit: 3, from: 3, reverse: true }).results.map((t) => t.uid)).toEqual([3, 4, 5]);
    // narrow: 3 of 40 tasks match
    const narrow = queue.query({ afterEnqueuedAt: more[31]!.enqueuedAt, beforeEnqueuedAt: more[35]!.enqueuedAt, limit: 2 });
    expect(narrow.results.map((t) => t.uid)).toEqual([38, 37]);
    expect({ total: narrow.total, next: narrow.next }).toEqual({ total: 3, next: 36 });
  });

  it('compares start and finish dates strictly and never matches unfinished tasks', () => {
    runBatch([0], { startedAt: 100n * S, finishedAt: 200n * S });
    runBatch([1], { startedAt: 300n * S, finishedAt: 400n * S });
    expect(uidsOf({ afterStartedAt: 100n * S })).toEqual([1]);
    expect(uidsOf({ beforeStartedAt: 300n * S })).toEqual([0]);
    expect(uidsOf({ afterStartedAt: 99n * S, beforeStartedAt: 301n * S })).toEqual([1, 0]);
    expect(uidsOf({ afterFinishedAt: 200n * S })).toEqual([1]);
    expect(uidsOf({ beforeFinishedAt: 400n * S })).toEqual([0]);
    expect(uidsOf({ beforeFinishedAt: 10_000_000_000n * S })).toEqual([1, 0]);
  });
});

describe('the running batch', () => {
  let batchUid: number;
  beforeEach(() => {
    enqueue(kind.add('a'), kind.add('a'), kind.add('b'));
    const snapshot = queue.nextEnqueued();
    const next = nextBatch({ ...snapshot, index: () => ({ exists: false, primaryKey: null }) })!;
    batchUid = queue.nextBatchUid();
    const tasks = next.taskUids.map((uid) => queue.get(uid)!);
    queue.setProcessing({ batch: openBatch(batchUid, tasks, next.batchStrategy, 500n * S), taskUids: new Set(next.taskUids) });
  });

  it('shows its tasks as processing in that batch since its start', () => {
    expect(queue.get(0)).toMatchObject({ status: 'processing', batchUid, startedAt: 500n * S });
    expect(queue.get(2)).toMatchObject({ status: 'enqueued', batchUid: null });
  });

  it('keeps its tasks enqueued on disk, so a restart enqueues them again', async () => {
    await reopen();
    expect(queue.get(0)).toMatchObject({ status: 'enqueued', batchUid: null, startedAt: null });
    expect(queue.getBatch(batchUid)).toBeUndefined();
    expect(queue.nextBatchUid()).toBe(batchUid);
  });

  it('matches processing, and no longer enqueued, tasks by status', () => {
    expect(uidsOf({ statuses: ['processing'] })).toEqual([1, 0]);
    expect(uidsOf({ statuses: ['enqueued'] })).toEqual([2]);
    expect(uidsOf({ statuses: ['enqueued', 'processing'] })).toEqual([2, 1, 0]);
    expect(uidsOf()).toEqual([2, 1, 0]);
  });

  it('matches its tasks by batch uid and by its start date', () => {
    expect(uidsOf({ batchUids: [batchUid] })).toEqual([1, 0]);
    expect(uidsOf({ afterStartedAt: 499n * S })).toEqual([1, 0]);
    expect(uidsOf({ afterStartedAt: 500n * S })).toEqual([]);
    expect(uidsOf({ beforeFinishedAt: 10_000n * S })).toEqual([]);
  });

  it('is listed among the batches with its live progress until it is committed', () => {
    const running = queue.processing!;
    const progress = new Progress();
    progress.enter('batch', 'processing tasks');
    queue.setProcessing({ ...running, progress });
    expect(queue.getBatch(batchUid)?.progress).toEqual({ steps: [{ currentStep: 'processing tasks', finished: 0, total: 2 }], percentage: 0 });
    progress.enter('batch', 'writing tasks to disk');
    expect(queue.queryBatches({}).results[0]?.progress).toEqual({
      steps: [{ currentStep: 'writing tasks to disk', finished: 1, total: 2 }],
      percentage: 50,
    });
    expect(queue.getBatch(batchUid)).toMatchObject({
      uid: batchUid,
      progress: { percentage: 50 },
      stats: { totalNbTasks: 2, status: { processing: 2 } },
      finishedAt: null,
    });
    expect(batchUidsOf()).toEqual([batchUid]);
    expect(batchUidsOf({ statuses: ['processing'] })).toEqual([batchUid]);
    expect(batchUidsOf({ statuses: ['succeeded'] })).toEqual([]);
    expect(batchUidsOf({ uids: [1] })).toEqual([batchUid]);
    expect(batchUidsOf({ types: ['documentAdditionOrUpdate'] })).toEqual([batchUid]);
    expect(batchUidsOf({ indexUids: ['a'] })).toEqual([batchUid]);
    expect(batchUidsOf({ indexUids: ['b'] })).toEqual([]);
  });

  it('is stored with its tasks once finished', () => {
    const running = queue.processing!;
    const tasks = [...running.taskUids].map((uid) => ({ ...queue.get(uid)!, status: 'succeeded' as const }));
    const done = finishBatch(running.batch, tasks, 600n * S);
    queue.commitBatch(done.batch, done.tasks);
    queue.setProcessing(null);
    expect(queue.get(0)).toMatchObject({ status: 'succeeded', batchUid, startedAt: 500n * S, finishedAt: 600n * S });
    expect(queue.getBatch(batchUid)).toMatchObject({ progress: null, stats: { status: { succeeded: 2 } } });
    expect(queue.tasksInBatch(batchUid)).toEqual([0, 1]);
  });
});

describe('deleteSlice', () => {
  const deleteSlice = (uids: number[]) => queue.deleteSlice(uids, 99, new Map());

  beforeEach(() => {
    enqueue(kind.add('a'), kind.add('a'), kind.add('b'), kind.add('b'));
    runBatch([0, 1]);
    runBatch([2]);
  });

  it('deletes finished tasks only and counts them for the deletion, recording the count until cleared', async () => {
    const progress = new Map([[98, 5]]);
    await queue.deleteSlice([3, 2, 1, 42], 99, progress);
    expect(progress).toEqual(new Map([[98, 5], [99, 2]]));
    expect(queue.deletionProgress()).toEqual(progress);
    queue.clearDeletionProgress();
    expect(queue.deletionProgress()).toEqual(new Map());
    expect(queue.get(1)).toBeUndefined();
    expect(queue.get(3)).toMatchObject({ status: 'enqueued' });
  });

  it('removes the deleted tasks from every index', async () => {
    await deleteSlice([0, 2]);
    expect(queue.query({})).toMatchObject({ total: 2 });
    expect(uidsOf({ statuses: ['succeeded'] })).toEqual([1]);
    expect(uidsOf({ types: ['documentAdditionOrUpdate'] })).toEqual([3, 1]);
    expect(uidsOf({ indexUids: ['b'] })).toEqual([3]);
    expect(uidsOf({ batchUids: [0, 1] })).toEqual([1]);
    expect(uidsOf({ afterEnqueuedAt: 0n })).toEqual([3, 1]);
    expect(uidsOf({ afterFinishedAt: 0n })).toEqual([1]);
    expect(uidsOf({ afterStartedAt: 0n })).toEqual([1]);
  });

  it('deletes a batch left without tasks and keeps the others', async () => {
    await deleteSlice([0, 2]);
    expect(queue.getBatch(0)).toBeDefined();
    expect(queue.getBatch(1)).toBeUndefined();
    expect(batchUidsOf()).toEqual([0]);
    expect(batchUidsOf({ indexUids: ['b'] })).toEqual([]);
    expect(batchUidsOf({ statuses: ['succeeded'] })).toEqual([0]);
  });

  it('never reuses the uid of the newest task, which stays', async () => {
    await deleteSlice([0, 1, 2]);
    expect(enqueue(kind.add('c'))[0]!.uid).toBe(4);
  });
});

describe('the automatic cleanup of a full queue', () => {
  it('does nothing while the queue holds fewer tasks than the maximum', () => {
    enqueue(kind.add('a'), kind.add('a'), kind.add('a'));
    runBatch([0, 1]);
    expect(queue.cleanUpWhenFull(4)).toEqual({ kind: 'under' });
    expect(queue.query({}).total).toBe(3);
  });

  it('registers a deletion of the oldest finished tasks once the maximum is reached, whatever their status', () => {
    enqueue(kind.add('a'), kind.add('b'), kind.add('a'), kind.add('b'));
    runBatch([0, 2]);
    runBatch([1], { outcome: () => ({ status: 'failed', error: { message: 'x', code: 'internal', type: 'internal', link: '' } }) });
    const cleanup = queue.cleanUpWhenFull(4);
    expect(cleanup.kind).toBe('registered');
    const task = (cleanup as { task: Task }).task;
    const newest = queue.get(2)!.enqueuedAt + 1n;
    expect(task).toMatchObject({
      uid: 4,
      status: 'enqueued',
      kind: { name: 'taskDeletion', tasks: [0, 1, 2], query: `?beforeEnqueuedAt=${formatRfc3339(newest)}&statuses=succeeded,failed,canceled` },
      details: { matchedTasks: 3, deletedTasks: null, originalFilter: `?beforeEnqueuedAt=${formatRfc3339(newest)}&statuses=succeeded,failed,canceled` },
    });
    expect(queue.get(4)).toMatchObject({ kind: { name: 'taskDeletion' } });
  });

  it('registers nothing while fewer than two tasks are finished', () => {
    enqueue(kind.add('a'), kind.add('a'), kind.add('a'));
    expect(queue.cleanUpWhenFull(3)).toEqual({ kind: 'stuck' });
    runBatch([0]);
    expect(queue.cleanUpWhenFull(3)).toEqual({ kind: 'stuck' });
    expect(queue.query({}).total).toBe(3);
  });

});

describe('API key restrictions', () => {
  beforeEach(() => {
    enqueue(kind.add('a'), kind.add('b'), kind.dump(), kind.update('a', null, 'secret'), kind.add('a'));
  });
  const onlyA = (uid: string) => uid === 'a';

  it('hides tasks of unauthorized indexes and global tasks, but counts them in total', () => {
    const page = queue.query({}, onlyA);
    expect(page.results.map((t) => t.uid)).toEqual([4, 0]);
    expect(page.total).toBe(5);
  });

  it('applies the exclusions before paging, like Meilisearch, so pages are full and next skips hidden tasks', () => {
    expect(queue.query({ limit: 1 }, onlyA)).toMatchObject({ results: [{ uid: 4 }], total: 5, next: 0 });
    expect(queue.query({ limit: 1, from: 3 }, onlyA)).toMatchObject({ results: [{ uid: 0 }], next: null });
    expect(queue.query({ limit: 1, reverse: true, from: 1 }, onlyA)).toMatchObject({ results: [{ uid: 4 }], next: null });
    expect(queue.query({ limit: 1, statuses: ['enqueued'] }, onlyA)).toMatchObject({ results: [{ uid: 4 }], total: 5, next: 0 });
  });

  it('hides single tasks the key may not see', () => {
    expect(queue.get(0, onlyA)).toBeDefined();
    expect(queue.get(1, onlyA)).toBeUndefined();
    expect(queue.get(2, onlyA)).toBeUndefined();
    expect(queue.get(3, onlyA)).toBeUndefined();
  });

  it('restricts the frozen set of a cancel or delete request the same way', () => {
    expect(queue.matchUids({ statuses: ['*'] })).toEqual([0, 1, 2, 3, 4]);
    expect(queue.matchUids({ statuses: ['enqueued'] }, onlyA)).toEqual([0, 4]);
    expect(queue.matchUids({ indexUids: ['a'] })).toEqual([0, 3, 4]);
    expect(queue.matchUids({ types: ['dumpCreation', 'documentAdditionOrUpdate'] })).toEqual([0, 1, 2, 4]);
  });

  it('shows a batch when one of its indexes is authorized', () => {
    runBatch([0]);
    runBatch([1]);
    runBatch([2]);
    expect(queue.queryBatches({}, onlyA).results.map((b) => b.uid)).toEqual([0]);
    expect(queue.queryBatches({}, onlyA).total).toBe(3);
    expect(queue.getBatch(1, onlyA)).toBeUndefined();
    expect(queue.getBatch(2, onlyA)).toBeUndefined();
  });
});

describe('batch listing', () => {
  let cancelUid: number;
  beforeEach(() => {
    enqueue(kind.add('a'), kind.settings('a'), kind.add('b'), kind.dump());
    runBatch([0], { startedAt: 100n * S, finishedAt: 110n * S });
    runBatch([1], { startedAt: 200n * S, finishedAt: 210n * S, outcome: () => ({ status: 'failed' }) });
    cancelUid = queue.register({ kind: kind.cancel([2]) }).uid;
    runBatch([cancelUid, 2], {
      startedAt: 300n * S,
      finishedAt: 310n * S,
      outcome: (t) => (t.uid === cancelUid ? { status: 'succeeded' } : { status: 'canceled', canceledBy: cancelUid }),
    });
    runBatch([3], { startedAt: 400n * S, finishedAt: 410n * S });
  });

  it('lists batches newest first with the cursor envelope', () => {
    expect(queue.queryBatches({ limit: 2 })).toMatchObject({ total: 4, limit: 2, from: 3, next: 1 });
    expect(batchUidsOf({ limit: 2, from: 1 })).toEqual([1, 0]);
    expect(batchUidsOf({ reverse: true })).toEqual([0, 1, 2, 3]);
    expect(queue.queryBatches({ limit: 0 })).toMatchObject({ results: [], next: 3 });
  });

  it('pages the running batch among the stored ones', () => {
    const [t] = enqueue(kind.add('c'));
    queue.setProcessing({ batch: openBatch(queue.nextBatchUid(), [t!], 's', 500n * S), taskUids: new Set([t!.uid]) });
    expect(queue.queryBatches({ limit: 2 })).toMatchObject({ total: 5, from: 4, next: 2 });
    expect(batchUidsOf({ limit: 2 })).toEqual([4, 3]);
    expect(batchUidsOf({ reverse: true, from: 3 })).toEqual([3, 4]);
    expect(batchUidsOf({ from: 3 })).toEqual([3, 2, 1, 0]);
    expect(batchUidsOf({ statuses: ['processing', 'failed'] })).toEqual([4, 1]);
  });

  it('filters batches by the tasks they hold', () => {
    expect(batchUidsOf({ uids: [1, 2] })).toEqual([2, 1]);
    expect(batchUidsOf({ batchUids: [0, 3, 9] })).toEqual([3, 0]);
    expect(batchUidsOf({ statuses: ['failed'] })).toEqual([1]);
    expect(batchUidsOf({ statuses: ['canceled', 'succeeded'] })).toEqual([3, 2, 0]);
    expect(batchUidsOf({ statuses: ['enqueued'] })).toEqual([]);
    expect(batchUidsOf({ types: ['settingsUpdate', 'dumpCreation'] })).toEqual([3, 1]);
    expect(batchUidsOf({ indexUids: ['a'] })).toEqual([1, 0]);
    // The cancelation batch holds a task of index b, but a global task hides it.
    expect(queue.queryBatches({ indexUids: ['b'] })).toMatchObject({ results: [], total: 1 });
  });

  it('filters batches by the succeeded cancelation that ran in them', () => {
    expect(batchUidsOf({ canceledBy: [cancelUid] })).toEqual([2]);
    expect(queue.queryBatches({ canceledBy: [0] })).toMatchObject({ results: [], total: 0 });
  });

  it('filters batches by start and finish dates strictly', () => {
    expect(batchUidsOf({ afterStartedAt: 200n * S })).toEqual([3, 2]);
    expect(batchUidsOf({ beforeFinishedAt: 210n * S })).toEqual([0]);
    expect(batchUidsOf({ afterFinishedAt: 110n * S, beforeStartedAt: 400n * S })).toEqual([2, 1]);
  });

  it('matches a batch when its oldest or its newest task was enqueued in the range', () => {
    // Batch 2 holds task 2 (its oldest) and the cancelation (its newest); the dump 3 was enqueued between.
    const oldest = queue.get(2)!.enqueuedAt;
    const newest = queue.get(cancelUid)!.enqueuedAt;
    const dump = queue.get(3)!.enqueuedAt;
    expect(batchUidsOf({ afterEnqueuedAt: oldest - 1n, beforeEnqueuedAt: oldest + 1n })).toEqual([2]);
    expect(batchUidsOf({ afterEnqueuedAt: dump, beforeEnqueuedAt: newest + 1n })).toEqual([2]);
    expect(batchUidsOf({ afterEnqueuedAt: oldest, beforeEnqueuedAt: newest })).toEqual([3]);
    expect(batchUidsOf({ beforeEnqueuedAt: oldest + 1n })).toEqual([2, 1, 0]);
  });

  it('summarizes the tasks of a batch in its stats and details', () => {
    expect(queue.getBatch(2)).toMatchObject({
      stats: {
        totalNbTasks: 2,
        status: { succeeded: 1, canceled: 1 },
        types: { taskCancelation: 1, documentAdditionOrUpdate: 1 },
        indexUids: { b: 1 },
      },
      details: { matchedTasks: 1, canceledTasks: null, receivedDocuments: 1, indexedDocuments: null },
    });
  });
});

describe('nextEnqueued', () => {
  it('gives the prioritised tasks, failed upgrades and the oldest task index run, with the enqueued count', () => {
    enqueue(kind.add('a'), kind.add('b'), kind.add('a'), kind.dump(), kind.add('a'), kind.upgrade());
    queue.update({ ...queue.get(5)!, status: 'failed' });
    const snapshot = queue.nextEnqueued();
    expect(snapshot.tasks.map((t) => t.uid)).toEqual([0, 2, 3, 4, 5]);
    expect(snapshot.enqueuedCount).toBe(5);
  });

  it('reads one index task more than a batch may hold', () => {
    enqueue(kind.add('a'), kind.add('a'), kind.add('a'), kind.add('a'));
    expect(queue.nextEnqueued(2).tasks.map((t) => t.uid)).toEqual([0, 1, 2]);
  });

  it('gives a snapshot from which the autobatcher picks the same batch as from the whole queue', () => {
    enqueue(kind.add('b'), kind.add('a'), kind.settings('b'), kind.add('b'), kind.add('a'));
    const index = () => ({ exists: true, primaryKey: null });
    const whole = nextBatch({ tasks: [0, 1, 2, 3, 4].map((u) => queue.get(u)!), enqueuedCount: 5, index });
    expect(nextBatch({ ...queue.nextEnqueued(), index })).toEqual(whole);
    expect(whole?.taskUids).toEqual([0]);
  });

  it('is empty when nothing is enqueued', () => {
    expect(queue.nextEnqueued()).toEqual({ tasks: [], enqueuedCount: 0 });
  });
});

describe('relabelIndexes', () => {
  it('renames the indexes of older tasks both ways, the details of swaps included, and moves their index entries', () => {
    enqueue(kind.add('a'), kind.add('b'), kind.swap(['a', 'c']), kind.add('a'));
    queue.relabelIndexes(new Map([['a', 'b'], ['b', 'a']]), 3);
    expect(queue.get(0)!.kind).toMatchObject({ indexUid: 'b' });
    expect(queue.get(1)!.kind).toMatchObject({ indexUid: 'a' });
    expect(queue.get(2)!.kind).toMatchObject({ swaps: [{ indexes: ['b', 'c'] }] });
    expect(queue.get(2)!.details).toMatchObject({ swaps: [{ indexes: ['b', 'c'], rename: false }] });
    expect(queue.get(3)!.kind).toMatchObject({ indexUid: 'a' });
    expect(uidsOf({ indexUids: ['a'] })).toEqual([3, 1]);
    expect(uidsOf({ indexUids: ['b'] })).toEqual([0]);
  });
});

describe('enqueuedContentFiles', () => {
  it('names the payloads of the document additions still enqueued, and no others', () => {
    const files = (uuid: string) => ({ ...kind.add('a'), contentFile: uuid });
    enqueue(files('done'), files('waiting'), kind.create('x'), files('running'));
    runBatch([0]);
    queue.setProcessing({ batch: openBatch(1, [queue.get(3)!], 'test', 0n), taskUids: new Set([3]) });
    expect(queue.enqueuedContentFiles()).toEqual(new Set(['waiting', 'running']));
  });
});

async function* chunks(...parts: Buffer[]): AsyncGenerator<Buffer> {
  yield* parts;
}

describe('the task-store guard', () => {
  let smallDir: string;
  let small: InstanceStore;
  let guarded: TaskQueue;
  beforeEach(() => {
    smallDir = mkdtempSync(path.join(tmpdir(), 'quarry-guard-'));
    const root = open({ path: smallDir, maxDbs: 32, mapSize: 4 * 1024 * 1024, compression: false });
    small = { root, main: root.openDB({ name: 'main' }), dbPath: smallDir, close: () => root.close() };
    guarded = new TaskQueue(small);
  });
  afterEach(async () => {
    await small.close();
    rmSync(smallDir, { recursive: true, force: true });
  });

  /** Enqueues 8 KB tasks until the store refuses one; returns the error. */
  function fill(): unknown {
    for (let i = 0; i < 1000; i++) {
      try {
        guarded.register({ kind: kind.add('a'), customMetadata: 'x'.repeat(8192) });
      } catch (err) {
        return err;
      }
    }
    return undefined;
  }

  it('refuses new tasks with 422 no_space_left_on_device past 40 % of the map, long before it is full', () => {
    const error = fill();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody()).toEqual({
      message:
        'Meilisearch cannot receive write operations because the limit of the task database has been reached. Please delete tasks to continue performing write operations.',
      code: 'no_space_left_on_device',
      type: 'system',
      link: 'https://docs.meilisearch.com/errors#no_space_left_on_device',
    });
    expect((error as ApiError).status).toBe(422);
    // Page overhead counts: the payloads alone stay under 40 % of the map, but not far under.
    const payload = guarded.nextTaskUid() * 8192;
    expect(payload).toBeLessThan(0.4 * 4 * 1024 * 1024);
    expect(payload).toBeGreaterThan(0.2 * 4 * 1024 * 1024);
  });

  it('lets the automatic cleanup of a full queue register its deletion when other tasks are refused', () => {
    expect(fill()).toBeInstanceOf(ApiError);
    runBatch([0, 1], { on: guarded });
    expect(guarded.cleanUpWhenFull(2)).toMatchObject({ kind: 'registered', task: { kind: { name: 'taskDeletion', tasks: [0, 1] } } });
  });

  it('counts the payloads kept in the environment, so they cannot fill the map', async () => {
    const payloads = new UpdateFiles(small);
    for (let i = 0; i < 6; i++) await payloads.persist(chunks(Buffer.alloc(200 * 1024, 'x')));
    const error = fill();
    expect(error).toBeInstanceOf(ApiError);
    // Without the 1.2 MB of payloads the store takes about 130 such tasks.
    expect(guarded.nextTaskUid()).toBeLessThan(100);
  });

  it('still accepts a cancelation or deletion that targets tasks, and refuses one that targets none', () => {
    fill();
    const last = guarded.nextTaskUid() - 1;
    expect(guarded.register({ kind: kind.deleteTasks([0, 1]) }).uid).toBe(last + 1);
    expect(guarded.register({ kind: kind.cancel([last]) }).uid).toBe(last + 2);
    expect(() => guarded.register({ kind: kind.cancel([]) })).toThrow(ApiError);
  });

  it('accepts tasks again once tasks are deleted', async () => {
    fill();
    const uids = Array.from({ length: guarded.nextTaskUid() }, (_, uid) => uid);
    for (const uid of uids) guarded.update({ ...guarded.get(uid)!, status: 'succeeded', startedAt: 1n, finishedAt: 2n });
    // As a deletion task would: everything but the newest task, which keeps the uids going.
    await guarded.deleteSlice(uids.slice(0, -1), 99, new Map());
    expect(guarded.register({ kind: kind.add('a') }).uid).toBe(uids.length);
  });
});

describe('a filter value given twice', () => {
  it('counts and lists its tasks once', () => {
    enqueue(kind.add('a'), kind.add('a'));
    expect(queue.query({ statuses: ['enqueued', 'enqueued'], limit: 5 })).toMatchObject({ total: 2, next: null });
    expect(uidsOf({ statuses: ['enqueued', 'enqueued'] })).toEqual([1, 0]);
    expect(queue.query({ indexUids: ['a', 'a'] }).total).toBe(2);
  });
});

describe("a task's network", () => {
  const VERSION = '0198f3a2-6c1e-7b0a-9d7e-2f4c1b8a9e10';

  it('is registered with the task and replaced durably by setNetwork', async () => {
    const task = queue.register({ kind: kind.add('a'), network: { remote_tasks: {}, network_version: VERSION } });
    expect(queue.get(task.uid)!.network).toEqual({ remote_tasks: {}, network_version: VERSION });
    queue.setNetwork(task.uid, { remote_tasks: { ms1: { taskUid: 3, error: null } }, network_version: VERSION });
    await reopen();
    expect(queue.get(task.uid)!.network).toEqual({ remote_tasks: { ms1: { taskUid: 3, error: null } }, network_version: VERSION });
  });

  it('recorded while its batch ran survives the batch commit of an older copy', () => {
    const task = queue.register({ kind: kind.add('a'), network: { remote_tasks: {}, network_version: VERSION } });
    const copy = queue.get(task.uid)!;
    queue.setNetwork(task.uid, { remote_tasks: { ms1: { taskUid: 3, error: null } }, network_version: VERSION });
    const batch = openBatch(queue.nextBatchUid(), [copy], 'test strategy', copy.enqueuedAt + S);
    const done = finishBatch(batch, [{ ...copy, status: 'succeeded' }], copy.enqueuedAt + 2n * S);
    queue.commitBatch(done.batch, done.tasks);
    expect(queue.get(task.uid)).toMatchObject({ status: 'succeeded', network: { remote_tasks: { ms1: { taskUid: 3, error: null } } } });
  });

  it('recorded while its batch ran survives the commit of the records the batch read', () => {
    const task = queue.register({ kind: kind.add('a'), network: { remote_tasks: {}, network_version: VERSION } });
    const copy = queue.get(task.uid)!;
    const read = queue.readRecords([copy]);
    queue.setNetwork(task.uid, { remote_tasks: { ms1: { taskUid: 3, error: null } }, network_version: VERSION });
    const batch = openBatch(queue.nextBatchUid(), [copy], 'test strategy', copy.enqueuedAt + S);
    const done = finishBatch(batch, [{ ...copy, status: 'succeeded' }], copy.enqueuedAt + 2n * S);
    queue.commitBatch(done.batch, done.tasks, undefined, read);
    expect(queue.get(task.uid)).toMatchObject({ status: 'succeeded', network: { remote_tasks: { ms1: { taskUid: 3, error: null } } } });
  });

  it('is left alone when the task was deleted meanwhile', () => {
    expect(() => queue.setNetwork(42, { origin: { remoteName: 'ms0', taskUid: 1, networkVersion: VERSION } })).not.toThrow();
    expect(queue.get(42)).toBeUndefined();
  });
});

describe('listing while a batch runs', () => {
  /** What a filter selects, as every task is shown: the reference the page must agree with. */
  function expected(q: TaskQuery): number[] {
    const all = Array.from({ length: queue.nextTaskUid() }, (_, uid) => queue.get(uid)!);
    const inList = <T>(list: readonly T[] | undefined, value: T | null) => list === undefined || (value !== null && list.includes(value));
    return all
      .filter((t) => inList(q.statuses, t.status) && inList(q.batchUids, t.batchUid) && inList(q.indexUids, t.kind.name === 'documentAdditionOrUpdate' ? t.kind.indexUid : null))
      .filter((t) => q.afterStartedAt === undefined || (t.startedAt !== null && t.startedAt > q.afterStartedAt))
      .map((t) => t.uid)
      .sort((a, b) => (q.reverse === true ? a - b : b - a));
  }

  it('pages and counts each filter as the tasks are shown, the running ones as processing', () => {
    enqueue(...Array.from({ length: 12 }, (_, k) => kind.add(k % 3 === 0 ? 'b' : 'a')));
    runBatch([0, 1, 2, 3], { outcome: (t) => ({ status: t.uid === 2 ? 'failed' : 'succeeded' }) });
    const running = [4, 5, 7];
    queue.setProcessing({ batch: openBatch(queue.nextBatchUid(), running.map((uid) => queue.get(uid)!), 's', 900n * S), taskUids: new Set(running) });
    const batch = queue.processing!.batch.uid;
    const filters: TaskQuery[] = [
      {},
      { statuses: ['enqueued'] },
      { statuses: ['processing'] },
      { statuses: ['processing', 'failed'] },
      { statuses: ['enqueued', 'processing'], indexUids: ['a'] },
      { batchUids: [batch, 0] },
      { indexUids: ['b'] },
      { afterStartedAt: 800n * S },
      { statuses: ['enqueued', 'succeeded', 'processing'], reverse: true },
    ];
    for (const filter of filters) {
      const want = expected(filter);
      expect(queue.query(filter).total, JSON.stringify(filter, (_, v) => (typeof v === 'bigint' ? String(v) : v))).toBe(want.length);
      for (const [limit, from] of [[3, undefined], [2, want[1]], [4, want[3]]] as const) {
        const page = queue.query({ ...filter, limit, from });
        const start = from === undefined ? 0 : want.indexOf(from);
        expect(page.results.map((t) => t.uid)).toEqual(want.slice(start, start + limit));
        expect(page.next).toBe(want[start + limit] ?? null);
      }
    }
  });

  it('reads only its page of a large queue: 100,000 tasks filtered by status', () => {
    const [template] = enqueue(kind.add('a'));
    queue.restoreTasks(Array.from({ length: 100_000 }, (_, k) => ({ ...template!, uid: k + 1, status: 'succeeded' as const, startedAt: 1n, finishedAt: 2n })));
    const [waiting] = enqueue(kind.add('a'));
    queue.setProcessing({ batch: openBatch(queue.nextBatchUid(), [waiting!], 's', 900n * S), taskUids: new Set([waiting!.uid]) });
    // keys read and records decoded (counted, not timed: a loaded machine slows every reading alike)
    const dbs = (queue as unknown as { dbs: Record<'tasks' | 'taskIndex', { getKeys: (...a: unknown[]) => Iterable<unknown> }> }).dbs;
    let read = 0;
    for (const db of [dbs.tasks, dbs.taskIndex]) {
      const original = db.getKeys.bind(db);
      vi.spyOn(db, 'getKeys').mockImplementation(function* (...args: unknown[]) {
        for (const key of original(...args)) {
          read++;
          yield key;
        }
      });
    }
    const decoded = vi.spyOn(TaskRecordPackr.prototype, 'unpack');
    const page = queue.query({ statuses: ['succeeded'] });
    expect(page).toMatchObject({ total: 100_000, next: 100_000 - 20 });
    // reading every succeeded uid (100,000 keys) took 0.3-0.6 s here (1.6-1.9 s per request over
    // 300,000 tasks); the page reads about its own 20
    expect(read).toBeLessThanOrEqual(100);
    expect(decoded.mock.calls.length).toBeLessThanOrEqual(100);
  });
});
