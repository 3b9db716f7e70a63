/**
 * The document store of one index: external id ↔ internal u32 docid, documents in field-id
 * order, the field-id map and the field distribution, all inside the index environment.
 *
 * Reads work anywhere (LMDB read snapshots). `apply` writes a batch's net changes and must run
 * inside the scheduler's single write transaction on this environment.
 * Docids are allocated from the smallest free integer, so ids freed by deletions are reused
 * first and a clear restarts at 0 (documents.md §2.3). Every lookup by external id goes through
 * `docidOf`, which answers nothing for an id no addition could have stored.
 */
import { ApiError } from '../../errors/api-error.js';
import { CacheBudget } from '../cache-budget.js';
import { EntryCache } from '../entry-cache.js';
import { followChanges, noteDocuments, noteRebuild } from '../index-changes.js';
import type { IndexEnv } from '../index-env.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import type { DocumentChange } from '../updater.js';
import { mayBeStoredId, type JsonObject } from '../document-id.js';
import { ownRecord, setField } from '../../types/own-record.js';
import { documentCodec, isDocumentText } from '../../store/json-documents.js';
import { TailPuts } from '../../store/tail-puts.js';
import { inFieldOrder } from './field-order.js';
import { withFloatsOf } from '../../types/wire-floats.js';

const FIELD_IDS = 'field-ids';
const FREE_DOCIDS = 'free-docids';

/**
 * Distinct top-level fields an index can hold: field ids are u16 in Meilisearch, so ids 0 to
 * 65,535, although its message says 65,535 fields.
 */
export const MAX_FIELDS = 0x1_0000;

export function fieldLimitExceeded(): ApiError {
  return new ApiError('max_fields_limit_exceeded', 'A document cannot contain more than 65,535 fields.');
}

/**
 * Stored bytes of the documents kept decoded, all indexes together (cache-budget.ts): bounded by
 * size rather than count, so small documents (a catalogue's hits) stay cached across a whole
 * query mix while large ones cannot pin much memory (decoded objects take a few times their
 * stored size).
 */
const budget = new CacheBudget(16 * 1024 * 1024);

// search pages show the same popular documents again and again: decode each once, and keep it
// through writes that leave it as it is
const sharedDocuments = new EntryCache<Map<number, JsonObject | undefined>>(
  (env) => env.main,
  INDEX_MAIN_KEYS.documentsVersion,
  () => new Map(),
  followChanges((shared, changes) => {
    if (changes.docids === null) return false;
    for (const docid of changes.docids) shared.delete(docid);
    return true;
  }),
);

/** An external id's internal docid and stored document. */
export interface StoredDocument {
  readonly docid: number;
  readonly doc: JsonObject | undefined;
}

/** Reads any index storage (`IndexReadEnv`); `apply` needs an LMDB environment (`IndexEnv`). */
export class DocumentStore<E extends IndexReadEnv = IndexEnv> {
  constructor(private readonly env: E) {}

  count(): number {
    return this.env.documents.getCount();
  }

  /** An id no document can have (oversized, empty) matches nothing, whatever path it came by. */
  docidOf(externalId: string): number | undefined {
    return mayBeStoredId(externalId) ? this.env.externalIds.get(externalId) : undefined;
  }

  get(externalId: string): JsonObject | undefined {
    return this.lookup(externalId)?.doc;
  }

  /** The docid and stored document of `externalId`, or null when it has no docid. */
  lookup(externalId: string): StoredDocument | null {
    const docid = this.docidOf(externalId);
    return docid === undefined ? null : { docid, doc: this.env.documents.get(docid) };
  }

  byDocid(docid: number): JsonObject | undefined {
    return this.env.documents.get(docid);
  }

  /** `byDocid`, decoded once per documents version and shared between searches: read-only. */
  sharedByDocid(docid: number): Readonly<JsonObject> | undefined {
    const shared = sharedDocuments.get(this.env);
    if (shared.has(docid)) return shared.get(docid);
    budget.charge(shared, this.env.documents.getBinaryFast(docid)?.length ?? 0);
    const doc = this.byDocid(docid);
    shared.set(docid, doc);
    return doc;
  }

  /** Documents in ascending docid order. */
  *all(offset = 0, limit = Number.POSITIVE_INFINITY): Generator<JsonObject> {
    if (limit <= 0) return;
    const range = this.env.documents.getRange({ offset, ...(Number.isFinite(limit) ? { limit } : {}) });
    for (const { value } of range) yield value;
  }

  /** Every document with its docid, ascending (what an updater's `rebuild` takes). */
  *entries(): Generator<{ docid: number; doc: JsonObject }> {
    for (const { key, value } of this.env.documents.getRange({})) yield { docid: key, doc: value };
  }

  /** Field names in field-id order: a declared primary key when it was given, then by first appearance. */
  fieldIds(): string[] {
    return (this.env.main.get(FIELD_IDS) as string[] | undefined) ?? [];
  }

  /**
   * Gives `name` the next field id if it has none, and says whether it did: a declared primary
   * key does, before the documents that hold it (document-batch.ts). Call inside a write
   * transaction.
   */
  addField(this: DocumentStore<IndexEnv>, name: string): boolean {
    const fields = this.fieldIds();
    if (fields.includes(name)) return false;
    if (fields.length === MAX_FIELDS) throw fieldLimitExceeded();
    this.env.main.putSync(FIELD_IDS, [...fields, name]);
    return true;
  }

  fieldDistribution(): Record<string, number> {
    return (this.env.main.get(INDEX_MAIN_KEYS.fieldDistribution) as Record<string, number> | undefined) ?? {};
  }

  /**
   * Writes net changes: `null` deletes the document, an object replaces it. Returns the per-docid
   * changes for the index updaters. Call inside a write transaction on this environment.
   * Throws `max_fields_limit_exceeded` when the documents would give the index more than
   * MAX_FIELDS fields (the transaction must then be rolled back).
   * `known` holds documents the caller already looked up (`lookup`) since the last write, so
   * they are not read and decoded again. `texts` holds the JSON text of changed documents that
   * are exactly their text's (a payload line's), stored as they are when their keys are already
   * in field-id order, else with their members laid again in that order (field-order.ts),
   * instead of being encoded again.
   */
  apply(this: DocumentStore<IndexEnv>, changes: ReadonlyMap<string, JsonObject | null>, clearFirst: boolean, known?: ReadonlyMap<string, StoredDocument | null>, texts?: ReadonlyMap<string, Uint8Array>): DocumentChange[] {
    const { env } = this;
    const fields = this.fieldIds();
    const fieldIndex = new Map(fields.map((name, i) => [name, i]));
    let distribution = ownRecord(this.fieldDistribution());
    let free = (env.main.get(FREE_DOCIDS) as number[] | undefined) ?? [];
    let next = (env.main.get(INDEX_MAIN_KEYS.nextDocid) as number | undefined) ?? 0;

    if (clearFirst) {
      env.documents.clearSync();
      env.externalIds.clearSync();
      distribution = ownRecord();
      free = [];
      next = 0;
    }
    // the distribution's changes per field id, added to it by name once at the end: a document's
    // keys are looked up once, for its order, rather than counted by name into a record of them all
    const counted: number[] = [];
    const uncount = (doc: JsonObject) => {
      for (const key of Object.keys(doc)) {
        const field = fieldIndex.get(key);
        if (field !== undefined) counted[field] = (counted[field] ?? 0) - 1;
        // a stored field without an id (none is expected) is counted down by name
        else if (distribution[key] !== undefined && --distribution[key] === 0) delete distribution[key];
      }
    };
    const documents = new TailPuts(env.documents);
    const freed: number[] = [];
    // free docids are taken from the front with a cursor: shifting would be quadratic
    let reused = 0;
    const applied: DocumentChange[] = [];
    for (const [externalId, doc] of changes) {
      const stored = clearFirst ? null : known?.has(externalId) === true ? known.get(externalId)! : this.lookup(externalId);
      const docid = stored?.docid;
      const previous = stored?.doc;
      if (previous !== undefined) uncount(previous);
      if (doc === null) {
        if (docid !== undefined) {
          env.documents.removeSync(docid);
          env.externalIds.removeSync(externalId);
          freed.push(docid);
          applied.push({ docid, before: previous, after: undefined, source: undefined });
        }
        continue;
      }
      // documents of one shape already have their keys in field-id order: keep them as they are
      let inOrder = true;
      let lastField = -1;
      const keys = Object.keys(doc);
      for (const key of keys) {
        let field = fieldIndex.get(key);
        if (field === undefined) {
          if (fields.length === MAX_FIELDS) throw fieldLimitExceeded();
          field = fields.length;
          fieldIndex.set(key, field);
          // fieldIds() decoded a fresh array: grow it in place, as a copy per new field is
          // quadratic in a document with tens of thousands of fields
          fields.push(key);
        }
        if (field < lastField) inOrder = false;
        lastField = field;
        counted[field] = (counted[field] ?? 0) + 1;
      }
      let ordered = doc;
      // the field ids of the keys, in their order, for a document to lay again
      const keyFields = inOrder ? null : keys.map((key) => fieldIndex.get(key)!);
      if (keyFields !== null) {
        ordered = {};
        const order = keys.map((_, i) => i).sort((a, b) => keyFields[a]! - keyFields[b]!);
        // `__proto__` too: assigned, it would have set the prototype and stored the document as that value
        for (const i of order) setField(ordered, keys[i]!, doc[keys[i]!]);
        // the numbers it wrote as floats stay floats when it is encoded again
        withFloatsOf(doc, ordered);
      }
      let id = docid;
      if (id === undefined) {
        id = reused < free.length ? free[reused++]! : next++;
        env.externalIds.putSync(externalId, id);
      }
      const text = texts?.get(externalId);
      // a line's members laid again in field-id order cost less than encoding the object again
      const bytes = text === undefined ? null : keyFields === null ? text : inFieldOrder(text, keys, keyFields);
      documents.put(id, bytes ?? ordered);
      applied.push({ docid: id, before: previous, after: ordered, source: doc });
    }
    counted.forEach((delta, field) => {
      const name = fields[field]!;
      const value = (distribution[name] ?? 0) + delta;
      if (value === 0) delete distribution[name];
      else distribution[name] = value;
    });
    free = free.slice(reused);
    if (freed.length > 0) free = [...free, ...freed].sort((a, b) => a - b);
    env.main.putSync(FIELD_IDS, fields);
    env.main.putSync(INDEX_MAIN_KEYS.fieldDistribution, distribution);
    env.main.putSync(FREE_DOCIDS, free);
    env.main.putSync(INDEX_MAIN_KEYS.nextDocid, next);
    // the documents version changes, and what search caches must drop is recorded (a clear: everything)
    if (clearFirst) noteRebuild(env);
    else noteDocuments(env, docidsOf(applied));
    return applied;
  }
}

/**
 * The changes' docids. A loop rather than `map`: TurboFan's inlined `map` of a chunk's changes
 * deoptimised `apply` with "out of bounds" at every large chunk, and each time recompiled it.
 */
function docidsOf(changes: readonly DocumentChange[]): number[] {
  const docids: number[] = [];
  for (const change of changes) docids.push(change.docid);
  return docids;
}

/**
 * Stores every document of `env` that is not yet its JSON text (an index of storage format 3 or
 * older kept msgpack) as its JSON text; answers how many. Call inside a write transaction;
 * `checkpoint` throws to interrupt it.
 */
export function storeAsJson(env: IndexEnv, checkpoint: () => void): number {
  let stored = 0;
  // keys first: the puts below would otherwise move the cursor the range reads
  const docids = [...env.documents.getKeys({})];
  for (const [at, docid] of docids.entries()) {
    if (at % 10_000 === 0) checkpoint();
    const bytes = env.documents.getBinaryFast(docid)!;
    if (isDocumentText(bytes)) continue;
    // decoded from the bytes just read (before the next read reuses their buffer), not read again
    env.documents.putSync(docid, documentCodec.decode(bytes) as JsonObject);
    stored++;
  }
  return stored;
}
