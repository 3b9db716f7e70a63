/**
 * The search query's body schema, error codes and value checks: one table for `POST /search`,
 * each query of `POST /multi-search` (re-rooted under `.queries[]`) and the search parameters of
 * `POST /facet-search`; and the parser of one search body (`POST /search`, and the browser
 * build's `search`).
 */
import type { SearchQuery } from '../../search/query.js';
import { LOCALES } from '../../settings/locales.js';
import { rankingScoreThresholdProblem, semanticRatioProblem } from '../../settings/messages.js';
import { compileBody, type FieldCodes, type FieldValidator } from '../../validation/index.js';

export const STRATEGIES = ['last', 'all', 'frequency'] as const;

const stringList = { type: ['array', 'null'], items: { type: 'string' } };
/** A count (`offset`, `limit`…), and one that may be null (`page`, `hitsPerPage`). */
export const count = { type: 'integer', minimum: 0 };
export const optionalCount = { type: ['integer', 'null'], minimum: 0 };

/** The POST body's fields, shared with each query of `POST /multi-search`, in v1.50's order (`SearchQuery`), which its errors list. */
export const SEARCH_QUERY_PROPERTIES = {
  q: { type: ['string', 'null'] },
  offset: count,
  limit: count,
  page: optionalCount,
  hitsPerPage: optionalCount,
  attributesToRetrieve: stringList,
  attributesToCrop: stringList,
  cropLength: count,
  cropMarker: { type: 'string' },
  attributesToHighlight: stringList,
  highlightPreTag: { type: 'string' },
  highlightPostTag: { type: 'string' },
  showMatchesPosition: { type: 'boolean' },
  filter: {},
  sort: stringList,
  distinct: { type: ['string', 'null'] },
  facets: stringList,
  matchingStrategy: { enum: [...STRATEGIES] },
  attributesToSearchOn: stringList,
  rankingScoreThreshold: { type: ['number', 'null'] },
  locales: { type: ['array', 'null'], items: { enum: [...LOCALES] } },
  hybrid: {
    type: ['object', 'null'],
    properties: { semanticRatio: { type: 'number' }, embedder: { type: 'string' } },
    required: ['embedder'],
    additionalProperties: false,
  },
  vector: { type: ['array', 'null'], items: { type: 'number' } },
  retrieveVectors: { type: 'boolean' },
  media: {},
  personalize: {
    type: ['object', 'null'],
    properties: { userContext: { type: 'string' } },
    required: ['userContext'],
    additionalProperties: false,
  },
  useNetwork: { type: ['boolean', 'null'] },
  showRankingScore: { type: 'boolean' },
  showRankingScoreDetails: { type: 'boolean' },
  showPerformanceDetails: { type: 'boolean' },
};

/** Error code per body field (relative locations, `.q`), shared with multi-search. */
export const SEARCH_QUERY_CODES = {
  '.q': 'invalid_search_q',
  '.vector': 'invalid_search_vector',
  '.offset': 'invalid_search_offset',
  '.limit': 'invalid_search_limit',
  '.page': 'invalid_search_page',
  '.hitsPerPage': 'invalid_search_hits_per_page',
  '.attributesToRetrieve': 'invalid_search_attributes_to_retrieve',
  '.retrieveVectors': 'invalid_search_retrieve_vectors',
  '.attributesToCrop': 'invalid_search_attributes_to_crop',
  '.cropLength': 'invalid_search_crop_length',
  '.attributesToHighlight': 'invalid_search_attributes_to_highlight',
  '.showMatchesPosition': 'invalid_search_show_matches_position',
  '.showRankingScore': 'invalid_search_show_ranking_score',
  '.showRankingScoreDetails': 'invalid_search_show_ranking_score_details',
  '.showPerformanceDetails': 'invalid_search_show_performance_details',
  '.filter': 'invalid_search_filter',
  '.sort': 'invalid_search_sort',
  '.distinct': 'invalid_search_distinct',
  '.facets': 'invalid_search_facets',
  '.highlightPreTag': 'invalid_search_highlight_pre_tag',
  '.highlightPostTag': 'invalid_search_highlight_post_tag',
  '.cropMarker': 'invalid_search_crop_marker',
  '.matchingStrategy': 'invalid_search_matching_strategy',
  '.attributesToSearchOn': 'invalid_search_attributes_to_search_on',
  '.hybrid': 'invalid_search_hybrid_query',
  '.hybrid.embedder': 'invalid_search_embedder',
  '.hybrid.semanticRatio': 'invalid_search_semantic_ratio',
  '.rankingScoreThreshold': 'invalid_search_ranking_score_threshold',
  '.locales': 'invalid_search_locales',
  '.media': 'invalid_search_media',
  '.personalize': 'invalid_search_personalize',
  '.personalize.userContext': 'invalid_search_personalize_user_context',
  '.useNetwork': 'invalid_search_use_network',
} as const satisfies FieldCodes;

/** Value checks per body field (relative locations), shared with multi-search. */
export const SEARCH_QUERY_VALIDATORS: Readonly<Record<string, FieldValidator>> = {
  '.rankingScoreThreshold': rankingScoreThresholdProblem,
  '.hybrid.semanticRatio': semanticRatioProblem,
};

/** A `POST /indexes/{uid}/search` body as the search service takes it, or the error Meilisearch answers first. */
export const parseSearchBody = compileBody<SearchQuery>(
  { type: 'object', properties: SEARCH_QUERY_PROPERTIES, additionalProperties: false },
  SEARCH_QUERY_CODES,
  { validators: SEARCH_QUERY_VALIDATORS },
);
