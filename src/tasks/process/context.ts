/**
 * What a batch processor gets and gives back. A processor finishes its tasks and makes or
 * describes the batch's writes.
 * Index environments have ONE way to be written: the processor calls `ctx.writeIndex` (the index
 * writer thread, workers/index-writer.ts, which runs the engine's indexer, engine/indexer/commit.ts,
 * in one transaction per write) and returns the environment it wrote as `indexWritten`, for the
 * scheduler to measure. Every batch kind that changes an index goes through it: documents
 * (documents.ts, whose tasks' outcomes are only known from the write, which validates the
 * payloads as it streams them), settings, edition and index creation on a sharded network
 * (batch-write.ts: outcomes known before writing, refused as a whole), a topology change's
 * resharding and deletion of unowned documents (network-export.ts, reshard-indexes.ts).
 * - Dump and snapshot batches write their archive themselves, renamed into place once complete;
 *   export batches write nothing here, they send indexes to another instance;
 *   compaction writes a compacted copy and swaps it in `afterCommit`; index and task operations
 *   write the instance environment only, through `commit`, but for the index a document or
 *   settings batch creates, registered before its write (indexes/registry.ts `register`).
 * The index environment's transaction always commits before the instance one. The scheduler runs
 * `commit` inside the instance transaction that stores the finished tasks and the batch, so those
 * land whole or not at all; `afterCommit` does the irreversible file work once that is durable.
 * A crash between the two commits leaves the tasks enqueued: they run again over the written
 * index, which reaches the same state for additions, deletions, clears and settings (an index the
 * batch creates is registered in a commit of its own before the write, so they run over it again).
 * An edition function would edit again what it edited: a write whose outcomes are known before it
 * records its batch and its tasks' details in the index environment, in the write's own
 * transaction (engine/applied-batch.ts), and the edition processor finds there that its task's
 * write already landed and only finishes it.
 */
import type { FilterFeature } from '../../engine/filter/gates.js';
import type { IndexEnv, IndexEnvs } from '../../engine/index-env.js';
import type { IndexWrite, WriteOutcome } from '../../engine/indexer/commit.js';
import type { IndexRegistry } from '../../indexes/registry.js';
import type { IndexStatsStore } from '../../indexes/stats-store.js';
import type { InstanceStore } from '../../store/env.js';
import type { StorageFormat } from '../../store/storage-format.js';
import type { PayloadSource, UpdateFiles } from '../../store/update-files.js';
import type { SearchRuleStore } from '../../search-rules/store.js';
import type { WorkerPools } from '../../workers/pool.js';
import type { StepWatcher } from '../../workers/index-writer.js';
import type { Batch, DumpedKey, ImportData, ImportMetadata, NetworkOrigin, Task, Timestamp } from '../../types/task.js';
import type { NextBatch } from '../autobatcher.js';
import type { Progress, STEPS } from '../progress.js';
import type { ArchiveProgress } from '../../types/archive-progress.js';
import type { TaskQueue } from '../queue.js';
import type { OutgoingRequest, OutgoingResponse } from '../../outgoing/client.js';
import type { Sharding } from '../../engine/shards/shard-of.js';
import type { Request as S3Request, S3Snapshots } from '../../snapshots/s3-upload.js';

export interface DumpIndex {
  uid: string;
  primaryKey: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  env: IndexEnv;
}

/** What goes into a dump; the processor reads it from the stores. */
export interface DumpContent {
  /** `YYYYMMDD-HHMMSSmmm`: the file name and the task's `dumpUid` */
  dumpUid: string;
  /** engine version the dump says it comes from (`MAJOR.MINOR.PATCH`) */
  dbVersion: string;
  /** the keys captured when the dump was requested */
  keys: readonly DumpedKey[];
  instanceUid: string | null;
  /** every task of the queue, ascending uid (the dump task itself shown as succeeded) */
  tasks: Iterable<Task>;
  /** how many `tasks` and `batches` hold, and `indexes` (the progress's totals) */
  counts: { tasks: number; batches: number; indexes: number };
  /** the payload of an enqueued document task */
  payload: (contentFile: string) => PayloadSource;
  /** every finished batch, ascending uid */
  batches: Iterable<Batch>;
  indexes: Iterable<DumpIndex>;
  /** the runtime experimental features (those forced on by flags excluded; `legacySearch` may be null) */
  features: Readonly<Record<string, boolean | null>>;
  /** `network.json`: the network as `GET /network` shows it */
  network: object;
  /** `webhooks.json`: the runtime webhooks with their secrets */
  webhooks: object;
  /** `chat-completions-settings/<name>.json`: each chat workspace's settings, secrets in clear */
  chatWorkspaces: readonly [name: string, settings: object][];
  /** the dynamic search rules as `GET /dynamic-search-rules/{uid}` shows them: v1.50 dumps them as its internal index `.meili_dsr` */
  searchRules: readonly Record<string, unknown>[];
}

/** The steps of a dump, shown in its batch's progress (tasks/progress.ts). */
export type DumpStep = (typeof STEPS)['dumpCreation'][number];

/** Writes `<dumpDir>/<dumpUid>.dump`, laid out in the instance's own db path first, and answers its path (dumps/writer.ts `writeDump`). */
export type DumpWriter = (
  dumpDir: string,
  content: DumpContent,
  now: () => Timestamp,
  signal: AbortSignal,
  progress: ArchiveProgress<DumpStep>,
) => Promise<string>;

/** What dump and snapshot batches need beyond the task stores; without it they fail. */
export interface ArchiveDeps {
  store: InstanceStore;
  /** Quarry's version, for the instance store a snapshot opens */
  pkgVersion: string;
  /** `--dump-dir`, `--snapshot-dir` */
  dumpDir: string;
  snapshotDir: string;
  /** whether snapshots compact the databases they copy (not with `--experimental-no-snapshot-compaction`) */
  compactSnapshots: boolean;
  /** where snapshots go instead of `snapshotDir` (the `--s3-*` options), and the client that sends them */
  s3Snapshots?: { readonly target: S3Snapshots; readonly request: S3Request };
  /** the experimental features set at runtime, as a dump records them */
  features: () => Readonly<Record<string, boolean | null>>;
  /** the network and the runtime webhooks, as a dump records them */
  network: () => object;
  webhooks: () => object;
  /** the chat workspaces with their settings, secrets in clear */
  chatWorkspaces: () => [name: string, settings: object][];
  writeDump: DumpWriter;
}

/** What an export needs beyond the task stores; without it the task fails. */
export interface ExportDeps {
  request: (url: string, init: OutgoingRequest) => Promise<OutgoingResponse>;
  /** whether `foreignKeys` and `chat` settings are sent (their experimental features are on) */
  visibleSettings: () => { foreignKeys: boolean; chat: boolean };
  /** bytes per documents payload when the task does not say: `--http-payload-size-limit` less 1 MiB, at least 20 MiB */
  defaultPayloadSize: number;
  /** whether the experimental feature an index filter's operator needs is on (`CONTAINS`, `_foreign`, `_shard`, `_vectors`) */
  filterFeature: (feature: FilterFeature) => boolean;
  /** whether the `dynamicSearchRules` experimental feature is on (a topology change's leader then exports its rules) */
  searchRulesEnabled: () => boolean;
  /** a topology change's origin and import headers (network/proxy-headers.ts), for its exports */
  changeHeaders: (origin: NetworkOrigin, data: ImportData, metadata: ImportMetadata) => Record<string, string>;
}


/**
 * Applies `write` to index environment `uuid` in one transaction, in the index writer thread,
 * interrupted (and rolled back) when the batch's signal aborts; answers the write's outcome and
 * rejects with the ApiError of a write the index refuses. `watcher` follows its steps.
 */
export type IndexWriter = <W extends IndexWrite>(uuid: string, write: W, watcher?: StepWatcher) => Promise<WriteOutcome<W>>;

export interface ProcessContext {
  queue: TaskQueue;
  indexes: IndexRegistry;
  indexEnvs: IndexEnvs;
  /** each index's stored statistics: the scheduler stores them after an index write, processors after other changes */
  indexStats: IndexStatsStore;
  updateFiles: UpdateFiles;
  /** the dynamic search rules, which `dsrUpdate` and `dsrClear` batches change */
  searchRules: SearchRuleStore;
  /** worker threads for CPU-heavy batch work */
  workers: WorkerPools;
  /** the one way to write an index environment (see the header) */
  writeIndex: IndexWriter;
  /** the uid of the batch being processed */
  batchUid: number;
  /** the batch's start: timestamps written by the batch use it */
  now: Timestamp;
  /** aborted when a cancelation targets a task of this batch */
  signal: AbortSignal;
  /** the batch's steps, shown while it runs and traced in its stats */
  progress: Progress;
  archives?: ArchiveDeps;
  /** export batches: the outgoing client and what they send; without it they fail */
  exports?: ExportDeps;
  /** the instance's storage format, which an `upgradeDatabase` batch converts */
  storage?: StorageFormat;
  /** where unexpected errors are reported (the scheduler's log) */
  log?: (message: string, err?: unknown) => void;
  /** the network's shards when it has a leader (network.md §5), read when the batch starts; null or absent: not sharded */
  sharding?: Sharding | null;
}

export interface ProcessOutcome {
  /** every task of the batch (and tasks a cancelation canceled), finished */
  tasks: Task[];
  /**
   * the index environment (uuid) the processor wrote through `writeIndex` (committed, durably,
   * before the instance transaction); the scheduler measures its database sizes for the batch's
   * stats, and a cancelation arriving after it is too late: the batch commits
   */
  indexWritten?: string;
  /** the processor committed some of its writes already (a deletion batch's slices): a cancelation arriving after that is too late, the batch commits */
  committed?: true;
  /** instance-environment writes (index registry, history relabelled by a rename or swap, task deletions), run in the transaction that stores the finished tasks */
  commit?: () => void;
  /** irreversible file work once that transaction is durable: a deleted index's folder removed, a compacted file swapped in */
  afterCommit?: () => Promise<void>;
  /** undoes the processor's own file work when the batch is dropped uncommitted (a cancelation that arrived after it returned) */
  abandon?: () => Promise<void>;
}

export type BatchProcessor = (ctx: ProcessContext, tasks: Task[], next: NextBatch) => Promise<ProcessOutcome> | ProcessOutcome;
