/**
 * Task and batch listing (`GET /tasks`, `GET /batches`, and the frozen sets of cancel/delete tasks):
 * filters evaluated on the secondary indexes of index-keys.ts, then Meilisearch's cursor pagination
 * (tasks-batches.md §4, §5, §8). Read-only; callers are queue.ts methods, which run them outside any
 * write transaction (lmdb reads see the last commit) or inside one (they see its writes).
 *
 * Semantics kept from Meilisearch on purpose:
 * - a list containing `*` does not restrict; an empty `canceledBy` match matches nothing;
 * - date bounds are exclusive; the running batch's tasks match `*StartedAt` by the batch start;
 * - `total` ignores `from`, `limit` and the visibility rules below;
 * - when `indexUids` is given or the caller's key is index-restricted, tasks of types not tied to
 *   one index are hidden, and a restricted key does not see tasks touching an index it may not
 *   access. These exclusions apply to the whole match before paging, so that `next` is set
 *   whenever tasks remain (v1.50 drops them from the page it took, answering `next: null` early:
 *   README compatibility table).
 *
 * Cost: an enqueue-date bound is a span of uids while enqueue dates rise with uids (index-keys.ts
 * `enqueueOrder`), to which every other filter's reads, counts and pages keep. One filter over
 * disjoint values (`statuses=failed,canceled`) is counted by LMDB and paged by merging range scans; several filters read the smallest one's uids and test the others by key
 * lookups or intersect them. While a batch runs, its tasks (stored as enqueued) are tested one by
 * one against the filter as they are shown, and merged into the page of the others
 * (`runningPage`); a batch of more tasks than that allows has every filter read in full
 * (`matchTaskUids`). A list of more than MANY_VALUES index, batch or canceling uids is read at
 * once (index-keys.ts `idsUnderAny`).
 */
import type { Database } from 'lmdb';
import {
  TASK_TYPES,
  indexesOf,
  isRelatedToOneIndex,
  taskTypeOf,
  type Batch,
  type BatchProgress,
  type BatchStats,
  type Task,
  type TaskStatus,
  type TaskType,
  type Timestamp,
} from '../types/task.js';
import {
  COUNTED,
  EVERY_UID,
  FAMILY,
  MANY_VALUES,
  countInRange,
  countOf,
  countedOf,
  enqueueOrder,
  enqueuedSpan,
  idsFrom,
  idsInRange,
  idsOf,
  idsUnderAny,
  spanFrom,
  valuesOf,
  type CountDb,
  type IndexDb,
  type UidSpan,
} from './index-keys.js';
import { intersect, pageOfSorted, sortedUnique, without } from './uid-sets.js';

export type StarOr<T> = T | '*';

/** Filters of the task routes; every list is ORed inside, every field ANDed. */
export interface TaskFilter {
  uids?: readonly StarOr<number>[];
  batchUids?: readonly StarOr<number>[];
  statuses?: readonly StarOr<TaskStatus>[];
  types?: readonly StarOr<TaskType>[];
  indexUids?: readonly StarOr<string>[];
  canceledBy?: readonly StarOr<number>[];
  beforeEnqueuedAt?: Timestamp;
  afterEnqueuedAt?: Timestamp;
  beforeStartedAt?: Timestamp;
  afterStartedAt?: Timestamp;
  beforeFinishedAt?: Timestamp;
  afterFinishedAt?: Timestamp;
}

/** A filter plus the cursor: `limit` (default 20), inclusive `from`, `reverse` (oldest first). */
export interface TaskQuery extends TaskFilter {
  limit?: number;
  from?: number;
  reverse?: boolean;
}

/** The envelope of `GET /tasks` and `GET /batches`, keys in Meilisearch's order. */
export interface Page<T> {
  results: T[];
  total: number;
  limit: number;
  from: number | null;
  next: number | null;
}

/** The same page with each result turned into `view(result)`. */
export function mapPage<T, U>(page: Page<T>, view: (item: T) => U): Page<U> {
  return { results: page.results.map(view), total: page.total, limit: page.limit, from: page.from, next: page.next };
}

/** Whether the caller's API key may see an index; absent for an unrestricted caller. */
export type IndexAuthorizer = (indexUid: string) => boolean;

/** The running batch and its tasks (stored as `enqueued`), held in memory by the scheduler. */
export interface Processing {
  batch: Batch;
  taskUids: ReadonlySet<number>;
  /** the live progress of the batch (tasks/progress.ts), shown instead of `batch.progress` when given */
  progress?: { view(): BatchProgress; trace(): Record<string, string>; requestsView(): BatchStats['embedderRequests'] };
}

export interface QueueDbs {
  tasks: Database<Task, number>;
  batches: Database<Batch, number>;
  taskIndex: IndexDb;
  /** per-value task counts of the status and type families */
  taskCounts: CountDb;
  batchIndex: IndexDb;
}

const DEFAULT_LIMIT = 20;

function given<T>(list: readonly StarOr<T>[] | undefined): T[] | undefined {
  if (list === undefined || list.includes('*')) return undefined;
  return list as T[];
}

function within(ts: Timestamp, after: Timestamp | undefined, before: Timestamp | undefined): boolean {
  return (after === undefined || ts > after) && (before === undefined || ts < before);
}

const hasBound = (after?: Timestamp, before?: Timestamp): boolean => after !== undefined || before !== undefined;

/** How a task of the running batch is reported. */
export function withProcessing(task: Task, processing: Processing | null): Task {
  if (processing === null || !processing.taskUids.has(task.uid)) return task;
  return { ...task, status: 'processing', batchUid: processing.batch.uid, startedAt: processing.batch.startedAt };
}

/**
 * How the running batch is reported: with the scheduler's progress, its live progress, the time
 * spent so far in each step (`progressTrace`) and its requests to embedding servers so far, as
 * v1.50 shows them while a batch runs.
 */
function runningBatch(processing: Processing): Batch {
  const { batch, progress } = processing;
  if (progress === undefined) return batch;
  const embedderRequests = progress.requestsView();
  const stats = { ...batch.stats, progressTrace: progress.trace(), ...(embedderRequests === undefined ? {} : { embedderRequests }) };
  return { ...batch, progress: progress.view(), stats };
}

/** O(1): LMDB keeps the entry count of each database. */
function entryCount(db: Database<unknown, number>): number {
  return (db.getStats() as { entryCount: number }).entryCount;
}

function allTaskUids(dbs: QueueDbs): number[] {
  return [...dbs.tasks.getKeys()];
}

/**
 * The uids an enqueue-date bound allows, as a span, while enqueue dates rise with uids
 * (index-keys.ts `enqueueOrder`); null without such a bound or order. Reading the bound's date
 * entries instead (sorting them when paged) held the thread answering requests 0.2–2.5 s over a
 * 300,000-task queue.
 */
function enqueuedUidSpan(dbs: QueueDbs, f: TaskFilter): UidSpan | null {
  if (!hasBound(f.afterEnqueuedAt, f.beforeEnqueuedAt) || !enqueueOrder(dbs.taskCounts)) return null;
  return enqueuedSpan(dbs.taskIndex, f.afterEnqueuedAt, f.beforeEnqueuedAt);
}

const inSpan = (uid: number, span: UidSpan): boolean => uid >= span.lo && uid <= span.hi;

/** The enqueued tasks, when they are few enough to skip in a walk of the task table. */
function enqueuedUids(dbs: QueueDbs): ReadonlySet<number> | null {
  if (countedOf(dbs.taskCounts, FAMILY.status, 'enqueued') * 2 > entryCount(dbs.tasks)) return null;
  return new Set(idsOf(dbs.taskIndex, FAMILY.status, 'enqueued'));
}

/** The stored task uids of a span, ascending. */
function taskUidsIn(dbs: QueueDbs, span: UidSpan): number[] {
  return span.lo > span.hi ? [] : [...dbs.tasks.getKeys({ start: span.lo, end: span.hi + 1 })];
}

/** How many tasks a span holds (every task without one), counted by LMDB. */
function taskCountIn(dbs: QueueDbs, span: UidSpan | null): number {
  if (span === null) return entryCount(dbs.tasks);
  return span.lo > span.hi ? 0 : dbs.tasks.getCount({ start: span.lo, end: span.hi + 1 });
}

/** Uids under the given values of one family, ascending (one value needs no merge). */
function idsOfAny(index: IndexDb, family: string, values: readonly (string | number)[], span: UidSpan = EVERY_UID): number[] {
  return values.length === 1 ? idsOf(index, family, values[0]!, span) : sortedUnique(idsUnderAny(index, family, values, span));
}

/** Matching task uids ascending, or null when nothing restricts (every task matches). */
function matchTaskUids(dbs: QueueDbs, f: TaskFilter, processing: Processing | null): number[] | null {
  const index = dbs.taskIndex;
  const running = processing === null ? [] : sortedUnique(processing.taskUids);
  const lists: number[][] = [];
  let excluded: Set<number> | null = null;

  const uids = given(f.uids);
  if (uids) lists.push(sortedUnique(uids.filter((uid) => dbs.tasks.doesExist(uid))));
  const batchUids = given(f.batchUids);
  if (batchUids) {
    const stored = idsUnderAny(index, FAMILY.batch, batchUids);
    lists.push(sortedUnique(processing !== null && batchUids.includes(processing.batch.uid) ? [...stored, ...running] : stored));
  }
  const statuses = given(f.statuses);
  if (statuses) {
    lists.push(
      sortedUnique(statuses.flatMap((s) => (s === 'processing' ? running : idsOf(index, FAMILY.status, s)))),
    );
    // Running tasks are stored as enqueued: they only match when `processing` is asked for.
    if (!statuses.includes('processing')) excluded = new Set(running);
  }
  const canceledBy = given(f.canceledBy);
  if (canceledBy) {
    const canceled = idsOfAny(index, FAMILY.canceledBy, canceledBy);
    if (canceled.length === 0) return [];
    lists.push(canceled);
  }
  const types = given(f.types);
  if (types) lists.push(idsOfAny(index, FAMILY.type, types));
  const indexUids = given(f.indexUids);
  if (indexUids) lists.push(idsOfAny(index, FAMILY.index, indexUids));
  const enqueued = enqueuedUidSpan(dbs, f);
  if (enqueued !== null) lists.push(taskUidsIn(dbs, enqueued));
  else if (hasBound(f.afterEnqueuedAt, f.beforeEnqueuedAt)) {
    lists.push(sortedUnique(idsInRange(index, FAMILY.enqueuedAt, f.afterEnqueuedAt, f.beforeEnqueuedAt)));
  }
  if (hasBound(f.afterStartedAt, f.beforeStartedAt)) {
    const started = idsInRange(index, FAMILY.startedAt, f.afterStartedAt, f.beforeStartedAt);
    const runningStarted =
      processing !== null && within(processing.batch.startedAt, f.afterStartedAt, f.beforeStartedAt) ? running : [];
    lists.push(sortedUnique([...without(started, new Set(running)), ...runningStarted]));
  }
  if (hasBound(f.afterFinishedAt, f.beforeFinishedAt)) {
    lists.push(sortedUnique(idsInRange(index, FAMILY.finishedAt, f.afterFinishedAt, f.beforeFinishedAt)));
  }

  if (lists.length === 0 && excluded === null) return null;
  const matched = lists.length === 0 ? allTaskUids(dbs) : intersect(lists);
  return excluded === null ? matched : without(matched, excluded);
}

/**
 * Tasks a caller does not see (Meilisearch's exclusions, applied to the whole match before paging):
 * when `indexUids` is given or the key is index-restricted, the types not tied to one index; with
 * a restricted key, every task touching an index it may not access. Null when nothing is hidden.
 */
function hiddenTaskUids(dbs: QueueDbs, f: TaskFilter, authorized: IndexAuthorizer | undefined): Set<number> | null {
  if (given(f.indexUids) === undefined && authorized === undefined) return null;
  const hidden = new Set<number>();
  for (const type of TASK_TYPES) {
    if (!isRelatedToOneIndex(type)) for (const uid of idsOf(dbs.taskIndex, FAMILY.type, type)) hidden.add(uid);
  }
  if (authorized !== undefined) {
    for (const indexUid of valuesOf(dbs.taskIndex, FAMILY.index)) {
      if (!authorized(indexUid)) for (const uid of idsOf(dbs.taskIndex, FAMILY.index, indexUid)) hidden.add(uid);
    }
  }
  return hidden;
}

/** Up to `count` uids of a source already in page order, skipping hidden ones. */
function take(source: Iterable<number>, count: number, hidden: ReadonlySet<number> | null): number[] {
  const out: number[] = [];
  for (const uid of source) {
    if (hidden !== null && hidden.has(uid)) continue;
    out.push(uid);
    if (out.length === count) break;
  }
  return out;
}

function envelope<T extends { uid: number }>(items: T[], total: number, limit: number): Page<T> {
  // One item more than asked means there is a next page, starting at that item.
  const next = items.length === limit + 1 ? items.pop()!.uid : null;
  // v1.50 asks for `limit` + 1 saturating at u32::MAX and answers that minus one: a limit of
  // 4294967295 comes back as 4294967294
  return { results: items, total, limit: Math.min(limit, 0xffff_fffe), from: items[0]?.uid ?? null, next };
}

/** One filter of a plan: how many tasks it allows, its uids, and a point test when one is cheap. */
interface Term {
  count: number;
  ids: () => number[];
  has?: (uid: number) => boolean;
  /** a family whose values never share a task: the term pages by merging its value ranges */
  ranges?: { family: string; values: readonly (string | number)[] };
  /** a date bound: whether a stored task passes it, read off the task itself */
  test?: (task: Task) => boolean;
  /** a start or finish bound, which no stored enqueued task passes */
  skipsEnqueued?: boolean;
  /**
   * A family every task holds exactly one value of (status, type): the term's complement, the
   * tasks under the other values, which is all a term matching most tasks needs to test against.
   */
  complement?: { count: number; ids: () => number[] };
}

/**
 * The filters as terms, when no batch is running (the running batch's tasks are stored as enqueued
 * and need `matchTaskUids`), each read within `span` (an enqueue-date bound as uids, which is then
 * no term of its own): counts, uids and pages alike. Null when nothing restricts.
 */
function termsOf(dbs: QueueDbs, f: TaskFilter, span: UidSpan | null): Term[] | null {
  const index = dbs.taskIndex;
  const within_ = span ?? EVERY_UID;
  const terms: Term[] = [];
  const keys = (family: string, listed: readonly (string | number)[] | undefined, disjoint: boolean, exactlyOne = false): void => {
    if (listed === undefined) return;
    const values = [...new Set(listed)];
    if (values.length > MANY_VALUES) {
      // read at once (one scan, when cheaper than a read per value), neither counted nor paged
      // value by value; only index, batch and canceling uids can be that many (statuses and types are few)
      const ids = sortedUnique(idsUnderAny(index, family, values, within_));
      const held = new Set(ids);
      terms.push({ count: ids.length, ids: () => ids, has: (uid) => held.has(uid) });
      return;
    }
    const others = () => valuesOf(index, family).filter((value) => !values.some((v) => String(v) === value));
    // An upper bound for index uids (a rename or swap files a task under two), used to order terms.
    const count = values.reduce(
      (sum: number, value) =>
        sum + (span === null && COUNTED.includes(family) ? countedOf(dbs.taskCounts, family, value) : countOf(index, family, value, within_)),
      0,
    );
    // Every task is under exactly one value, so the complement's size needs no count.
    const complement = exactlyOne ? { count: taskCountIn(dbs, span) - count, ids: () => idsOfAny(index, family, others(), within_) } : undefined;
    terms.push({
      count,
      // most tasks (`statuses=succeeded`): the task table's uids, which read faster, less the few others
      ids: () =>
        complement !== undefined && complement.count * LOOKUP_COST < count
          ? without(taskUidsIn(dbs, within_), new Set(complement.ids()))
          : idsOfAny(index, family, values, within_),
      has: (uid) => values.some((value) => index.doesExist([family, value, uid])),
      ranges: disjoint || values.length === 1 ? { family, values } : undefined,
      complement,
    });
  };
  const uids = given(f.uids);
  if (uids) {
    const list = sortedUnique(uids.filter((uid) => inSpan(uid, within_) && dbs.tasks.doesExist(uid)));
    const set = new Set(list);
    terms.push({ count: list.length, ids: () => list, has: (uid) => set.has(uid) });
  }
  keys(FAMILY.status, given(f.statuses), true, true);
  keys(FAMILY.type, given(f.types), true, true);
  keys(FAMILY.batch, given(f.batchUids), true);
  keys(FAMILY.canceledBy, given(f.canceledBy), true);
  keys(FAMILY.index, given(f.indexUids), false);
  const dates: [string, Timestamp | undefined, Timestamp | undefined, (task: Task) => Timestamp | null][] = [
    [FAMILY.enqueuedAt, f.afterEnqueuedAt, f.beforeEnqueuedAt, (task) => task.enqueuedAt],
    [FAMILY.startedAt, f.afterStartedAt, f.beforeStartedAt, (task) => task.startedAt],
    [FAMILY.finishedAt, f.afterFinishedAt, f.beforeFinishedAt, (task) => task.finishedAt],
  ];
  for (const [family, after, before, dateOf] of dates) {
    if (!hasBound(after, before) || (family === FAMILY.enqueuedAt && span !== null)) continue;
    const ids = () => {
      const inRange = idsInRange(index, family, after, before);
      return sortedUnique(span === null ? inRange : inRange.filter((uid) => inSpan(uid, span)));
    };
    if (span !== null) {
      // the date's entries outside the span are not counted apart: read them, as they are to be intersected anyway
      const read = ids();
      terms.push({ count: read.length, ids: () => read });
      continue;
    }
    terms.push({
      count: countInRange(index, family, after, before),
      ids,
      skipsEnqueued: family !== FAMILY.enqueuedAt,
      test: (task) => {
        const date = dateOf(task);
        return date !== null && within(date, after, before);
      },
    });
  }
  return terms.length === 0 ? null : terms;
}

/** A date bound matching at least 1/WALK_SHARE of the tasks pages by walking the task table… */
const WALK_SHARE = 10;
/**
 * …testing at most this many tasks that fail it (each decoded, ~15 µs): walking 150,000 of them
 * (`beforeFinishedAt` at the middle of a 300,000-task queue) held the thread 1.6–2.8 s.
 */
const WALK_MISSES = 1_000;

/** Reading a uid costs a fraction of a point lookup: test membership only for a much smaller list. */
const LOOKUP_COST = 4;

/** The uids every term allows, ascending: the smallest term read, the others tested or intersected. */
function evaluate(terms: readonly Term[]): number[] {
  const [driver, ...others] = [...terms].sort((a, b) => a.count - b.count);
  let matched = driver!.ids();
  for (const term of others) {
    if (matched.length === 0) break;
    if (term.complement !== undefined && term.complement.count < term.count && term.complement.count < matched.length * LOOKUP_COST) {
      // most tasks pass it (`statuses=succeeded`): drop the few others rather than read them all
      matched = without(matched, new Set(term.complement.ids()));
      continue;
    }
    matched = term.has !== undefined && matched.length * LOOKUP_COST < term.count ? matched.filter(term.has) : intersect([matched, term.ids()]);
  }
  return matched;
}

/**
 * Several filters where one pages by ranges and every other matches most tasks (`statuses=failed&
 * types=documentAdditionOrUpdate`): the page walks the first one's ranges skipping the others'
 * complements, and `total` is its LMDB count less the complement uids it holds, so neither large
 * list is read. Null when the filters are not of that shape.
 */
function complementPlan(terms: readonly Term[]): { driver: Term; excluded: Set<number>; total: number } | null {
  const drivers = terms.filter((term) => term.ranges !== undefined).sort((a, b) => a.count - b.count);
  for (const driver of drivers) {
    const others = terms.filter((term) => term !== driver);
    if (!others.every((term) => term.complement !== undefined && term.complement.count * LOOKUP_COST < term.count)) continue;
    const excluded = new Set(others.flatMap((term) => term.complement!.ids()));
    let held = 0;
    for (const uid of excluded) if (driver.has!(uid)) held++;
    return { driver, excluded, total: driver.count - held };
  }
  return null;
}

/**
 * Merges uid iterations that are each in the page order into one, in that order. A page stops
 * reading it early, and a source it stops holds an LMDB cursor, which pins its read transaction
 * (a reader slot of the 126 the environment has) until returned: every source is returned when
 * the merge ends, however it ends.
 */
function* merged(sources: Iterator<number>[], ascending: boolean): Generator<number> {
  try {
    const heads = sources.map((source) => source.next());
    for (;;) {
      let best = -1;
      heads.forEach((head, i) => {
        if (head.done) return;
        const current = heads[best];
        if (best === -1 || (ascending ? head.value < current!.value : head.value > current!.value)) best = i;
      });
      if (best === -1) return;
      yield heads[best]!.value as number;
      heads[best] = sources[best]!.next();
    }
  } finally {
    for (const source of sources) source.return?.();
  }
}

/**
 * The most tasks of a running batch a listing tests one by one (`runningPage`); past it, the
 * whole filter is read as `matchTaskUids` reads it.
 */
const RUNNING_TESTED = 1_000;

/** Whether a task, as stored or as shown, passes every filter (`matchTaskUids`'s terms, tested on the record). */
function taskMatches(task: Task, f: TaskFilter): boolean {
  const listed = <T>(list: readonly StarOr<T>[] | undefined, value: T | null): boolean => {
    const values = given(list);
    return values === undefined || (value !== null && values.includes(value));
  };
  const indexUids = given(f.indexUids);
  return (
    listed(f.uids, task.uid) &&
    listed(f.batchUids, task.batchUid) &&
    listed(f.statuses, task.status) &&
    listed(f.types, taskTypeOf(task.kind)) &&
    listed(f.canceledBy, task.canceledBy) &&
    (indexUids === undefined || indexesOf(task.kind).some((index) => indexUids.includes(index))) &&
    (!hasBound(f.afterEnqueuedAt, f.beforeEnqueuedAt) || within(task.enqueuedAt, f.afterEnqueuedAt, f.beforeEnqueuedAt)) &&
    (!hasBound(f.afterStartedAt, f.beforeStartedAt) || (task.startedAt !== null && within(task.startedAt, f.afterStartedAt, f.beforeStartedAt))) &&
    (!hasBound(f.afterFinishedAt, f.beforeFinishedAt) || (task.finishedAt !== null && within(task.finishedAt, f.afterFinishedAt, f.beforeFinishedAt)))
  );
}

/**
 * A page while a batch runs: its tasks are stored as enqueued, without batch or start, so the page
 * is the stored tasks' (`storedPage`) without them, merged with those of them that match as shown
 * (`processing`); `total` trades the ones matching as stored for those matching as shown. Reading
 * every uid of each filter instead (`matchTaskUids`) held the thread answering requests 1.6–1.9 s
 * per filtered `GET /tasks` of a 300,000-task queue whenever a batch ran.
 */
function runningPage(
  dbs: QueueDbs,
  q: TaskQuery,
  processing: Processing,
  hidden: ReadonlySet<number> | null,
  count: number,
): { total: number; uids: number[] } {
  const ascending = q.reverse ?? false;
  const running = sortedUnique(processing.taskUids);
  const stored = storedPage(dbs, q, hidden === null ? new Set(running) : new Set([...hidden, ...running]), count);
  let total = stored.total;
  const shown: number[] = [];
  for (const uid of running) {
    const record = dbs.tasks.get(uid);
    if (record === undefined) continue;
    if (taskMatches(record, q)) total--;
    if (!taskMatches(withProcessing(record, processing), q)) continue;
    total++;
    if (q.from === undefined || (ascending ? uid >= q.from : uid <= q.from)) shown.push(uid);
  }
  const live = take(ascending ? shown : shown.reverse(), count, hidden);
  return { total, uids: [...merged([stored.uids.values(), live.values()], ascending)].slice(0, count) };
}

/** The uids of one page and the `total` of the tasks as stored (no batch running), however the filter is best evaluated. */
function storedPage(dbs: QueueDbs, q: TaskQuery, hidden: ReadonlySet<number> | null, count: number): { total: number; uids: number[] } {
  const ascending = q.reverse ?? false;
  const span = enqueuedUidSpan(dbs, q);
  const terms = termsOf(dbs, q, span);
  const ranges = terms?.length === 1 ? terms[0]!.ranges : undefined;
  if (ranges !== undefined) {
    // One filter over disjoint values: LMDB counts it, and the page reads only what it shows.
    const sources = ranges.values.map((value) => idsFrom(dbs.taskIndex, ranges.family, value, q.from, ascending, span ?? EVERY_UID));
    return { total: terms![0]!.count, uids: take(merged(sources, ascending), count, hidden) };
  }
  const test = terms?.length === 1 ? terms[0]!.test : undefined;
  if (test !== undefined && terms![0]!.count * WALK_SHARE >= entryCount(dbs.tasks)) {
    // One wide date bound: its matches are mostly dense in the task table, so the page walks the
    // table from the cursor and tests each task, instead of reading and sorting every match; but
    // not where they are not (`beforeStartedAt` walked from the newest tasks): past WALK_MISSES
    // tasks that fail the bound, the matches are read from the index after all. The enqueued
    // tasks, often the newest ones, are skipped unread by a start or finish bound.
    const enqueued = terms![0]!.skipsEnqueued === true ? enqueuedUids(dbs) : null;
    let misses = 0;
    const walked = (function* () {
      for (const uid of dbs.tasks.getKeys({ start: q.from, reverse: !ascending })) {
        if (enqueued?.has(uid) === true) continue;
        if (test(dbs.tasks.get(uid)!)) yield uid;
        else if (++misses > WALK_MISSES) return;
      }
    })();
    const uids = take(walked, count, hidden);
    if (misses <= WALK_MISSES) return { total: terms![0]!.count, uids };
  }
  const plan = terms !== null && terms.length > 1 ? complementPlan(terms) : null;
  if (plan !== null) {
    const { family, values } = plan.driver.ranges!;
    const sources = values.map((value) => idsFrom(dbs.taskIndex, family, value, q.from, ascending, span ?? EVERY_UID));
    const skipped = hidden === null ? plan.excluded : new Set([...plan.excluded, ...hidden]);
    return { total: plan.total, uids: take(merged(sources, ascending), count, skipped) };
  }
  if (terms !== null) {
    const matched = evaluate(terms);
    return { total: matched.length, uids: pageOfSorted(matched, q, count, hidden) };
  }
  // Unfiltered (but for an enqueue-date span): walk the task table from the cursor instead of materialising every uid.
  const { lo, hi } = spanFrom(span ?? EVERY_UID, q.from, ascending);
  const walked = lo > hi ? [] : dbs.tasks.getKeys(ascending ? { start: lo, end: hi + 1 } : { start: hi, end: lo === 0 ? undefined : lo - 1, reverse: true });
  return { total: taskCountIn(dbs, span), uids: take(walked, count, hidden) };
}

/** The uids of one page and the `total`, however the filter is best evaluated. */
function taskPage(
  dbs: QueueDbs,
  q: TaskQuery,
  processing: Processing | null,
  hidden: ReadonlySet<number> | null,
  count: number,
): { total: number; uids: number[] } {
  if (processing === null) return storedPage(dbs, q, hidden, count);
  if (processing.taskUids.size <= RUNNING_TESTED) return runningPage(dbs, q, processing, hidden, count);
  const matched = matchTaskUids(dbs, q, processing);
  if (matched !== null) return { total: matched.length, uids: pageOfSorted(matched, q, count, hidden) };
  return storedPage(dbs, q, hidden, count);
}

export function pageTasks(
  dbs: QueueDbs,
  q: TaskQuery,
  processing: Processing | null,
  authorized?: IndexAuthorizer,
): Page<Task> {
  const limit = q.limit ?? DEFAULT_LIMIT;
  const { total, uids } = taskPage(dbs, q, processing, hiddenTaskUids(dbs, q, authorized), limit + 1);
  const items = uids.map((uid) => withProcessing(dbs.tasks.get(uid)!, processing));
  return envelope(items, total, limit);
}

/** Every stored task the filter matches, ascending (no batch running), read as a page's terms are. */
function storedTaskUids(dbs: QueueDbs, f: TaskFilter): number[] {
  const span = enqueuedUidSpan(dbs, f);
  const terms = termsOf(dbs, f, span);
  if (terms === null) return span === null ? allTaskUids(dbs) : taskUidsIn(dbs, span);
  return evaluate(terms);
}

/**
 * Every task uid a cancel or delete request targets, ascending: the filter with the same visibility
 * rules as listing, without pagination.
 */
export function selectTaskUids(
  dbs: QueueDbs,
  f: TaskFilter,
  processing: Processing | null,
  authorized?: IndexAuthorizer,
): number[] {
  const matched = processing === null ? storedTaskUids(dbs, f) : (matchTaskUids(dbs, f, processing) ?? allTaskUids(dbs));
  const hidden = hiddenTaskUids(dbs, f, authorized);
  return hidden === null ? matched : without(matched, hidden);
}

function allBatchUids(dbs: QueueDbs, processing: Processing | null): number[] {
  const stored = [...dbs.batches.getKeys()];
  return processing === null ? stored : sortedUnique([...stored, processing.batch.uid]);
}

/** Matching batch uids ascending (the running batch included), or null when nothing restricts. */
function matchBatchUids(
  dbs: QueueDbs,
  f: TaskFilter,
  processing: Processing | null,
  getTask: (uid: number) => Task | undefined,
): number[] | null {
  const index = dbs.batchIndex;
  const running = processing?.batch;
  const lists: number[][] = [];
  let excluded: Set<number> | null = null;
  /** Adds the running batch to an index answer when it qualifies. */
  const plusRunning = (ids: number[], qualifies: (batch: Batch) => boolean): number[] =>
    running !== undefined && qualifies(running) ? [...ids, running.uid] : ids;

  const batchUids = given(f.batchUids);
  if (batchUids) {
    lists.push(sortedUnique(batchUids.filter((uid) => uid === running?.uid || dbs.batches.doesExist(uid))));
  }
  const statuses = given(f.statuses);
  if (statuses) {
    const ids = statuses.flatMap((s) => {
      if (s === 'processing') return running === undefined ? [] : [running.uid];
      // Batches are written once finished: no batch is ever "enqueued".
      if (s === 'enqueued') return [];
      return idsOf(index, FAMILY.status, s);
    });
    lists.push(sortedUnique(ids));
    if (running !== undefined && !statuses.includes('processing')) excluded = new Set([running.uid]);
  }
  const uids = given(f.uids);
  if (uids) {
    const ids = uids.flatMap((uid) => {
      const batchUid = getTask(uid)?.batchUid;
      return batchUid === null || batchUid === undefined ? [] : [batchUid];
    });
    lists.push(sortedUnique(ids));
  }
  const canceledBy = given(f.canceledBy);
  if (canceledBy) {
    // The batches in which those cancelation tasks ran (and succeeded).
    const ids = canceledBy.flatMap((uid) => {
      const task = getTask(uid);
      const ran = task?.kind.name === 'taskCancelation' && task.status === 'succeeded' && task.batchUid !== null;
      return ran ? [task.batchUid!] : [];
    });
    if (ids.length === 0) return [];
    lists.push(sortedUnique(ids));
  }
  const types = given(f.types);
  if (types) {
    const ids = types.flatMap((t) => plusRunning(idsOf(index, FAMILY.type, t), (b) => b.stats.types[t] !== undefined));
    lists.push(sortedUnique(ids));
  }
  const indexUids = given(f.indexUids);
  if (indexUids) {
    const ids = plusRunning(idsUnderAny(index, FAMILY.index, indexUids), (b) => indexUids.some((i) => b.indexes.includes(i)));
    lists.push(sortedUnique(ids));
  }
  const { afterEnqueuedAt: ae, beforeEnqueuedAt: be, afterStartedAt: as, beforeStartedAt: bs } = f;
  if (hasBound(ae, be)) {
    const ids = plusRunning(
      idsInRange(index, FAMILY.enqueuedAt, ae, be),
      (b) => b.enqueuedAt !== null && (within(b.enqueuedAt.oldest, ae, be) || within(b.enqueuedAt.newest, ae, be)),
    );
    lists.push(sortedUnique(ids));
  }
  if (hasBound(as, bs)) {
    lists.push(sortedUnique(plusRunning(idsInRange(index, FAMILY.startedAt, as, bs), (b) => within(b.startedAt, as, bs))));
  }
  if (hasBound(f.afterFinishedAt, f.beforeFinishedAt)) {
    lists.push(sortedUnique(idsInRange(index, FAMILY.finishedAt, f.afterFinishedAt, f.beforeFinishedAt)));
  }

  if (lists.length === 0 && excluded === null) return null;
  const matched = lists.length === 0 ? allBatchUids(dbs, processing) : intersect(lists);
  return excluded === null ? matched : without(matched, excluded);
}

function batchVisible(batch: Batch, hideGlobal: boolean, authorized: IndexAuthorizer | undefined): boolean {
  const types = Object.keys(batch.stats.types) as TaskType[];
  if (hideGlobal && types.some((type) => !isRelatedToOneIndex(type))) return false;
  // A batch stays visible when at least one of its indexes is authorized.
  return authorized === undefined || batch.indexes.length === 0 || batch.indexes.some(authorized);
}

/** Batches a caller does not see, by the rules of `batchVisible`, found through the batch index. */
function hiddenBatchUids(
  dbs: QueueDbs,
  f: TaskFilter,
  processing: Processing | null,
  authorized: IndexAuthorizer | undefined,
): Set<number> | null {
  const hideGlobal = given(f.indexUids) !== undefined || authorized !== undefined;
  if (!hideGlobal) return null;
  const hidden = new Set<number>();
  for (const type of TASK_TYPES) {
    if (!isRelatedToOneIndex(type)) for (const uid of idsOf(dbs.batchIndex, FAMILY.type, type)) hidden.add(uid);
  }
  if (authorized !== undefined) {
    const allowed = new Set<number>();
    const forbidden: number[] = [];
    for (const indexUid of valuesOf(dbs.batchIndex, FAMILY.index)) {
      const ids = idsOf(dbs.batchIndex, FAMILY.index, indexUid);
      if (authorized(indexUid)) for (const uid of ids) allowed.add(uid);
      else forbidden.push(...ids);
    }
    for (const uid of forbidden) if (!allowed.has(uid)) hidden.add(uid);
  }
  if (processing !== null && !batchVisible(processing.batch, hideGlobal, authorized)) hidden.add(processing.batch.uid);
  return hidden;
}

export function pageBatches(
  dbs: QueueDbs,
  q: TaskQuery,
  processing: Processing | null,
  getTask: (uid: number) => Task | undefined,
  authorized?: IndexAuthorizer,
): Page<Batch> {
  const limit = q.limit ?? DEFAULT_LIMIT;
  const hidden = hiddenBatchUids(dbs, q, processing, authorized);
  const ascending = q.reverse ?? false;
  let total: number;
  let uids: number[];
  const range = processing === null ? singleBatchRange(q) : null;
  if (range !== null) {
    total = countOf(dbs.batchIndex, range.family, range.value);
    uids = take(idsFrom(dbs.batchIndex, range.family, range.value, q.from, ascending), limit + 1, hidden);
  } else {
    const matched = matchBatchUids(dbs, q, processing, getTask);
    if (matched !== null) {
      total = matched.length;
      uids = pageOfSorted(matched, q, limit + 1, hidden);
    } else {
      // Unfiltered: walk the batch table from the cursor, and slot the running batch in.
      const runningUid = processing?.batch.uid;
      const runningIsNew = runningUid !== undefined && !dbs.batches.doesExist(runningUid);
      total = entryCount(dbs.batches) + (runningIsNew ? 1 : 0);
      const stored = take(dbs.batches.getKeys({ start: q.from, reverse: !ascending }), limit + 1, hidden);
      uids = runningUid === undefined ? stored : pageOfSorted(sortedUnique([...stored, runningUid]), q, limit + 1, hidden);
    }
  }
  const items = uids.map((uid) => (uid === processing?.batch.uid ? runningBatch(processing) : dbs.batches.get(uid)!));
  return envelope(items, total, limit);
}

/**
 * The one batch-index range a filter reduces to, when it does: a single value of `statuses`,
 * `types` or `indexUids` and nothing else, counted by LMDB and paged by a range scan. Batches are
 * never stored as enqueued or processing.
 */
function singleBatchRange(f: TaskFilter): { family: string; value: string | number } | null {
  const others =
    given(f.uids) !== undefined ||
    given(f.batchUids) !== undefined ||
    given(f.canceledBy) !== undefined ||
    hasBound(f.afterEnqueuedAt, f.beforeEnqueuedAt) ||
    hasBound(f.afterStartedAt, f.beforeStartedAt) ||
    hasBound(f.afterFinishedAt, f.beforeFinishedAt);
  const present = (
    [
      [FAMILY.status, given(f.statuses)],
      [FAMILY.type, given(f.types)],
      [FAMILY.index, given(f.indexUids)],
    ] as const
  ).filter(([, values]) => values !== undefined);
  if (others || present.length !== 1) return null;
  const [family, values] = present[0]!;
  if (values!.length !== 1 || values![0] === 'enqueued' || values![0] === 'processing') return null;
  return { family, value: values![0]! };
}

/** Whether a single task is shown to a caller (`GET /tasks/{uid}`). */
export function isTaskVisible(task: Task, authorized?: IndexAuthorizer): boolean {
  if (authorized === undefined) return true;
  return isRelatedToOneIndex(taskTypeOf(task.kind)) && indexesOf(task.kind).every(authorized);
}

/** A single batch as a caller sees it (`GET /batches/{uid}`), or undefined. */
export function visibleBatch(batch: Batch | undefined, processing: Processing | null, authorized?: IndexAuthorizer): Batch | undefined {
  if (batch === undefined || !batchVisible(batch, authorized !== undefined, authorized)) return undefined;
  return processing !== null && batch.uid === processing.batch.uid ? runningBatch(processing) : batch;
}
