/**
 * A document batch applied to an index (documents.md §4, §5), run by the index writer thread:
 * its operations (additions from update files, deletions by id or by filter, clears, edited
 * documents) in task order, streamed in chunks, inside ONE write transaction.
 *
 * An addition is read once, each document checked as it is applied: the primary key (the index's,
 * the addition's, or inferred from its first document), the fields it adds to the index, its id
 * and its nesting (documents/depth.ts, checked as the payload is read), then the document it
 * makes (its `_vectors`, `_geo` and `_geojson`). A problem fails only its operation, which then
 * changes nothing: its changes are taken back from those held when no chunk was written since it
 * began and it settled nothing about the primary key (`Pending.mark`: the usual case, many
 * small tasks), and otherwise the write's transaction rolls back and the write runs again with
 * that operation failed (`PayloadRefused`; run again by its caller when the write was given parts
 * extracted ahead, which the first run took). Checking a whole payload before applying it parsed
 * a large one twice, or kept a small one's parsed documents until applied. The checks read only
 * the payload, the index's fields when the batch starts and what earlier operations settled, so
 * they decide what checking first would, as if the tasks ran one after the other.
 * A declared primary key (the index's, or the addition's) takes the next field id before the
 * batch's documents add theirs, so it leads every stored document and hit, as in v1.50 (an
 * inferred one keeps its place in the first document); each chunk's net changes then go to the
 * document store and every index updater. A later chunk sees what earlier ones wrote (the
 * transaction's own view), so updates merge and deletions count exactly as if the tasks ran one
 * after the other. An addition's distinct documents are counted as it is applied
 * (`DistinctIds`), in memory bounded by a chunk and the index's docids rather than by the payload.
 * A chunk ends at CHUNK_DOCS documents, or once its documents' payload lines reach the indexing
 * memory budget's share (`chunkBytes`: `--max-indexing-memory`, whose default of two thirds of
 * the RAM lets only very large documents end a chunk early; the writer is passed it no larger
 * than a thread's heap, WorkerPools' `chunkMemory`), so memory stays bounded by about a chunk
 * whatever the payload size.
 * A filter the index refuses fails only its deletion; anything else fails the whole write (the
 * batch's processor then finds the operation that fails it with rehearsals: writes rolled back);
 * the updaters' checks of `_geo` and `_geojson` stay for the documents an edition puts.
 *
 * With a sharded network (`sharding`, network.md §5) a document of a shard this instance does not
 * own is checked but dropped (neither stored nor counted as indexed), a deletion by id skips
 * the ids of such shards, and every document the batch creates is recorded in its shard
 * (shards/shard-docids.ts); without one nothing is recorded. Deleted documents always leave their
 * shard.
 */
import { ApiError, inIndex } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import type { PayloadSource } from '../../store/update-files.js';
import type { IndexSettings } from '../../types/settings.js';
import { documentId, inferPrimaryKey, payloadDocumentId, type JsonObject } from '../document-id.js';
import { readNdjson } from '../documents/ndjson-payload.js';
import { DocumentStore, fieldLimitExceeded, MAX_FIELDS, type StoredDocument } from '../documents/store.js';
import { withIndexedVectors } from '../documents/vectors-indexing.js';
import { checkIndexedGeo } from '../facets/updater.js';
import { evaluateFilter } from '../filter/evaluate.js';
import { vectorFilter } from '../vectors/index.js';
import { parseFilter } from '../filter-parser/index.js';
import type { IndexEnv } from '../index-env.js';
import { readSettings } from '../index-settings.js';
import { addSearchField, readSearchFields } from '../words/word-index.js';
import type { AheadParts } from '../words/ahead-parts.js';
import { INDEX_UPDATERS } from './registry.js';
import { StepReporter } from '../indexing-steps.js';
import { ShardRecorder, readShardDocids } from '../shards/shard-docids.js';
import type { Sharding } from '../shards/shard-of.js';
import { unionAll } from '../docset.js';
import { grownUint8 } from '../grown.js';
import type { DocumentChange } from '../updater.js';
import { withFloatsOf } from '../../types/wire-floats.js';
import { markWrittenFloats, parseWithFloats } from '../../types/written-floats.js';

/** Documents per chunk: the memory bound of a batch, and the grain of a cancelation. */
const CHUNK_DOCS = 20_000;

/**
 * Share of the indexing memory budget a chunk's payload lines may take: parsed, merged with the
 * stored versions and extracted, a chunk holds several times its payload bytes, up to some 40
 * times in V8's heap for a document of millions of short distinct facet values (a 90 MB one
 * peaked at 6.5 GB of RSS). With 16, two such documents shared a chunk of a 4 GB heap and
 * exhausted it.
 */
const CHUNK_SHARE = 64;

/** The smallest chunk bound in payload bytes, however small the budget: a few documents at least. */
const MIN_CHUNK_BYTES = 256 * 1024;

/** The payload bytes a chunk may hold under an indexing memory budget of `memory` bytes. */
export function chunkBytes(memory: number): number {
  return Math.max(MIN_CHUNK_BYTES, Math.floor(memory / CHUNK_SHARE));
}

export type DocumentOp =
  | {
      readonly op: 'add';
      readonly source: PayloadSource;
      readonly method: 'replace' | 'update';
      readonly primaryKey: string | null;
      readonly skipMissing: boolean;
      /** the index, for the errors v1.50 locates in it (the field limit passed by its fields together) */
      readonly indexUid?: string;
      /** the payload holds no document: v1.50 ignores its primary key's conflict with the index's */
      readonly empty?: boolean;
      /**
       * a dump's documents: v1.50 imports them with its previous indexer, which reads `_vectors`
       * only when the index has an embedder; without one any `_vectors` is stored as it is
       */
      readonly dumped?: boolean;
    }
  | { readonly op: 'delete'; readonly ids: readonly string[] }
  | { readonly op: 'deleteByFilter'; readonly filter: unknown; readonly indexUid: string }
  | { readonly op: 'clear' }
  /** every document recorded in a shard not in `owned` (a topology change's last step, shards/delete-unowned.ts) */
  | { readonly op: 'deleteUnowned'; readonly owned: readonly string[] }
  /**
   * documents already computed (an edition's outcome): the ids of those it deletes, and those it
   * replaces as an NDJSON payload of their JSON texts, read as written (`9.0` stays a float);
   * each keeps its id (`primaryKey` reads it), and its `_vectors` go as a replacement's
   */
  | { readonly op: 'put'; readonly deletions: readonly string[]; readonly replacements: PayloadSource; readonly primaryKey: string };

/** Per operation: how many documents it indexed or deleted, or the error that failed it. */
export type OpResult = { readonly count: number } | Failure;
type Failure = { readonly error: { readonly code: ErrorCode; readonly message: string } };

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
  'max_fields_limit_exceeded',
  // a document nested deeper than serde_json reads (documents/depth.ts)
  'malformed_payload',
];

const failure = (err: ApiError): Failure => ({ error: { code: err.code, message: err.message } });

type AddOp = Extract<DocumentOp, { op: 'add' }>;

/**
 * Thrown out of a write's transaction, so that it rolls back, when addition `additionRefused`'s
 * payload fails it. A write given parts extracted ahead throws it to its caller, which runs the
 * write again without that addition and with workers of its own (tasks/process/isolated-write.ts);
 * one without runs again at once. Plain fields: it crosses threads.
 */
export class PayloadRefused {
  constructor(
    readonly additionRefused: number,
    readonly error: Failure['error'],
  ) {}
}

/** Whether `err` is a PayloadRefused, or one that crossed a thread (a plain object then). */
export function isPayloadRefused(err: unknown): err is PayloadRefused {
  return typeof err === 'object' && err !== null && typeof (err as Partial<PayloadRefused>).additionRefused === 'number';
}

/** `err` as addition `index`'s refusal when it is a payload error; anything else is thrown as it is. */
function refusal(err: unknown, index: number): unknown {
  return err instanceof ApiError && PAYLOAD_ERRORS.includes(err.code) ? new PayloadRefused(index, failure(err).error) : err;
}

/**
 * `err` as addition `index`'s refusal when the document the addition makes is one the index
 * refuses (its `_vectors`, `_geo` or `_geojson`): named in its index, as the batch's processor
 * names a write's error.
 */
function documentRefusal(err: unknown, index: number, indexUid: string | undefined): unknown {
  if (!(err instanceof ApiError)) return err;
  return new PayloadRefused(index, failure(indexUid === undefined ? err : inIndex(indexUid, err)).error);
}

/** What an addition reads its documents against, and settles for the ones after it. */
interface AddState {
  /** the primary key settled or declared; null: the addition infers it from its first document */
  readonly key: string | null;
  /** every top-level field the index has, or that an addition of the batch added */
  readonly fields: Set<string>;
  /** the fields this addition added to `fields` */
  readonly added: string[];
  /** settles an inferred key, once the addition's first document gave it */
  inferred(key: string): void;
  /** whether a refusal may withdraw the addition in place: it settled nothing about the primary key */
  readonly withdrawable: boolean;
}

/** Refuses `doc` when its fields would give the index more than MAX_FIELDS; notes the new ones. */
function checkFields(doc: JsonObject, state: AddState, indexUid: string | undefined): void {
  const { fields } = state;
  for (const name of Object.keys(doc)) {
    if (fields.has(name)) continue;
    // checked here rather than left to the store, so that only this task fails
    if (fields.size === MAX_FIELDS) {
      // the index's fields together passing it, not the document's own: v1.50 names the index then
      throw Object.keys(doc).length > MAX_FIELDS || indexUid === undefined ? fieldLimitExceeded() : inIndex(indexUid, fieldLimitExceeded());
    }
    fields.add(name);
    state.added.push(name);
  }
}

/** Writes one chunk of net changes to the store and every updater; answers the store's changes. */
function flush(env: IndexEnv, settings: IndexSettings, changes: Map<string, JsonObject | null>, texts: ReadonlyMap<string, Buffer>, checkpoint: () => void, steps: StepReporter, shards: ShardRecorder, known?: ReadonlyMap<string, StoredDocument | null>, ahead?: AheadParts): readonly DocumentChange[] {
  if (changes.size === 0) return [];
  checkpoint();
  steps.enter('extracting documents');
  const applied = new DocumentStore(env).apply(changes, false, known, texts);
  shards.note(changes, applied);
  for (const updater of INDEX_UPDATERS) {
    steps.enter(updater.step);
    updater.apply(env, settings, applied, checkpoint, ahead);
  }
  ahead?.release();
  changes.clear();
  return applied;
}

function clearIndex(env: IndexEnv, settings: IndexSettings, checkpoint: () => void, steps: StepReporter, shards: ShardRecorder): number {
  const store = new DocumentStore(env);
  const removed = store.count();
  steps.enter('extracting documents');
  store.apply(new Map(), true);
  shards.cleared();
  for (const updater of INDEX_UPDATERS) {
    steps.enter(updater.step);
    updater.rebuild(env, settings, [], checkpoint);
  }
  return removed;
}

function deleteByFilter(env: IndexEnv, settings: IndexSettings, op: { filter: unknown; indexUid: string }, primaryKey: string | null, checkpoint: () => void, steps: StepReporter, shards: ShardRecorder): OpResult {
  const code = 'invalid_document_filter';
  let docids: Iterable<number>;
  try {
    const ast = parseFilter(op.filter, { code });
    if (ast === null) return { count: 0 };
    docids = evaluateFilter(env, settings, ast, { code, vectors: vectorFilter(env, settings) });
  } catch (err) {
    if (err instanceof ApiError) return failure(new ApiError(err.code, `Index \`${op.indexUid}\`: ${err.message}`));
    throw err;
  }
  return deleteDocids(env, settings, docids, primaryKey, checkpoint, steps, shards);
}

/** Deletes the documents `docids` (existing ones), through the store and every updater. */
function deleteDocids(env: IndexEnv, settings: IndexSettings, docids: Iterable<number>, primaryKey: string | null, checkpoint: () => void, steps: StepReporter, shards: ShardRecorder): OpResult {
  const changes = new Map<string, JsonObject | null>();
  for (const docid of docids) {
    // A matching document exists, so the primary key is settled (and never changes after).
    changes.set(documentId(env.documents.get(docid)!, primaryKey!), null);
  }
  const count = changes.size;
  flush(env, settings, changes, new Map(), checkpoint, steps, shards);
  return { count };
}

/** Deletes every document recorded in a shard not in `owned` (v1.50's `delete_removed_shards`). */
function deleteUnowned(env: IndexEnv, settings: IndexSettings, owned: readonly string[], primaryKey: string | null, checkpoint: () => void, steps: StepReporter, shards: ShardRecorder): OpResult {
  const unowned = [...readShardDocids(env)].filter(([name]) => !owned.includes(name)).map(([, docids]) => docids);
  return deleteDocids(env, settings, unionAll(unowned), primaryKey, checkpoint, steps, shards);
}

/**
 * An addition's distinct documents (its `indexedDocuments`: distinct external ids of the shards
 * this instance owns, a document `skipCreation` skips counted too), counted as application meets
 * them. An id is met again when the addition set it in the chunk held (`inChunk`), set it in an
 * earlier chunk (its docid marked in `written` when that chunk was written: the store's view then
 * answers it with that docid), or skipped it (`skipped`, only with `skipCreation`). Memory: a chunk's
 * ids and a bit per docid of the index, not a set of every id of the payload (2 million ids held
 * 86 MiB).
 */
class DistinctIds {
  count = 0;
  private readonly inChunk = new Set<string>();
  /** the documents the addition set in the chunk held, as the store will answer them (`source`) */
  private readonly docs = new Set<JsonObject>();
  private readonly skipped = new Set<string>();
  /** a bit per docid the addition wrote; empty until a chunk of it is written */
  private written = new Uint8Array(0);

  /** Whether `id` is met for the first time (counted then); `docid`: its stored document's, if any. */
  first(id: string, docid: number | undefined): boolean {
    if (this.inChunk.has(id) || this.skipped.has(id) || (docid !== undefined && this.wroteDocid(docid))) return false;
    this.count++;
    return true;
  }

  private wroteDocid(docid: number): boolean {
    return docid >>> 3 < this.written.length && (this.written[docid >>> 3]! & (1 << (docid & 7))) !== 0;
  }

  /** The addition sets `id` to `doc` in the chunk held. */
  set(id: string, doc: JsonObject): void {
    this.inChunk.add(id);
    this.docs.add(doc);
  }

  /** The addition skips `id`, which no document has (`skipCreation`). */
  skip(id: string): void {
    this.skipped.add(id);
  }

  /** The chunk held was written: `applied`, the store's changes. */
  wrote(applied: readonly DocumentChange[]): void {
    for (const { docid, source } of applied) {
      if (source === undefined || !this.docs.has(source)) continue;
      if (docid >>> 3 >= this.written.length) this.written = grownUint8(this.written, Math.max(2 * this.written.length, (docid >>> 3) + 1));
      this.written[docid >>> 3]! |= 1 << (docid & 7);
    }
    this.inChunk.clear();
    this.docs.clear();
  }
}

/** The changes an addition replaced, while it may be withdrawn: per id, the change held before it (null: none). */
interface Journal {
  readonly heldBytes: number;
  readonly before: Map<string, { readonly doc: JsonObject | null; readonly text: Buffer | undefined } | null>;
}

/**
 * Application's pending net changes: consecutive additions, deletions by id and edited documents
 * accumulate here and reach the store and the updaters a chunk at a time, so a batch of many
 * small tasks costs about what one task with all their documents would.
 */
class Pending {
  private readonly changes = new Map<string, JsonObject | null>();
  /** the JSON text of the changes that are a payload line's document as it was sent */
  private readonly texts = new Map<string, Buffer>();
  /** documents looked up in the store since the last flush, handed to it so it reads them once */
  private readonly stored = new Map<string, StoredDocument | null>();
  private readonly store: DocumentStore;
  /** payload bytes of the changes held */
  private heldBytes = 0;
  /** while an addition may be withdrawn (no chunk written since it began): what its changes replaced (see `mark`) */
  private journal: Journal | null = null;
  /** the distinct documents of the addition being applied */
  distinct: DistinctIds | null = null;

  constructor(
    private readonly env: IndexEnv,
    private readonly settings: IndexSettings,
    private readonly checkpoint: () => void,
    private readonly steps: StepReporter,
    readonly ahead: AheadParts | undefined,
    readonly shards: ShardRecorder,
    private readonly chunkBytes: number,
  ) {
    this.store = new DocumentStore(env);
  }

  /** The document as the batch sees it so far. */
  current(id: string): JsonObject | undefined {
    if (this.changes.has(id)) return this.changes.get(id) ?? undefined;
    let stored = this.stored.get(id);
    if (stored === undefined) this.stored.set(id, (stored = this.store.lookup(id)));
    return stored?.doc;
  }

  /** The docid of `id`'s stored document, once `current(id)` read it from the store (a change held keeps it). */
  storedDocid(id: string): number | undefined {
    return this.stored.get(id)?.docid;
  }

  /**
   * Holds a change; `line`: its payload line, when it comes from a payload; `text`: that line
   * again when `doc` is exactly its document (the store can then keep the line's bytes).
   */
  set(id: string, doc: JsonObject | null, line?: Buffer, text?: Buffer): void {
    if (this.journal !== null && !this.journal.before.has(id)) {
      this.journal.before.set(id, this.changes.has(id) ? { doc: this.changes.get(id)!, text: this.texts.get(id) } : null);
    }
    this.changes.set(id, doc);
    if (text === undefined) this.texts.delete(id);
    else this.texts.set(id, text);
    this.heldBytes += line?.length ?? 0;
    if (this.changes.size >= CHUNK_DOCS || this.heldBytes >= this.chunkBytes) this.flush();
  }

  /**
   * Starts journaling the changes of an addition, so that `withdraw` can take them back while
   * no chunk is written: a refused addition then fails alone without the write's transaction
   * rolling back and running again (many small refused tasks in a batch ran it once each).
   */
  mark(): void {
    this.journal = { heldBytes: this.heldBytes, before: new Map() };
  }

  /** Takes back the changes since `mark`; false when a chunk was written since (they are in the store). */
  withdraw(): boolean {
    const journal = this.journal;
    this.journal = null;
    if (journal === null) return false;
    for (const [id, before] of journal.before) {
      if (before === null) {
        this.changes.delete(id);
        this.texts.delete(id);
        continue;
      }
      this.changes.set(id, before.doc);
      if (before.text === undefined) this.texts.delete(id);
      else this.texts.set(id, before.text);
    }
    this.heldBytes = journal.heldBytes;
    return true;
  }

  /** Ends the journal of `mark`: the addition is applied. */
  unmark(): void {
    this.journal = null;
  }

  flush(): void {
    // what a journal holds is in the store now: the addition can no longer be withdrawn
    this.journal = null;
    const applied = flush(this.env, this.settings, this.changes, this.texts, this.checkpoint, this.steps, this.shards, this.stored, this.ahead);
    this.distinct?.wrote(applied);
    this.stored.clear();
    this.texts.clear();
    this.heldBytes = 0;
  }
}

/**
 * Applies addition number `index` of the batch, checking each document as it reads it: its
 * payload, then the document it makes (`_vectors`, `_geo`, `_geojson`). Answers its distinct
 * documents, or the error of the first document refused: the addition is then withdrawn from the
 * changes held when it can be (`Pending.mark`), and otherwise the write rolls back (PayloadRefused).
 */
function add(pending: Pending, op: AddOp, index: number, state: AddState, settings: IndexSettings, checkpoint: () => void, steps: StepReporter): OpResult {
  const distinct = (pending.distinct = new DistinctIds());
  const lines = readNdjson(op.source);
  let key = state.key;
  let line = 0;
  // parts extracted ahead are noted per document: an addition they know of is not withdrawn
  if (state.withdrawable && pending.ahead === undefined) pending.mark();
  try {
    for (;;) {
      let doc: JsonObject;
      let text: Buffer;
      let id: string;
      steps.enter('preparing payloads');
      try {
        const next = lines.next();
        if (next.done === true) break;
        ({ doc, text } = next.value);
        if (key === null) state.inferred((key = inferPrimaryKey(doc)));
        checkFields(doc, state, op.indexUid);
        id = payloadDocumentId(doc, text, key);
      } catch (err) {
        throw refusal(err, index);
      }
      const at = line++;
      if (at % CHUNK_DOCS === 0) checkpoint();
      if (!pending.shards.keeps(id)) continue;
      const base = pending.current(id);
      const first = distinct.first(id, pending.storedDocid(id));
      if (op.skipMissing && base === undefined) {
        if (first) distinct.skip(id);
        continue;
      }
      const merges = op.method === 'update' && base !== undefined;
      // a document written again (not its line as sent) keeps the numbers it wrote as floats
      if (merges || Object.hasOwn(doc, '_vectors')) markWrittenFloats(text.toString('utf8'), doc);
      let next: JsonObject;
      try {
        const vectorsUnread = op.dumped === true && Object.keys(settings.embedders).length === 0;
        next = vectorsUnread ? doc : withIndexedVectors(merges ? withFloatsOf(doc, withFloatsOf(base, { ...base, ...doc }, doc)) : doc, doc, base, op.method, id, settings.embedders);
        checkIndexedGeo(next, id, settings);
      } catch (err) {
        throw documentRefusal(err, index, op.indexUid);
      }
      if (next === doc) pending.ahead?.note(doc, index, at);
      // noted before `set`, which may write the chunk
      distinct.set(id, next);
      pending.set(id, next, text, next === doc ? text : undefined);
    }
  } catch (err) {
    if (!(err instanceof PayloadRefused) || !pending.withdraw()) throw err;
    for (const name of state.added) state.fields.delete(name);
    pending.distinct = null;
    return { error: err.error };
  } finally {
    // closes the payload's file when a document is refused
    lines.return(undefined);
  }
  pending.unmark();
  pending.distinct = null;
  return { count: distinct.count };
}

function deleteIds(pending: Pending, ids: Iterable<string>): number {
  let deleted = 0;
  for (const id of new Set(ids)) {
    if (!pending.shards.owns(id) || pending.current(id) === undefined) continue;
    pending.set(id, null);
    deleted++;
  }
  return deleted;
}

/** Thrown out of a rehearsal's transaction, so that it rolls back, with what the write answered. */
class Rehearsed {
  constructor(readonly results: OpResult[]) {}
}

/**
 * Gives a declared primary key the next field id, and the next search field id when it is
 * searchable, unless it has them: v1.50 puts a declared key in its fields map before any document
 * (the indexer, and the settings that set it on an index without documents).
 */
export function numberPrimaryKey(env: IndexEnv, settings: IndexSettings, key: string): boolean {
  if (!new DocumentStore(env).addField(key)) return false;
  addSearchField(env, settings, key);
  return true;
}

/**
 * Applies `ops` in one transaction; a `rehearsal` rolls it back and answers what it would have.
 * `finish` adds its writes to a committed transaction. `sharding`: the network's, when sharded.
 * `indexingMemory`: the budget in bytes chunks are sized by (`chunkBytes`); none: chunks of
 * CHUNK_DOCS documents.
 */
export function applyDocumentBatch(
  env: IndexEnv,
  ops: readonly DocumentOp[],
  primaryKey: string | null,
  checkpoint: () => void,
  steps = new StepReporter(),
  ahead?: AheadParts,
  rehearsal = false,
  finish?: () => void,
  sharding: Sharding | null = null,
  indexingMemory?: number,
): DocumentBatchOutcome {
  const bound = indexingMemory === undefined ? Number.POSITIVE_INFINITY : chunkBytes(indexingMemory);
  // additions whose payload failed a run, failed in the runs after it
  const refused = new Map<number, Failure>();
  let settled = primaryKey;
  // the batch inferred the key: its first document's fields took their ids in their own order
  let inferred = false;
  const apply = () => {
    settled = primaryKey;
    inferred = false;
    const settings = readSettings(env);
    // a declared key leads the documents (see above): numbered first among the searchable fields
    // before the extraction workers number theirs, so that their numbering still lines up
    // (the first addition a run can still apply: a refused one numbers nothing)
    const declared = primaryKey ?? ops.find((op, index): op is AddOp => op.op === 'add' && !refused.has(index))?.primaryKey ?? null;
    if (declared !== null) addSearchField(env, settings, declared);
    ahead?.start(settings, readSearchFields(env));
    const shards = new ShardRecorder(env, sharding);
    const pending = new Pending(env, settings, checkpoint, steps, ahead, shards, bound);
    const fields = new Set(new DocumentStore(env).fieldIds());
    const results = ops.map((op, index): OpResult => {
      if (op.op === 'add') {
        const failed = refused.get(index);
        if (failed !== undefined) return failed;
        if (op.primaryKey !== null && settled !== null && op.primaryKey !== settled) {
          // v1.50's `fetch_primary_and_ignore_payloads` drops the error of an empty payload
          if (op.empty === true) return { count: 0 };
          return failure(new ApiError('index_primary_key_already_exists', `Index already has a primary key: \`${settled}\`.`));
        }
        const key = settled ?? op.primaryKey;
        // an addition that settles the key, or numbers it, changed the index: only a rollback takes it back
        let withdrawable = settled !== null;
        // Only a payload with documents (or a declared key) settles the index's primary key.
        if (key !== null) {
          // numbered before this addition's documents reach the store: an earlier addition of the
          // batch with documents would have settled the key already, and numbered it or inferred it
          if (!inferred && numberPrimaryKey(env, settings, key)) withdrawable = false;
          settled = key;
        }
        const state: AddState = {
          key,
          fields,
          added: [],
          inferred: (found) => {
            inferred = true;
            settled = found;
          },
          withdrawable,
        };
        return add(pending, op, index, state, settings, checkpoint, steps);
      }
      if (op.op === 'delete') return { count: deleteIds(pending, op.ids) };
      if (op.op === 'put') {
        for (const id of op.deletions) pending.set(id, null);
        let count = op.deletions.length;
        for (const { doc, text } of readNdjson(op.replacements, parseWithFloats)) {
          const id = documentId(doc, op.primaryKey);
          // an edited document replaces the stored one, its `_vectors` too (v1.50's edition is a
          // replacing update, whose vectors its extractor reads as an addition's)
          const next = withIndexedVectors(doc, doc, pending.current(id), 'replace', id, settings.embedders);
          pending.set(id, next, text, next === doc ? text : undefined);
          count++;
        }
        return { count };
      }
      // A filter or a clear works on the store (and the shards' record): what came before must be there.
      pending.flush();
      shards.save();
      if (op.op === 'clear') return { count: clearIndex(env, settings, checkpoint, steps, shards) };
      if (op.op === 'deleteUnowned') return deleteUnowned(env, settings, op.owned, settled, checkpoint, steps, shards);
      return deleteByFilter(env, settings, op, settled, checkpoint, steps, shards);
    });
    pending.flush();
    shards.save();
    if (rehearsal) throw new Rehearsed(results);
    finish?.();
    // the commit, when the callback returns
    steps.enter('finalizing');
    return results;
  };
  for (;;) {
    try {
      return { results: env.root.transactionSync(apply), primaryKey: settled };
    } catch (err) {
      if (err instanceof Rehearsed) return { results: err.results, primaryKey: settled };
      // the run rolled back took the parts extracted ahead: its caller runs it again with new ones
      if (!(err instanceof PayloadRefused) || ahead !== undefined) throw err;
      refused.set(err.additionRefused, { error: err.error });
    }
  }
}
