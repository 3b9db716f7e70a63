/**
 * Document batches (documents.md §4, §5): additions (replace or update), deletions by id or by
 * filter and clears of one index, applied in task order to an in-memory overlay of the index,
 * then written as net changes in one index-environment transaction.
 *
 * Failure scopes: a payload problem (missing or invalid id, primary-key inference or conflict)
 * or a filter the index refuses (attribute not filterable, …) fails only its task, whose
 * changes are discarded; anything else fails the whole batch.
 * An index created implicitly by the batch is kept even if every task fails, as in Meilisearch.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ApiError } from '../../errors/api-error.js';
import { documentId, inferPrimaryKey, type JsonObject } from '../../engine/documents/document-id.js';
import { DocumentStore } from '../../engine/documents/store.js';
import { evaluateFilter } from '../../engine/filter/evaluate.js';
import { parseFilter } from '../../engine/filter-parser/index.js';
import type { IndexEnv } from '../../engine/index-env.js';
import { readSettings } from '../../engine/index-settings.js';
import type { IndexRecord } from '../../indexes/registry.js';
import type { Task } from '../../types/task.js';
import type { BatchProcessor, ProcessContext } from './context.js';
import { failed, succeeded } from './outcome.js';

/** The index as the batch sees it: stored documents under the batch's pending changes. */
class Overlay {
  readonly changes = new Map<string, JsonObject | null>();
  cleared = false;
  count: number;

  constructor(private readonly store: DocumentStore) {
    this.count = store.count();
  }

  get(id: string): JsonObject | undefined {
    if (this.changes.has(id)) return this.changes.get(id) ?? undefined;
    return this.cleared ? undefined : this.store.get(id);
  }

  set(id: string, doc: JsonObject | null): void {
    const existed = this.get(id) !== undefined;
    if (doc === null && existed) this.count--;
    if (doc !== null && !existed) this.count++;
    this.changes.set(id, doc);
  }

  clear(): number {
    const removed = this.count;
    this.changes.clear();
    this.cleared = true;
    this.count = 0;
    return removed;
  }
}

async function* readDocuments(path: string): AsyncGenerator<JsonObject> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) if (line.length > 0) yield JSON.parse(line) as JsonObject;
}

const isPayloadError = (err: unknown): err is ApiError =>
  err instanceof ApiError &&
  ['missing_document_id', 'invalid_document_id', 'index_primary_key_no_candidate_found', 'index_primary_key_multiple_candidates_found', 'index_primary_key_already_exists'].includes(err.code);

interface Resolution {
  primaryKey: string | null;
}

/** Validates one addition and stages its documents; throws a payload error, changing nothing. */
async function stageAddition(ctx: ProcessContext, task: Task, overlay: Overlay, state: Resolution): Promise<number> {
  const kind = task.kind;
  if (kind.name !== 'documentAdditionOrUpdate') throw new Error('not an addition');
  if (kind.primaryKey !== null && state.primaryKey !== null && kind.primaryKey !== state.primaryKey) {
    throw new ApiError('index_primary_key_already_exists', `Index already has a primary key: \`${state.primaryKey}\`.`);
  }
  let primaryKey = state.primaryKey ?? kind.primaryKey;
  const staged = new Map<string, JsonObject>();
  for await (const doc of readDocuments(ctx.updateFiles.pathOf(kind.contentFile))) {
    if (ctx.signal.aborted) throw new Error('batch aborted');
    primaryKey ??= inferPrimaryKey(doc);
    const id = documentId(doc, primaryKey);
    if (kind.method === 'replace') {
      staged.set(id, doc);
    } else {
      const base = staged.get(id) ?? overlay.get(id);
      staged.set(id, base === undefined ? doc : { ...base, ...doc });
    }
  }
  // Only a payload with documents (or a declared key) settles the index's primary key.
  if (primaryKey !== null) state.primaryKey = primaryKey;
  for (const [id, doc] of staged) {
    if (kind.onMissingDocument === 'skip' && overlay.get(id) === undefined) continue;
    overlay.set(id, doc);
  }
  return staged.size;
}

/**
 * Stages a deletion by filter; returns how many documents it deletes. The filter is evaluated on
 * the committed index: the autobatcher never puts a deletion by filter after an addition, so
 * the tasks before it only deleted or cleared documents, which the overlay accounts for.
 * Throws `ApiError` (prefixed with the index) when the index refuses the filter.
 */
function stageDeletionByFilter(env: IndexEnv, indexUid: string, filter: unknown, overlay: Overlay, primaryKey: string | null): number {
  const code = 'invalid_document_filter';
  let docids;
  try {
    const ast = parseFilter(filter, { code });
    if (ast === null) return 0;
    docids = evaluateFilter(env, readSettings(env), ast, { code });
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(err.code, `Index \`${indexUid}\`: ${err.message}`);
    throw err;
  }
  let deleted = 0;
  for (const docid of docids) {
    // A matching document exists, so the index has its primary key.
    const id = documentId(env.documents.get(docid)!, primaryKey!);
    if (overlay.get(id) !== undefined) {
      overlay.set(id, null);
      deleted++;
    }
  }
  return deleted;
}

export const processDocuments: BatchProcessor = async (ctx, tasks, next) => {
  const indexUid = next.indexUid!;
  let record: IndexRecord | undefined = ctx.indexes.get(indexUid);
  let created = false;
  if (record === undefined) {
    const mayCreate = tasks.some((task) => task.kind.name === 'documentAdditionOrUpdate' && task.kind.allowIndexCreation);
    if (!mayCreate) {
      const error = new ApiError('index_not_found', `Index \`${indexUid}\` not found.`);
      return { tasks: tasks.map((task) => failed(task, error)) };
    }
    record = ctx.indexes.newRecord(indexUid, null, ctx.now);
    created = true;
  }
  const env = ctx.indexEnvs.get(record.uuid);
  const store = new DocumentStore(env);
  const overlay = new Overlay(store);
  const state: Resolution = { primaryKey: record.primaryKey };
  const finished: Task[] = [];

  for (const task of tasks) {
    const { kind, details } = task;
    if (kind.name === 'documentAdditionOrUpdate' && details?.kind === 'documentAdditionOrUpdate') {
      const before = new Map(overlay.changes);
      const { cleared, count } = overlay;
      const keyBefore = state.primaryKey;
      try {
        const indexed = await stageAddition(ctx, task, overlay, state);
        finished.push(succeeded(task, { ...details, indexedDocuments: indexed }));
      } catch (err) {
        if (!isPayloadError(err)) throw err;
        overlay.changes.clear();
        for (const [id, doc] of before) overlay.changes.set(id, doc);
        overlay.cleared = cleared;
        overlay.count = count;
        state.primaryKey = keyBefore;
        finished.push(failed(task, err));
      }
    } else if (kind.name === 'documentDeletion' && details?.kind === 'documentDeletion') {
      let deleted = 0;
      for (const id of new Set(kind.documentIds)) {
        if (overlay.get(id) !== undefined) {
          overlay.set(id, null);
          deleted++;
        }
      }
      finished.push(succeeded(task, { ...details, deletedDocuments: deleted }));
    } else if (kind.name === 'documentDeletionByFilter' && details?.kind === 'documentDeletionByFilter') {
      try {
        const deleted = stageDeletionByFilter(env, indexUid, kind.filter, overlay, state.primaryKey);
        finished.push(succeeded(task, { ...details, deletedDocuments: deleted }));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        finished.push(failed(task, err));
      }
    } else if (kind.name === 'documentClear' && details?.kind === 'clearAll') {
      finished.push(succeeded(task, { ...details, deletedDocuments: overlay.clear() }));
    } else {
      throw new ApiError('internal', `Quarry cannot process a \`${kind.name}\` task in a document batch yet.`);
    }
  }

  const final: IndexRecord = { ...record, primaryKey: state.primaryKey, updatedAt: ctx.now };
  const touched = overlay.cleared || overlay.changes.size > 0;
  return {
    tasks: finished,
    indexWrite: touched ? { uuid: env.uuid, write: { kind: 'documents', changes: overlay.changes, clearFirst: overlay.cleared } } : undefined,
    commit: () => {
      if (created || touched || final.primaryKey !== record.primaryKey) ctx.indexes.put(final);
    },
  };
};
