/**
 * The similar-documents body schema and error codes (search.md §12): `id` and `embedder`
 * required, the rest with their `invalid_similar_*` codes. `id` takes any JSON value here: the
 * service says which are document identifiers.
 */
import type { FieldCodes, FieldValidator } from '../../validation/index.js';
import { count, SEARCH_QUERY_VALIDATORS } from './search-query.js';

const stringList = { type: ['array', 'null'], items: { type: 'string' } };

export const SIMILAR_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    id: {},
    offset: count,
    limit: count,
    filter: {},
    embedder: { type: 'string' },
    attributesToRetrieve: stringList,
    retrieveVectors: { type: 'boolean' },
    showRankingScore: { type: 'boolean' },
    showRankingScoreDetails: { type: 'boolean' },
    showPerformanceDetails: { type: 'boolean' },
    rankingScoreThreshold: { type: ['number', 'null'] },
  },
  required: ['id', 'embedder'],
  additionalProperties: false,
};

export const SIMILAR_QUERY_CODES = {
  '.id': 'invalid_similar_id',
  '.offset': 'invalid_similar_offset',
  '.limit': 'invalid_similar_limit',
  '.filter': 'invalid_similar_filter',
  '.embedder': 'invalid_similar_embedder',
  '.attributesToRetrieve': 'invalid_similar_attributes_to_retrieve',
  '.retrieveVectors': 'invalid_similar_retrieve_vectors',
  '.showRankingScore': 'invalid_similar_show_ranking_score',
  '.showRankingScoreDetails': 'invalid_similar_show_ranking_score_details',
  '.showPerformanceDetails': 'invalid_similar_show_performance_details',
  '.rankingScoreThreshold': 'invalid_similar_ranking_score_threshold',
} as const satisfies FieldCodes;

export const SIMILAR_QUERY_VALIDATORS: Readonly<Record<string, FieldValidator>> = {
  '.rankingScoreThreshold': SEARCH_QUERY_VALIDATORS['.rankingScoreThreshold']!,
};
