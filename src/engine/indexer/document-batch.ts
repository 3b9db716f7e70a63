/**
 * A document batch applied to an index (documents.md §4, §5), run by the index writer thread:
 * its operations (additions from update files, deletions by id or by filter, clears, edited
 * documents) in task order, streamed in chunks, inside ONE write transaction.
 *
 * Two passes over the update files keep memory bounded by a chunk whatever the payload size:
 * 1. validation, outside the transaction: primary-key resolution and inference and every
 *    document id; a payload problem fails only its operation, which then changes nothing;
 * 2. application: each chunk's net changes go to the document store and every index updater;
 *    a later chunk sees what earlier ones wrote (the transaction's own view), so updates merge
 *    and deletions count exactly as if the tasks ran one after the other.
 * A filter the index refuses fails only its deletion; anything else fails the whole write.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import type { PayloadSource } from '../../store/update-files.js';
import type { IndexSettings } from '../../types/settings.js';
import { documentId, inferPrimaryKey, type JsonObject } from '../documents/document-id.js';
import { readNdjson } from '../documents/ndjson-payload.js';
import { DocumentStore } from '../documents/store.js';
import { withIndexedVectors } from '../documents/vectors-indexing.js';
import { evaluateFilter } from '../filter/evaluate.js';
import { parseFilter } from '../filter-parser/index.js';
import type { IndexEnv } from '../index-env.js';
import { readSettings } from '../index-settings.js';
import { INDEX_UPDATERS } from './registry.js';

/** Documents per chunk: the memory bound of a batch, and the grain of a cancelation. */
const CHUNK_DOCS = 20_000;

export type DocumentOp =
  | { readonly op: 'add'; readonly source: PayloadSource; readonly method: 'replace' | 'update'; readonly primaryKey: string | null; readonly skipMissing: boolean }
  | { readonly op: 'delete'; readonly ids: readonly string[] }
  | { readonly op: 'deleteByFilter'; readonly filter: unknown; readonly indexUid: string }
  | { readonly op: 'clear' }
  /** documents already computed (an edition's outcome); `null` deletes */
  | { readonly op: 'put'; readonly changes: ReadonlyMap<string, JsonObject | null> };

/** Per operation: how many documents it indexed or deleted, or the error that failed it. */
export type OpResult = { readonly count: number } | { readonly error: { readonly code: ErrorCode; readonly message: string } };

export interface DocumentBatchOutcome {
  readonly results: OpResult[];
  /** the index's primary key after the batch */
  readonly primaryKey: string | null;
}

const PAYLOAD_ERRORS: readonly string[] = [
  'missing_document_id',
  'invalid_document_id',
  'index_primary_key_no_candidate_found',
  'index_primary_key_multiple_candidates_found',
  'index_primary_key_already_exists',
];

const failure = (err: ApiError): OpResult => ({ error: { code: err.code, message: err.message } });

/** Pass 1: the primary key each addition uses and its distinct document count, or its error. */
function validate(ops: readonly DocumentOp[], primaryKey: string | null, checkpoint: () => void): { results: (OpResult | null)[]; keys: (string | null)[]; primaryKey: string | null } {
  let state = primaryKey;
  const keys: (string | null)[] = [];
  const results = ops.map((op): OpResult | null => {
    keys.push(null);
    if (op.op !== 'add') return null;
    try {
      if (op.primaryKey !== null && state !== null && op.primaryKey !== state) {
        throw new ApiError('index_primary_key_already_exists', `Index already has a primary key: \`${state}\`.`);
      }
      let key = state ?? op.primaryKey;
      const ids = new Set<string>();
      for (const doc of readNdjson(op.source)) {
        if (ids.size % CHUNK_DOCS === 0) checkpoint();
        key ??= inferPrimaryKey(doc);
        ids.add(documentId(doc, key));
      }
      // Only a payload with documents (or a declared key) settles the index's primary key.
      if (key !== null) state = key;
      keys[keys.length - 1] = key;
      return { count: ids.size };
    } catch (err) {
      if (err instanceof ApiError && PAYLOAD_ERRORS.includes(err.code)) return failure(err);
      throw err;
    }
  });
  return { results, keys, primaryKey: state };
}

/** Writes one chunk of net changes to the store and every updater. */
function flush(env: IndexEnv, settings: IndexSettings, changes: Map<string, JsonObject | null>, checkpoint: () => void): void {
  if (changes.size === 0) return;
  checkpoint();
  const applied = new DocumentStore(env).apply(changes, false);
  for (const updater of INDEX_UPDATERS) updater.apply(env, settings, applied, checkpoint);
  changes.clear();
}

function clearIndex(env: IndexEnv, settings: IndexSettings, checkpoint: () => void): number {
  const store = new DocumentStore(env);
  const removed = store.count();
  store.apply(new Map(), true);
  for (const updater of INDEX_UPDATERS) updater.rebuild(env, settings, [], checkpoint);
  return removed;
}

function deleteByFilter(env: IndexEnv, settings: IndexSettings, op: { filter: unknown; indexUid: string }, primaryKey: string | null, checkpoint: () => void): OpResult {
  const code = 'invalid_document_filter';
  let docids: Iterable<number>;
  try {
    const ast = parseFilter(op.filter, { code });
    if (ast === null) return { count: 0 };
    docids = evaluateFilter(env, settings, ast, { code });
  } catch (err) {
    if (err instanceof ApiError) return failure(new ApiError(err.code, `Index \`${op.indexUid}\`: ${err.message}`));
    throw err;
  }
  const changes = new Map<string, JsonObject | null>();
  for (const docid of docids) {
    // A matching document exists, so the index has its primary key.
    changes.set(documentId(env.documents.get(docid)!, primaryKey!), null);
  }
  const count = changes.size;
  flush(env, settings, changes, checkpoint);
  return { count };
}

/**
 * Pass 2's pending net changes: consecutive additions, deletions by id and edited documents
 * accumulate here and reach the store and the updaters a chunk at a time, so a batch of many
 * small tasks costs about what one task with all their documents would.
 */
class Pending {
  private readonly changes = new Map<string, JsonObject | null>();
  private readonly store: DocumentStore;

  constructor(
    private readonly env: IndexEnv,
    private readonly settings: IndexSettings,
    private readonly checkpoint: () => void,
  ) {
    this.store = new DocumentStore(env);
  }

  /** The document as the batch sees it so far. */
  current(id: string): JsonObject | undefined {
    return this.changes.has(id) ? this.changes.get(id) ?? undefined : this.store.get(id);
  }

  set(id: string, doc: JsonObject | null): void {
    this.changes.set(id, doc);
    if (this.changes.size >= CHUNK_DOCS) this.flush();
  }

  flush(): void {
    flush(this.env, this.settings, this.changes, this.checkpoint);
  }
}

function add(pending: Pending, op: Extract<DocumentOp, { op: 'add' }>, key: string, settings: IndexSettings): void {
  for (const doc of readNdjson(op.source)) {
    const id = documentId(doc, key);
    const base = pending.current(id);
    if (op.skipMissing && base === undefined) continue;
    const next = op.method === 'update' && base !== undefined ? { ...base, ...doc } : doc;
    pending.set(id, withIndexedVectors(next, doc, base, op.method, id, settings.embedders));
  }
}

function deleteIds(pending: Pending, ids: Iterable<string>): number {
  let deleted = 0;
  for (const id of new Set(ids)) {
    if (pending.current(id) === undefined) continue;
    pending.set(id, null);
    deleted++;
  }
  return deleted;
}

export function applyDocumentBatch(env: IndexEnv, ops: readonly DocumentOp[], primaryKey: string | null, checkpoint: () => void): DocumentBatchOutcome {
  const checked = validate(ops, primaryKey, checkpoint);
  const results = checked.results;
  env.root.transactionSync(() => {
    const settings = readSettings(env);
    const pending = new Pending(env, settings, checkpoint);
    ops.forEach((op, i) => {
      if (op.op === 'add') {
        if ('count' in results[i]!) add(pending, op, checked.keys[i]!, settings);
      } else if (op.op === 'delete') {
        results[i] = { count: deleteIds(pending, op.ids) };
      } else if (op.op === 'put') {
        for (const [id, doc] of op.changes) pending.set(id, doc);
        results[i] = { count: op.changes.size };
      } else {
        // A filter or a clear works on the store: what came before must be there.
        pending.flush();
        results[i] = op.op === 'clear' ? { count: clearIndex(env, settings, checkpoint) } : deleteByFilter(env, settings, op, checked.primaryKey, checkpoint);
      }
    });
    pending.flush();
  });
  return { results: results as OpResult[], primaryKey: checked.primaryKey };
}
