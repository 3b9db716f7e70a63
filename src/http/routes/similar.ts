/**
 * `POST` and `GET /indexes/{indexUid}/similar` (search.md §12, vectors.md §9): the body or query
 * string validated with Meilisearch's `invalid_similar_*` codes, then the similar-documents
 * service (src/search/similar.ts), which checks the rest in Meilisearch's order. GET takes the
 * same parameters as strings: `id` stays a string, `filter` is JSON when it parses as JSON.
 */
import { ApiError } from '../../errors/api-error.js';
import { similarDocuments, type SimilarQuery } from '../../search/similar.js';
import { defineRoute } from '../route.js';
import { rankingScoreThresholdProblem } from '../../settings/messages.js';
import { SIMILAR_QUERY_CODES, SIMILAR_QUERY_SCHEMA, SIMILAR_QUERY_VALIDATORS } from '../schemas/similar-query.js';
import { compileBody, compileQuery, parseBoolean, parseFilterParam, parseList, parsePositiveInteger, parseString, unitFloat } from '../../validation/index.js';

const parseBody = compileBody<SimilarQuery>(SIMILAR_QUERY_SCHEMA, SIMILAR_QUERY_CODES, { validators: SIMILAR_QUERY_VALIDATORS });

const parseQueryString = compileQuery({
  id: { parse: parseString, code: 'invalid_similar_id' },
  embedder: { parse: parseString, code: 'invalid_similar_embedder' },
  offset: { parse: parsePositiveInteger, code: 'invalid_similar_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_similar_limit' },
  attributesToRetrieve: { parse: parseList, code: 'invalid_similar_attributes_to_retrieve' },
  retrieveVectors: { parse: parseBoolean, code: 'invalid_similar_retrieve_vectors' },
  filter: { parse: parseFilterParam, code: 'invalid_similar_filter' },
  showRankingScore: { parse: parseBoolean, code: 'invalid_similar_show_ranking_score' },
  showRankingScoreDetails: { parse: parseBoolean, code: 'invalid_similar_show_ranking_score_details' },
  showPerformanceDetails: { parse: parseBoolean, code: 'invalid_similar_show_performance_details' },
  rankingScoreThreshold: { parse: unitFloat(rankingScoreThresholdProblem), code: 'invalid_similar_ranking_score_threshold' },
});

/** The GET parameters as the POST body they stand for; `id` and `embedder` are required, in that order. */
function fromQueryString({ id, embedder, ...rest }: ReturnType<typeof parseQueryString>): SimilarQuery {
  if (id === undefined) throw new ApiError('bad_request', 'Missing parameter `id`');
  if (embedder === undefined) throw new ApiError('bad_request', 'Missing parameter `embedder`');
  return { id, embedder, ...rest };
}

export const similarRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/similar',
    body: parseBody,
    handler: (ctx, deps) => similarDocuments(deps, ctx.caller, ctx.params.indexUid!, ctx.body),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/similar',
    query: parseQueryString,
    handler: (ctx, deps) => similarDocuments(deps, ctx.caller, ctx.params.indexUid!, fromQueryString(ctx.query)),
  }),
];
