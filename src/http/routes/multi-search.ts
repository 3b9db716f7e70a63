/**
 * `POST /multi-search` (search.md §10): several searches in one request, each query being a
 * single search's body plus `indexUid`. Without `federation` the answer lists one search
 * response per query (src/search/multi.ts); with it, the hits of every query are merged into one
 * ranked list (src/search/federation.ts). Errors tied to a query carry ``Inside `.queries[<i>]`: ``
 * in front of the single-search message, and the first failing query stops the request. A
 * federated request another instance sends (`Meili-Proxy-Search: true`) gets each hit's weighted
 * score values, for that instance to merge them (network.md §7.3).
 */
import { federatedSearch } from '../../search/federation.js';
import { multiSearch } from '../../search/multi.js';
import type { Federation, QueryWithIndex } from '../../search/query.js';
import { indexUidProblem, isValidIndexUid } from '../../types/index-uid.js';
import { defineRoute } from '../route.js';
import { count, optionalCount, SEARCH_QUERY_CODES, SEARCH_QUERY_PROPERTIES, SEARCH_QUERY_VALIDATORS } from '../schemas/search-query.js';
import { compileBody, type FieldCodes, type FieldValidator } from '../../validation/index.js';
import { wantsMetadata } from './search.js';

export interface MultiSearch {
  queries: QueryWithIndex[];
  federation?: Federation | null;
}

const WEIGHT_REASON = 'the value of `weight` is invalid, expected a positive float (>= 0.0).';

/** The single-search tables, re-rooted under `.queries[]`. */
const queryCodes = Object.fromEntries(Object.entries(SEARCH_QUERY_CODES).map(([at, code]) => [`.queries[]${at}`, code]));
const queryValidators = Object.fromEntries(Object.entries(SEARCH_QUERY_VALIDATORS).map(([at, check]) => [`.queries[]${at}`, check]));

const parseBody = compileBody<MultiSearch>(
  {
    type: 'object',
    properties: {
      queries: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            indexUid: { type: 'string' },
            ...SEARCH_QUERY_PROPERTIES,
            // options in v1.50's `SearchQueryWithIndex`, where a single search's are not: null is absent
            offset: optionalCount,
            limit: optionalCount,
            showPerformanceDetails: { type: ['boolean', 'null'] },
            federationOptions: {
              type: ['object', 'null'],
              properties: { weight: { type: 'number' }, remote: { type: ['string', 'null'] }, queryPosition: optionalCount },
              additionalProperties: false,
            },
          },
          required: ['indexUid'],
          additionalProperties: false,
        },
      },
      federation: {
        type: ['object', 'null'],
        properties: {
          limit: count,
          offset: count,
          page: optionalCount,
          hitsPerPage: optionalCount,
          facetsByIndex: { type: 'object', additionalProperties: { type: ['array', 'null'], items: { type: 'string' } } },
          mergeFacets: { type: ['object', 'null'], properties: { maxValuesPerFacet: optionalCount }, additionalProperties: false },
          distinct: { type: ['string', 'null'] },
          showPerformanceDetails: { type: 'boolean' },
          personalize: {
            type: ['object', 'null'],
            properties: { userContext: { type: 'string' } },
            required: ['userContext'],
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    },
    required: ['queries'],
    additionalProperties: false,
  },
  {
    ...queryCodes,
    '.queries[].indexUid': 'invalid_index_uid',
    '.queries[].federationOptions.weight': 'invalid_multi_search_weight',
    '.queries[].federationOptions.remote': 'invalid_multi_search_remote',
    '.queries[].federationOptions.queryPosition': 'invalid_multi_search_query_position',
    '.federation.limit': 'invalid_search_limit',
    '.federation.offset': 'invalid_search_offset',
    '.federation.page': 'invalid_search_page',
    '.federation.hitsPerPage': 'invalid_search_hits_per_page',
    '.federation.facetsByIndex': 'invalid_multi_search_facets_by_index',
    '.federation.mergeFacets': 'invalid_multi_search_merge_facets',
    '.federation.mergeFacets.maxValuesPerFacet': 'invalid_multi_search_max_values_per_facet',
    '.federation.distinct': 'invalid_search_distinct',
    '.federation.showPerformanceDetails': 'invalid_search_show_performance_details',
    '.federation.personalize': 'invalid_search_personalize',
    '.federation.personalize.userContext': 'invalid_search_personalize_user_context',
  } satisfies FieldCodes,
  {
    missing: { '.queries[].indexUid': 'missing_index_uid' },
    validators: {
      ...queryValidators,
      '.queries[].indexUid': indexUidProblem,
      '.queries[].federationOptions.weight': ((value) => ((value as number) >= 0 ? undefined : WEIGHT_REASON)) satisfies FieldValidator,
      // its keys are `IndexUid`s, which deserr reads with `FromStr`
      '.federation.facetsByIndex': ((value) => {
        const bad = Object.keys(value as object).find((uid) => !isValidIndexUid(uid));
        return bad === undefined ? undefined : `the key ${JSON.stringify(bad)} could not be deserialized into the key type \`meilisearch_types::index_uid::IndexUid\``;
      }) satisfies FieldValidator,
    },
  },
);

/** A query whose `offset`, `limit` or `showPerformanceDetails` is null, as if it had none. */
function withoutNullOptions(query: QueryWithIndex): QueryWithIndex {
  const out = { ...query };
  for (const name of ['offset', 'limit', 'showPerformanceDetails'] as const) if (out[name] === null) delete out[name];
  return out;
}

export const multiSearchRoutes = [
  defineRoute({
    route: 'POST /multi-search',
    body: parseBody,
    handler: (ctx, deps) => {
      const { federation } = ctx.body;
      const queries = ctx.body.queries.map(withoutNullOptions);
      return federation === undefined || federation === null
        ? multiSearch(deps, ctx.caller, queries, wantsMetadata(ctx.headers))
        : federatedSearch(deps, ctx.caller, queries, federation, { proxy: ctx.headers['meili-proxy-search'] === 'true', includeMetadata: wantsMetadata(ctx.headers) });
    },
  }),
];
