/**
 * `/indexes/{uid}/documents` routes (documents.md): additions stream their payload into an
 * update file before the task is enqueued; reads go to the index's document store; deletions
 * enqueue tasks.
 */
import { ApiError } from '../../errors/api-error.js';
import { DocumentStore } from '../../engine/documents/store.js';
import { externalIdOf, invalidDocumentId, type JsonObject } from '../../engine/documents/document-id.js';
import { projectDocument } from '../../engine/documents/project.js';
import { assertFilterable } from '../../engine/filter/filterable.js';
import { parseFilter } from '../../engine/filter-parser/index.js';
import { validateIndexUid } from '../../types/index-uid.js';
import type { AppDeps } from '../deps.js';
import { streamBody } from '../body/read-body.js';
import { checkCsvDelimiter, documentsFormat, writeDocumentsPayload } from '../body/documents/index.js';
import { enqueue } from '../enqueue.js';
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
import { indexNotFound } from './indexes.js';

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

function openStore(deps: AppDeps, rawUid: string): DocumentStore {
  const uid = validateIndexUid(rawUid);
  const record = deps.indexes.get(uid);
  if (record === undefined) throw indexNotFound(uid);
  return new DocumentStore(deps.indexEnvs.get(record.uuid));
}

/** Ids are validated like document ids before anything else (documents.md §2.3). */
function validateIds(ids: readonly (string | number)[]): string[] {
  return ids.map((value, i) => {
    const id = externalIdOf(value);
    if (id === null) throw new ApiError('invalid_document_ids', `In \`.ids[${i}]\`: ${invalidDocumentId(value).message}`);
    return id;
  });
}

function notSortable(sort: readonly string[]): void {
  if (sort.length === 0) return;
  const name = sort[0]!.replace(/:(asc|desc)$/, '');
  throw new ApiError('invalid_document_sort', `Attribute \`${name}\` is not sortable. This index does not have configured sortable attributes.`);
}

/** Parses a document filter; no filterable attributes exist before the settings routes set them. */
function checkFilter(filter: unknown): void {
  const ast = parseFilter(filter, { code: 'invalid_document_filter' });
  if (ast !== null) assertFilterable(ast, [], 'invalid_document_filter');
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

function listDocuments(
  store: DocumentStore,
  options: { offset?: number; limit?: number; fields?: string[] | null; ids?: string[] | null },
) {
  const offset = options.offset ?? 0;
  const limit = options.limit ?? 20;
  const fields = options.fields ?? null;
  let results: JsonObject[];
  let total: number;
  if (options.ids !== undefined && options.ids !== null) {
    const docids = [...new Set(options.ids)]
      .map((id) => store.docidOf(id))
      .filter((docid): docid is number => docid !== undefined)
      .sort((a, b) => a - b);
    total = docids.length;
    results = docids.slice(offset, offset + limit).map((docid) => store.byDocid(docid)!);
  } else {
    total = store.count();
    results = [...store.all(offset, limit)];
  }
  return { results: results.map((doc) => projectDocument(doc, fields)), offset, limit, total };
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
    return enqueue(deps, {
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
    deps.updateFiles.delete(payload.uuid);
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
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? `integer \`${value}\``
            : `floating point \`${value}\``
          : value === null
            ? 'null'
            : 'map';
  return new ApiError('bad_request', `Json deserialize error: invalid type: ${found}, expected a sequence at line 1 column ${text.trimEnd().length}`);
}

const parseDeleteBatch = (value: unknown): string[] => {
  if (!Array.isArray(value)) throw notASequence(value, JSON.stringify(value));
  return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
};

export const documentRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/documents',
    query: parseAddQuery,
    body: 'stream',
    status: 202,
    handler: (ctx, deps) => addDocuments(ctx, deps, 'replace'),
  }),
  defineRoute({
    route: 'PUT /indexes/:indexUid/documents',
    query: parseAddQuery,
    body: 'stream',
    status: 202,
    handler: (ctx, deps) => addDocuments(ctx, deps, 'update'),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/documents/:documentId',
    query: parseGetOneQuery,
    handler: (ctx, deps) => {
      const store = openStore(deps, ctx.params.indexUid!);
      const id = ctx.params.documentId!;
      const doc = store.get(id);
      if (doc === undefined) throw new ApiError('document_not_found', `Document \`${id}\` not found.`);
      return projectDocument(doc, ctx.query.fields ?? null);
    },
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/documents',
    query: parseListQuery,
    handler: (ctx, deps) => {
      const ids = ctx.query.ids === undefined ? undefined : validateIds(ctx.query.ids);
      const store = openStore(deps, ctx.params.indexUid!);
      checkFilter(filterFromQuery(ctx.query.filter));
      notSortable(ctx.query.sort === undefined || ctx.query.sort === '' ? [] : ctx.query.sort.split(','));
      return listDocuments(store, { ...ctx.query, ids });
    },
  }),
  defineRoute({
    route: 'POST /indexes/:indexUid/documents/fetch',
    body: parseFetchBody,
    handler: (ctx, deps) => {
      const ids = ctx.body.ids === undefined || ctx.body.ids === null ? undefined : validateIds(ctx.body.ids);
      const store = openStore(deps, ctx.params.indexUid!);
      checkFilter(ctx.body.filter);
      notSortable(ctx.body.sort ?? []);
      return listDocuments(store, { ...ctx.body, ids });
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
    route: 'DELETE /indexes/:indexUid/documents',
    query: parseWriteQuery,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueue(deps, { kind: { name: 'documentClear', indexUid: uid }, customMetadata: ctx.query.customMetadata ?? null });
    },
  }),
];
