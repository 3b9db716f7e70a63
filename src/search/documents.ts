/**
 * Reading documents (documents.md §2): the list of `GET/POST /indexes/{uid}/documents` (`fetch`)
 * and the single document of `GET /indexes/{uid}/documents/{id}`, read from the index's document
 * store, filtered and sorted through its facet data. A list another instance asks for (`proxy`)
 * gives each document its weighted score values (document-score-values.ts); reading the network
 * (`useNetwork`) is network-documents.ts.
 */
import { fromUnsorted, intersect, type DocSet } from '../engine/docset.js';
import { externalIdOf, invalidDocumentId, type JsonObject } from '../engine/document-id.js';
import { namedFields, projectDocument, projectValue, withVectorsRemoved } from '../engine/documents/project.js';
import { DocumentStore } from '../engine/documents/store.js';
import { pinReads } from '../engine/pinned-reads.js';
import { vectorsView } from '../engine/documents/vectors.js';
import type { IndexReadEnv } from '../engine/index-read-env.js';
import { storedEmbeddingsOf, vectorFilter } from '../engine/vectors/index.js';
import { evaluateFilter } from '../engine/filter/evaluate.js';
import { assertSortable, parseSortCriterion, sortedPage } from '../engine/facets/sort.js';
import { FacetReader } from '../engine/facets/store.js';
import { readSettings } from '../engine/index-settings.js';
import { ApiError } from '../errors/api-error.js';
import type { IndexSettings } from '../types/settings.js';
import { stringifyReply } from '../types/reply-text.js';
import { StreamedJson } from '../types/streamed-json.js';
import type { SearchContext } from './context.js';
import { checkedFilter } from './filter.js';
import { resolveForeignFilters } from './foreign.js';
import { queued } from './queued.js';
import { TimeSlices } from '../types/time-slices.js';
import { streamedWhenLong } from './streamed-answer.js';
import { documentScoreValues } from './document-score-values.js';

const SORT_CODE = 'invalid_document_sort';
const FILTER_CODE = 'invalid_document_filter';

/** A document list request, GET parameters and `fetch` body alike. */
export interface DocumentsQuery {
  offset?: number;
  limit?: number;
  /** null: every field */
  fields?: string[] | null;
  retrieveVectors?: boolean;
  /** any JSON values: each must be a document id (a float written with an integer value comes as a WrittenNumber) */
  ids?: readonly unknown[] | null;
  filter?: unknown;
  sort?: readonly string[] | null;
  /** whether the read goes to the network (network-documents.ts); the list itself ignores it */
  useNetwork?: boolean | null;
}

/** Ids are validated like document ids before anything else (documents.md §2.3). */
function validateIds(ids: readonly unknown[]): string[] {
  return ids.map((value, i) => {
    const id = externalIdOf(value);
    if (id === null) throw new ApiError('invalid_document_ids', `In \`.ids[${i}]\`: ${invalidDocumentId(value).message}`);
    return id;
  });
}

/**
 * `GET /indexes/{uid}/documents` and `POST …/documents/fetch` run `read` under a search-queue
 * permit, as v1.50's document fetch, unless the `disableDocumentsFetchQueue` feature is on.
 */
export function withFetchPermit<T>(ctx: SearchContext, read: () => T | Promise<T>): Promise<T> {
  if (ctx.features.enabled('disableDocumentsFetchQueue')) return Promise.resolve(read());
  return queued(ctx, undefined, async () => read());
}

/** A page of documents (objects, or their JSON texts) with the list's window and length. */
type Listed<T> = { results: T[]; offset: number; limit: number; total: number };

/** A document list as the routes answer it. */
export type DocumentsList = Listed<JsonObject>;

/** Lists of more documents than this are answered as a StreamedJson (types/streamed-json.ts). */
export const STREAMED_FROM = 1_000;

/** Characters of documents' JSON per piece of a streamed list. */
const PIECE_CHARS = 64 * 1024;

/**
 * `GET /indexes/{uid}/documents` and `POST …/documents/fetch` on this instance: the list, as an
 * object, or, past STREAMED_FROM documents or holding long strings (streamed-answer.ts), as a
 * StreamedJson, which the thread answering requests writes piece by piece instead of holding it
 * for the whole text.
 */
export async function answerDocuments(ctx: SearchContext, rawUid: string, query: DocumentsQuery, { proxy = false } = {}): Promise<DocumentsList | StreamedJson> {
  const read = await readDocuments(ctx, rawUid, query, proxy, STREAMED_FROM);
  if (!read.texts) return streamedWhenLong(read.list, read.list.results.length);
  const { results: texts, offset, limit, total } = read.list;
  return new StreamedJson(listPieces(texts, `],"offset":${offset},"limit":${limit},"total":${total}}`));
}

/** The list as an object, however long (the network merges the lists of its copies). */
export async function listDocuments(ctx: SearchContext, rawUid: string, query: DocumentsQuery, { proxy = false } = {}): Promise<DocumentsList> {
  return ((await readDocuments(ctx, rawUid, query, proxy, Number.POSITIVE_INFINITY)) as { list: DocumentsList }).list;
}

/** `{"results":[`, the documents' texts joined by commas in pieces of about PIECE_CHARS, then `tail`. */
async function* listPieces(texts: readonly string[], tail: string): AsyncGenerator<string> {
  let piece = '{"results":[';
  for (let i = 0; i < texts.length; i++) {
    piece += i === 0 ? texts[i]! : `,${texts[i]!}`;
    if (piece.length < PIECE_CHARS) continue;
    yield piece;
    piece = '';
  }
  yield piece + tail;
}

/**
 * The list algorithm of documents.md §2.3: candidates (all or `ids`), ∩ filter, ordered by docid
 * or by `sort`, then the page; its documents as objects, or, for a page of more than `asTexts`
 * documents, as their JSON texts. Checks run in Meilisearch's order: ids, sort syntax, the
 * index, filter syntax and gates, the filter's attributes, then the sortable ones.
 * Resolving many ids and viewing many documents give other requests turns (time-slices.ts):
 * those reads stay on the snapshot the list started from (pinned-reads.ts), and so do the
 * filter and sort of a list by ids, which may have spanned turns.
 */
async function readDocuments(ctx: SearchContext, rawUid: string, query: DocumentsQuery, proxy: boolean, asTexts: number): Promise<{ texts: false; list: DocumentsList } | { texts: true; list: Listed<string> }> {
  const ids = query.ids === undefined || query.ids === null ? undefined : validateIds(query.ids);
  const sort = query.sort === undefined || query.sort === null ? null : query.sort.map((text) => parseSortCriterion(text, SORT_CODE));
  const lease = ctx.indexReader.lease(rawUid);
  const pinned = pinReads(lease.env);
  try {
    const slices = new TimeSlices();
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 20;
    let docids: DocSet | undefined;
    if (ids !== undefined) {
      const store = new DocumentStore(pinned.env);
      const found: number[] = [];
      for (let i = 0; i < ids.length; i++) {
        const docid = store.docidOf(ids[i]!);
        if (docid !== undefined) found.push(docid);
        if ((i & 1023) === 1023) await slices.pause();
      }
      docids = fromUnsorted(found);
    }
    const env = ids === undefined ? lease.env : pinned.env;
    const sent = checkedFilter(ctx.features, query.filter, FILTER_CODE, { foreign: true });
    const settings = readSettings(env);
    const ast = sent === null ? null : resolveForeignFilters(ctx, rawUid, settings, [sent])[0]!;
    let page: ArrayLike<number>;
    let total: number;
    if (docids === undefined && ast === null && sort === null) {
      total = new DocumentStore(env).count();
      page = limit <= 0 ? [] : Array.from(env.documents.getKeys({ offset, limit }));
    } else {
      const reader = new FacetReader(env);
      let candidates = docids ?? reader.allDocids();
      if (ast !== null) candidates = intersect(candidates, evaluateFilter(env, settings, ast, { code: FILTER_CODE, vectors: vectorFilter(env, settings), columns: true }));
      page = candidates.subarray(offset, offset + limit);
      if (sort !== null) {
        assertSortable(sort, settings.sortableAttributes, SORT_CODE, ['*'], reader.fieldId('_geo.lat') !== undefined);
        page = sortedPage(reader, sort, candidates, offset, limit);
      }
      total = candidates.length;
    }
    const fields = query.fields === null || query.fields === undefined ? null : namedFields(query.fields);
    const store = new DocumentStore(pinned.env);
    const texts = page.length > asTexts;
    const results: (JsonObject | string)[] = [];
    for (let i = 0; i < page.length; i++) {
      const docid = page[i]!;
      const doc = store.byDocid(docid)!;
      const view = documentView(pinned.env, docid, doc, fields, query.retrieveVectors, settings);
      // for the instance merging the lists: how this document sorts, after every field
      if (proxy) view._federation = { weightedScoreValues: documentScoreValues(doc, sort) };
      results.push(texts ? stringifyReply(view) : view);
      if ((i & 63) === 63) await slices.pause();
    }
    return texts ? { texts, list: { results: results as string[], offset, limit, total } } : { texts, list: { results: results as JsonObject[], offset, limit, total } };
  } finally {
    pinned.release();
    lease.release();
  }
}

/** `GET /indexes/{uid}/documents/{id}`: the document as the list shows it, `document_not_found` when there is none. */
export function getDocument(ctx: SearchContext, rawUid: string, id: string, fields: readonly string[] | null, retrieveVectors: boolean | undefined): JsonObject {
  const env = ctx.indexReader.open(rawUid);
  const found = new DocumentStore(env).lookup(id);
  if (found?.doc === undefined) throw new ApiError('document_not_found', `Document \`${id}\` not found.`);
  return documentView(env, found.docid, found.doc, fields === null ? null : namedFields(fields), retrieveVectors, readSettings(env));
}

/**
 * A document as the document routes show it: `fields` projected; `_vectors` only with
 * `retrieveVectors`, then last and whatever `fields` says (documents.md §2.5).
 */
function documentView(env: IndexReadEnv, docid: number, doc: JsonObject, fields: readonly string[] | null, retrieveVectors: boolean | undefined, settings: IndexSettings): JsonObject {
  const projected = projectDocument(doc, fields);
  // v1.50 reads `_vectors` with the fields asked for, then takes it out: the stored vectors of
  // embedders not configured show only when the fields reach them
  const selectsVectors = fields === null || fields.some((field) => field === '_vectors' || field.startsWith('_vectors.'));
  const shown = selectsVectors ? withVectorsRemoved(doc, projected) : projected;
  if (retrieveVectors === true) {
    const stored = !selectsVectors || doc._vectors === undefined ? undefined : fields === null ? doc._vectors : projectValue(doc._vectors, '_vectors', fields);
    shown._vectors = vectorsView(stored, settings.embedders, storedEmbeddingsOf(env, settings, docid), 'retrieve');
  }
  return shown;
}
