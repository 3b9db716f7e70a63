/**
 * Reading documents (documents.md §2): the list of `GET/POST /indexes/{uid}/documents` (`fetch`)
 * and the single document of `GET /indexes/{uid}/documents/{id}`, read from the index's document
 * store, filtered and sorted through its facet data. A list another instance asks for (`proxy`)
 * gives each document its weighted score values (document-score-values.ts); reading the network
 * (`useNetwork`) is network-documents.ts.
 */
import { fromUnsorted, intersect, type DocSet } from '../engine/docset.js';
import { externalIdOf, invalidDocumentId, type JsonObject } from '../engine/document-id.js';
import { projectDocument } from '../engine/documents/project.js';
import { DocumentStore } from '../engine/documents/store.js';
import { vectorsView } from '../engine/documents/vectors.js';
import type { IndexReadEnv } from '../engine/index-read-env.js';
import { storedEmbeddingsOf, vectorFilter } from '../engine/vectors/index.js';
import { evaluateFilter } from '../engine/filter/evaluate.js';
import { assertSortable, parseSortCriterion, sortedPage } from '../engine/facets/sort.js';
import { FacetReader } from '../engine/facets/store.js';
import { readSettings } from '../engine/index-settings.js';
import { ApiError } from '../errors/api-error.js';
import type { IndexSettings } from '../types/settings.js';
import type { SearchContext } from './context.js';
import { checkedFilter } from './filter.js';
import { resolveForeignFilters } from './foreign.js';
import { queued } from './queued.js';
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
  ids?: readonly (string | number)[] | null;
  filter?: unknown;
  sort?: readonly string[] | null;
  /** whether the read goes to the network (network-documents.ts); the list itself ignores it */
  useNetwork?: boolean | null;
}

/** Ids are validated like document ids before anything else (documents.md §2.3). */
function validateIds(ids: readonly (string | number)[]): string[] {
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

/**
 * The list algorithm of documents.md §2.3: candidates (all or `ids`), ∩ filter, ordered by docid
 * or by `sort`, then the page. Checks run in Meilisearch's order: ids, sort syntax, the index,
 * filter syntax and gates, the filter's attributes, then the sortable ones.
 */
export function listDocuments(ctx: SearchContext, rawUid: string, query: DocumentsQuery, { proxy = false } = {}) {
  const ids = query.ids === undefined || query.ids === null ? undefined : validateIds(query.ids);
  const sort = query.sort === undefined || query.sort === null ? null : query.sort.map((text) => parseSortCriterion(text, SORT_CODE));
  const env = ctx.indexReader.open(rawUid);
  const store = new DocumentStore(env);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 20;
  const fields = query.fields ?? null;
  const sent = checkedFilter(ctx.features, query.filter, FILTER_CODE, { foreign: true });
  const settings = readSettings(env);
  const ast = sent === null ? null : resolveForeignFilters(ctx, rawUid, settings, [sent])[0]!;
  let results: { docid: number; doc: JsonObject }[];
  let total: number;
  if (ids === undefined && ast === null && sort === null) {
    total = store.count();
    results = limit <= 0 ? [] : Array.from(env.documents.getRange({ offset, limit }), ({ key, value }) => ({ docid: key, doc: value }));
  } else {
    const reader = new FacetReader(env);
    let candidates: DocSet =
      ids === undefined ? reader.allDocids() : fromUnsorted(ids.map((id) => store.docidOf(id)).filter((docid): docid is number => docid !== undefined));
    if (ast !== null) candidates = intersect(candidates, evaluateFilter(env, settings, ast, { code: FILTER_CODE, vectors: vectorFilter(env, settings), columns: true }));
    let page: ArrayLike<number> = candidates.subarray(offset, offset + limit);
    if (sort !== null) {
      assertSortable(sort, settings.sortableAttributes, SORT_CODE, ['*']);
      page = sortedPage(reader, sort, candidates, offset, limit);
    }
    total = candidates.length;
    results = Array.from(page, (docid) => ({ docid, doc: store.byDocid(docid)! }));
  }
  const shown = results.map(({ docid, doc }) => {
    const view = documentView(env, docid, doc, fields, query.retrieveVectors, settings);
    // for the instance merging the lists: how this document sorts, after every field
    if (proxy) view._federation = { weightedScoreValues: documentScoreValues(doc, sort) };
    return view;
  });
  return { results: shown, offset, limit, total };
}

/** `GET /indexes/{uid}/documents/{id}`: the document as the list shows it, `document_not_found` when there is none. */
export function getDocument(ctx: SearchContext, rawUid: string, id: string, fields: readonly string[] | null, retrieveVectors: boolean | undefined): JsonObject {
  const env = ctx.indexReader.open(rawUid);
  const found = new DocumentStore(env).lookup(id);
  if (found?.doc === undefined) throw new ApiError('document_not_found', `Document \`${id}\` not found.`);
  return documentView(env, found.docid, found.doc, fields, retrieveVectors, readSettings(env));
}

/**
 * A document as the document routes show it: `fields` projected; `_vectors` only with
 * `retrieveVectors`, then last and whatever `fields` says (documents.md §2.5).
 */
function documentView(env: IndexReadEnv, docid: number, doc: JsonObject, fields: readonly string[] | null, retrieveVectors: boolean | undefined, settings: IndexSettings): JsonObject {
  const shown = projectDocument(doc, fields);
  if (retrieveVectors === true) shown._vectors = vectorsView(doc._vectors, settings.embedders, storedEmbeddingsOf(env, settings, docid), 'retrieve');
  return shown;
}
