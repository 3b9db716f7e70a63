/**
 * Document reads of `/indexes/{uid}/documents` (documents.md §2): one document, the list and
 * `POST …/documents/fetch`, parsed here and answered by the document service
 * (src/search/documents.ts, through src/search/network-documents.ts, which reads the network when
 * `useNetwork` says so). A fetch another instance sends carries `Meili-Proxy-Search: true`.
 */
import type { DocumentsQuery } from '../../search/documents.js';
import { documentRequest, documentsRequest } from '../../search/network-documents.js';
import { WrittenNumber } from '../../types/json-text.js';
import { defineRoute } from '../route.js';
import {
  carryBodyText,
  compileBody,
  describedLike,
  compileQuery,
  integralFloatPaths,
  isSentNumber,
  sentValueAt,
  parseBoolean,
  parseFilterParam,
  parseList,
  parsePositiveInteger,
  parseSortList,
  refuseNullFilter,
  type ValueParser,
} from '../../validation/index.js';

/** `fields` of GET routes: comma-separated, `*` means all, empty string means none. */
const parseFieldList: ValueParser<string[] | null> = (raw) => {
  const fields = raw === '' ? [] : raw.split(',');
  return fields.includes('*') ? null : fields;
};

const parseGetOneQuery = compileQuery({
  fields: { parse: parseFieldList, code: 'invalid_document_fields' },
  retrieveVectors: { parse: parseBoolean, code: 'invalid_document_retrieve_vectors' },
  useNetwork: { parse: parseBoolean, code: 'invalid_document_use_network' },
});

const parseListQuery = compileQuery({
  offset: { parse: parsePositiveInteger, code: 'invalid_document_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_document_limit' },
  fields: { parse: parseFieldList, code: 'invalid_document_fields' },
  retrieveVectors: { parse: parseBoolean, code: 'invalid_document_retrieve_vectors' },
  // empty items skipped, as serde-cs's `CS` reads v1.50's `ids`
  ids: { parse: parseList, code: 'invalid_document_ids' },
  filter: { parse: parseFilterParam, code: 'invalid_document_filter' },
  sort: { parse: parseSortList, code: 'invalid_document_sort' },
  useNetwork: { parse: parseBoolean, code: 'invalid_document_use_network' },
});

const parseFetchBody = compileBody<DocumentsQuery>(
  {
    type: 'object',
    properties: {
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 0 },
      fields: { type: ['array', 'null'], items: { type: 'string' } },
      retrieveVectors: { type: 'boolean' },
      // any value: each is read as a document id once the body is (v1.50's `Vec<Value>`)
      ids: { type: ['array', 'null'] },
      filter: {},
      sort: { type: ['array', 'null'], items: { type: 'string' } },
      useNetwork: { type: ['boolean', 'null'] },
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
    '.useNetwork': 'invalid_document_use_network',
  },
);

/** `value` with every BigInt a double again, as JSON.parse would have read it. */
function asDoubles(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(asDoubles);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asDoubles(inner)]));
}

/**
 * A fetch body read with exact integers: only `ids` keeps them, as their digits (an id is its
 * text). An id sent as a float with an integer value (`1.0`, `1e3`) stays a number as written,
 * which no id is (JSON.parse made it an integer).
 */
function withExactIds(value: unknown): unknown {
  const body = asDoubles(value);
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Array.isArray((value as { ids?: unknown }).ids)) return sentAs(value, body);
  const floats = new Map(
    integralFloatPaths(value).flatMap(([key, at]) => {
      const sent = key === 'ids' && typeof at === 'number' ? sentValueAt(value, ['ids', at])?.value : undefined;
      return isSentNumber(sent) ? [[at as number, new WrittenNumber(sent.value)] as const] : [];
    }),
  );
  const ids = ((value as { ids: unknown[] }).ids).map((id, at) => floats.get(at) ?? (typeof id === 'bigint' ? id.toString() : asDoubles(id)));
  return sentAs(value, { ...body, ids });
}

/** `copy`, whose error messages quote the values as `body` was sent (sent-values.ts). */
function sentAs(body: unknown, copy: unknown): unknown {
  carryBodyText(body, copy);
  return copy;
}

export const documentReadRoutes = [
  defineRoute({
    route: 'GET /indexes/:indexUid/documents/:documentId',
    query: parseGetOneQuery,
    handler: (ctx, deps) => documentRequest(deps, ctx.params.indexUid!, ctx.params.documentId!, ctx.query.fields ?? null, ctx.query.retrieveVectors, ctx.query.useNetwork),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/documents',
    query: parseListQuery,
    handler: (ctx, deps) => {
      refuseNullFilter(ctx.query.filter, 'invalid_document_filter');
      return documentsRequest(deps, ctx.params.indexUid!, ctx.query, false);
    },
  }),
  defineRoute({
    route: 'POST /indexes/:indexUid/documents/fetch',
    body: describedLike(parseFetchBody, (value: unknown) => parseFetchBody(withExactIds(value))),
    exactIntegers: true,
    handler: (ctx, deps) => documentsRequest(deps, ctx.params.indexUid!, ctx.body, ctx.headers['meili-proxy-search'] === 'true'),
  }),
];
