/**
 * Secondary indexes of the task queue, kept in the `task-index` and `batch-index` LMDB databases
 * (store/dbs.ts) as keys with no meaningful value: `[family, value, uid]`, encoded by lmdb's
 * ordered-binary so that one family value is a contiguous, uid-ordered key range.
 *
 *   family  tasks (task-index)                      batches (batch-index)
 *   s       [s, status, uid] (never `processing`)   [s, task status, batchUid] per status in the batch
 *   t       [t, type, uid]                          [t, task type, batchUid] per type in the batch
 *   i       [i, indexUid, uid] per touched index    [i, indexUid, batchUid] per touched index
 *   b       [b, batchUid, uid]                      —
 *   c       [c, canceledBy, uid]                    —
 *   e       [e, enqueuedAt, uid]                    [e, enqueuedAt, batchUid] oldest and newest task
 *   a       [a, startedAt, uid]                     [a, startedAt, batchUid]
 *   f       [f, finishedAt, uid]                    [f, finishedAt, batchUid]
 *
 * The counts database (`task-counts`) also records whether enqueue dates rise with uids
 * (`enqueueOrder`), which makes an enqueue-date bound a uid span (`enqueuedSpan`).
 *
 * Writers (queue.ts) must call these inside a write transaction; readers return uids in ascending
 * order (date ranges excepted, see `idsInRange`). Family names are single letters so that no family is
 * a prefix of another.
 */
import type { Database, Key } from 'lmdb';
import { indexesOf, taskTypeOf, type Batch, type Task, type Timestamp } from '../types/task.js';

export type IndexKey = [string, string | number | bigint, number];
export type IndexDb = Database<true, Key>;

// lmdb's ordered-binary encodes bigints (our timestamps) although its `Key` type omits them.
const asKey = (parts: readonly unknown[]): Key => parts as Key;

export const FAMILY = {
  status: 's',
  type: 't',
  index: 'i',
  batch: 'b',
  canceledBy: 'c',
  enqueuedAt: 'e',
  startedAt: 'a',
  finishedAt: 'f',
} as const;

/** Uids are u32: this sorts after every uid of a family value. */
const AFTER_ALL_UIDS = 2 ** 32;

export function taskKeys(task: Task): IndexKey[] {
  const { uid } = task;
  const keys: IndexKey[] = [
    [FAMILY.status, task.status, uid],
    [FAMILY.type, taskTypeOf(task.kind), uid],
    ...indexesOf(task.kind).map((index): IndexKey => [FAMILY.index, index, uid]),
    [FAMILY.enqueuedAt, task.enqueuedAt, uid],
  ];
  if (task.batchUid !== null) keys.push([FAMILY.batch, task.batchUid, uid]);
  if (task.canceledBy !== null) keys.push([FAMILY.canceledBy, task.canceledBy, uid]);
  if (task.startedAt !== null) keys.push([FAMILY.startedAt, task.startedAt, uid]);
  if (task.finishedAt !== null) keys.push([FAMILY.finishedAt, task.finishedAt, uid]);
  return keys;
}

export function batchKeys(batch: Batch): IndexKey[] {
  const { uid } = batch;
  const keys: IndexKey[] = [
    ...Object.keys(batch.stats.status).map((status): IndexKey => [FAMILY.status, status, uid]),
    ...Object.keys(batch.stats.types).map((type): IndexKey => [FAMILY.type, type, uid]),
    ...batch.indexes.map((index): IndexKey => [FAMILY.index, index, uid]),
    [FAMILY.startedAt, batch.startedAt, uid],
  ];
  if (batch.enqueuedAt !== null) {
    keys.push([FAMILY.enqueuedAt, batch.enqueuedAt.oldest, uid]);
    if (batch.enqueuedAt.newest !== batch.enqueuedAt.oldest) keys.push([FAMILY.enqueuedAt, batch.enqueuedAt.newest, uid]);
  }
  if (batch.finishedAt !== null) keys.push([FAMILY.finishedAt, batch.finishedAt, uid]);
  return keys;
}

const keyId = (key: IndexKey): string => key.join('\u0000');

/**
 * Rewrites the index entries of one record: removes the stale ones, adds the missing ones. `counts`
 * takes the count changes at once, or gathers them for a write of many records (`CountChanges`).
 */
export function reindex(db: IndexDb, before: readonly IndexKey[], after: readonly IndexKey[], counts?: CountDb | CountChanges): void {
  // a record inserted or removed whole (a deletion of 100,000 tasks): no entry to compare
  if (before.length === 0 || after.length === 0) {
    for (const key of before) {
      db.removeSync(asKey(key));
      if (counts !== undefined) bump(counts, key, -1);
    }
    for (const key of after) {
      db.putSync(asKey(key), true);
      if (counts !== undefined) bump(counts, key, 1);
    }
    return;
  }
  const wanted = new Set(after.map(keyId));
  const existing = new Set(before.map(keyId));
  for (const key of before) {
    if (wanted.has(keyId(key))) continue;
    db.removeSync(asKey(key));
    if (counts !== undefined) bump(counts, key, -1);
  }
  for (const key of after) {
    if (existing.has(keyId(key))) continue;
    db.putSync(asKey(key), true);
    if (counts !== undefined) bump(counts, key, 1);
  }
}

/**
 * Per-value task counts of the COUNTED families (`task-counts`: [family, value] → count), kept in
 * the same transactions as the index entries: LMDB counts a key range only by walking it, which
 * for a value held by 100,000 tasks costs more than a whole `GET /tasks` may take.
 */
export type CountDb = Database<number, Key>;

export const COUNTED: readonly string[] = [FAMILY.status, FAMILY.type];

function bump(counts: CountDb | CountChanges, [family, value]: IndexKey, by: number): void {
  if (!COUNTED.includes(family)) return;
  if (counts instanceof CountChanges) {
    counts.add(family, value, by);
    return;
  }
  write(counts, family, value, by);
}

function write(counts: CountDb, family: string, value: IndexKey[1], by: number): void {
  const key = asKey([family, value]);
  const next = (counts.get(key) ?? 0) + by;
  if (next === 0) counts.removeSync(key);
  else counts.putSync(key, next);
}

/**
 * The count changes of a write of many records, written once per value (`flush`): a deletion of
 * 100,000 tasks read and wrote its status and type counts 100,000 times each.
 */
export class CountChanges {
  private readonly changes = new Map<string, { family: string; value: IndexKey[1]; by: number }>();

  add(family: string, value: IndexKey[1], by: number): void {
    const id = `${family}\u0000${String(value)}`;
    const change = this.changes.get(id);
    if (change === undefined) this.changes.set(id, { family, value, by });
    else change.by += by;
  }

  flush(counts: CountDb): void {
    for (const { family, value, by } of this.changes.values()) if (by !== 0) write(counts, family, value, by);
    this.changes.clear();
  }
}

/** The stored count of one value of a COUNTED family. */
export function countedOf(counts: CountDb, family: string, value: string | number): number {
  return counts.get(asKey([family, value])) ?? 0;
}

/** Rebuilds the counts from the index entries (a store written before they were kept). */
export function recount(db: IndexDb, counts: CountDb): void {
  for (const family of COUNTED) for (const value of valuesOf(db, family)) counts.putSync(asKey([family, value]), countOf(db, family, value));
}

/**
 * Inclusive uid bounds a read keeps to: an enqueue-date bound as uids, enqueue dates rising with
 * uids (`enqueueOrder`); empty when `lo > hi`.
 */
export interface UidSpan {
  readonly lo: number;
  readonly hi: number;
}

export const EVERY_UID: UidSpan = { lo: 0, hi: AFTER_ALL_UIDS - 1 };

/** Uids filed under one family value, ascending. */
export function idsOf(db: IndexDb, family: string, value: string | number, span: UidSpan = EVERY_UID): number[] {
  const ids: number[] = [];
  for (const key of db.getKeys(valueRange(family, value, span))) ids.push((key as IndexKey)[2]);
  return ids;
}

function valueRange(family: string, value: string | number, span: UidSpan): { start: Key; end: Key } {
  return { start: [family, value, span.lo], end: [family, value, span.hi + 1] };
}

/**
 * Lists of more values than this are read by `idsUnderAny` in one scan when that is cheaper: a
 * range read costs lmdb-js ~15 µs whatever it finds, and a query string holds up to ~20,000 values.
 */
export const MANY_VALUES = 64;

/** Entries a scan of the whole family may read per value it saves a range read of. */
const SCANNED_PER_VALUE = 16;

/**
 * Uids filed under any of `values` of one family, unordered, repeated when one is under several.
 * A long list is read by one scan of the family, keeping the keys of the values asked for, when
 * the family holds at most SCANNED_PER_VALUE entries per value: 20,000 range reads (`canceledBy=`
 * 20,000 uids) held the thread answering requests 0.5–2.8 s.
 */
export function idsUnderAny(db: IndexDb, family: string, values: readonly (string | number)[], span: UidSpan = EVERY_UID): number[] {
  if (values.length > MANY_VALUES) {
    // one object per call: lmdb's getCount marks the options it is given as counting only
    const range = () => ({ start: asKey([family]), end: asKey([`${family}\uffff`]) });
    if (db.getCount(range()) <= values.length * SCANNED_PER_VALUE) {
      const asked = new Set<unknown>(values);
      const ids: number[] = [];
      for (const key of db.getKeys(range())) {
        const [, value, uid] = key as IndexKey;
        if (asked.has(value) && uid >= span.lo && uid <= span.hi) ids.push(uid);
      }
      return ids;
    }
  }
  return values.flatMap((value) => idsOf(db, family, value, span));
}

/** How many uids are filed under one family value (counted by LMDB without decoding the keys). */
export function countOf(db: IndexDb, family: string, value: string | number, span: UidSpan = EVERY_UID): number {
  return db.getCount(valueRange(family, value, span));
}

/**
 * The uids filed under one family value from a cursor, within `span`: descending from `from`
 * (inclusive) or, when `ascending`, ascending from it. Lazy, so a page reads only what it shows.
 */
export function* idsFrom(
  db: IndexDb,
  family: string,
  value: string | number,
  from: number | undefined,
  ascending: boolean,
  span: UidSpan = EVERY_UID,
): Generator<number> {
  const { lo, hi } = spanFrom(span, from, ascending);
  if (lo > hi) return;
  const range = ascending
    ? { start: [family, value, lo], end: [family, value, hi + 1] }
    : // descending, the end is exclusive: `[family, value]` sorts before every uid of the value
      { start: [family, value, hi], end: lo === 0 ? [family, value] : [family, value, lo - 1], reverse: true };
  for (const key of db.getKeys(range)) yield (key as IndexKey)[2];
}

/** The part of `span` a cursor still reads: from `from` (inclusive) up when `ascending`, else down. */
export function spanFrom(span: UidSpan, from: number | undefined, ascending: boolean): UidSpan {
  if (from === undefined) return span;
  return ascending ? { lo: Math.max(span.lo, from), hi: span.hi } : { lo: span.lo, hi: Math.min(span.hi, from) };
}

/** Whether any uid is filed under that family value. */
export function hasAny(db: IndexDb, family: string, value: string | number): boolean {
  for (const _ of db.getKeys({ start: [family, value], end: [family, value, AFTER_ALL_UIDS], limit: 1 })) return true;
  return false;
}

/** The key range of the timestamps strictly between the bounds (either may be absent). */
function timeRange(family: string, after?: Timestamp, before?: Timestamp): { start: Key; end: Key } {
  return {
    start: asKey(after === undefined ? [family] : [family, after, AFTER_ALL_UIDS]),
    // `[family, before]` sorts before every `[family, before, uid]`: the upper bound stays exclusive.
    end: asKey(before === undefined ? [`${family}\uffff`] : [family, before]),
  };
}

/** Uids whose timestamp is strictly between the bounds (either may be absent); unordered. */
export function idsInRange(db: IndexDb, family: string, after?: Timestamp, before?: Timestamp): number[] {
  const ids: number[] = [];
  for (const key of db.getKeys(timeRange(family, after, before))) ids.push((key as IndexKey)[2]);
  return ids;
}

/** How many uids `idsInRange` would give, counted by LMDB. */
export function countInRange(db: IndexDb, family: string, after?: Timestamp, before?: Timestamp): number {
  return db.getCount(timeRange(family, after, before));
}

/**
 * The uids of the tasks enqueued strictly between the bounds, as a span: the uids of the first and
 * last entries of the date range. Exact only while enqueue dates rise with uids (`enqueueOrder`).
 */
export function enqueuedSpan(db: IndexDb, after?: Timestamp, before?: Timestamp): UidSpan {
  const { start, end } = timeRange(FAMILY.enqueuedAt, after, before);
  let lo: number | undefined;
  let hi: number | undefined;
  for (const key of db.getKeys({ start, end, limit: 1 })) lo = (key as IndexKey)[2];
  // descending: `end` (no stored key is ever equal to it) is where the walk starts
  for (const key of db.getKeys({ start: end, end: start, reverse: true, limit: 1 })) hi = (key as IndexKey)[2];
  return lo === undefined || hi === undefined ? { lo: 1, hi: 0 } : { lo, hi };
}

/**
 * Whether enqueue dates rise with uids, kept in the counts database (`task-counts`) under
 * ENQUEUE_ORDER: 1 when they do, 0 when a task may have been stored with an older enqueue date than
 * a task of a lower uid (a dump's tasks, a clock set back between two runs), absent in a store
 * written before it was kept. While they do, an enqueue-date bound is a uid span (`enqueuedSpan`).
 * Deleting tasks keeps the order, so it is only ever lost, by a write of tasks (`keepEnqueueOrder`).
 */
const ENQUEUE_ORDER = asKey(['~', 'enqueueOrder']);

export function enqueueOrder(counts: CountDb): boolean {
  return counts.get(ENQUEUE_ORDER) === 1;
}

/**
 * Records whether enqueue dates still rise with uids once tasks `first`..`last` (ascending uids and
 * dates from one to the next, as the caller checked: `ordered`) are stored among the tasks stored
 * now; called before they are written.
 */
export function keepEnqueueOrder(
  db: IndexDb,
  counts: CountDb,
  tasks: Database<unknown, number>,
  first: { uid: number; enqueuedAt: Timestamp },
  last: { uid: number; enqueuedAt: Timestamp },
  ordered: boolean,
): void {
  if (!enqueueOrder(counts)) return;
  if (!ordered || !fitsEnqueueOrder(db, tasks, first, last)) counts.putSync(ENQUEUE_ORDER, 0);
}

/**
 * Whether tasks `first`..`last` fit the stored tasks' enqueue order: no stored task between their
 * uids, every stored task enqueued after `first` newer than `last`, and every one enqueued before
 * `last` older than `first`. The stored tasks being in order, the first entry dated after `first`
 * holds the lowest uid of those and the last dated before `last` the highest: two seeks. Not only
 * after the newest task: a task registered at once (the automatic cleanup's deletion, a scheduled
 * snapshot) commits before a task enqueued ahead of it whose commit is still pending, which then
 * lands below the newest uid, in order.
 */
function fitsEnqueueOrder(
  db: IndexDb,
  tasks: Database<unknown, number>,
  first: { uid: number; enqueuedAt: Timestamp },
  last: { uid: number; enqueuedAt: Timestamp },
): boolean {
  for (const _ of tasks.getKeys({ start: first.uid, end: last.uid + 1, limit: 1 })) return false;
  const e = FAMILY.enqueuedAt;
  for (const key of db.getKeys({ start: asKey([e, first.enqueuedAt, AFTER_ALL_UIDS]), end: asKey([`${e}\uffff`]), limit: 1 })) {
    if ((key as IndexKey)[2] <= last.uid) return false;
  }
  // descending from `[e, date]`, which sorts before every entry of that date
  for (const key of db.getKeys({ start: asKey([e, last.enqueuedAt]), end: asKey([e]), reverse: true, limit: 1 })) {
    if ((key as IndexKey)[2] >= first.uid) return false;
  }
  return true;
}

/** Checks the enqueue order of a store written before it was kept, from the enqueue-date entries. */
export function checkEnqueueOrder(db: IndexDb, counts: CountDb): void {
  let last = -1;
  let ordered = true;
  for (const key of db.getKeys({ start: asKey([FAMILY.enqueuedAt]), end: asKey([`${FAMILY.enqueuedAt}\uffff`]) })) {
    const uid = (key as IndexKey)[2];
    if (uid < last) {
      ordered = false;
      break;
    }
    last = uid;
  }
  counts.putSync(ENQUEUE_ORDER, ordered ? 1 : 0);
}

/** Whether the enqueue order was ever recorded. */
export function enqueueOrderKnown(counts: CountDb): boolean {
  return counts.get(ENQUEUE_ORDER) !== undefined;
}

/** The distinct values of a family (e.g. every index uid), found with one seek per value. */
export function valuesOf(db: IndexDb, family: string): string[] {
  const values: string[] = [];
  let start: Key = [family];
  for (;;) {
    let found: IndexKey | undefined;
    for (const key of db.getKeys({ start, end: [`${family}\uffff`], limit: 1 })) found = key as IndexKey;
    if (found === undefined) return values;
    values.push(String(found[1]));
    start = asKey([family, found[1], AFTER_ALL_UIDS]);
  }
}
