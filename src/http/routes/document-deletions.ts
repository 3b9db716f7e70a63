/**
 * Document deletions (documents.md §5): by id (`DELETE …/documents/{id}`, `…/delete-batch`), by
 * filter (`…/delete`, checked now as a search's filter is: src/search/filter.ts) and all
 * (`DELETE …/documents`). Each enqueues a task; ids are looked up when it runs.
 */
import { ApiError } from '../../errors/api-error.js';
import { validateIndexUid } from '../../indexes/uid.js';
import { checkedFilter } from '../../search/filter.js';
import { isJsonNumber, stringifyJson } from '../../types/json-text.js';
import type { AppDeps } from '../deps.js';
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute, type RouteContext } from '../route.js';
import { compileBody, compileQuery, parseString, refuseNullFilter } from '../../validation/index.js';

const FILTER_CODE = 'invalid_document_filter' as const;

/** A document write's query string: `customMetadata` only (v1.50 `CustomMetadataQuery`). */
export const parseWriteQuery = compileQuery({
  customMetadata: { parse: parseString, code: 'invalid_index_custom_metadata' },
});

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
  refuseNullFilter(filter, FILTER_CODE);
  if (checkedFilter(deps.features, filter, FILTER_CODE) === null) throw new ApiError(FILTER_CODE, 'Sending an empty filter is forbidden.');
  return enqueue(
    deps,
    { kind: { name: 'documentDeletionByFilter', indexUid: uid, filter }, customMetadata: ctx.query.customMetadata ?? null, ...replicationOf(deps, ctx.headers) },
    { ctx, body: { kind: 'json', value: { filter } } },
  );
}

export const documentDeletionRoutes = [
  defineRoute({
    route: 'DELETE /indexes/:indexUid/documents/:documentId',
    query: parseWriteQuery,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueue(
        deps,
        { kind: { name: 'documentDeletion', indexUid: uid, documentIds: [ctx.params.documentId!] }, customMetadata: ctx.query.customMetadata ?? null, ...replicationOf(deps, ctx.headers) },
        { ctx, body: { kind: 'none' } },
      );
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
      return enqueue(
        deps,
        { kind: { name: 'documentDeletion', indexUid: uid, documentIds: ctx.body }, customMetadata: ctx.query.customMetadata ?? null, ...replicationOf(deps, ctx.headers) },
        { ctx, body: { kind: 'json', value: ctx.body } },
      );
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
    route: 'DELETE /indexes/:indexUid/documents',
    query: parseWriteQuery,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueue(deps, { kind: { name: 'documentClear', indexUid: uid }, customMetadata: ctx.query.customMetadata ?? null, ...replicationOf(deps, ctx.headers) }, { ctx, body: { kind: 'none' } });
    },
  }),
];
