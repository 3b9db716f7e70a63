/**
 * `POST /indexes/{indexUid}/facet-search` (search.md §11): the body (deserr) validated here, its
 * unknown fields dropped, then
 * the facet search service (src/search/facet-search.ts, or network-facet-search.ts with
 * `useNetwork`), which checks the rest in Meilisearch's order.
 */
import type { FacetSearchQuery } from '../../search/facet-search.js';
import { facetSearchRequest } from '../../search/network-facet-search.js';
import { defineRoute } from '../route.js';
import { SEARCH_QUERY_CODES, SEARCH_QUERY_PROPERTIES, SEARCH_QUERY_VALIDATORS } from '../schemas/search-query.js';
import { carryBodyText, compileBody, describedLike } from '../../validation/index.js';

// The search parameters facet search takes (Meilisearch `FacetSearchQuery`, in its order: `useNetwork` comes last), with search's codes.
const SHARED = ['q', 'vector', 'media', 'hybrid', 'filter', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold', 'locales'] as const;

const parseBody = compileBody<FacetSearchQuery>(
  {
    type: 'object',
    properties: {
      facetQuery: { type: ['string', 'null'] },
      facetName: { type: 'string' },
      ...Object.fromEntries(SHARED.map((name) => [name, SEARCH_QUERY_PROPERTIES[name]])),
      exhaustiveFacetCount: { type: ['boolean', 'null'] },
      useNetwork: SEARCH_QUERY_PROPERTIES.useNetwork,
    },
    required: ['facetName'],
  },
  {
    '.facetQuery': 'invalid_facet_search_query',
    '.facetName': 'invalid_facet_search_facet_name',
    ...Object.fromEntries(Object.entries(SEARCH_QUERY_CODES).filter(([location]) => SHARED.some((name) => location === `.${name}` || location.startsWith(`.${name}.`)))),
    '.exhaustiveFacetCount': 'invalid_facet_search_exhaustive_facet_count',
    '.useNetwork': SEARCH_QUERY_CODES['.useNetwork'],
  },
  { missing: { facetName: 'missing_facet_search_facet_name' }, validators: SEARCH_QUERY_VALIDATORS },
);

const KNOWN = new Set(['facetQuery', 'facetName', ...SHARED, 'exhaustiveFacetCount', 'useNetwork']);

/**
 * The body's own fields: v1.50 takes facet search bodies with unknown fields and ignores them
 * (`allow_unknown_fields`: clients send their search's parameters along, `limit`, `sort`, …).
 */
function knownFields(body: FacetSearchQuery): FacetSearchQuery {
  const known = Object.fromEntries(Object.entries(body).filter(([name]) => KNOWN.has(name))) as unknown as FacetSearchQuery;
  carryBodyText(body, known);
  return known;
}

export const facetSearchRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/facet-search',
    body: describedLike(parseBody, (value: unknown) => knownFields(parseBody(value))),
    handler: (ctx, deps) => facetSearchRequest(deps, ctx.caller, ctx.params.indexUid!, ctx.body),
  }),
];
