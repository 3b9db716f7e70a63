/**
 * `/indexes/{uid}/documents` routes (documents.md): additions stream their payload into an
 * update file before the task is enqueued; reads go to the index's document store, filtered and
 * sorted through its facet data; deletions (by id, by filter, all) enqueue tasks.
 */
import { ApiError } from '../../errors/api-error.js';
import { fromUnsorted, intersect, type DocSet } from '../../engine/docset.js';
import { DocumentStore } from '../../engine/documents/store.js';
import { externalIdOf, invalidDocumentId, type JsonObject } from '../../engine/documents/document-id.js';
import { projectDocument } from '../../engine/documents/project.js';
import { vectorsView } from '../../engine/documents/vectors.js';
import { assertSortable, parseSortCriterion, sortedPage, type SortCriterion } from '../../engine/facets/sort.js';
import { FacetReader } from '../../engine/facets/store.js';
import { evaluateFilter } from '../../engine/filter/evaluate.js';
import { parseFilter, type FilterAst } from '../../engine/filter-parser/index.js';
import { assertFilterFeatures, rejectForeignFilter } from '../../engine/filter/gates.js';
import type { IndexEnv } from '../../engine/index-env.js';
import { readSettings } from '../../engine/index-settings.js';
import { RhaiParseError, compileScript } from '../../rhai/index.js';
import { validateIndexUid } from '../validation/index-uid.js';
import type { IndexSettings } from '../../types/settings.js';
import type { AppDeps } from '../deps.js';
import { streamBody } from '../body/read-body.js';
import { checkCsvDelimiter, documentsFormat, DOCUMENTS_CONTENT_TYPES, writeDocumentsPayload } from '../body/documents/index.js';
import { enqueue } from '../enqueue.js';
import { isJsonNumber, stringifyJson } from '../../types/json-text.js';
import { defineRoute, type RouteContext } from '../route.js';
import {
  QueryValueError,
  compileBody,
  compileQuery,
  parseBoolean,
  parsePositiveInteger,
  parseString,
  type ValueParser,
} from '../validation/index.js';
import { openIndex } from './indexes.js';

const parseSkipCreation: ValueParser<boolean> = (raw) => {
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  throw new QueryValueError(`skipCreation must be either \`true\` or \`false\`. Found: \`${raw}\``);
};

const parseAddQuery = compileQuery({
  primaryKey: { parse: parseString, code: 'invalid_index_primary_key' },
  // Checked while parsing the query, before the Content-Type (documents.md §3.1).
  csvDelimiter: { parse: checkCsvDelimiter, code: 'invalid_document_csv_delimiter' },
  customMetadata: { parse: parseString, code: 'invalid_index_custom_metadata' },
  skipCreation: { parse: parseSkipCreation, code: 'invalid_skip_creation' },
});

const parseWriteQuery = compileQuery({
  customMetadata: { parse: parseString, code: 'invalid_index_custom_metadata' },
});

/** `fields` of GET routes: comma-separated, `*` means all, empty string means none. */
const parseFieldList: ValueParser<string[] | null> = (raw) => {
  const fields = raw === '' ? [] : raw.split(',');
  return fields.includes('*') ? null : fields;
};

const parseIdList: ValueParser<string[]> = (raw) => (raw === '' ? [] : raw.split(','));

const parseGetOneQuery = compileQuery({
  fields: { parse: parseFieldList, code: 'invalid_document_fields' },
  retrieveVectors: { parse: parseBoolean, code: 'invalid_document_retrieve_vectors' },
});

const parseListQuery = compileQuery({
  offset: { parse: parsePositiveInteger, code: 'invalid_document_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_document_limit' },
  fields: { parse: parseFieldList, code: 'invalid_document_fields' },
  retrieveVectors: { parse: parseBoolean, code: 'invalid_document_retrieve_vectors' },
  ids: { parse: parseIdList, code: 'invalid_document_ids' },
  filter: { parse: parseString, code: 'invalid_document_filter' },
  sort: { parse: parseString, code: 'invalid_document_sort' },
});

interface FetchBody {
  offset?: number;
  limit?: number;
  fields?: string[] | null;
  retrieveVectors?: boolean;
  ids?: (string | number)[] | null;
  filter?: unknown;
  sort?: string[];
}

const parseFetchBody = compileBody<FetchBody>(
  {
    type: 'object',
    properties: {
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 0 },
      fields: { type: ['array', 'null'], items: { type: 'string' } },
      retrieveVectors: { type: 'boolean' },
      ids: { type: ['array', 'null'], items: { type: ['string', 'integer'] } },
      filter: {},
      sort: { type: 'array', items: { type: 'string' } },
    },
    additionalProperties: false,
  },
  {
    '.offset': 'invalid_document_offset',
    '.limit': 'invalid_document_limit',
    '.fields': 'invalid_document_fields',
    '.retrieveVectors': 'invalid_document_retrieve_vectors',
    '.ids': 'invalid_document_ids',
    '.filter': 'invalid_document_filter',
    '.sort': 'invalid_document_sort',
  },
);

/** `value` with every BigInt a double again, as JSON.parse would have read it. */
function asDoubles(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(asDoubles);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asDoubles(inner)]));
}

/** A fetch body read with exact integers: only `ids` keeps them, as their digits (an id is its text). */
function withExactIds(value: unknown): unknown {
  const body = asDoubles(value);
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Array.isArray((value as { ids?: unknown }).ids)) return body;
  const ids = ((value as { ids: unknown[] }).ids).map((id) => (typeof id === 'bigint' ? id.toString() : asDoubles(id)));
  return { ...body, ids };
}

/** Ids are validated like document ids before anything else (documents.md §2.3). */
function validateIds(ids: readonly (string | number)[]): string[] {
  return ids.map((value, i) => {
    const id = externalIdOf(value);
    if (id === null) throw new ApiError('invalid_document_ids', `In \`.ids[${i}]\`: ${invalidDocumentId(value).message}`);
    return id;
  });
}

const SORT_CODE = 'invalid_document_sort';
const FILTER_CODE = 'invalid_document_filter';

/**
 * GET's `sort`: comma-separated, with the pieces of `_geoPoint(lat, lng):asc` joined back
 * (Meilisearch `fix_sort_query_parameters`).
 */
function sortFromQuery(raw: string): string[] {
  const criteria: string[] = [];
  let joining = false;
  for (const piece of raw.replace(/^"+|"+$/g, '').split(',').map((part) => part.trim())) {
    if (piece.startsWith('_geoPoint(')) {
      criteria.push(piece);
      joining = true;
    } else if (joining && criteria.length > 0) {
      criteria[criteria.length - 1] += `,${piece}`;
      if (piece.endsWith('):asc') || piece.endsWith('):desc')) joining = false;
    } else {
      criteria.push(piece);
    }
  }
  return criteria;
}

/** A document route's filter, parsed and checked against the experimental features. */
function documentFilter(deps: AppDeps, filter: unknown): FilterAst | null {
  const ast = parseFilter(filter, { code: FILTER_CODE });
  if (ast !== null) {
    assertFilterFeatures(ast, (feature) => deps.features.enabled(feature));
    rejectForeignFilter(ast, FILTER_CODE);
  }
  return ast;
}

/** GET passes the filter as text; text that parses as JSON (e.g. `["a = 1"]`) is used as JSON. */
function filterFromQuery(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

interface ListOptions {
  offset?: number;
  limit?: number;
  fields?: string[] | null;
  retrieveVectors?: boolean;
  ids?: string[];
  filter: unknown;
  sort: SortCriterion[] | null;
}

/**
 * The list algorithm of documents.md §2.3: candidates (all or `ids`), ∩ filter, ordered by docid
 * or by `sort`, then the page. Checks run in Meilisearch's order: filter syntax and gates, the
 * filter's attributes, then the sortable ones.
 */
function listDocuments(deps: AppDeps, env: IndexEnv, options: ListOptions) {
  const store = new DocumentStore(env);
  const offset = options.offset ?? 0;
  const limit = options.limit ?? 20;
  const fields = options.fields ?? null;
  const ast = documentFilter(deps, options.filter);
  const settings = readSettings(env);
  let results: JsonObject[];
  let total: number;
  if (options.ids === undefined && ast === null && options.sort === null) {
    total = store.count();
    results = [...store.all(offset, limit)];
  } else {
    const reader = new FacetReader(env);
    let candidates: DocSet =
      options.ids === undefined
        ? reader.allDocids()
        : fromUnsorted(options.ids.map((id) => store.docidOf(id)).filter((docid): docid is number => docid !== undefined));
    if (ast !== null) candidates = intersect(candidates, evaluateFilter(env, settings, ast, { code: FILTER_CODE }));
    let page: ArrayLike<number> = candidates.subarray(offset, offset + limit);
    if (options.sort !== null) {
      assertSortable(options.sort, settings.sortableAttributes, SORT_CODE, ['*']);
      page = sortedPage(reader, options.sort, candidates, offset, limit);
    }
    total = candidates.length;
    results = Array.from(page, (docid) => store.byDocid(docid)!);
  }
  return { results: results.map((doc) => documentView(doc, fields, options.retrieveVectors, settings)), offset, limit, total };
}

/**
 * A document as the document routes show it: `fields` projected; `_vectors` only with
 * `retrieveVectors`, then last and whatever `fields` says (documents.md §2.5).
 */
function documentView(doc: JsonObject, fields: readonly string[] | null, retrieveVectors: boolean | undefined, settings: IndexSettings): JsonObject {
  const shown = projectDocument(doc, fields);
  if (retrieveVectors === true) shown._vectors = vectorsView(doc._vectors, settings.embedders);
  return shown;
}

async function addDocuments(
  ctx: RouteContext<ReturnType<typeof parseAddQuery>, undefined>,
  deps: AppDeps,
  method: 'replace' | 'update',
) {
  const uid = validateIndexUid(ctx.params.indexUid!);
  const { format, delimiter } = documentsFormat(ctx.request.headers['content-type'], ctx.query.csvDelimiter);
  const limit = deps.config.httpPayloadSizeLimit;
  const chunks = ctx.stream === undefined ? emptyBody() : streamBody(ctx.stream, ctx.request.headers['content-encoding'], limit);
  const payload = await writeDocumentsPayload(chunks, format, delimiter, deps.updateFiles, limit);
  try {
    return await enqueue(deps, {
      kind: {
        name: 'documentAdditionOrUpdate',
        indexUid: uid,
        primaryKey: ctx.query.primaryKey ?? null,
        method,
        contentFile: payload.uuid,
        documentsCount: payload.documentsCount,
        payloadSize: payload.size,
        allowIndexCreation: ctx.caller.canPerform('indexes.create', uid),
        onMissingDocument: ctx.query.skipCreation === true ? 'skip' : 'create',
      },
      customMetadata: ctx.query.customMetadata ?? null,
    });
  } catch (err) {
    await deps.updateFiles.delete(payload.uuid);
    throw err;
  }
}

async function* emptyBody(): AsyncGenerator<Buffer> {}

/** `Json deserialize error` of delete-batch when the body is not an array, in serde's words. */
function notASequence(value: unknown, text: string): ApiError {
  const found =
    typeof value === 'string'
      ? `string ${JSON.stringify(value)}`
      : typeof value === 'boolean'
        ? `boolean \`${value}\``
        : isJsonNumber(value)
          ? Number.isInteger(Number(value))
            ? `integer \`${value}\``
            : `floating point \`${value}\``
          : value === null
            ? 'null'
            : 'map';
  return new ApiError('bad_request', `Json deserialize error: invalid type: ${found}, expected a sequence at line 1 column ${text.trimEnd().length}`);
}

const parseDeleteBatch = (value: unknown): string[] => {
  if (!Array.isArray(value)) throw notASequence(value, stringifyJson(value));
  return value.map((item) => (typeof item === 'string' ? item : stringifyJson(item)));
};

const parseDeleteByFilterBody = compileBody<{ filter: unknown }>(
  { type: 'object', properties: { filter: {} }, required: ['filter'], additionalProperties: false },
  { '.filter': FILTER_CODE },
  { missing: { filter: 'missing_document_filter' } },
);

/** `POST /documents/delete` (documents.md §5): the filter is checked now, its attributes when the task runs. */
function deleteByFilter(ctx: RouteContext<ReturnType<typeof parseWriteQuery>, { filter: unknown }>, deps: AppDeps) {
  const uid = validateIndexUid(ctx.params.indexUid!);
  const { filter } = ctx.body;
  // `filter` is required here: null is a value of the wrong type, not "no filter".
  if (filter === null) throw new ApiError(FILTER_CODE, 'Invalid syntax for the filter parameter: `expected String, Array, found: null`.');
  if (documentFilter(deps, filter) === null) throw new ApiError(FILTER_CODE, 'Sending an empty filter is forbidden.');
  return enqueue(deps, {
    kind: { name: 'documentDeletionByFilter', indexUid: uid, filter },
    customMetadata: ctx.query.customMetadata ?? null,
  });
}

interface EditBody {
  function: string;
  filter?: unknown;
  context?: unknown;
}

const parseEditBody = compileBody<EditBody>(
  {
    type: 'object',
    properties: { filter: {}, context: {}, function: { type: 'string' } },
    required: ['function'],
    additionalProperties: false,
  },
  {
    '.filter': 'invalid_document_filter',
    '.context': 'invalid_document_edition_context',
    '.function': 'invalid_document_edition_function_filter',
  },
  { missing: { function: 'missing_document_edition_function' } },
);

/** `POST /documents/edit` (documents.md §6.1): checks in Meilisearch's order, then the task. */
async function editDocuments(ctx: RouteContext<undefined, EditBody>, deps: AppDeps) {
  deps.features.require(
    'editDocumentsByFunction',
    'Using the documents edit route',
    'edit documents by function',
    'https://github.com/orgs/meilisearch/discussions/762',
  );
  const uid = validateIndexUid(ctx.params.indexUid!);
  const { function: source, context } = ctx.body;
  try {
    compileScript(source);
  } catch (err) {
    if (err instanceof RhaiParseError) throw new ApiError('bad_request', err.message);
    throw err;
  }
  const filter = ctx.body.filter ?? null;
  if (filter !== null) {
    let ast;
    // Meilisearch checks this filter inside the index, so its errors name the index, the feature
    // and foreign-filter refusals included; only the empty filter is refused before.
    try {
      ast = parseFilter(filter, { code: 'invalid_document_filter' });
      if (ast !== null) {
        assertFilterFeatures(ast, (feature) => deps.features.enabled(feature));
        rejectForeignFilter(ast, 'invalid_document_filter');
      }
    } catch (err) {
      if (err instanceof ApiError) throw new ApiError(err.code, `Index \`${uid}\`: ${err.message}`);
      throw err;
    }
    if (ast === null) throw new ApiError('invalid_document_filter', 'Sending an empty filter is forbidden.');
  }
  if (context !== undefined && context !== null && (typeof context !== 'object' || Array.isArray(context))) {
    throw new ApiError('invalid_document_edition_context', 'The context must be an object');
  }
  return enqueue(deps, {
    kind: { name: 'documentEdition', indexUid: uid, filter, context: (context ?? null) as JsonObject | null, function: source },
    customMetadata: null,
  });
}

export const documentRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/documents',
    query: parseAddQuery,
    body: 'stream',
    contentTypes: DOCUMENTS_CONTENT_TYPES,
    status: 202,
    handler: (ctx, deps) => addDocuments(ctx, deps, 'replace'),
  }),
  defineRoute({
    route: 'PUT /indexes/:indexUid/documents',
    query: parseAddQuery,
    body: 'stream',
    contentTypes: DOCUMENTS_CONTENT_TYPES,
    status: 202,
    handler: (ctx, deps) => addDocuments(ctx, deps, 'update'),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/documents/:documentId',
    query: parseGetOneQuery,
    handler: (ctx, deps) => {
      const env = openIndex(deps, ctx.params.indexUid!);
      const id = ctx.params.documentId!;
      const doc = new DocumentStore(env).get(id);
      if (doc === undefined) throw new ApiError('document_not_found', `Document \`${id}\` not found.`);
      return documentView(doc, ctx.query.fields ?? null, ctx.query.retrieveVectors, readSettings(env));
    },
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/documents',
    query: parseListQuery,
    handler: (ctx, deps) => {
      const ids = ctx.query.ids === undefined ? undefined : validateIds(ctx.query.ids);
      const sort = ctx.query.sort === undefined ? null : sortFromQuery(ctx.query.sort).map((text) => parseSortCriterion(text, SORT_CODE));
      const env = openIndex(deps, ctx.params.indexUid!);
      return listDocuments(deps, env, { ...ctx.query, ids, filter: filterFromQuery(ctx.query.filter), sort });
    },
  }),
  defineRoute({
    route: 'POST /indexes/:indexUid/documents/fetch',
    body: (value) => parseFetchBody(withExactIds(value)),
    exactIntegers: true,
    handler: (ctx, deps) => {
      const ids = ctx.body.ids === undefined || ctx.body.ids === null ? undefined : validateIds(ctx.body.ids);
      const sort = ctx.body.sort === undefined ? null : ctx.body.sort.map((text) => parseSortCriterion(text, SORT_CODE));
      const env = openIndex(deps, ctx.params.indexUid!);
      return listDocuments(deps, env, { ...ctx.body, ids, filter: ctx.body.filter, sort });
    },
  }),
  defineRoute({
    route: 'DELETE /indexes/:indexUid/documents/:documentId',
    query: parseWriteQuery,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueue(deps, {
        kind: { name: 'documentDeletion', indexUid: uid, documentIds: [ctx.params.documentId!] },
        customMetadata: ctx.query.customMetadata ?? null,
      });
    },
  }),
  defineRoute({
    route: 'POST /indexes/:indexUid/documents/delete-batch',
    query: parseWriteQuery,
    body: parseDeleteBatch,
    exactIntegers: true,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueue(deps, {
        kind: { name: 'documentDeletion', indexUid: uid, documentIds: ctx.body },
        customMetadata: ctx.query.customMetadata ?? null,
      });
    },
  }),
  defineRoute({
    route: 'POST /indexes/:indexUid/documents/delete',
    query: parseWriteQuery,
    body: parseDeleteByFilterBody,
    status: 202,
    handler: deleteByFilter,
  }),
  defineRoute({
    route: 'POST /indexes/:indexUid/documents/edit',
    body: parseEditBody,
    status: 202,
    handler: editDocuments,
  }),
  defineRoute({
    route: 'DELETE /indexes/:indexUid/documents',
    query: parseWriteQuery,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueue(deps, { kind: { name: 'documentClear', indexUid: uid }, customMetadata: ctx.query.customMetadata ?? null });
    },
  }),
];
