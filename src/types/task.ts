/**
 * Task and batch vocabulary of the index scheduler (tasks-batches.md §1–§3, §7). No I/O.
 *
 * - `TaskKind` is the internal payload of a task: what the scheduler needs to run it. Its `name` is
 *   finer than the public `type` (three kinds of document deletion share `documentDeletion`).
 * - `TaskDetails` is what a task reports about itself; `DetailsView` is its public form (also the
 *   merged details of a batch).
 * - Timestamps are bigint nanoseconds since the Unix epoch (UTC): Meilisearch prints RFC 3339 dates
 *   with nanosecond precision, which a JS number cannot hold.
 * - Storage never holds `processing`: the tasks of the running batch stay `enqueued` on disk and are
 *   reported as `processing` from the scheduler's in-memory state (as Meilisearch does), so a crash
 *   simply leaves them enqueued for the next run.
 */

import type { NetworkChangeState } from './network-change.js';

/** Public task types, in Meilisearch's enum order (the order of `stats.types` in batches). */
export const TASK_TYPES = [
  'documentAdditionOrUpdate',
  'documentEdition',
  'documentDeletion',
  'settingsUpdate',
  'indexCreation',
  'indexDeletion',
  'indexUpdate',
  'indexSwap',
  'taskCancelation',
  'taskDeletion',
  'dumpCreation',
  'snapshotCreation',
  'export',
  'upgradeDatabase',
  'indexCompaction',
  'networkTopologyChange',
  'dsrUpdate',
  'dsrClear',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** Task statuses in Meilisearch's enum order (the order of `stats.status` in batches). */
export const TASK_STATUSES = ['enqueued', 'processing', 'succeeded', 'failed', 'canceled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Nanoseconds since 1970-01-01T00:00:00Z. */
export type Timestamp = bigint;

/** The reserved index uid that dynamic-search-rule tasks report. */
export const DSR_INDEX_UID = '.meili_dsr';

/** The 4-field error object of a failed task (same shape as errors/api-error.ts `ErrorBody`). */
export interface TaskError {
  message: string;
  code: string;
  type: string;
  link: string;
}

export interface IndexSwap {
  indexes: [string, string];
  rename: boolean;
}

export interface ExportIndexSettings {
  filter: unknown;
  overrideSettings: boolean;
}

export type JsonObject = Record<string, unknown>;

/** An API key as a dump task captures it (auth/key-store.ts `ApiKey`; dates RFC 3339). */
export interface DumpedKey {
  uid: string;
  name: string | null;
  description: string | null;
  actions: readonly string[];
  indexes: readonly string[];
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The internal payload of a task, one variant per thing the scheduler knows how to run. */
export type TaskKind =
  | {
      name: 'documentAdditionOrUpdate';
      indexUid: string;
      primaryKey: string | null;
      method: 'replace' | 'update';
      /** uuid of the NDJSON update file written before the task was enqueued */
      contentFile: string;
      documentsCount: number;
      /** size of the update file in bytes, for the batch size limit */
      payloadSize: number;
      allowIndexCreation: boolean;
      onMissingDocument: 'create' | 'skip';
    }
  | { name: 'documentEdition'; indexUid: string; filter: unknown; context: JsonObject | null; function: string }
  | { name: 'documentDeletion'; indexUid: string; documentIds: string[] }
  | { name: 'documentDeletionByFilter'; indexUid: string; filter: unknown }
  | { name: 'documentClear'; indexUid: string }
  | {
      name: 'settingsUpdate';
      indexUid: string;
      /** the submitted settings, keys in Meilisearch's settings order */
      settings: JsonObject;
      isDeletion: boolean;
      allowIndexCreation: boolean;
    }
  | { name: 'indexCreation'; indexUid: string; primaryKey: string | null }
  | { name: 'indexUpdate'; indexUid: string; primaryKey: string | null; newIndexUid: string | null }
  | { name: 'indexDeletion'; indexUid: string }
  | { name: 'indexSwap'; swaps: IndexSwap[] }
  | { name: 'taskCancelation'; query: string; tasks: number[] }
  | { name: 'taskDeletion'; query: string; tasks: number[] }
  | {
      name: 'dumpCreation';
      /** the API keys when the dump was requested: the dump writes these, not those of when it runs */
      keys: DumpedKey[];
      instanceUid: string | null;
    }
  | { name: 'snapshotCreation' }
  | {
      name: 'export';
      url: string;
      apiKey: string | null;
      /** bytes */
      payloadSize: number | null;
      indexes: Record<string, ExportIndexSettings>;
    }
  | { name: 'upgradeDatabase'; from: [number, number, number]; to: [number, number, number] }
  | { name: 'indexCompaction'; indexUid: string }
  /** `change` is absent on tasks from dumps: such a change has nothing left to do */
  | { name: 'networkTopologyChange'; change?: NetworkChangeState }
  | { name: 'dsrUpdate'; ruleUid: string; /** null when the rule is deleted */ rule: JsonObject | null }
  | { name: 'dsrClear' };

/** What a task reports; counters are `null` until the task is processed. */
export type TaskDetails =
  | { kind: 'documentAdditionOrUpdate'; receivedDocuments: number; indexedDocuments: number | null }
  | {
      kind: 'documentEdition';
      editedDocuments: number | null;
      deletedDocuments: number | null;
      originalFilter: string | null;
      context: JsonObject | null;
      function: string;
    }
  | { kind: 'documentDeletion'; providedIds: number; deletedDocuments: number | null }
  | { kind: 'documentDeletionByFilter'; originalFilter: string; deletedDocuments: number | null }
  /** document clear, index deletion and dsrClear */
  | { kind: 'clearAll'; deletedDocuments: number | null }
  | { kind: 'settingsUpdate'; settings: JsonObject }
  /** index creation and update */
  | { kind: 'indexInfo'; primaryKey: string | null; oldIndexUid: string | null; newIndexUid: string | null }
  | { kind: 'indexSwap'; swaps: IndexSwap[] }
  | { kind: 'taskCancelation'; matchedTasks: number; canceledTasks: number | null; originalFilter: string }
  | { kind: 'taskDeletion'; matchedTasks: number; deletedTasks: number | null; originalFilter: string }
  | { kind: 'dumpCreation'; dumpUid: string | null }
  | {
      kind: 'export';
      url: string;
      apiKey: string | null;
      payloadSize: number | null;
      /** per requested pattern before processing, per exported index uid after success */
      indexes: Record<string, ExportIndexSettings & { matchedDocuments?: number }>;
    }
  | { kind: 'upgradeDatabase'; from: [number, number, number]; to: [number, number, number] }
  | { kind: 'indexCompaction'; preCompactionSize: number | null; postCompactionSize: number | null }
  | { kind: 'networkTopologyChange'; movedDocuments: number; message: string }
  | { kind: 'dsrUpdate'; rule: JsonObject | null; updatedRules: number };

/** The internal task record. */
export interface Task {
  uid: number;
  batchUid: number | null;
  status: TaskStatus;
  kind: TaskKind;
  /** null only for snapshotCreation */
  details: TaskDetails | null;
  error: TaskError | null;
  canceledBy: number | null;
  enqueuedAt: Timestamp;
  startedAt: Timestamp | null;
  finishedAt: Timestamp | null;
  customMetadata: string | null;
  /** multi-instance bookkeeping (network.md §5); absent on a task no network took part in */
  network?: TaskNetwork;
}

/** Where a task came from or went to in a network (network.md §5, v1.50's `TaskNetwork`). */
export interface NetworkOrigin {
  remoteName: string;
  taskUid: number;
  networkVersion: string;
}

/** What an import request says about its documents (v1.50's `ImportData`, stored in the task). */
export interface ImportData {
  remoteName: string;
  /** absent when the sender did not name the index */
  indexName: string | null;
  documentCount: number;
}

/** The import's totals (v1.50's `ImportMetadata`, used to follow the import, not stored). */
export interface ImportMetadata {
  indexCount: number;
  /** unique to one request of the import, so a request received twice is recognised */
  taskKey: number | null;
  totalIndexDocuments: number;
}

/** The leader's record of the task each remote registered for a forwarded write. */
export interface RemoteTask {
  /** absent when the remote did not register one */
  taskUid?: number;
  error: TaskError | null;
}

/** Top-level keys are snake_case, inner keys camelCase, as v1.50 serializes them. */
export type TaskNetwork =
  | { remote_tasks: Record<string, RemoteTask>; network_version: string }
  | { origin: NetworkOrigin }
  | { import_from: ImportData; network_change: NetworkOrigin };

export interface ExportIndexView {
  filter: unknown;
  overrideSettings: boolean;
  /** snake_case on purpose: Meilisearch serializes it so */
  matched_documents?: number;
}

/**
 * Public details (Meilisearch's `DetailsView`). An absent key is not shown; a key set to `null` is shown
 * as `null`. Settings are kept nested here and flattened when rendered.
 */
export interface DetailsView {
  receivedDocuments?: number;
  indexedDocuments?: number | null;
  editedDocuments?: number | null;
  primaryKey?: string | null;
  providedIds?: number;
  deletedDocuments?: number | null;
  matchedTasks?: number;
  canceledTasks?: number | null;
  deletedTasks?: number | null;
  originalFilter?: string | null;
  dumpUid?: string | null;
  context?: JsonObject | null;
  function?: string;
  settings?: JsonObject;
  swaps?: IndexSwap[];
  upgradeFrom?: string;
  upgradeTo?: string;
  url?: string;
  apiKey?: string;
  payloadSize?: string;
  indexes?: Record<string, ExportIndexView>;
  oldIndexUid?: string;
  newIndexUid?: string;
  preCompactionSize?: string;
  postCompactionSize?: string;
  movedDocuments?: number;
  message?: string;
  rule?: JsonObject;
  updatedRules?: number;
}

export interface BatchProgress {
  steps: { currentStep: string; finished: number; total: number }[];
  percentage: number;
}

export interface BatchStats {
  totalNbTasks: number;
  status: Partial<Record<TaskStatus, number>>;
  types: Partial<Record<TaskType, number>>;
  indexUids: Record<string, number>;
  progressTrace?: Record<string, string>;
  writeChannelCongestion?: { attempts: number; blocking_attempts: number; blocking_ratio: number | null };
  internalDatabaseSizes?: Record<string, string>;
  embedderRequests?: { total: number; failed: number; lastError?: string };
}

/** The internal batch record. Persisted only once finished; the running one lives in memory. */
export interface Batch {
  uid: number;
  /** null unless the batch is running */
  progress: BatchProgress | null;
  details: DetailsView;
  stats: BatchStats;
  startedAt: Timestamp;
  finishedAt: Timestamp | null;
  /** enqueue times of the oldest and the newest task of the batch */
  enqueuedAt: { oldest: Timestamp; newest: Timestamp } | null;
  batchStrategy: string;
  /** every index its tasks touch (swap and rename targets included), for the `indexUids` filter */
  indexes: string[];
}

/** The public type of a task kind. */
export function taskTypeOf(kind: TaskKind): TaskType {
  switch (kind.name) {
    case 'documentDeletionByFilter':
    case 'documentClear':
      return 'documentDeletion';
    default:
      return kind.name;
  }
}

/**
 * The types of the global tasks, which concern no one index (Meilisearch's
 * `Kind::related_to_one_index` is false for them); each is also the name of its one task kind.
 */
const GLOBAL_TASK_TYPES = [
  'indexSwap', 'taskCancelation', 'taskDeletion', 'dumpCreation', 'snapshotCreation', 'export', 'upgradeDatabase',
  'networkTopologyChange',
] as const satisfies readonly TaskType[];
const GLOBAL: ReadonlySet<string> = new Set(GLOBAL_TASK_TYPES);

function isGlobalKind(kind: TaskKind): kind is Extract<TaskKind, { name: (typeof GLOBAL_TASK_TYPES)[number] }> {
  return GLOBAL.has(kind.name);
}

/** The `indexUid` a task reports: null for global tasks; the old uid of a renaming indexUpdate. */
export function indexUidOf(kind: TaskKind): string | null {
  if (isGlobalKind(kind)) return null;
  switch (kind.name) {
    case 'dsrUpdate':
    case 'dsrClear':
      return DSR_INDEX_UID;
    default:
      return kind.indexUid;
  }
}

/**
 * Every index a task touches, first the one it is scheduled with: a rename lists old then new uid,
 * a swap lists its indexes in order of appearance.
 */
export function indexesOf(kind: TaskKind): string[] {
  switch (kind.name) {
    case 'indexUpdate':
      return kind.newIndexUid === null ? [kind.indexUid] : [kind.indexUid, kind.newIndexUid];
    case 'indexSwap':
      return [...new Set(kind.swaps.flatMap((swap) => swap.indexes))];
    default: {
      const uid = indexUidOf(kind);
      return uid === null ? [] : [uid];
    }
  }
}

/** Types hidden from `GET /tasks` when `indexUids` is given or the API key is index-restricted. */
export function isRelatedToOneIndex(type: TaskType): boolean {
  return !GLOBAL.has(type);
}

export function isFinished(status: TaskStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

/** The same task payload with its index uids renamed through `rename` (renames and swaps relabel history). */
export function renameIndexes(kind: TaskKind, rename: (uid: string) => string): TaskKind {
  switch (kind.name) {
    case 'indexUpdate':
      return { ...kind, indexUid: rename(kind.indexUid), newIndexUid: kind.newIndexUid === null ? null : rename(kind.newIndexUid) };
    case 'indexSwap':
      return { ...kind, swaps: kind.swaps.map((swap) => ({ ...swap, indexes: [rename(swap.indexes[0]), rename(swap.indexes[1])] as [string, string] })) };
    default:
      return 'indexUid' in kind ? { ...kind, indexUid: rename(kind.indexUid) } : kind;
  }
}
