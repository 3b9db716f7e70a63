/**
 * `POST /indexes/{indexUid}/facet-search` (search.md §11): the values of one facet held by the
 * documents a search (`q`, `filter`, `matchingStrategy`, …) matches, optionally narrowed by a
 * `facetQuery` (prefix with typos), with their counts.
 *
 * Order of checks, as Meilisearch: the body (deserr), the index, the `facetSearch` setting, the
 * search's own checks (search.ts `searchIndex`, which also finds the candidates), then the facet
 * name.
 */
import { ApiError } from '../../errors/api-error.js';
import { checkFacetSearchable, searchFacetValues } from '../../engine/facets/facet-search.js';
import { readSettings } from '../../engine/index-settings.js';
import { distinctCounter } from '../../engine/search/search.js';
import { defineRoute } from '../route.js';
import { compileBody } from '../validation/index.js';
import { existingIndex } from './indexes.js';
import { SEARCH_QUERY_CODES, SEARCH_QUERY_PROPERTIES, SEARCH_QUERY_VALIDATORS, searchIndex, type SearchQuery } from './search.js';

interface FacetSearchQuery extends SearchQuery {
  facetName: string;
  facetQuery?: string | null;
  exhaustiveFacetCount?: boolean | null;
}

// The search parameters facet search takes (Meilisearch `FacetSearchQuery`), with search's codes.
const SHARED = ['q', 'vector', 'media', 'filter', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold', 'hybrid', 'locales', 'useNetwork'] as const;

const parseBody = compileBody<FacetSearchQuery>(
  {
    type: 'object',
    properties: {
      facetQuery: { type: ['string', 'null'] },
      facetName: { type: 'string' },
      ...Object.fromEntries(SHARED.map((name) => [name, SEARCH_QUERY_PROPERTIES[name]])),
      exhaustiveFacetCount: { type: ['boolean', 'null'] },
    },
    required: ['facetName'],
    additionalProperties: false,
  },
  {
    '.facetQuery': 'invalid_facet_search_query',
    '.facetName': 'invalid_facet_search_facet_name',
    ...Object.fromEntries(Object.entries(SEARCH_QUERY_CODES).filter(([location]) => SHARED.some((name) => location === `.${name}` || location.startsWith(`.${name}.`)))),
    '.exhaustiveFacetCount': 'invalid_facet_search_exhaustive_facet_count',
  },
  { missing: { facetName: 'missing_facet_search_facet_name' }, validators: SEARCH_QUERY_VALIDATORS },
);

export const facetSearchRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/facet-search',
    body: parseBody,
    handler: (ctx, deps) => {
      const started = performance.now();
      const { facetName, facetQuery = null, exhaustiveFacetCount, ...query } = ctx.body;
      const record = existingIndex(deps, ctx.params.indexUid!);
      const uid = record.uid;
      const settings = readSettings(deps.indexEnvs.get(record.uuid));
      if (!settings.facetSearch) throw new ApiError('facet_search_disabled', 'The facet search is disabled for this index');
      // With a distinct attribute the candidates are those of a default search (limit 20): the hits it
      // ranks take their whole distinct groups out, the others stay (Meilisearch counts the same way);
      // an exhaustive count then counts each value's distinct groups instead of its documents.
      const distinct = settings.distinctAttribute;
      const { env, outcome } = searchIndex(deps, ctx.caller, uid, query, { offset: 0, limit: distinct === null ? 0 : 20, exhaustive: false }, {
        filterAsSent: true,
      });
      checkFacetSearchable(settings, facetName);
      const count = distinct !== null && exhaustiveFacetCount === true ? distinctCounter(env, distinct) : undefined;
      const facetHits = searchFacetValues(env, settings, outcome.candidates, facetName, facetQuery, count);
      return { facetHits, facetQuery, processingTimeMs: Math.round(performance.now() - started) };
    },
  }),
];
