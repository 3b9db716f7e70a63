/**
 * `/indexes/{uid}/documents` routes (documents.md): additions stream their payload into an
 * update file before the task is enqueued; reads go to the document service (src/search/
 * documents.ts); deletions (by id, by filter, all) and edits enqueue tasks once their filter
 * passes the same checks as a search's (src/search/filter.ts).
 */
import { ApiError } from '../../errors/api-error.js';
import { RhaiParseError, compileScript } from '../../rhai/index.js';
import { getDocument, listDocuments, type DocumentsQuery } from '../../search/documents.js';
import { checkedFilter } from '../../search/filter.js';
import { validateIndexUid } from '../../indexes/uid.js';
import type { JsonObject } from '../../types/task.js';
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
  parseFilterParam,
  parsePositiveInteger,
  parseSortList,
  parseString,
  type ValueParser,
} from '../validation/index.js';

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
  filter: { parse: parseFilterParam, code: 'invalid_document_filter' },
  sort: { parse: parseSortList, code: 'invalid_document_sort' },
});

const parseFetchBody = compileBody<DocumentsQuery>(
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

const FILTER_CODE = 'invalid_document_filter';

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
  if (checkedFilter(deps.features, filter, FILTER_CODE) === null) throw new ApiError(FILTER_CODE, 'Sending an empty filter is forbidden.');
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
      ast = checkedFilter(deps.features, filter, FILTER_CODE);
    } catch (err) {
      if (err instanceof ApiError) throw new ApiError(err.code, `Index \`${uid}\`: ${err.message}`);
      throw err;
    }
    if (ast === null) throw new ApiError(FILTER_CODE, 'Sending an empty filter is forbidden.');
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
    handler: (ctx, deps) => getDocument(deps, ctx.params.indexUid!, ctx.params.documentId!, ctx.query.fields ?? null, ctx.query.retrieveVectors),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/documents',
    query: parseListQuery,
    handler: (ctx, deps) => listDocuments(deps, ctx.params.indexUid!, ctx.query),
  }),
  defineRoute({
    route: 'POST /indexes/:indexUid/documents/fetch',
    body: (value) => parseFetchBody(withExactIds(value)),
    exactIntegers: true,
    handler: (ctx, deps) => listDocuments(deps, ctx.params.indexUid!, ctx.body),
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
