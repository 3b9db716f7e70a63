/**
 * What a batch processor gets and gives back. A processor computes the outcome of its tasks and
 * the writes to make; it writes nothing itself. Index-environment writes (`indexWrite`) land
 * first; replaying them after a crash before the instance commit is harmless, since the tasks are
 * still enqueued and re-apply the same net changes. The scheduler runs `commit` inside the same
 * instance transaction that stores the finished tasks and the batch, so a batch lands whole or
 * not at all; `afterCommit` does the irreversible file work (removing index folders) once the
 * commit is durable.
 */
import type { IndexEnv, IndexEnvs } from '../../engine/index-env.js';
import type { IndexWrite } from '../../engine/indexer/commit.js';
import type { IndexRegistry } from '../../indexes/registry.js';
import type { InstanceStore } from '../../store/env.js';
import type { PayloadSource, UpdateFiles } from '../../store/update-files.js';
import type { WorkerPools } from '../../workers/pool.js';
import type { Batch, DumpedKey, Task, Timestamp } from '../../types/task.js';
import type { NextBatch } from '../autobatcher.js';
import type { Progress } from '../progress.js';
import type { TaskQueue } from '../queue.js';

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
  /** the payload of an enqueued document task */
  payload: (contentFile: string) => PayloadSource;
  /** every finished batch, ascending uid */
  batches: Iterable<Batch>;
  indexes: Iterable<DumpIndex>;
  /** the runtime experimental features (those forced on by flags excluded) */
  features: Record<string, boolean>;
}

/** The steps of a dump, shown in its batch's progress (tasks/progress.ts). */
export type DumpStep = 'dump the keys' | 'dump the tasks' | 'dump the batches' | 'dump the indexes' | 'dump the experimental features' | 'compress the dump';

/** Writes `<dumpDir>/<dumpUid>.dump` and answers its path (dumps/writer.ts `writeDump`). */
export type DumpWriter = (
  dumpDir: string,
  content: DumpContent,
  now: () => Timestamp,
  signal: AbortSignal,
  step: (name: DumpStep) => void,
) => Promise<string>;

/** What dump and snapshot batches need beyond the task stores; without it they fail. */
export interface ArchiveDeps {
  store: InstanceStore;
  /** Quarry's version, for the instance store a snapshot opens */
  pkgVersion: string;
  /** `--dump-dir`, `--snapshot-dir` */
  dumpDir: string;
  snapshotDir: string;
  /** the experimental features set at runtime, as a dump records them */
  features: () => Record<string, boolean>;
  writeDump: DumpWriter;
}

export interface ProcessContext {
  queue: TaskQueue;
  indexes: IndexRegistry;
  indexEnvs: IndexEnvs;
  updateFiles: UpdateFiles;
  /** worker threads for CPU-heavy batch work */
  workers: WorkerPools;
  /** the batch's start: timestamps written by the batch use it */
  now: Timestamp;
  /** aborted when a cancelation targets a task of this batch */
  signal: AbortSignal;
  /** the batch's steps, shown while it runs and traced in its stats */
  progress: Progress;
  archives?: ArchiveDeps;
}

export interface ProcessOutcome {
  /** every task of the batch (and tasks a cancelation canceled), finished */
  tasks: Task[];
  /** the write to an index environment, committed (durably) before the instance transaction */
  indexWrite?: { uuid: string; write: IndexWrite };
  /** the index environment (uuid) the processor wrote itself, as document batches do */
  indexWritten?: string;
  commit?: () => void;
  afterCommit?: () => Promise<void>;
}

export type BatchProcessor = (ctx: ProcessContext, tasks: Task[], next: NextBatch) => Promise<ProcessOutcome> | ProcessOutcome;
