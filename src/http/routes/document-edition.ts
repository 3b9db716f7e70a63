/**
 * `POST /indexes/{uid}/documents/edit` (documents.md §6.1, feature `editDocumentsByFunction`):
 * the Rhai function is compiled and the filter checked, in Meilisearch's order, before the task
 * is enqueued; the function runs when the task does (src/rhai/).
 */
import { ApiError, inIndex } from '../../errors/api-error.js';
import { validateIndexUid } from '../../indexes/uid.js';
import { RhaiParseError, compileScript } from '../../rhai/index.js';
import { checkedFilter } from '../../search/filter.js';
import type { JsonObject } from '../../types/task.js';
import type { AppDeps } from '../deps.js';
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute, type RouteContext } from '../route.js';
import { compileBody } from '../../validation/index.js';
import { parseWriteQuery } from './document-deletions.js';

const FILTER_CODE = 'invalid_document_filter';

export interface EditBody {
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
async function editDocuments(ctx: RouteContext<ReturnType<typeof parseWriteQuery>, EditBody>, deps: AppDeps) {
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
      throw err instanceof ApiError ? inIndex(uid, err) : err;
    }
    if (ast === null) throw new ApiError(FILTER_CODE, 'Sending an empty filter is forbidden.');
  }
  if (context !== undefined && context !== null && (typeof context !== 'object' || Array.isArray(context))) {
    throw new ApiError('invalid_document_edition_context', 'The context must be an object');
  }
  return enqueue(
    deps,
    { kind: { name: 'documentEdition', indexUid: uid, filter, context: (context ?? null) as JsonObject | null, function: source }, customMetadata: ctx.query.customMetadata ?? null, ...replicationOf(deps, ctx.headers) },
    { ctx, body: { kind: 'json', value: ctx.body } },
  );
}

export const documentEditionRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/documents/edit',
    query: parseWriteQuery,
    body: parseEditBody,
    status: 202,
    handler: editDocuments,
  }),
];
