/**
 * The task queue of old dumps, step by step to v6 lines (Meilisearch's dump reader,
 * compat/v1_to_v2 … v5_to_v6). Each step takes one version's JSON shape and returns the next's:
 * v1 updates (one file per index, a duration instead of a start date) → v2 updates (index uuid,
 * `meta.type`) → v3 updates (externally tagged meta) → v4 tasks (renumbered from 0 in queue
 * order, events instead of statuses) → v5 tasks (index uid inside the content) → v6
 * `tasks/queue.jsonl` lines (what dumps/task-lines.ts reads). What a step cannot carry is dropped
 * or failed as Meilisearch does: v1's enqueued and `Customs` updates are dropped, a v2 document
 * addition without its payload fails, a v3 update of an unknown index is kept as `unknown` when
 * finished and dropped otherwise, a task that was processing comes back enqueued. Pure.
 */
import { formatRfc3339, instantOfRfc3339 } from '../../types/dates.js';
import type { JsonObject } from '../../types/task.js';
import { currentTaskError, v2CodeName, v3CodeString } from './error-codes.js';
import { v1SettingsUpdateToV2, v2SettingsToV3, v5SettingsToV6 } from './settings-steps.js';

type Json = Record<string, any>;

/** `"Name"` or `{"Name": fields}` → [Name, fields]. */
export function tagged(value: unknown): [string, Json] {
  if (typeof value === 'string') return [value, {}];
  const [entry] = Object.entries((value ?? {}) as Json);
  if (entry === undefined) throw new Error(`unreadable tagged value ${JSON.stringify(value)}`);
  return [entry[0], (entry[1] ?? {}) as Json];
}

/** Deleted documents v1 reported for a clear: v2 has no count for it, and says u64::MAX. */
const V1_CLEAR_COUNT = 2 ** 64 - 1;

/** A v1 update → its v2 form, or undefined when v2 cannot carry it (enqueued, `Customs`). */
export function v1UpdateToV2(v1: Json): Json | undefined {
  if (v1.status === 'enqueued') return undefined;
  const type = v1.type as Json;
  let meta: Json;
  let success: unknown = 'Other';
  switch (type.name) {
    case 'ClearAll':
      meta = { type: 'ClearDocuments' };
      success = { DocumentDeletion: { deleted: V1_CLEAR_COUNT } };
      break;
    case 'DocumentsAddition':
    case 'DocumentsPartial':
      meta = { type: 'DocumentsAddition', method: type.name === 'DocumentsAddition' ? 'ReplaceDocuments' : 'UpdateDocuments', format: 'Json', primary_key: null };
      success = { DocumentsAddition: { nb_documents: type.number } };
      break;
    case 'DocumentsDeletion':
      meta = { type: 'DeleteDocuments', ids: [] };
      success = { DocumentDeletion: { deleted: type.number } };
      break;
    case 'Settings':
      meta = { type: 'Settings', ...v1SettingsUpdateToV2(type.settings as JsonObject) };
      break;
    default:
      return undefined; // `Customs`, no longer supported
  }
  const durationNs = BigInt(Math.round(Number(v1.duration) * 1e9));
  const startedProcessingAt = formatRfc3339(instantOfRfc3339(v1.processedAt) - durationNs);
  const common = { updateId: v1.updateId, meta, enqueuedAt: v1.enqueuedAt, content: null, startedProcessingAt };
  if (v1.status === 'failed') {
    const error = { message: v1.error ?? '', errorCode: v1.errorCode ?? '', errorType: v1.errorType ?? '', errorLink: v1.errorLink ?? '' };
    return { status: 'failed', ...common, error, failedAt: v1.processedAt };
  }
  return { status: 'processed', ...common, success, processedAt: v1.processedAt };
}

/** The uuid v3 gives a finished document addition whose payload v2 did not keep. */
const LOST_CONTENT = '00112233-4455-6677-8899-aabbccddeeff';

/** A v2 update's meta → v3's externally tagged form; `content` is its payload's uuid, if any. */
function v2MetaToV3(meta: Json, content: string | null): unknown {
  const { type, ...fields } = meta;
  switch (type) {
    case 'DocumentsAddition':
      return { DocumentAddition: { primary_key: fields.primary_key ?? null, method: fields.method, content_uuid: content ?? LOST_CONTENT } };
    case 'ClearDocuments':
      return 'ClearDocuments';
    case 'DeleteDocuments':
      return { DeleteDocuments: fields.ids ?? [] };
    case 'Settings':
      return { Settings: v2SettingsToV3(fields) };
    default:
      throw new Error(`unknown update type \`${String(type)}\``);
  }
}

/** A v2 update → its v3 form. An unfinished document addition without its payload fails now. */
export function v2UpdateToV3(v2: Json, now: string): Json {
  const meta = v2MetaToV3(v2.meta, v2.content ?? null);
  const base = { updateId: v2.updateId, meta, enqueuedAt: v2.enqueuedAt };
  const unfinished = v2.status === 'enqueued' || v2.status === 'processing';
  if (unfinished && v2.meta.type === 'DocumentsAddition' && (v2.content ?? null) === null) {
    return { status: 'failed', ...base, startedProcessingAt: v2.startedProcessingAt ?? now, msg: 'Malformed task.', code: 'Internal', failedAt: now };
  }
  switch (v2.status) {
    case 'enqueued':
      return { status: 'enqueued', ...base };
    case 'processing':
      return { status: 'processing', ...base, startedProcessingAt: v2.startedProcessingAt };
    case 'processed':
      return { status: 'processed', ...base, startedProcessingAt: v2.startedProcessingAt, success: v2.success, processedAt: v2.processedAt };
    case 'aborted':
      return { status: 'aborted', ...base, abortedAt: v2.abortedAt };
    default:
      return { status: 'failed', ...base, startedProcessingAt: v2.startedProcessingAt, msg: v2.error?.message ?? '', code: v2CodeName(v2.error?.errorCode), failedAt: v2.failedAt };
  }
}

/** Whether a v3 update is finished (it then needs no payload). */
export const v3Finished = (update: Json): boolean => ['processed', 'failed', 'aborted'].includes(update.status);

function v3ContentToV4(meta: unknown): unknown {
  const [name, f] = tagged(meta);
  switch (name) {
    case 'DeleteDocuments':
      return { DocumentDeletion: { Ids: f } };
    case 'DocumentAddition':
      // v3 counted no documents and had no API keys that could forbid an index creation
      return { DocumentAddition: { content_uuid: f.content_uuid, merge_strategy: f.method, primary_key: f.primary_key ?? null, documents_count: 0, allow_index_creation: true } };
    case 'Settings':
      return { SettingsUpdate: { settings: f, is_deletion: false, allow_index_creation: true } };
    case 'ClearDocuments':
      return { DocumentDeletion: 'Clear' };
    default:
      throw new Error(`unknown update type \`${name}\``);
  }
}

function v3ResultToV4(success: unknown): unknown {
  const [name, f] = tagged(success);
  if (name === 'DocumentsAddition') return { DocumentAddition: { indexed_documents: f.nb_documents } };
  if (name === 'DocumentDeletion') return { DocumentDeletion: { deleted_documents: f.deleted } };
  return 'Other';
}

function v3EventsToV4(update: Json): Json[] {
  const created = { Created: update.enqueuedAt };
  switch (update.status) {
    case 'processed':
      return [created, { Processing: update.startedProcessingAt }, { Succeded: { result: v3ResultToV4(update.success), timestamp: update.processedAt } }];
    case 'failed':
      return [created, { Processing: update.startedProcessingAt }, { Failed: { error: { message: update.msg, code: v3CodeString(update.code) }, timestamp: update.failedAt } }];
    case 'aborted':
      return [created, { Failed: { error: { message: 'Task was aborted in a previous version of meilisearch.', code: 'unretrievable_error_code' }, timestamp: update.abortedAt } }];
    default:
      return [created]; // enqueued or processing: it runs again
  }
}

/**
 * The v3 update at position `position` of the queue (its v4 task uid), of the index `indexUid`
 * (undefined when the uuid names no index) → a v4 task, or undefined when it is dropped.
 */
export function v3UpdateToV4(update: Json, position: number, indexUid: string | undefined): Json | undefined {
  if (indexUid === undefined && !v3Finished(update)) return undefined;
  return { id: position, index_uid: indexUid ?? 'unknown', content: v3ContentToV4(update.meta), events: v3EventsToV4(update) };
}

/** A v4 task → v5: the index uid moves into the content, `Succeded` is spelt right. */
export function v4TaskToV5(v4: Json): Json {
  const [name, f] = tagged(v4.content);
  const index_uid = v4.index_uid;
  let content: unknown;
  if (name === 'DocumentDeletion') content = { DocumentDeletion: { index_uid, deletion: v4.content.DocumentDeletion } };
  else if (name === 'IndexDeletion') content = { IndexDeletion: { index_uid } };
  else content = { [name]: { index_uid, ...f } };
  const events = (v4.events as Json[]).map((event) => ('Succeded' in event ? { Succeeded: event.Succeded } : event));
  return { id: v4.id, content, events };
}

/** Whether a v5 task is finished. */
export function v5Finished(task: Json): boolean {
  const last = (task.events as Json[]).at(-1) ?? {};
  return 'Succeeded' in last || 'Failed' in last;
}

/** The uuid of an unfinished v5 document addition's payload, if any. */
export function v5ContentUuid(task: Json): string | undefined {
  const [name, f] = tagged(task.content);
  return name === 'DocumentAddition' && !v5Finished(task) ? f.content_uuid : undefined;
}

/** The index uid of a v5 task, null for a dump. */
export function v5IndexUid(task: Json): string | null {
  return tagged(task.content)[1].index_uid ?? null;
}

/** The date the index was created by this task (v5 `Task::created_at`), if it creates one. */
export function v5CreatedAt(task: Json): string | undefined {
  const [name] = tagged(task.content);
  if (!['IndexCreation', 'DocumentAddition', 'SettingsUpdate'].includes(name)) return undefined;
  return (task.events as Json[])[0]?.Created;
}

/** The date the task succeeded, if it did (v5 `Task::processed_at`). */
export function v5ProcessedAt(task: Json): string | undefined {
  return (task.events as Json[]).at(-1)?.Succeeded?.timestamp;
}

/** A v5 task's type and details (v5 `TaskView`), in v6 line form. */
function v5KindAndDetails(content: unknown, keys: JsonObject[], instanceUid: string | null): { type: unknown; details: Json } {
  const [name, f] = tagged(content);
  switch (name) {
    case 'DocumentAddition':
      return {
        type: { documentImport: { primary_key: f.primary_key ?? null, method: f.merge_strategy, documents_count: f.documents_count ?? 0, allow_index_creation: f.allow_index_creation ?? true } },
        details: { DocumentAdditionOrUpdate: { received_documents: f.documents_count ?? 0, indexed_documents: null } },
      };
    case 'DocumentDeletion': {
      const [deletion, ids] = tagged(f.deletion);
      if (deletion === 'Clear') return { type: 'documentClear', details: { ClearAll: { deleted_documents: null } } };
      const documents_ids = ids as unknown as string[];
      return { type: { documentDeletion: { documents_ids } }, details: { DocumentDeletion: { provided_ids: documents_ids.length, deleted_documents: null } } };
    }
    case 'SettingsUpdate': {
      const settings = v5SettingsToV6(f.settings ?? {});
      return { type: { settings: { settings, is_deletion: f.is_deletion ?? false, allow_index_creation: f.allow_index_creation ?? true } }, details: { SettingsUpdate: { settings } } };
    }
    case 'IndexDeletion':
      return { type: 'indexDeletion', details: { ClearAll: { deleted_documents: null } } };
    case 'IndexCreation':
      return { type: { indexCreation: { primary_key: f.primary_key ?? null } }, details: { IndexInfo: { primary_key: f.primary_key ?? null, new_index_uid: null, old_index_uid: null } } };
    case 'IndexUpdate':
      return { type: { indexUpdate: { primary_key: f.primary_key ?? null, uid: null } }, details: { IndexInfo: { primary_key: f.primary_key ?? null, new_index_uid: null, old_index_uid: null } } };
    case 'Dump':
      // v6 names a dump after the time it starts: the old uid is only kept in the details
      return { type: { dumpCreation: { keys, instance_uid: instanceUid } }, details: { Dump: { dump_uid: f.uid ?? null } } };
    default:
      throw new Error(`unknown task type \`${name}\``);
  }
}

/** The count a finished task reports in its details (v5 `TaskView`: what succeeded, 0 on failure). */
function withOutcome(details: Json, last: Json): void {
  const [variant] = Object.keys(details) as [string];
  const fields = details[variant] as Json;
  if ('Failed' in last) {
    if ('indexed_documents' in fields) fields.indexed_documents = 0;
    if ('deleted_documents' in fields) fields.deleted_documents = 0;
    return;
  }
  const [result, r] = tagged(last.Succeeded.result);
  if (result === 'DocumentAddition' && variant === 'DocumentAdditionOrUpdate') fields.indexed_documents = r.indexed_documents;
  if (result === 'DocumentDeletion' && variant === 'DocumentDeletion') fields.deleted_documents = r.deleted_documents;
  if (result === 'ClearAll' && variant === 'ClearAll') fields.deleted_documents = r.deleted_documents;
}

/** A v5 task → its v6 `tasks/queue.jsonl` line; a dump task captures `keys` (v6 lines) and the instance uid. */
export function v5TaskToV6Line(task: Json, keys: JsonObject[], instanceUid: string | null): JsonObject {
  const events = task.events as Json[];
  const last = events.at(-1) ?? {};
  const { type, details } = v5KindAndDetails(task.content, keys, instanceUid);
  const line: JsonObject = { uid: task.id, batchUid: null, indexUid: v5IndexUid(task), status: 'enqueued', type, details };
  line.enqueuedAt = events[0]?.Created;
  if (typeof line.enqueuedAt !== 'string') throw new Error(`Task ${String(task.id)} of the dump has no creation date.`);
  if (!v5Finished(task)) return line; // enqueued, or processing: it runs again
  withOutcome(details, last);
  line.status = 'Succeeded' in last ? 'succeeded' : 'failed';
  if ('Failed' in last) line.error = currentTaskError(last.Failed.error.message ?? '', last.Failed.error.code ?? '');
  const started = events.find((event) => 'Processing' in event)?.Processing;
  if (started !== undefined) line.startedAt = started;
  line.finishedAt = (last.Succeeded ?? last.Failed).timestamp;
  return line;
}
