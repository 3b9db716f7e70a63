/**
 * The persistent task queue (Meilisearch's `Queue`): tasks and batches in the instance LMDB env,
 * their secondary indexes (index-keys.ts), uid allocation, and the in-memory view of the running
 * batch.
 *
 * Callers: HTTP routes (`enqueue`, `query`, `get`, …) and the scheduler (`nextEnqueued`,
 * `setProcessing`, `commitBatch`, `cleanUpWhenFull`, …), all on the main thread.
 *
 * Transactions: every mutation runs in `writeTxn` (store/write-txn.ts), which joins the caller's
 * transaction when there is one. The scheduler can therefore write tasks, batches and its own
 * records in one all-or-nothing commit: `writeTxn(root, () => { queue.update(t); queue.writeBatch(b); … })`.
 *
 * Invariants:
 * - task uids and batch uids are the highest stored uid + 1, or for a task a higher uid its
 *   registration asked for (a deletion never removes the newest task, so task uids are never
 *   reused; an interrupted batch's uid is reused, as in Meilisearch);
 * - storage never holds `processing`: the running batch's tasks stay `enqueued` on disk and are
 *   reported as `processing` through `setProcessing`; after a crash they are simply enqueued again,
 *   which is the whole of crash recovery;
 * - every stored record has exactly the index entries `taskKeys`/`batchKeys` give for it;
 * - enqueue dates rise with uids while the counts database says so (index-keys.ts `enqueueOrder`):
 *   a write of tasks out of that order records that it is lost;
 * - only finished tasks are ever deleted; a batch left without tasks is deleted with them; a
 *   deletion batch deletes in slices, each a commit of its own (`deleteSlice`);
 * - past 40 % of the map, only cancelations and deletions that target tasks are registered.
 */
import type { Database, Key, RootDatabase } from 'lmdb';
import { ApiError } from '../errors/api-error.js';
import { INSTANCE_DBS, MAIN_KEYS } from '../store/dbs.js';
import { writeTxn, writeTxnAsync } from '../store/write-txn.js';
import type { InstanceStore } from '../store/env.js';
import {
  indexesOf,
  isFinished,
  renameIndexes,
  type Batch,
  type IndexSwap,
  type Task,
  type TaskDetails,
  type TaskKind,
  type TaskNetwork,
  type TaskType,
} from '../types/task.js';
import { formatRfc3339, nowNs } from '../types/dates.js';
import type { Progress } from './progress.js';
import { defaultDetails } from './details.js';
import {
  CountChanges,
  FAMILY,
  batchKeys,
  checkEnqueueOrder,
  countedOf,
  enqueueOrderKnown,
  hasAny,
  idsFrom,
  idsOf,
  keepEnqueueOrder,
  recount,
  reindex,
  taskKeys,
  valuesOf,
  type IndexDb,
} from './index-keys.js';
import { intersect } from './uid-sets.js';
import {
  isTaskVisible,
  pageBatches,
  pageTasks,
  selectTaskUids,
  withProcessing,
  type IndexAuthorizer,
  type Page,
  type Processing,
  type QueueDbs,
  type TaskFilter,
  type TaskQuery,
  visibleBatch,
} from './query.js';
import { sortedUnique } from './uid-sets.js';
import { BATCH_RECORD_VALUES, TASK_RECORD_VALUES } from './record-codecs.js';

/** A task as a batch read it, with its stored bytes then. */
interface ReadRecord {
  readonly task: Task;
  readonly bytes: Uint8Array;
}

export type ReadRecords = ReadonlyMap<number, ReadRecord>;

/** What a route enqueues. */
export interface TaskInput {
  kind: TaskKind;
  /** the `customMetadata` query parameter of document and rule routes */
  customMetadata?: string | null;
  /** where the task comes from or goes to in a network (network.md §5) */
  network?: TaskNetwork;
  /** the uid asked for (v1.50's `TaskId` header): refused below the next uid, which then follows it */
  uid?: number;
  /** v1.50's `DryRun` header: the task is made and checked as ever, then not stored */
  dryRun?: boolean;
}

/** The enqueued tasks the autobatcher needs (see autobatcher.ts `nextBatch`). */
export interface SchedulingSnapshot {
  /** uid order: every enqueued task of a prioritised type, failed upgrades, and the oldest task's index run */
  tasks: Task[];
  /** enqueued tasks in the whole queue */
  enqueuedCount: number;
}

/** Tasks from which the scheduler deletes the oldest finished ones (v1.50's `max_number_of_tasks`). */
export const MAX_NUMBER_OF_TASKS = 1_000_000;
/** The finished tasks one automatic cleanup deletes at most (v1.50's `take(100_000)`). */
const CLEANUP_DELETES = 100_000;

/** What `cleanUpWhenFull` did: nothing (under the maximum), nothing it could (`stuck`), or the deletion it registered. */
export type Cleanup = { readonly kind: 'under' } | { readonly kind: 'stuck' } | { readonly kind: 'registered'; readonly task: Task };

/** Share of the map above which only cancelations and deletions are accepted. */
const TASK_STORE_LIMIT_PERCENT = 40;

/** Bytes of the pages a database's B-tree occupies (free pages excluded). */
function treeBytes(db: { getStats(): unknown }): number {
  const stats = db.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
  return (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages) * stats.pageSize;
}

function renameSwaps(swaps: readonly IndexSwap[], rename: (uid: string) => string): IndexSwap[] {
  return swaps.map((swap) => ({ ...swap, indexes: [rename(swap.indexes[0]), rename(swap.indexes[1])] }));
}

/** Types the scheduler takes before any index task (tasks-batches.md §9.1). */
const PRIORITISED = [
  'taskCancelation',
  'upgradeDatabase',
  'networkTopologyChange',
  'taskDeletion',
  'indexCompaction',
  'export',
  'snapshotCreation',
  'dumpCreation',
] as const;

export class TaskQueue {
  private readonly root: RootDatabase;
  /** the instance's small records: an interrupted deletion batch's counts (`deletionProgress`) */
  private readonly main: Database<unknown, string>;
  private readonly dbs: QueueDbs;
  /** what the task-store guard measures: the queue's trees and the payloads kept beside them (store/update-files.ts) */
  private readonly measured: readonly { getStats(): unknown }[];
  private running: Processing | null = null;

  constructor(store: InstanceStore) {
    this.root = store.root;
    this.main = store.main;
    this.dbs = {
      // a task's details hold user-named keys (synonyms, embedders, remotes), `__proto__` included
      tasks: store.root.openDB<Task, number>({ name: INSTANCE_DBS.tasks, ...TASK_RECORD_VALUES }),
      // index uids are keys of a batch's stats
      batches: store.root.openDB<Batch, number>({ name: INSTANCE_DBS.batches, ...BATCH_RECORD_VALUES }),
      taskIndex: store.root.openDB({ name: INSTANCE_DBS.taskIndex }) as IndexDb,
      taskCounts: store.root.openDB<number, Key>({ name: INSTANCE_DBS.taskCounts }),
      batchIndex: store.root.openDB({ name: INSTANCE_DBS.batchIndex }) as IndexDb,
    };
    this.measured = [...Object.values(this.dbs), store.root.openDB({ name: INSTANCE_DBS.payloads, encoding: 'binary' })];
    // Every task counts under a status and a type: no counts beside stored tasks means a store
    // written before counts were kept.
    const entries = (db: { getStats(): unknown }) => (db.getStats() as { entryCount: number }).entryCount;
    if (entries(this.dbs.taskCounts) === 0 && entries(this.dbs.tasks) > 0) {
      writeTxn(this.root, () => recount(this.dbs.taskIndex, this.dbs.taskCounts));
    }
    if (!enqueueOrderKnown(this.dbs.taskCounts)) writeTxn(this.root, () => checkEnqueueOrder(this.dbs.taskIndex, this.dbs.taskCounts));
  }

  private static nextUid(db: Database<unknown, number>): number {
    for (const last of db.getKeys({ reverse: true, limit: 1 })) return last + 1;
    return 0;
  }

  /** The uid the next registered task gets (uids handed out but not yet committed included). */
  nextTaskUid(): number {
    return Math.max(this.allocated, TaskQueue.nextUid(this.dbs.tasks));
  }

  /** The uid the next batch gets; the scheduler asks before opening a batch. */
  nextBatchUid(): number {
    return TaskQueue.nextUid(this.dbs.batches);
  }

  /** Past the last uid handed to a registration still committing, so that none share a uid. */
  private allocated = 0;
  private inFlight = 0;

  private newTask(input: TaskInput): Task {
    this.checkSpace(input.kind);
    const next = this.nextTaskUid();
    if (input.uid !== undefined && input.uid < next) throw new ApiError('bad_request', `Received bad task id: ${input.uid} should be >= to ${next}.`);
    const uid = input.uid ?? next;
    let kind = input.kind;
    if (kind.name === 'taskCancelation' || kind.name === 'taskDeletion') {
      kind = { ...kind, tasks: kind.tasks.filter((target) => target < uid) };
    }
    return {
      uid,
      batchUid: null,
      status: 'enqueued',
      kind,
      details: defaultDetails(kind),
      error: null,
      canceledBy: null,
      enqueuedAt: nowNs(),
      startedAt: null,
      finishedAt: null,
      customMetadata: input.customMetadata ?? null,
      ...(input.network === undefined ? {} : { network: input.network }),
    };
  }

  /** Records whether enqueue dates still rise with uids once `tasks` are stored (before they are). */
  private keepEnqueueOrder(tasks: readonly Task[]): void {
    if (tasks.length === 0) return;
    const ordered = tasks.every((task, i) => i === 0 || (task.uid > tasks[i - 1]!.uid && task.enqueuedAt >= tasks[i - 1]!.enqueuedAt));
    keepEnqueueOrder(this.dbs.taskIndex, this.dbs.taskCounts, this.dbs.tasks, tasks[0]!, tasks[tasks.length - 1]!, ordered);
  }

  /** A task and its index entries (inside the caller's transaction); its count changes to `counts` when given (a write of many tasks). */
  private insert(task: Task, counts?: CountChanges): void {
    this.dbs.tasks.putSync(task.uid, task);
    reindex(this.dbs.taskIndex, [], taskKeys(task), counts ?? this.dbs.taskCounts);
  }

  /** The reverse of `insert`. */
  private remove(task: Task, counts?: CountChanges): void {
    reindex(this.dbs.taskIndex, taskKeys(task), [], counts ?? this.dbs.taskCounts);
    this.dbs.tasks.removeSync(task.uid);
  }

  /**
   * Enqueues a task and returns it. A cancelation or deletion never targets itself or a newer task:
   * such uids are dropped from its frozen set and `matchedTasks` counts what remains.
   */
  register(input: TaskInput): Task {
    const task = this.newTask(input);
    if (input.dryRun !== true) {
      writeTxn(this.root, () => {
        this.keepEnqueueOrder([task]);
        this.insert(task);
      });
    }
    return task;
  }

  /**
   * `register` for the HTTP routes: registrations made in the same event-loop turn share one
   * commit (and one disk flush), and the promise resolves once the task is durable. Commits
   * happen in call order, so uids stay in enqueue order. A dry run answers the task it would
   * register, storing nothing and taking no uid.
   */
  async enqueue(input: TaskInput): Promise<Task> {
    const task = this.newTask(input);
    if (input.dryRun === true) return task;
    this.allocated = task.uid + 1;
    this.inFlight++;
    try {
      await this.root.transaction(() => {
        this.keepEnqueueOrder([task]);
        this.insert(task);
      });
    } finally {
      // Once nothing is in flight the stored uids are the truth again (a failed commit frees its uid).
      if (--this.inFlight === 0) this.allocated = 0;
    }
    return task;
  }

  /**
   * Meilisearch's task-store guard: past 40 % of the map, new tasks are refused (422) so that the
   * store never fills up; only a cancelation or deletion that targets tasks still gets in, since
   * that is how space is freed. Used space counts the pages of the queue's trees and of the
   * payloads kept in the same environment, so that it shrinks again when tasks are deleted or
   * processed.
   */
  private checkSpace(kind: TaskKind): void {
    if ((kind.name === 'taskCancelation' || kind.name === 'taskDeletion') && kind.tasks.length > 0) return;
    if (this.overLimit()) {
      throw new ApiError(
        'no_space_left_on_device',
        'Meilisearch cannot receive write operations because the limit of the task database has been reached. Please delete tasks to continue performing write operations.',
      );
    }
  }

  /**
   * Reading the page counts of every tree costs more than a registration itself, so a measure is
   * reused for up to 16 registrations or 250 ms — unless it was already near the limit, where
   * every registration measures. Deleting tasks forces a new measure, so freed space is usable
   * at once.
   */
  private spaceCheck = { at: Number.NEGATIVE_INFINITY, uses: 0, percent: 0 };

  private overLimit(): boolean {
    const now = performance.now();
    const check = this.spaceCheck;
    if (check.percent >= TASK_STORE_LIMIT_PERCENT * 0.75 || check.uses >= 16 || now - check.at > 250) {
      const { max, used } = this.storageSize();
      this.spaceCheck = { at: now, uses: 0, percent: (used * 100) / max };
    }
    this.spaceCheck.uses++;
    return this.spaceCheck.percent > TASK_STORE_LIMIT_PERCENT;
  }

  /**
   * The task store's map size, the bytes the queue and its payloads use in it, and what may still
   * be used before registrations stop (`/metrics`' task queue sizes).
   */
  storageSize(): { max: number; used: number; untilFull: number } {
    const { mapSize } = this.root.getStats() as { mapSize: number };
    const used = this.measured.reduce((sum, db) => sum + treeBytes(db), 0);
    return { max: mapSize, used, untilFull: Math.max(0, Math.floor((mapSize * TASK_STORE_LIMIT_PERCENT) / 100) - used) };
  }

  /** Every index uid some stored task names, deleted indexes included (`/metrics`' task counts per index). */
  taskIndexUids(): string[] {
    return valuesOf(this.dbs.taskIndex, FAMILY.index);
  }

  /** Stores a new version of an existing task and moves its index entries. */
  update(task: Task): void {
    if (task.status === 'processing') {
      throw new Error(`Task ${task.uid}: \`processing\` is never stored; keep the task enqueued while it runs.`);
    }
    writeTxn(this.root, () => this.replace(this.storedForUpdate(task.uid), task));
  }

  /** Stored task `uid`, which an update replaces. */
  private storedForUpdate(uid: number): Task {
    const stored = this.dbs.tasks.get(uid);
    if (stored === undefined) throw new Error(`Task ${uid} cannot be updated: it does not exist.`);
    return stored;
  }

  /** Stores `task` over `previous`, its stored version, and moves its index entries. */
  private replace(previous: Task, task: Task): void {
    if (task.enqueuedAt !== previous.enqueuedAt) keepEnqueueOrder(this.dbs.taskIndex, this.dbs.taskCounts, this.dbs.tasks, task, task, false);
    this.dbs.tasks.putSync(task.uid, task);
    reindex(this.dbs.taskIndex, taskKeys(previous), taskKeys(task), this.dbs.taskCounts);
  }

  /**
   * Records where a task went in the network (the remote tasks of a forwarded write), durably,
   * whatever the task's status; nothing happens when the task was deleted meanwhile.
   */
  setNetwork(uid: number, network: TaskNetwork): void {
    writeTxn(this.root, () => {
      const stored = this.dbs.tasks.get(uid);
      if (stored !== undefined) this.dbs.tasks.putSync(uid, { ...stored, network });
    });
  }

  /**
   * Reads stored task `uid` and stores what `change` makes of it, in one transaction: a network
   * change's state is updated so both by the routes that receive imports and notifications and by
   * the scheduler, and neither may overwrite the other's update. `change` answers the new task
   * (or null to keep it) and a result.
   */
  modify<T>(uid: number, change: (task: Task) => { task: Task | null; result: T }): T {
    return writeTxn(this.root, () => {
      const stored = this.dbs.tasks.get(uid);
      if (stored === undefined) throw new Error(`Task ${uid} cannot be modified: it does not exist.`);
      const { task, result } = change(stored);
      if (task !== null) this.update(task);
      return result;
    });
  }

  /** The oldest enqueued task of `type` as stored (a running batch's tasks stay enqueued on disk). */
  oldestEnqueued(type: TaskType): Task | undefined {
    const index = this.dbs.taskIndex;
    for (const uid of idsOf(index, FAMILY.type, type)) {
      if (index.doesExist([FAMILY.status, 'enqueued', uid])) return this.dbs.tasks.get(uid);
    }
    return undefined;
  }

  /** Tasks stored, of every status (read from the per-status counts). */
  taskCount(): number {
    return (['enqueued', 'succeeded', 'failed', 'canceled'] as const).reduce((sum, status) => sum + countedOf(this.dbs.taskCounts, FAMILY.status, status), 0);
  }

  /**
   * v1.50's automatic cleanup (tasks-batches.md §6): once the queue holds `maxTasks` tasks or more,
   * registers a `taskDeletion` of its oldest finished tasks (up to 100,000), whose
   * `originalFilter` is ``?beforeEnqueuedAt=<the newest one's enqueuedAt + 1 ns>&statuses=succeeded,failed,canceled``.
   * With fewer than two finished tasks it registers nothing (`stuck`): deleting one task would
   * only make room for the next cleanup's own deletion. A deletion that targets tasks passes the
   * task-store guard, so the cleanup runs even when registrations are refused.
   */
  cleanUpWhenFull(maxTasks: number): Cleanup {
    if (this.taskCount() < maxTasks) return { kind: 'under' };
    const index = this.dbs.taskIndex;
    const finished: number[] = [];
    for (const status of ['succeeded', 'failed', 'canceled'] as const) {
      let taken = 0;
      for (const uid of idsFrom(index, FAMILY.status, status, undefined, true)) {
        if (taken++ === CLEANUP_DELETES) break;
        finished.push(uid);
      }
    }
    const oldest = finished.sort((a, b) => a - b).slice(0, CLEANUP_DELETES);
    if (oldest.length < 2) return { kind: 'stuck' };
    const deleteBefore = this.dbs.tasks.get(oldest[oldest.length - 1]!)!.enqueuedAt + 1n;
    const query = `?beforeEnqueuedAt=${formatRfc3339(deleteBefore)}&statuses=succeeded,failed,canceled`;
    return { kind: 'registered', task: this.register({ kind: { name: 'taskDeletion', query, tasks: oldest } }) };
  }

  /** Every enqueued task as stored, in uid order (the scheduler's network gate filters them). */
  allEnqueued(): Task[] {
    return idsOf(this.dbs.taskIndex, FAMILY.status, 'enqueued').map((uid) => this.dbs.tasks.get(uid)!);
  }

  /**
   * Relabels the history of renamed or swapped indexes: every task older than `beforeUid` that
   * touches an index in `mapping` gets the mapped uid (both directions of a swap at once).
   */
  relabelIndexes(mapping: ReadonlyMap<string, string>, beforeUid: number): void {
    writeTxn(this.root, () => {
      const uids = sortedUnique([...mapping.keys()].flatMap((index) => idsOf(this.dbs.taskIndex, FAMILY.index, index)));
      const rename = (uid: string) => mapping.get(uid) ?? uid;
      for (const uid of uids) {
        if (uid >= beforeUid) continue;
        const task = this.dbs.tasks.get(uid)!;
        // A swap's details name its indexes too, and follow them as Meilisearch's do.
        const details: TaskDetails | null =
          task.details?.kind === 'indexSwap' ? { ...task.details, swaps: renameSwaps(task.details.swaps, rename) } : task.details;
        this.update({ ...task, kind: renameIndexes(task.kind, rename), details });
      }
    });
  }

  /** Stores a finished batch (replacing a previous attempt with the same uid). */
  writeBatch(batch: Batch): void {
    if (batch.finishedAt === null) throw new Error(`Batch ${batch.uid} is still running: only finished batches are stored.`);
    writeTxn(this.root, () => {
      const previous = this.dbs.batches.get(batch.uid);
      this.dbs.batches.putSync(batch.uid, { ...batch, progress: null });
      reindex(this.dbs.batchIndex, previous === undefined ? [] : batchKeys(previous), batchKeys(batch));
    });
  }

  /**
   * `tasks`, each as decoded from the store in this same turn, with their stored bytes: at its
   * commit, a batch takes a record whose bytes are still these for the version it replaces,
   * where it would decode it again (a settings task's record may hold megabytes).
   */
  readRecords(tasks: readonly Task[]): ReadRecords {
    const records = new Map<number, ReadRecord>();
    for (const task of tasks) {
      const bytes = this.storedBytes(task.uid);
      if (bytes !== undefined) records.set(task.uid, { task, bytes: bytes.slice() });
    }
    return records;
  }

  /** Task `uid`'s stored bytes, in lmdb's shared read buffer (valid until the next read). */
  private storedBytes(uid: number): Uint8Array | undefined {
    const fast = this.dbs.tasks.getBinaryFast(uid);
    // lmdb's fast buffer reports the value's length but may span its whole shared region
    return fast === undefined ? undefined : new Uint8Array(fast.buffer, fast.byteOffset, fast.length);
  }

  /** `read`'s task `uid` while its stored bytes are unchanged. */
  private unchangedSince(uid: number, read: ReadRecords | undefined): Task | undefined {
    const record = read?.get(uid);
    if (record === undefined) return undefined;
    const bytes = this.storedBytes(uid);
    return bytes !== undefined && bytes.length === record.bytes.length && Buffer.compare(bytes, record.bytes) === 0 ? record.task : undefined;
  }

  /**
   * Stores a finished batch and its tasks together (see batch-record.ts `finishBatch`). With the
   * batch's progress, the writes are counted as its last step and the batch keeps its trace.
   * `read`: the batch's tasks as it read them (`readRecords`).
   */
  commitBatch(batch: Batch, tasks: readonly Task[], progress?: Progress, read?: ReadRecords): void {
    writeTxn(this.root, () => {
      const written = progress?.count('task', tasks.length);
      for (const task of tasks) {
        const previous = this.unchangedSince(task.uid, read) ?? this.storedForUpdate(task.uid);
        // the batch ran on copies taken before the forwarded remote tasks were recorded (setNetwork)
        const { network } = previous;
        this.replace(previous, network === undefined ? task : { ...task, network });
        written?.();
      }
      this.writeBatch(progress === undefined ? batch : { ...batch, stats: { ...batch.stats, progressTrace: progress.trace() } });
    });
  }

  /**
   * One slice of a deletion batch (process/task-ops.ts), in a commit of its own: deletes the tasks
   * of `uids` that are finished (others are kept, as a `taskDeletion` requires), their index
   * entries and the batches left empty, and adds how many went to `deletion`'s count in
   * `progress`, stored in the same commit (`deletionProgress`). Resolves once durable.
   */
  async deleteSlice(uids: readonly number[], deletion: number, progress: Map<number, number>): Promise<void> {
    this.spaceCheck.at = Number.NEGATIVE_INFINITY;
    const counted = await writeTxnAsync(this.root, () => {
      const deleted = this.deleteFinished(uids);
      const counts = new Map(progress).set(deletion, (progress.get(deletion) ?? 0) + deleted);
      this.main.putSync(MAIN_KEYS.taskDeletionProgress, Object.fromEntries(counts));
      return counts;
    });
    for (const [uid, count] of counted) progress.set(uid, count);
  }

  /**
   * The tasks each deletion task has deleted so far (uid → count), as the slices of a deletion
   * batch a crash interrupted left them: what they deleted is gone, so only this record still
   * counts it. Empty when no deletion batch was interrupted.
   */
  deletionProgress(): Map<number, number> {
    const stored = this.main.get(MAIN_KEYS.taskDeletionProgress) as Record<string, number> | undefined;
    return new Map(Object.entries(stored ?? {}).map(([uid, count]) => [Number(uid), count]));
  }

  /** Drops the record of `deletionProgress`, in the commit that finishes the deletion batch. */
  clearDeletionProgress(): void {
    writeTxn(this.root, () => void this.main.removeSync(MAIN_KEYS.taskDeletionProgress));
  }

  /** Deletes the finished tasks among `uids` (inside the caller's transaction); answers how many. */
  private deleteFinished(uids: readonly number[]): number {
    let deleted = 0;
    const touchedBatches = new Set<number>();
    const counts = new CountChanges();
    for (const uid of sortedUnique(uids)) {
      const task = this.dbs.tasks.get(uid);
      if (task === undefined || !isFinished(task.status)) continue;
      this.remove(task, counts);
      if (task.batchUid !== null) touchedBatches.add(task.batchUid);
      deleted++;
    }
    for (const batchUid of touchedBatches) {
      if (hasAny(this.dbs.taskIndex, FAMILY.batch, batchUid)) continue;
      const batch = this.dbs.batches.get(batchUid);
      if (batch === undefined) continue;
      reindex(this.dbs.batchIndex, batchKeys(batch), []);
      this.dbs.batches.removeSync(batchUid);
    }
    counts.flush(this.dbs.taskCounts);
    return deleted;
  }

  /**
   * Stores tasks as they are, uids, statuses and dates included: a dump import fills an empty
   * queue so (dumps/import.ts). The next registered task gets the highest uid + 1.
   */
  restoreTasks(tasks: readonly Task[]): void {
    writeTxn(this.root, () => {
      const counts = new CountChanges();
      this.keepEnqueueOrder(tasks);
      for (const task of tasks) this.insert(task, counts);
      counts.flush(this.dbs.taskCounts);
    });
  }

  /**
   * Removes tasks whatever their status, with their index entries: a snapshot drops the tasks
   * it is running from its copy of the queue, so a restored instance does not run them again.
   */
  discard(uids: Iterable<number>): void {
    writeTxn(this.root, () => {
      const counts = new CountChanges();
      for (const uid of uids) {
        const task = this.dbs.tasks.get(uid);
        if (task !== undefined) this.remove(task, counts);
      }
      counts.flush(this.dbs.taskCounts);
    });
  }

  /** Every stored task, ascending uid, read lazily (dumps). */
  *storedTasks(): Generator<Task> {
    for (const { value } of this.dbs.tasks.getRange({})) yield value;
  }

  /** Every stored batch, ascending uid, read lazily (dumps). */
  *storedBatches(): Generator<Batch> {
    for (const { value } of this.dbs.batches.getRange({})) yield value;
  }

  /**
   * Declares the running batch (or none). Its tasks are then reported as `processing` and it is
   * listed among the batches. The scheduler clears it once the batch is committed.
   */
  setProcessing(processing: Processing | null): void {
    this.running = processing;
  }

  get processing(): Processing | null {
    return this.running;
  }

  /** A task as the API shows it (the running batch's tasks as `processing`), or undefined. */
  get(uid: number, authorized?: IndexAuthorizer): Task | undefined {
    const stored = this.dbs.tasks.get(uid);
    if (stored === undefined) return undefined;
    const task = withProcessing(stored, this.running);
    return isTaskVisible(task, authorized) ? task : undefined;
  }

  /** A stored batch, or the running one, or undefined. */
  getBatch(uid: number, authorized?: IndexAuthorizer): Batch | undefined {
    const batch = this.running?.batch.uid === uid ? this.running.batch : this.dbs.batches.get(uid);
    return visibleBatch(batch, this.running, authorized);
  }

  /** `GET /tasks`: one page, newest first unless `reverse`. */
  query(query: TaskQuery, authorized?: IndexAuthorizer): Page<Task> {
    return pageTasks(this.dbs, query, this.running, authorized);
  }

  /** `GET /batches`: one page, newest first unless `reverse`. */
  queryBatches(query: TaskQuery, authorized?: IndexAuthorizer): Page<Batch> {
    return pageBatches(this.dbs, query, this.running, (uid) => this.get(uid), authorized);
  }

  /** Every task uid a cancel/delete request targets (its frozen `tasks` set), ascending. */
  matchUids(filter: TaskFilter, authorized?: IndexAuthorizer): number[] {
    return selectTaskUids(this.dbs, filter, this.running, authorized);
  }

  /** The update files that enqueued tasks still need (every other file is garbage at start-up). */
  enqueuedContentFiles(): Set<string> {
    const index = this.dbs.taskIndex;
    const files = new Set<string>();
    const additions = intersect([idsOf(index, FAMILY.type, 'documentAdditionOrUpdate'), idsOf(index, FAMILY.status, 'enqueued')]);
    for (const uid of additions) {
      const { kind } = this.dbs.tasks.get(uid)!;
      if (kind.name === 'documentAdditionOrUpdate') files.add(kind.contentFile);
    }
    return files;
  }

  /** The stored uids of the tasks of a batch, ascending. */
  tasksInBatch(batchUid: number): number[] {
    return idsOf(this.dbs.taskIndex, FAMILY.batch, batchUid);
  }

  /**
   * What the autobatcher needs to pick the next batch, without reading every enqueued task: the
   * enqueued tasks of prioritised types, failed `upgradeDatabase` tasks (retried first), and the
   * enqueued tasks of the oldest enqueued task's index, at most `maxIndexTasks + 1` of them (one
   * more than a batch may hold, so the autobatcher can tell the limit was reached).
   */
  nextEnqueued(maxIndexTasks = Number.POSITIVE_INFINITY): SchedulingSnapshot {
    const index = this.dbs.taskIndex;
    // Lookups rather than the list of enqueued uids, which grows with the backlog at every batch.
    const isEnqueued = (uid: number) => index.doesExist([FAMILY.status, 'enqueued', uid]);
    const picked = new Set<number>();
    // each record read once: a settings task's may hold megabytes of settings
    const decoded = new Map<number, Task>();
    for (const uid of idsOf(index, FAMILY.type, 'upgradeDatabase')) {
      const task = this.dbs.tasks.get(uid)!;
      if (task.status !== 'failed') continue;
      decoded.set(uid, task);
      picked.add(uid);
    }
    const [oldest] = idsFrom(index, FAMILY.status, 'enqueued', undefined, true);
    if (oldest !== undefined) {
      // Every enqueued task is at least as recent as the oldest one: start each scan there, so
      // the finished history of a type or an index is not read again at every batch.
      for (const type of PRIORITISED) {
        for (const uid of idsFrom(index, FAMILY.type, type, oldest, true)) if (isEnqueued(uid)) picked.add(uid);
      }
      picked.add(oldest);
      const oldestTask = this.dbs.tasks.get(oldest)!;
      decoded.set(oldest, oldestTask);
      const indexUid = indexesOf(oldestTask.kind)[0];
      if (indexUid !== undefined) {
        let taken = 0;
        for (const uid of idsFrom(index, FAMILY.index, indexUid, oldest, true)) {
          if (taken > maxIndexTasks) break;
          if (!isEnqueued(uid)) continue;
          picked.add(uid);
          taken += 1;
        }
      }
    }
    const tasks = sortedUnique(picked).map((uid) => decoded.get(uid) ?? this.dbs.tasks.get(uid)!);
    return { tasks, enqueuedCount: countedOf(this.dbs.taskCounts, FAMILY.status, 'enqueued') };
  }
}
