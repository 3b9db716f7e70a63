/**
 * `documentEdition` batches (documents.md §6): the task's Rhai function runs on every document
 * matching its filter (all documents without one), in a worker thread (rhai/runner.ts).
 * `doc = ()` deletes the document, an unchanged document is not written, a changed one replaces
 * the stored one (same primary key, nested no deeper than a payload's document may be:
 * engine/documents/depth.ts). The first error fails the task and nothing is written;
 * otherwise the net changes are committed like any document batch (a `documents` index write,
 * batch-write.ts), the replaced documents read from a payload that goes to a file once large
 * (edited-payload.ts).
 *
 * A documentEdition task is always alone in its batch (autobatcher). Its write records the task's
 * outcome in the index (engine/applied-batch.ts): run again after a crash that kept the write but
 * lost the task's commit, it finishes with that outcome instead of editing the documents twice.
 */
import { ApiError, inIndex } from '../../errors/api-error.js';
import { appliedOutcome } from '../../engine/applied-batch.js';
import { documentId, payloadDocumentId, type JsonObject } from '../../engine/document-id.js';
import { MAX_DOCUMENT_DEPTH, nestsTooDeep } from '../../engine/documents/depth.js';
import { longPathAt, MAX_FIELD_PATH_BYTES } from '../../types/json-paths.js';
import { evaluateFilter } from '../../engine/filter/evaluate.js';
import { vectorFilter } from '../../engine/vectors/index.js';
import { parseFilter } from '../../engine/filter-parser/index.js';
import type { IndexEnv } from '../../engine/index-env.js';
import { readSettings } from '../../engine/index-settings.js';
import { EditionError, EditionRunner } from '../../rhai/runner.js';
import type { Task } from '../../types/task.js';
import type { BatchProcessor, ProcessContext } from './context.js';
import { failed, succeeded } from './outcome.js';
import { writeKnownOutcome } from './batch-write.js';
import { EditedPayload } from './edited-payload.js';
import { isFloatMember } from '../../types/wire-floats.js';

/** Documents sent to the worker at a time: bounds memory, lets a cancelation stop the run between batches. */
const CHUNK = 500;

/** Failures of the edition itself carry Meilisearch's index prefix, as every index error of a batch. */
const editionError = (indexUid: string, message: string) => new ApiError('edit_documents_by_function_error', `Index \`${indexUid}\`: ${message}`);

/** Docids of the documents the function runs on, in docid order. */
function candidates(env: IndexEnv, indexUid: string, filter: unknown): number[] {
  try {
    const ast = parseFilter(filter ?? null, { code: 'invalid_document_filter' });
    if (ast === null) return [...env.documents.getKeys()];
    const settings = readSettings(env);
    return [...evaluateFilter(env, settings, ast, { code: 'invalid_document_filter', vectors: vectorFilter(env, settings) })];
  } catch (error) {
    throw error instanceof ApiError ? inIndex(indexUid, error) : error;
  }
}

/**
 * JSON equality of two documents, key order aside (serde_json's `Map` equality), an integer and
 * a float of the same value apart (serde_json's `7 != 7.0`): integral numbers written as floats
 * carry a mark (types/written-floats.ts) on both sides.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((_, i) => sameMember(a, b, i));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameMember(a, b, k));
}

/** Whether member `key` of holders `a` and `b` is the same JSON value. */
function sameMember(a: object, b: object, key: string | number): boolean {
  const x = (a as Record<string | number, unknown>)[key];
  const y = (b as Record<string | number, unknown>)[key];
  if (typeof x === 'number' && Number.isInteger(x) && isFloatMember(a, key) !== isFloatMember(b, key)) return false;
  return sameJson(x, y);
}

/** An edition's net changes: the external ids of the documents it deletes, and the documents it replaces. */
interface Edits {
  readonly deletions: string[];
  readonly replacements: EditedPayload;
}

/**
 * Runs the function on the candidates and adds the net changes to `edits` (a replaced document
 * as its JSON text, its floats written as floats), or throws the task's error.
 */
async function edit(ctx: ProcessContext, env: IndexEnv, task: Task, docids: number[], primaryKey: string, edits: Edits): Promise<void> {
  const kind = task.kind;
  if (kind.name !== 'documentEdition') throw new Error('not a document edition');
  const uid = kind.indexUid;
  const runner = new EditionRunner(ctx.workers.editionPool(), kind.function, kind.context, ctx.signal);
  const fail = (error: unknown, doing: string): never => {
    if (error instanceof EditionError) throw editionError(uid, `Document edition runtime error encountered while ${doing} the function: ${error.message}`);
    throw error;
  };
  await runner.check().catch((error: unknown) => fail(error, 'compiling'));
  // One chunk per pool thread at a time: all threads work, and memory stays bounded.
  const step = CHUNK * ctx.workers.threads;
  for (let start = 0; start < docids.length; start += step) {
    if (ctx.signal.aborted) throw new Error('batch aborted');
    const chunks: JsonObject[][] = [];
    for (let at = start; at < Math.min(start + step, docids.length); at += CHUNK) {
      chunks.push(docids.slice(at, Math.min(at + CHUNK, start + step)).map((docid) => env.documents.get(docid)!));
    }
    const results = await runner.edit(chunks).catch((error: unknown) => fail(error, 'running'));
    results.forEach((outcomes, c) =>
      outcomes.forEach((outcome, i) => {
        const before = chunks[c]![i]!;
        const id = documentId(before, primaryKey);
        if (outcome.kind === 'delete') {
          edits.deletions.push(id);
        } else if (outcome.kind === 'notAnObject') {
          throw editionError(uid, 'Document editions must keep documents as objects');
        } else if (nestsTooDeep(outcome.document)) {
          throw editionError(uid, `Document editions cannot nest a document deeper than ${MAX_DOCUMENT_DEPTH} levels`);
        } else if (outcome.text.length > MAX_FIELD_PATH_BYTES && longPathAt(Buffer.from(outcome.text)) !== -1) {
          throw editionError(uid, `Document editions cannot give a field a path longer than ${MAX_FIELD_PATH_BYTES} bytes`);
        } else if (!sameJson(before, outcome.document)) {
          let newId: string;
          try {
            // read from the text the edition wrote: an id the function made a FLOAT (`doc.id = 1.0`)
            // is written `1.0`, which v1.50's id reader refuses
            newId = payloadDocumentId(outcome.document, Buffer.from(outcome.text), primaryKey);
          } catch (error) {
            throw error instanceof ApiError ? inIndex(uid, error) : error;
          }
          if (newId !== id) throw editionError(uid, "Document editions cannot modify a document's primary key");
          edits.replacements.add(outcome.text);
        }
      }),
    );
  }
}

export const processDocumentEdition: BatchProcessor = async (ctx, tasks) => {
  const task = tasks[0]!;
  const { kind, details } = task;
  if (kind.name !== 'documentEdition' || details?.kind !== 'documentEdition') {
    throw new ApiError('internal', `Quarry cannot process a \`${kind.name}\` task as a document edition.`);
  }
  const record = ctx.indexes.get(kind.indexUid);
  if (record === undefined) return { tasks: [failed(task, new ApiError('index_not_found', `Index \`${kind.indexUid}\` not found.`))] };
  // A crash between this task's index commit and its task commit: the edit landed, it only finishes.
  const applied = appliedOutcome(ctx.indexEnvs.get(record.uuid), task.uid);
  if (applied !== undefined) {
    // the index recorded the counts, not the context (batch-write.ts)
    const recorded = applied.details?.kind === 'documentEdition' ? { ...applied.details, context: details.context } : applied.details;
    return { tasks: [succeeded(task, recorded)], indexWritten: record.uuid, commit: () => ctx.indexes.put({ ...record, updatedAt: ctx.now }) };
  }
  // kept open while the edition pool runs the function
  const { env, release } = ctx.indexEnvs.acquire(record.uuid);

  const edits: Edits = { deletions: [], replacements: new EditedPayload(ctx.updateFiles.dir) };
  try {
    let docids: number[];
    try {
      docids = candidates(env, kind.indexUid, kind.filter);
      // A primary key is always set once the index holds documents.
      if (docids.length > 0 && record.primaryKey !== null) await edit(ctx, env, task, docids, record.primaryKey, edits);
    } catch (error) {
      if (!(error instanceof ApiError) || ctx.signal.aborted) throw error;
      return { tasks: [failed(task, error)] };
    } finally {
      release();
    }
    // v1.50 reports every matched document as both edited and deleted.
    const done = succeeded(task, { ...details, editedDocuments: docids.length, deletedDocuments: docids.length });
    if (edits.deletions.length === 0 && edits.replacements.count === 0) return { tasks: [done] };
    // the edit ran, so the index has its primary key
    const put = { op: 'put', deletions: edits.deletions, replacements: edits.replacements.source(), primaryKey: record.primaryKey! } as const;
    const write = { kind: 'documents', ops: [put], primaryKey: record.primaryKey } as const;
    return await writeKnownOutcome(ctx, kind.indexUid, tasks, env.uuid, write, { tasks: [done], commit: () => ctx.indexes.put({ ...record, updatedAt: ctx.now }) });
  } finally {
    edits.replacements.discard();
  }
};
