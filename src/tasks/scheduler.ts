/**
 * The index scheduler's run loop. It picks the next batch with the autobatcher, shows it as
 * processing, runs the batch processor for its operation (process/), and stores the finished
 * tasks, the batch record and the processor's registry or queue writes (`commit`) in ONE instance
 * transaction. It is the only writer of index environments and the only code that finishes tasks;
 * routes still write the instance environment themselves (task registration, keys, features,
 * webhooks, network). Before each batch is picked, a full queue gets the `taskDeletion` of v1.50's
 * automatic cleanup, which the loop registers itself (`cleanUp`).
 *
 * A batch's writes, in order (process/context.ts says which processor does what, and why):
 * 1. the index environment, in its own transaction, in the index writer thread
 *    (workers/index-writer.ts): the processor runs that write itself, through the context's
 *    `writeIndex` this loop gives it, and returns the environment as `indexWritten`. A refusal by
 *    the index (settings enabling geo over an invalid `_geo`…) fails every task of a settings or
 *    edition batch (process/batch-write.ts), only the task it refuses in a document batch
 *    (process/isolated-write.ts);
 * 2. the instance transaction: `commit`, the written index's statistics measured after step 1
 *    (indexes/stats-store.ts), the finished tasks, the batch, and the removal of the payloads kept
 *    in LMDB (store/update-files.ts);
 * 3. then the payload files are deleted and `afterCommit` runs (index folders, compacted files).
 *
 * Threading: the loop runs on the main thread as a chain of async steps, so HTTP requests and
 * searches are served while a batch runs. The long parts run elsewhere: index writes in the index
 * writer thread, with extraction workers started beside it for a batch's additions
 * (workers/index-writer.ts); edition functions in the edition pool (rhai/runner.ts).
 * Crash safety: storage never holds `processing`, so a crash before step 2 leaves the batch's
 * tasks enqueued and they run again after restart, over an index write that may have landed.
 * Cancelation: registering a cancelation that targets a task of the running batch aborts the batch:
 * the index write stops at its next checkpoint and rolls back, the batch is dropped uncommitted,
 * its tasks stay enqueued, and the cancelation — always scheduled first — then cancels them.
 * An abort that lands once the index write has committed (during its commit, or while the
 * processor returns) is too late: the batch commits, and the cancelation finds nothing to cancel.
 * Storage format (process/upgrade.ts): while the instance is in an older format, only
 * cancelations and `upgradeDatabase` batches run; once an upgrade failed, or was canceled and left
 * the old format in place, no further batch runs until a restart, as in v1.50.
 */
import { ApiError } from '../errors/api-error.js';
import type { IndexEnv, IndexEnvs } from '../engine/index-env.js';
import type { IndexRegistry } from '../indexes/registry.js';
import { createdIndexSizes, databaseSizeChanges, databaseSizes, measureIndex } from '../indexes/stats.js';
import { IndexStatsStore } from '../indexes/stats-store.js';
import { formatLabel, STORE_FORMAT_VERSION, type InstanceStore } from '../store/env.js';
import type { StorageFormat } from '../store/storage-format.js';
import type { Sharding } from '../engine/shards/shard-of.js';
import type { UpdateFiles } from '../store/update-files.js';
import { writeTxnAsync } from '../store/write-txn.js';
import { writeIndex } from '../workers/index-writer.js';
import { extractedAhead } from '../workers/ahead-ports.js';
import type { WorkerPools } from '../workers/pool.js';
import type { Task } from '../types/task.js';
import { nextBatch, type BatchOperation } from './autobatcher.js';
import { gatedBatch, type GatedBatch } from './network-gate.js';
import { finishBatch, openBatch } from './batch-record.js';
import { nowNs } from '../types/dates.js';
import { Progress } from './progress.js';
import type { ArchiveDeps, BatchProcessor, ExportDeps, IndexWriter, ProcessContext, ProcessOutcome } from './process/context.js';
import type { WriteOutcome } from '../engine/indexer/commit.js';
import { processIndexCompaction } from './process/compaction.js';
import { processExport } from './process/export.js';
import { processNetworkChange, recordImports, resumeNotifications, shardingDuring } from './process/network-change.js';
import { processIndexCreation, processIndexDeletion, processIndexSwap, processIndexUpdate } from './process/index-ops.js';
import { crashError, failed } from './process/outcome.js';
import { processDocuments } from './process/documents.js';
import { processDocumentEdition } from './process/document-edition.js';
import { processDumpCreation } from './process/dump.js';
import { processSnapshotCreation } from './process/snapshot.js';
import { processSettings } from './process/settings.js';
import { processSearchRules } from './process/search-rules.js';
import type { SearchRuleStore } from '../search-rules/store.js';
import { processCancelation, processDeletion } from './process/task-ops.js';
import { processUpgrade } from './process/upgrade.js';
import { crashAfterIndexCommit } from './test-hooks.js';
import type { TaskQueue } from './queue.js';
import type { Processing } from './query.js';

/** The next batch, with the enqueued tasks read to pick it (`nextEnqueued`). */
type PickedBatch = GatedBatch & { readonly considered: readonly Task[] };

/** Batches that write one index's documents or settings: their stats show the database sizes they changed. */
const INDEX_WRITES: ReadonlySet<BatchOperation> = new Set<BatchOperation>([
  'documentOperation',
  'documentDeletion',
  'documentClear',
  'documentEdition',
  'settings',
  'clearAndSettings',
]);

export interface SchedulerDeps {
  store: InstanceStore;
  queue: TaskQueue;
  indexes: IndexRegistry;
  indexEnvs: IndexEnvs;
  updateFiles: UpdateFiles;
  searchRules: SearchRuleStore;
  workers: WorkerPools;
  maxBatchedTasks?: number | null;
  maxBatchBytes?: number;
  log?: (message: string, err?: unknown) => void;
  /** Told what v1.50 logs at these levels under `index_scheduler`: how a batch ended, what the automatic cleanup of a full queue did or could not do. */
  notice?: (level: 'info' | 'warn', message: string) => void;
  /**
   * The task count from which the oldest finished tasks are deleted before the next batch
   * (v1.50's `max_number_of_tasks`, 1,000,000); null: never (`--experimental-replication-parameters`).
   */
  maxTasks?: number | null;
  /** Told of every batch's finished tasks once they are stored (webhook delivery). */
  onBatchCommitted?: (tasks: readonly Task[]) => void;
  /**
   * Told of the index a batch wrote, once the batch is committed and before the next one starts
   * (its search caches built ahead: engine/search/warm-caches.ts). Must not throw.
   */
  onIndexWritten?: (env: IndexEnv) => void;
  archives?: ArchiveDeps;
  exports?: ExportDeps;
  /** the instance's storage format (absent: always current) */
  storage?: StorageFormat;
  /** our network's version while it is sharded (a leader is set), else null: tasks of newer versions wait */
  networkVersion?: () => string | null;
  /** the network's shards when it has a leader (Network.shardingOf), given to each batch */
  shardingOf?: () => Sharding | null;
}

const PROCESSORS: Partial<Record<BatchOperation, BatchProcessor>> = {
  taskCancelation: processCancelation,
  taskDeletion: processDeletion,
  indexCreation: processIndexCreation,
  indexUpdate: processIndexUpdate,
  indexDeletion: processIndexDeletion,
  indexSwap: processIndexSwap,
  documentOperation: processDocuments,
  documentDeletion: processDocuments,
  documentClear: processDocuments,
  documentEdition: processDocumentEdition,
  settings: processSettings,
  clearAndSettings: processSettings,
  indexCompaction: processIndexCompaction,
  dumpCreation: processDumpCreation,
  snapshotCreation: processSnapshotCreation,
  export: processExport,
  networkTopologyChange: processNetworkChange,
  upgradeDatabase: processUpgrade,
  dsrUpdate: processSearchRules,
  dsrClear: processSearchRules,
};

class BatchAborted extends Error {}

export class Scheduler {
  private wakeUp: (() => void) | null = null;
  private pending = false;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private running: { taskUids: ReadonlySet<number>; abort: AbortController } | null = null;
  private idleWaiters: (() => void)[] = [];
  /** when the pending network change was first shown processing */
  private changeStartedAt: bigint | null = null;
  /** why no batch runs any more until a restart (a failed upgrade, data left in an older format) */
  private halted: string | null = null;

  private readonly indexStats: IndexStatsStore;

  constructor(private readonly deps: SchedulerDeps) {
    this.indexStats = new IndexStatsStore(deps.store);
  }

  start(): void {
    if (this.loop === null) resumeNotifications(this.deps);
    this.loop ??= this.run();
  }

  /** Called after every registration: a new task may be runnable, or may cancel the running batch. */
  wake(task?: Task): void {
    if (task?.kind.name === 'taskCancelation' && this.running !== null) {
      if (task.kind.tasks.some((uid) => this.running!.taskUids.has(uid))) this.running.abort.abort();
    }
    this.pending = true;
    this.wakeUp?.();
  }

  /**
   * A documents payload of `bytes` (as its request declares) is arriving: when its write will use
   * the extraction threads, they start now, their start overlapping the upload rather than the
   * write, whose index writer would wait for them.
   */
  expectDocuments(bytes: number): void {
    if (extractedAhead(bytes)) void this.deps.workers.startExtractionThreads();
  }

  /** Stops after the current batch (graceful shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.running?.abort.abort();
    this.wakeUp?.();
    await this.loop;
  }

  /** Resolves once nothing is enqueued (tests and shutdown). */
  idle(): Promise<void> {
    if (this.running === null && !this.pending) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      // A batch runs synchronously to its commit: let the pending I/O (HTTP requests) through first.
      await new Promise((resolve) => setImmediate(resolve));
      // a stop meanwhile found no wakeUp to call: it must not wait for one below
      if (this.stopped) break;
      this.pending = false;
      this.cleanUp();
      const next = this.pick();
      if (next === null) {
        for (const resolve of this.idleWaiters.splice(0)) resolve();
        if (!this.pending) await new Promise<void>((resolve) => (this.wakeUp = resolve));
        this.wakeUp = null;
        continue;
      }
      this.pending = true;
      try {
        await this.runBatch(next);
      } catch (err) {
        // A failure to commit is a storage failure: log it and keep the tasks enqueued for a retry.
        this.deps.log?.('the scheduler could not commit a batch', err);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  /** v1.50's automatic cleanup of a full queue, before each batch is picked (as its `tick` starts). */
  private cleanUp(): void {
    const max = this.deps.maxTasks;
    if (max === undefined || max === null) return;
    try {
      const cleanup = this.deps.queue.cleanUpWhenFull(max);
      if (cleanup.kind === 'stuck') this.deps.notice?.('warn', 'The task queue is almost full, but no task can be deleted yet.');
      if (cleanup.kind !== 'registered') return;
      const deleted = cleanup.task.kind.name === 'taskDeletion' ? cleanup.task.kind.tasks.length : 0;
      this.deps.notice?.('info', `The task queue is almost full. Deleting the oldest ${deleted} finished tasks.`);
    } catch (err) {
      // a storage failure: the batches still run, and the next turn tries again
      this.deps.log?.('the scheduler could not clean up the task queue', err);
    }
  }

  /** Stops creating batches until a restart, and says why once. */
  private halt(reason: string): void {
    if (this.halted !== null) return;
    this.halted = reason;
    this.deps.log?.(reason);
  }

  private pick(): PickedBatch | null {
    if (this.halted !== null) return null;
    const next = this.nextBatch();
    const storage = this.deps.storage;
    if (next === null || storage === undefined || storage.upToDate) return next;
    if (next.operation === 'taskCancelation' || next.operation === 'upgradeDatabase') return next;
    const [from, to] = [formatLabel(storage.format), formatLabel(STORE_FORMAT_VERSION)];
    this.halt(
      `The index scheduler is in version v${from}, but Meilisearch is in version v${to}.\n  - hint: start the correct version of Meilisearch, or consider updating your database. See also <https://www.meilisearch.com/docs/learn/update_and_migration/updating>`,
    );
    return null;
  }

  private nextBatch(): PickedBatch | null {
    const { queue, indexes } = this.deps;
    const max = this.deps.maxBatchedTasks ?? Number.POSITIVE_INFINITY;
    const autobatch = {
      index: (uid: string) => {
        const record = indexes.get(uid);
        return { exists: record !== undefined, primaryKey: record?.primaryKey ?? null };
      },
      maxBatchedTasks: max,
      maxBatchBytes: this.deps.maxBatchBytes,
    };
    const snapshot = queue.nextEnqueued(max);
    let enqueued: Task[] | undefined;
    const next = gatedBatch({
      base: nextBatch({ ...snapshot, ...autobatch }),
      considered: snapshot.tasks,
      change: snapshot.tasks.some((task) => task.kind.name === 'networkTopologyChange') ? queue.oldestEnqueued('networkTopologyChange') : undefined,
      enqueued: () => (enqueued ??= queue.allEnqueued()),
      localVersion: this.deps.networkVersion?.() ?? null,
      autobatch,
    });
    return next === null ? null : { ...next, considered: snapshot.tasks };
  }

  private async runBatch(next: PickedBatch): Promise<void> {
    const { queue } = this.deps;
    // the tasks as picked and stored, in this same turn, rather than decoded again (a settings
    // task's record may hold megabytes); processors stamp status and dates when the batch finishes
    const considered = new Map(next.considered.map((task) => [task.uid, task]));
    const tasks = next.taskUids.map((uid) => considered.get(uid) ?? queue.get(uid)!);
    // with their stored bytes, so that the commit need not decode an unchanged record again
    const read = queue.readRecords(next.taskUids.flatMap((uid) => considered.get(uid) ?? []));
    const startedAt = nowNs();
    const batch = openBatch(next.reuseBatchUid ?? queue.nextBatchUid(), tasks, next.batchStrategy, startedAt);
    const taskUids = new Set(next.taskUids);
    const abort = new AbortController();
    const progress = new Progress();
    progress.enter('batch', 'processing tasks');
    this.running = { taskUids, abort };
    // the tasks an older-task or import batch runs inside a network change, with the change itself
    const shown = next.networkChange === undefined ? taskUids : new Set([...taskUids, next.networkChange]);
    queue.setProcessing({ batch, taskUids: shown, progress });
    const measured = INDEX_WRITES.has(next.operation) ? this.deps.indexes.get(next.indexUid!) : undefined;
    // An index the batch creates is measured from its state right after creation (null here).
    const sizesBefore = measured === undefined ? null : databaseSizes(this.deps.indexEnvs.get(measured.uuid));
    try {
      let outcome: ProcessOutcome;
      try {
        const writeIndex = this.indexWriter(abort.signal);
        outcome = await this.process(next, tasks, { now: startedAt, signal: abort.signal, progress, batchUid: batch.uid, writeIndex });
      } catch (err) {
        if (abort.signal.aborted) throw new BatchAborted();
        const error = err instanceof ApiError ? err : crashError(err);
        if (!(err instanceof ApiError)) this.deps.log?.('a batch failed unexpectedly', err);
        outcome = { tasks: tasks.map((task) => failed(task, error)) };
      }
      // A processor that wrote the index has committed it: past that point the batch commits too,
      // and the cancelation, which runs next, finds its tasks finished.
      if (abort.signal.aborted && outcome.indexWritten === undefined && outcome.committed !== true) {
        await outcome.abandon?.();
        throw new BatchAborted();
      }
      progress.enter('batch', 'writing tasks to disk');
      const written = outcome.indexWritten;
      const env = written === undefined ? undefined : this.deps.indexEnvs.get(written);
      const measured = env === undefined ? undefined : measureIndex(env, this.deps.indexEnvs.folderOf(env.uuid));
      const sizes = env === undefined ? {} : databaseSizeChanges(sizesBefore ?? createdIndexSizes(env), measured!.internalDatabaseSizes);
      const embedderRequests = progress.embedderRequests.view();
      const congestion = progress.congestionView();
      // v1.50 shows the embedder requests after every other stat
      const stats = {
        ...batch.stats,
        ...(congestion === undefined ? {} : { writeChannelCongestion: congestion }),
        ...(Object.keys(sizes).length === 0 ? {} : { internalDatabaseSizes: sizes }),
        ...(embedderRequests === undefined ? {} : { embedderRequests }),
      };
      const done = finishBatch({ ...batch, stats }, outcome.tasks, nowNs());
      const payloads = done.tasks.flatMap((task) => (task.kind.name === 'documentAdditionOrUpdate' ? [task.kind.contentFile] : []));
      const files: string[] = [];
      // The batch stays `processing` until its tasks are on disk, so no reader sees them enqueued
      // again; payloads kept in LMDB go in the same commit, so none outlives its finished task.
      await writeTxnAsync(this.deps.store.root, () => {
        outcome.commit?.();
        if (measured !== undefined) this.indexStats.put(written!, measured);
        // a step of a network change that finished nothing is not a batch (v1.50 keeps no record of it)
        if (done.tasks.length > 0) queue.commitBatch(done.batch, done.tasks, progress, read);
        if (next.networkChange !== undefined) recordImports(queue, next.networkChange, done.tasks);
        for (const uuid of payloads) if (!this.deps.updateFiles.discardInline(uuid)) files.push(uuid);
      }).catch(async (err: unknown) => {
        await outcome.abandon?.();
        throw err;
      });
      queue.setProcessing(this.changeInProgress());
      this.running = null;
      const failures = done.tasks.filter((task) => task.error !== null).length;
      this.deps.notice?.('info', `A batch of tasks was successfully completed with ${done.tasks.length - failures} successful tasks and ${failures} failed tasks.`);
      this.deps.onBatchCommitted?.(done.tasks);
      // borrowed again: the one measured above may have been closed while the commit awaited
      if (written !== undefined) this.deps.onIndexWritten?.(this.deps.indexEnvs.get(written));
      await Promise.all(files.map((uuid) => this.deps.updateFiles.delete(uuid)));
      await outcome.afterCommit?.();
      const failedUpgrade = next.operation === 'upgradeDatabase' ? done.tasks.find((task) => task.status === 'failed') : undefined;
      if (failedUpgrade !== undefined) this.halt(`the database upgrade failed, no task runs until a restart: ${failedUpgrade.error?.message ?? ''}`);
    } catch (err) {
      if (!(err instanceof BatchAborted)) throw err;
      this.deps.notice?.('info', 'A batch of tasks was aborted.');
    } finally {
      queue.setProcessing(this.changeInProgress());
      this.running = null;
    }
  }

  /**
   * A network change between two of its steps stays shown as processing, in a batch of its own
   * (v1.50 keeps its batch processing until the change is done); null when no change is pending.
   */
  private changeInProgress(): Processing | null {
    const { queue } = this.deps;
    const task = queue.oldestEnqueued('networkTopologyChange');
    if (task === undefined || task.kind.name !== 'networkTopologyChange' || task.kind.change === undefined) {
      this.changeStartedAt = null;
      return null;
    }
    this.changeStartedAt ??= nowNs();
    const batch = openBatch(queue.nextBatchUid(), [task], `stopped after task with id ${task.uid} because it is a network topology change task`, this.changeStartedAt);
    return { batch, taskUids: new Set([task.uid]) };
  }

  /** The batch's way to write index environments (process/context.ts): the index writer thread, interrupted by `signal`. */
  private indexWriter(signal: AbortSignal): IndexWriter {
    const { workers, indexEnvs } = this.deps;
    return async (uuid, write, watcher) => {
      const outcome = await writeIndex(workers, indexEnvs, uuid, write, signal, watcher);
      if (write.kind !== 'documents' || write.rehearsal !== true) crashAfterIndexCommit();
      return outcome as WriteOutcome<typeof write>;
    };
  }

  private async process(
    next: GatedBatch,
    tasks: Task[],
    run: Pick<ProcessContext, 'now' | 'signal' | 'progress' | 'batchUid' | 'writeIndex'>,
  ): Promise<ProcessOutcome> {
    const processor = PROCESSORS[next.operation];
    if (processor === undefined) {
      throw new ApiError('internal', `Quarry cannot process \`${next.operation}\` batches yet.`);
    }
    const during = next.networkChange === undefined ? undefined : shardingDuring(this.deps.queue, next.networkChange);
    const sharding = during === undefined ? (this.deps.shardingOf?.() ?? null) : during;
    return processor({ ...this.deps, indexStats: this.indexStats, sharding, ...run }, tasks, next);
  }
}
