import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { writeTxn } from '../../../src/store/write-txn.js';
import { finishBatch, openBatch } from '../../../src/tasks/batch-record.js';
import { TaskQueue } from '../../../src/tasks/queue.js';
import { TaskRecordPackr } from '../../../src/tasks/record-codecs.js';
import type { TaskQuery } from '../../../src/tasks/query.js';
import { indexesOf, isRelatedToOneIndex, taskTypeOf, type Task, type TaskKind, type Timestamp } from '../../../src/types/task.js';
import { nextReadSnapshot, readerSlots } from '../../helpers/lmdb-readers.js';
import { kind, task } from './fixtures.js';

let dir: string;
let store: InstanceStore;
let queue: TaskQueue;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-query-'));
  store = openInstanceStore(dir, '0.1.0');
  queue = new TaskQueue(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;
const TASKS = 400;

/** Deterministic pseudo-random integers below `n`. */
function dice(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
}

function kindOf(uid: number, roll: (n: number) => number): TaskKind {
  if (uid % 37 === 36) return kind.dump();
  if (uid % 53 === 52) return kind.swap(['a', 'b']);
  const index = ['a', 'b', 'c'][roll(3)]!;
  return [kind.add(index), kind.settings(index), kind.deleteIds(index), kind.cancel([0], '?uids=0')][roll(4)]!;
}

/** The enqueue date of task `uid`: 1.5 s apart, two tasks sharing each tenth date. */
const enqueuedAt = (uid: number): Timestamp => T0 + (BigInt(uid - (uid % 10 === 1 ? 1 : 0)) * 3n * S) / 2n;

/**
 * A varied queue: tasks of three indexes, global ones among them, run in batches of 1–5 tasks
 * taken in a shuffled order (start and finish dates do not rise with uids), mostly succeeded,
 * some failed, some canceled by a cancelation task; the newest 40 still enqueued.
 */
function seedVaried(): void {
  const roll = dice(7);
  const tasks = Array.from({ length: TASKS }, (_, uid) => task(uid, kindOf(uid, roll), { enqueuedAt: enqueuedAt(uid) }));
  const groups: number[][] = [];
  for (let uid = 0; uid < TASKS - 40; ) {
    const size = Math.min(1 + roll(5), TASKS - 40 - uid);
    groups.push(Array.from({ length: size }, (_, k) => uid + k));
    uid += size;
  }
  for (let i = groups.length - 1; i > 0; i--) {
    const j = roll(i + 1);
    [groups[i], groups[j]] = [groups[j]!, groups[i]!];
  }
  writeTxn(store.root, () => {
    const stored = new Map<number, Task>();
    groups.forEach((group, batchUid) => {
      const members = group.map((uid) => tasks[uid]!);
      const latest = members.reduce((date, member) => (member.enqueuedAt > date ? member.enqueuedAt : date), 0n);
      const start = latest + BigInt(1 + roll(100)) * S;
      const outcome = members.map((member): Task => {
        const r = roll(10);
        if (r === 0) return { ...member, status: 'failed' };
        if (r === 1) return { ...member, status: 'canceled', canceledBy: 3 + roll(3) };
        return { ...member, status: 'succeeded' };
      });
      const done = finishBatch(openBatch(batchUid, members, 'test', start), outcome, start + BigInt(roll(3)) * S);
      for (const finished of done.tasks) stored.set(finished.uid, finished);
      queue.writeBatch(done.batch);
    });
    queue.restoreTasks(tasks.map((enqueued) => stored.get(enqueued.uid) ?? enqueued));
  });
}

/** Whether a date passes strict bounds; an absent date never does. */
const within = (date: Timestamp | null, after?: Timestamp, before?: Timestamp): boolean =>
  after === undefined && before === undefined ? true : date !== null && (after === undefined || date > after) && (before === undefined || date < before);

/** The straightforward reading of a filter over every task: the page and `total` GET /tasks must answer. */
function reference(q: TaskQuery, all: readonly Task[]): { uids: number[]; total: number; next: number | null } {
  const listed = <T>(list: readonly (T | '*')[] | undefined, value: T | null): boolean => list === undefined || list.includes('*') || (value !== null && list.includes(value));
  const indexUids = q.indexUids?.includes('*') === true ? undefined : q.indexUids;
  const matched = all.filter(
      (t) =>
        listed(q.uids, t.uid) &&
        listed(q.batchUids, t.batchUid) &&
        listed(q.statuses, t.status) &&
        listed(q.types, taskTypeOf(t.kind)) &&
        listed(q.canceledBy, t.canceledBy) &&
        (indexUids === undefined || indexesOf(t.kind).some((index) => indexUids.includes(index))) &&
        within(t.enqueuedAt, q.afterEnqueuedAt, q.beforeEnqueuedAt) &&
        within(t.startedAt, q.afterStartedAt, q.beforeStartedAt) &&
        within(t.finishedAt, q.afterFinishedAt, q.beforeFinishedAt),
    );
  const shown = matched
    .filter((t) => indexUids === undefined || isRelatedToOneIndex(taskTypeOf(t.kind)))
    .map((t) => t.uid)
    .sort((a, b) => (q.reverse === true ? a - b : b - a))
    .filter((uid) => q.from === undefined || (q.reverse === true ? uid >= q.from : uid <= q.from));
  const limit = q.limit ?? 20;
  return { uids: shown.slice(0, limit), total: matched.length, next: shown[limit] ?? null };
}

/** What a cancel or delete request with that filter selects: every task shown, ascending. */
function referenceSelection(q: TaskQuery, all: readonly Task[]): number[] {
  const { limit: _limit, from: _from, reverse: _reverse, ...filter } = q;
  return reference({ ...filter, limit: all.length, reverse: true }, all).uids;
}

const show = (q: TaskQuery): string => JSON.stringify(q, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

/** Enqueue-date bounds alone and with every other filter, paged both ways from several cursors. */
function queries(): TaskQuery[] {
  const dates: Pick<TaskQuery, 'afterEnqueuedAt' | 'beforeEnqueuedAt'>[] = [
    {},
    { afterEnqueuedAt: enqueuedAt(200) },
    { beforeEnqueuedAt: enqueuedAt(200) },
    { beforeEnqueuedAt: enqueuedAt(11) },
    { afterEnqueuedAt: enqueuedAt(11) - 1n, beforeEnqueuedAt: enqueuedAt(300) + 1n },
    { afterEnqueuedAt: enqueuedAt(395) },
    { beforeEnqueuedAt: enqueuedAt(0) },
    { afterEnqueuedAt: enqueuedAt(399) },
    { afterEnqueuedAt: enqueuedAt(250), beforeEnqueuedAt: enqueuedAt(100) },
  ];
  const others: TaskQuery[] = [
    {},
    { statuses: ['succeeded'] },
    { statuses: ['failed', 'canceled'] },
    { statuses: ['enqueued'] },
    { types: ['settingsUpdate', 'dumpCreation'] },
    { indexUids: ['b'] },
    { indexUids: ['a', 'c'], statuses: ['succeeded'] },
    { uids: [0, 5, 11, 150, 250, 399, 1000] },
    { batchUids: [0, 3, 50] },
    { canceledBy: [4, 5] },
    { statuses: ['succeeded', 'failed'], types: ['documentAdditionOrUpdate'] },
    { afterStartedAt: enqueuedAt(150) },
    { beforeFinishedAt: enqueuedAt(150), statuses: ['succeeded'] },
  ];
  const cursors: TaskQuery[] = [{}, { limit: 7 }, { limit: 5, from: 210 }, { reverse: true, limit: 6 }, { reverse: true, from: 120, limit: 9 }, { limit: 0 }];
  return dates.flatMap((date) => others.flatMap((other) => cursors.map((cursor) => ({ ...date, ...other, ...cursor }))));
}

function expectReferenceAnswers(): void {
  const all = Array.from({ length: queue.nextTaskUid() }, (_, uid) => queue.get(uid)).filter((t): t is Task => t !== undefined);
  for (const q of queries()) {
    const page = queue.query(q);
    const want = reference(q, all);
    expect({ uids: page.results.map((t) => t.uid), total: page.total, next: page.next }, show(q)).toEqual(want);
    if (q.limit === undefined && q.reverse === undefined) expect(queue.matchUids(q), show(q)).toEqual(referenceSelection(q, all));
  }
}

describe('enqueue-date bounds', () => {
  it('answer every filter and cursor, and select for a cancel or delete, as the straightforward reading of the filter does', () => {
    seedVaried();
    expectReferenceAnswers();
  });

  it('still do once a task enqueued before a stored one is restored (a dump, a clock set back)', () => {
    seedVaried();
    queue.restoreTasks([task(TASKS, kind.add('a'), { enqueuedAt: enqueuedAt(100) + 1n })]);
    expectReferenceAnswers();
    expect(queue.query({ afterEnqueuedAt: enqueuedAt(100), beforeEnqueuedAt: enqueuedAt(102) }).results.map((t) => t.uid)).toEqual([TASKS]);
  });

  it('are checked against the stored tasks of a store written before their order was kept', async () => {
    seedVaried();
    queue.restoreTasks([task(TASKS, kind.add('a'), { enqueuedAt: T0 - S })]);
    const counts = store.root.openDB({ name: 'task-counts' });
    counts.removeSync(['~', 'enqueueOrder']);
    await store.close();
    store = openInstanceStore(dir, '0.1.0');
    queue = new TaskQueue(store);
    expect(queue.query({ beforeEnqueuedAt: T0 }).results.map((t) => t.uid)).toEqual([TASKS]);
    expectReferenceAnswers();
  });

  it('stay a uid span when a task registered at once commits before one enqueued ahead of it', async () => {
    const { read } = instrumentedQueue();
    // the automatic cleanup's deletion (or a scheduled snapshot) is registered while a task enqueued
    // over HTTP waits for its commit: it takes the next uid and is stored first
    const pending = queue.enqueue({ kind: kind.add('a') });
    const registered = queue.register({ kind: kind.snapshot() });
    const enqueued = await pending;
    expect([enqueued.uid, registered.uid]).toEqual([4_000, 4_001]);
    read.count = 0;
    const page = queue.query({ beforeEnqueuedAt: enqueuedAt(2_000) });
    expect(page.results.map((t) => t.uid)).toEqual(Array.from({ length: 20 }, (_, k) => 1_999 - k));
    // the page and the span's two ends; the date range's 2,000 entries once the order was taken for lost
    expect(read.count).toBeLessThan(60);
    vi.restoreAllMocks();
    expectReferenceAnswers();
  });

  it('are read from the date entries once a task fills a uid gap out of date order, and not when in order', () => {
    seedVaried();
    // a gap: the uids between the varied queue and a task restored well past it
    queue.restoreTasks([task(TASKS + 10, kind.add('a'), { enqueuedAt: enqueuedAt(TASKS + 10) })]);
    queue.restoreTasks([task(TASKS + 5, kind.add('b'), { enqueuedAt: enqueuedAt(TASKS + 5) })]);
    expect(queue.query({ afterEnqueuedAt: enqueuedAt(TASKS) }).results.map((t) => t.uid)).toEqual([TASKS + 10, TASKS + 5]);
    expectReferenceAnswers();
    // enqueued after the task of the next uid: the order is lost, the answers stay right
    queue.restoreTasks([task(TASKS + 7, kind.add('c'), { enqueuedAt: enqueuedAt(TASKS + 10) + 1n })]);
    expect(queue.query({ afterEnqueuedAt: enqueuedAt(TASKS + 10) }).results.map((t) => t.uid)).toEqual([TASKS + 7]);
    expectReferenceAnswers();
  });

  it('read only the page they show, not every task enqueued within them', () => {
    const { read, decoded } = instrumentedQueue();
    const cases: TaskQuery[] = [
      { beforeEnqueuedAt: enqueuedAt(2_000) },
      { afterEnqueuedAt: enqueuedAt(500), reverse: true },
      { afterEnqueuedAt: enqueuedAt(1_000), beforeEnqueuedAt: enqueuedAt(3_500), statuses: ['succeeded'] },
      { afterEnqueuedAt: enqueuedAt(100), statuses: ['enqueued'], reverse: true, from: 3_500 },
    ];
    for (const q of cases) {
      read.count = 0;
      decoded.mockClear();
      const page = queue.query(q);
      expect(page.results, show(q)).toHaveLength(20);
      expect(decoded.mock.calls.length, show(q)).toBeLessThanOrEqual(21);
      // the page, the span's two ends and a few seeks; reading the matches was 1,000 to 2,500 entries
      expect(read.count, show(q)).toBeLessThan(60);
    }
  });
});

describe('a start or finish bound alone', () => {
  it('skips the enqueued tasks unread and stops testing tasks one by one where few match', () => {
    const { decoded } = instrumentedQueue();
    const q: TaskQuery = { afterStartedAt: enqueuedAt(1_500) };
    decoded.mockClear();
    expect(queue.query(q).results.map((t) => t.uid)).toEqual(Array.from({ length: 20 }, (_, k) => 2_999 - k));
    // tested, then read for the answer; the 1,000 newest tasks are enqueued, and each was decoded and tested
    expect(decoded.mock.calls.length).toBeLessThanOrEqual(2 * 21);
    decoded.mockClear();
    const oldest = queue.query({ beforeFinishedAt: enqueuedAt(300), limit: 5 });
    expect({ uids: oldest.results.map((t) => t.uid), total: oldest.total }).toEqual({ uids: [298, 297, 296, 295, 294], total: 299 });
    // every task newer than them was decoded and tested: 3,700
    expect(decoded.mock.calls.length).toBeLessThan(1_100);
  });
});

describe('a status or type matching most of the tasks another filter matches', () => {
  it('drops the few tasks of its other values instead of reading its own', () => {
    const { read } = instrumentedQueue();
    read.count = 0;
    const page = queue.query({ afterStartedAt: enqueuedAt(100), statuses: ['succeeded'], limit: 3 });
    expect({ uids: page.results.map((t) => t.uid), total: page.total }).toEqual({ uids: [2_999, 2_998, 2_997], total: 2_900 });
    // the bound's 2,900 entries and the 1,000 enqueued tasks; the 3,000 succeeded ones were read too
    expect(read.count).toBeLessThan(4_500);
  });
});

/**
 * 4,000 tasks, the 3,000 oldest succeeded (started 1 s and finished 2 s after their enqueue) and
 * the others enqueued, with a count of the index and task-table entries read and a spy on the
 * task records decoded.
 */
function instrumentedQueue(): { read: { count: number }; decoded: ReturnType<typeof vi.spyOn> } {
  const tasks = Array.from({ length: 4_000 }, (_, uid): Task => {
    const finished = uid < 3_000 ? { status: 'succeeded' as const, batchUid: 0, startedAt: enqueuedAt(uid) + S, finishedAt: enqueuedAt(uid) + 2n * S } : {};
    return task(uid, kind.add('a'), { enqueuedAt: enqueuedAt(uid), ...finished });
  });
  queue.restoreTasks(tasks);
  const dbs = (queue as unknown as { dbs: Record<'tasks' | 'taskIndex', { getKeys: (...a: unknown[]) => Iterable<unknown> }> }).dbs;
  const read = { count: 0 };
  for (const db of [dbs.tasks, dbs.taskIndex]) {
    const original = db.getKeys.bind(db);
    vi.spyOn(db, 'getKeys').mockImplementation(function* (...args: unknown[]) {
      for (const key of original(...args)) {
        read.count++;
        yield key;
      }
    });
  }
  return { read, decoded: vi.spyOn(TaskRecordPackr.prototype, 'unpack') };
}

describe('a page of a filter with several values', () => {
  it('leaves no read transaction pinned behind it, however little of each value it read', async () => {
    seedVaried();
    // a GET /tasks?statuses=…&limit=0 poll between two commits, 300 times: a cursor left open pinned
    // each commit's snapshot, and the environment's 126 reader slots ran out (MDB_READERS_FULL)
    let most = 0;
    for (let poll = 0; poll < 300; poll++) {
      expect(queue.query({ statuses: ['enqueued', 'succeeded'], limit: 0 }).total).toBeGreaterThan(0);
      store.main.putSync('reader-slots-probe', poll);
      await nextReadSnapshot();
      most = Math.max(most, readerSlots(store.root));
    }
    expect(most).toBeLessThanOrEqual(2);
  });
});
