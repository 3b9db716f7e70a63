/**
 * Tasks ↔ the lines of a dump's `tasks/queue.jsonl` (dumps-snapshots-upgrade.md §3.4): the task
 * content as an externally tagged `type` with snake_case fields, the details as Meilisearch's
 * internal `Details` enum (PascalCase variants, snake_case fields), everything else camelCase.
 * Pure; the writer and the importer are the callers.
 *
 * A document task's payload is not in the line: the writer stores it as
 * `tasks/update_files/<uid>.jsonl` (enqueued tasks only) and the importer hands the task a new
 * update file, so `readTaskLine` leaves `contentFile` and `payloadSize` to the caller.
 */
import { instantOfRfc3339 } from '../types/dates.js';
import { formatRfc3339 } from '../types/dates.js';
import { indexUidOf, type JsonObject, type NetworkOrigin, type RemoteTask, type Task, type TaskDetails, type TaskError, type TaskKind, type TaskNetwork, type TaskStatus } from '../types/task.js';
import { isJsonObject } from '../types/json-text.js';
import { keyFromLine, keyLine } from './key-lines.js';
import { decodeRoaring, encodeRoaring } from './roaring.js';
import { NIL_UUID } from '../types/uuid-v7.js';

const nullable = <T>(value: T | undefined): T | null => value ?? null;

function typeOf(kind: TaskKind): unknown {
  switch (kind.name) {
    case 'documentAdditionOrUpdate':
      return {
        documentImport: {
          primary_key: kind.primaryKey,
          method: kind.method === 'replace' ? 'ReplaceDocuments' : 'UpdateDocuments',
          documents_count: kind.documentsCount,
          allow_index_creation: kind.allowIndexCreation,
        },
      };
    case 'documentDeletion':
      return { documentDeletion: { documents_ids: kind.documentIds } };
    case 'documentClear':
      return 'documentClear';
    case 'documentDeletionByFilter':
      return { documentDeletionByFilter: { filter: kind.filter } };
    case 'documentEdition':
      return { documentEdition: { filter: kind.filter, context: kind.context, function: kind.function } };
    case 'settingsUpdate':
      return { settings: { settings: kind.settings, is_deletion: kind.isDeletion, allow_index_creation: kind.allowIndexCreation } };
    case 'indexDeletion':
      return 'indexDeletion';
    case 'indexCreation':
      return { indexCreation: { primary_key: kind.primaryKey } };
    case 'indexUpdate':
      return { indexUpdate: { primary_key: kind.primaryKey, uid: kind.newIndexUid } };
    case 'indexSwap':
      return { indexSwap: { swaps: kind.swaps } };
    case 'taskCancelation':
      return { taskCancelation: { query: kind.query, tasks: encodeRoaring(kind.tasks) } };
    case 'taskDeletion':
      return { tasksDeletion: { query: kind.query, tasks: encodeRoaring(kind.tasks) } };
    case 'dumpCreation':
      return { dumpCreation: { keys: kind.keys.map(keyLine), instance_uid: kind.instanceUid } };
    case 'snapshotCreation':
      return 'snapshotCreation';
    case 'export':
      return { export: { url: kind.url, api_key: kind.apiKey, payload_size: kind.payloadSize, indexes: kind.indexes } };
    case 'upgradeDatabase':
      return { upgradeDatabase: { from: kind.from } };
    case 'indexCompaction':
      return { indexCompaction: { index_uid: kind.indexUid } };
    case 'networkTopologyChange':
    case 'dsrClear':
      return kind.name;
    case 'dsrUpdate':
      return { dsrUpdate: { rule_uid: kind.ruleUid, rule: kind.rule } };
  }
}

function detailsOf(details: TaskDetails, kind: TaskKind): JsonObject {
  switch (details.kind) {
    case 'documentAdditionOrUpdate':
      return { DocumentAdditionOrUpdate: { received_documents: details.receivedDocuments, indexed_documents: details.indexedDocuments } };
    case 'documentEdition':
      return {
        DocumentEdition: {
          deleted_documents: details.deletedDocuments,
          edited_documents: details.editedDocuments,
          original_filter: details.originalFilter,
          context: details.context,
          function: details.function,
        },
      };
    case 'documentDeletion':
      return { DocumentDeletion: { provided_ids: details.providedIds, deleted_documents: details.deletedDocuments } };
    case 'documentDeletionByFilter':
      return { DocumentDeletionByFilter: { original_filter: details.originalFilter, deleted_documents: details.deletedDocuments } };
    case 'clearAll':
      return { ClearAll: { deleted_documents: details.deletedDocuments } };
    case 'settingsUpdate':
      return { SettingsUpdate: { settings: details.settings } };
    case 'indexInfo':
      return { IndexInfo: { primary_key: details.primaryKey, new_index_uid: details.newIndexUid, old_index_uid: details.oldIndexUid } };
    case 'indexSwap':
      return { IndexSwap: { swaps: details.swaps } };
    case 'taskCancelation':
      return { TaskCancelation: { matched_tasks: details.matchedTasks, canceled_tasks: details.canceledTasks, original_filter: details.originalFilter } };
    case 'taskDeletion':
      return { TaskDeletion: { matched_tasks: details.matchedTasks, deleted_tasks: details.deletedTasks, original_filter: details.originalFilter } };
    case 'dumpCreation':
      return { Dump: { dump_uid: details.dumpUid } };
    case 'export':
      return { Export: { url: details.url, api_key: details.apiKey, payload_size: details.payloadSize, indexes: details.indexes } };
    case 'upgradeDatabase':
      return { UpgradeDatabase: { from: details.from, to: details.to } };
    case 'indexCompaction':
      return {
        IndexCompaction: {
          index_uid: 'indexUid' in kind ? kind.indexUid : null,
          pre_compaction_size: details.preCompactionSize,
          post_compaction_size: details.postCompactionSize,
        },
      };
    case 'networkTopologyChange':
      return { NetworkTopologyChange: { moved_documents: details.movedDocuments, message: details.message } };
    case 'dsrUpdate':
      return { DsrUpdate: { rule: details.rule, updated_rules: details.updatedRules } };
  }
}

/** The `tasks/queue.jsonl` line of a task (without its newline). */
export function taskLine(task: Task): string {
  const line: JsonObject = {
    uid: task.uid,
    batchUid: task.batchUid,
    indexUid: indexUidOf(task.kind),
    status: task.status,
    type: typeOf(task.kind),
  };
  if (task.canceledBy !== null) line.canceledBy = task.canceledBy;
  if (task.details !== null) line.details = detailsOf(task.details, task.kind);
  if (task.error !== null) line.error = task.error;
  line.enqueuedAt = formatRfc3339(task.enqueuedAt);
  if (task.startedAt !== null) line.startedAt = formatRfc3339(task.startedAt);
  if (task.finishedAt !== null) line.finishedAt = formatRfc3339(task.finishedAt);
  if (task.network !== undefined) line.network = task.network as unknown as JsonObject;
  if (task.customMetadata !== null) line.customMetadata = task.customMetadata;
  return JSON.stringify(line);
}

/** `"name"` or `{"name": {…}}` → [name, fields]. */
function tagged(value: unknown): [string, Record<string, any>] {
  if (typeof value === 'string') return [value, {}];
  if (value !== null && typeof value === 'object') {
    const [entry] = Object.entries(value);
    if (entry !== undefined) return [entry[0], (entry[1] ?? {}) as Record<string, any>];
  }
  throw new Error(`unreadable tagged value ${JSON.stringify(value)}`);
}

const triple = (value: unknown): [number, number, number] => {
  const [major = 0, minor = 0, patch = 0] = Array.isArray(value) ? (value as number[]) : [];
  return [major, minor, patch];
};

function kindFrom(type: unknown, indexUid: string, currentVersion: [number, number, number]): TaskKind {
  const [name, f] = tagged(type);
  switch (name) {
    case 'documentImport':
      return {
        name: 'documentAdditionOrUpdate',
        indexUid,
        primaryKey: nullable(f.primary_key),
        method: f.method === 'UpdateDocuments' ? 'update' : 'replace',
        contentFile: '',
        documentsCount: f.documents_count ?? 0,
        payloadSize: 0,
        allowIndexCreation: f.allow_index_creation ?? true,
        onMissingDocument: 'create',
      };
    case 'documentDeletion':
      return { name: 'documentDeletion', indexUid, documentIds: f.documents_ids ?? [] };
    case 'documentClear':
      return { name: 'documentClear', indexUid };
    case 'documentDeletionByFilter':
      return { name: 'documentDeletionByFilter', indexUid, filter: f.filter ?? f.filter_expr };
    case 'documentEdition':
      return { name: 'documentEdition', indexUid, filter: nullable(f.filter ?? f.filter_expr), context: nullable(f.context), function: f.function ?? '' };
    case 'settings':
      return { name: 'settingsUpdate', indexUid, settings: f.settings ?? {}, isDeletion: f.is_deletion ?? false, allowIndexCreation: f.allow_index_creation ?? true };
    case 'indexDeletion':
      return { name: 'indexDeletion', indexUid };
    case 'indexCreation':
      return { name: 'indexCreation', indexUid, primaryKey: nullable(f.primary_key) };
    case 'indexUpdate':
      return { name: 'indexUpdate', indexUid, primaryKey: nullable(f.primary_key), newIndexUid: nullable(f.uid ?? f.new_index_uid) };
    case 'indexSwap':
      return { name: 'indexSwap', swaps: (f.swaps ?? []).map((swap: any) => ({ indexes: swap.indexes, rename: swap.rename ?? false })) };
    case 'taskCancelation':
      return { name: 'taskCancelation', query: f.query ?? '', tasks: decodeRoaring(f.tasks ?? []) };
    case 'tasksDeletion':
      return { name: 'taskDeletion', query: f.query ?? '', tasks: decodeRoaring(f.tasks ?? []) };
    case 'dumpCreation':
      return { name: 'dumpCreation', keys: (f.keys ?? []).map(keyFromLine), instanceUid: nullable(f.instance_uid) };
    case 'snapshotCreation':
      return { name: 'snapshotCreation' };
    case 'export':
      return { name: 'export', url: f.url, apiKey: nullable(f.api_key), payloadSize: nullable(f.payload_size), indexes: f.indexes ?? {} };
    case 'upgradeDatabase':
      return { name: 'upgradeDatabase', from: triple(f.from), to: currentVersion };
    case 'indexCompaction':
      return { name: 'indexCompaction', indexUid: f.index_uid ?? indexUid };
    case 'networkTopologyChange':
      return { name: 'networkTopologyChange' };
    case 'dsrUpdate':
      return { name: 'dsrUpdate', ruleUid: f.rule_uid, rule: nullable(f.rule) };
    case 'dsrClear':
      return { name: 'dsrClear' };
    default:
      throw new Error(`unknown task type \`${name}\``);
  }
}

function detailsFrom(value: unknown, kind: TaskKind): TaskDetails | null {
  if (value === undefined || value === null) return null;
  const [name, f] = tagged(value);
  switch (name) {
    case 'DocumentAdditionOrUpdate':
      return { kind: 'documentAdditionOrUpdate', receivedDocuments: f.received_documents ?? 0, indexedDocuments: nullable(f.indexed_documents) };
    case 'DocumentEdition':
      return {
        kind: 'documentEdition',
        editedDocuments: nullable(f.edited_documents),
        deletedDocuments: nullable(f.deleted_documents),
        originalFilter: nullable(f.original_filter),
        context: nullable(f.context),
        function: f.function ?? '',
      };
    case 'DocumentDeletion':
      return { kind: 'documentDeletion', providedIds: f.provided_ids ?? 0, deletedDocuments: nullable(f.deleted_documents) };
    case 'DocumentDeletionByFilter':
      return { kind: 'documentDeletionByFilter', originalFilter: f.original_filter ?? '', deletedDocuments: nullable(f.deleted_documents) };
    case 'ClearAll':
      return { kind: 'clearAll', deletedDocuments: nullable(f.deleted_documents) };
    case 'SettingsUpdate':
      return { kind: 'settingsUpdate', settings: f.settings ?? {} };
    case 'IndexInfo':
      return { kind: 'indexInfo', primaryKey: nullable(f.primary_key), oldIndexUid: nullable(f.old_index_uid), newIndexUid: nullable(f.new_index_uid) };
    case 'IndexSwap':
      return { kind: 'indexSwap', swaps: f.swaps ?? [] };
    case 'TaskCancelation':
      return { kind: 'taskCancelation', matchedTasks: f.matched_tasks ?? 0, canceledTasks: nullable(f.canceled_tasks), originalFilter: f.original_filter ?? '' };
    case 'TaskDeletion':
      return { kind: 'taskDeletion', matchedTasks: f.matched_tasks ?? 0, deletedTasks: nullable(f.deleted_tasks), originalFilter: f.original_filter ?? '' };
    case 'Dump':
      return { kind: 'dumpCreation', dumpUid: nullable(f.dump_uid) };
    case 'Export':
      return { kind: 'export', url: f.url, apiKey: nullable(f.api_key), payloadSize: nullable(f.payload_size), indexes: f.indexes ?? {} };
    case 'UpgradeDatabase':
      return { kind: 'upgradeDatabase', from: triple(f.from), to: kind.name === 'upgradeDatabase' ? kind.to : triple(f.to) };
    case 'IndexCompaction':
      return { kind: 'indexCompaction', preCompactionSize: nullable(f.pre_compaction_size), postCompactionSize: nullable(f.post_compaction_size) };
    case 'NetworkTopologyChange':
      return { kind: 'networkTopologyChange', movedDocuments: f.moved_documents ?? 0, message: f.message ?? '' };
    case 'DsrUpdate':
      return { kind: 'dsrUpdate', rule: nullable(f.rule), updatedRules: f.updated_rules ?? 0 };
    default:
      throw new Error(`unknown task details \`${name}\``);
  }
}


function originFrom(value: JsonObject): NetworkOrigin {
  return { remoteName: String(value.remoteName), taskUid: Number(value.taskUid), networkVersion: typeof value.networkVersion === 'string' ? value.networkVersion : NIL_UUID };
}

/** A dumped task's `network` (v1.50's untagged `DbTaskNetwork`; versions default to nil, as its serde does), or undefined. */
function networkFrom(value: unknown): TaskNetwork | undefined {
  if (!isJsonObject(value)) return undefined;
  if (isJsonObject(value.origin)) return { origin: originFrom(value.origin) };
  if (isJsonObject(value.remote_tasks)) {
    return { remote_tasks: value.remote_tasks as unknown as Record<string, RemoteTask>, network_version: typeof value.network_version === 'string' ? value.network_version : NIL_UUID };
  }
  if (isJsonObject(value.import_from) && isJsonObject(value.network_change)) {
    const from = value.import_from;
    return {
      import_from: { remoteName: String(from.remoteName), indexName: typeof from.indexName === 'string' ? from.indexName : null, documentCount: Number(from.documentCount) },
      network_change: originFrom(value.network_change),
    };
  }
  return undefined;
}

/**
 * A `tasks/queue.jsonl` line as a task. A task dumped while `processing` comes back enqueued:
 * storage never holds `processing` (types/task.ts), and it runs again after the import.
 */
export function readTaskLine(line: JsonObject, currentVersion: [number, number, number]): Task {
  const kind = kindFrom(line.type, (line.indexUid as string | null) ?? '', currentVersion);
  const status = line.status === 'processing' ? 'enqueued' : (line.status as TaskStatus);
  const date = (value: unknown) => (typeof value === 'string' ? instantOfRfc3339(value) : null);
  const network = networkFrom(line.network);
  return {
    uid: line.uid as number,
    batchUid: status === 'enqueued' ? null : ((line.batchUid as number | null | undefined) ?? null),
    status,
    kind,
    details: detailsFrom(line.details, kind),
    error: (line.error as TaskError | undefined) ?? null,
    canceledBy: (line.canceledBy as number | null | undefined) ?? null,
    enqueuedAt: date(line.enqueuedAt)!,
    startedAt: status === 'enqueued' ? null : date(line.startedAt),
    finishedAt: status === 'enqueued' ? null : date(line.finishedAt),
    customMetadata: (line.customMetadata as string | null | undefined) ?? null,
    ...(network !== undefined ? { network } : {}),
  };
}
