/**
 * `POST` and `GET /indexes/{indexUid}/search` (search.md §1–§8): the body or query string
 * validated with Meilisearch's per-parameter codes and messages (deserr), then one search by the
 * search service (src/search/single.ts), which checks the rest in Meilisearch's order.
 * `Meili-Include-Metadata: true` adds `metadata` to the result (multi-search: to each result).
 * `/search` counts the searches the time budget cut short for /metrics (multi-search does not,
 * as in Meilisearch). An answer of many hits is written in pieces (search/streamed-answer.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../../auth/caller.js';
import { ApiError } from '../../errors/api-error.js';
import type { SearchQuery } from '../../search/query.js';
import { searchRequest } from '../../search/search-request.js';
import { streamedWhenLong } from '../../search/streamed-answer.js';
import type { StreamedJson } from '../../types/streamed-json.js';
import { parseRustF64 } from '../../types/rust-float.js';
import { LOCALES, LOCALES_BY_LENGTH } from '../../settings/locales.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../route.js';
import { parseSearchBody, STRATEGIES } from '../schemas/search-query.js';
import { rankingScoreThresholdProblem, semanticRatioProblem } from '../../settings/messages.js';
import {
  compileQuery,
  parseBoolean,
  parseEnum,
  parseFilterParam,
  parseList,
  parsePositiveInteger,
  parseSortList,
  parseString,
  QueryValueError,
  refuseNullFilter,
  unitFloat,
  type ValueParser,
} from '../../validation/index.js';
import { metricsRecorder } from '../request-metrics.js';


/** GET lists: split on `,`, empty items dropped, no trimming. */
const parseLocales: ValueParser<string[]> = (raw) =>
  parseList(raw).map((locale) => {
    if (!LOCALES.includes(locale)) throw new QueryValueError(`Unsupported locale \`${locale}\`, expected one of ${LOCALES_BY_LENGTH.join(', ')}`);
    return locale;
  });

// Each item a float as Rust reads it; v1.50 answers Rust's ParseFloatError text, and `inf`, `nan`
// and overflowing values, which Rust reads, are refused alike, as no vector holds them
const parseVector: ValueParser<number[]> = (raw) =>
  parseList(raw).map((item) => {
    const value = parseRustF64(item) ?? Number.NaN;
    if (!Number.isFinite(value)) throw new QueryValueError('invalid float literal');
    return value;
  });

const parseQueryString = compileQuery({
  q: { parse: parseString, code: 'invalid_search_q' },
  offset: { parse: parsePositiveInteger, code: 'invalid_search_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_search_limit' },
  page: { parse: parsePositiveInteger, code: 'invalid_search_page' },
  hitsPerPage: { parse: parsePositiveInteger, code: 'invalid_search_hits_per_page' },
  attributesToRetrieve: { parse: parseList, code: 'invalid_search_attributes_to_retrieve' },
  attributesToCrop: { parse: parseList, code: 'invalid_search_attributes_to_crop' },
  cropLength: { parse: parsePositiveInteger, code: 'invalid_search_crop_length' },
  cropMarker: { parse: parseString, code: 'invalid_search_crop_marker' },
  attributesToHighlight: { parse: parseList, code: 'invalid_search_attributes_to_highlight' },
  highlightPreTag: { parse: parseString, code: 'invalid_search_highlight_pre_tag' },
  highlightPostTag: { parse: parseString, code: 'invalid_search_highlight_post_tag' },
  showMatchesPosition: { parse: parseBoolean, code: 'invalid_search_show_matches_position' },
  filter: { parse: parseFilterParam, code: 'invalid_search_filter' },
  sort: { parse: parseSortList, code: 'invalid_search_sort' },
  distinct: { parse: parseString, code: 'invalid_search_distinct' },
  facets: { parse: parseList, code: 'invalid_search_facets' },
  matchingStrategy: { parse: parseEnum(STRATEGIES), code: 'invalid_search_matching_strategy' },
  attributesToSearchOn: { parse: parseList, code: 'invalid_search_attributes_to_search_on' },
  rankingScoreThreshold: { parse: unitFloat(rankingScoreThresholdProblem), code: 'invalid_search_ranking_score_threshold' },
  locales: { parse: parseLocales, code: 'invalid_search_locales' },
  hybridEmbedder: { parse: parseString, code: 'invalid_search_embedder' },
  hybridSemanticRatio: { parse: unitFloat(semanticRatioProblem), code: 'invalid_search_semantic_ratio' },
  vector: { parse: parseVector, code: 'invalid_search_vector' },
  retrieveVectors: { parse: parseBoolean, code: 'invalid_search_retrieve_vectors' },
  personalizeUserContext: { parse: parseString, code: 'invalid_search_personalize_user_context' },
  useNetwork: { parse: parseBoolean, code: 'invalid_search_use_network' },
  showRankingScore: { parse: parseBoolean, code: 'invalid_search_show_ranking_score' },
  showRankingScoreDetails: { parse: parseBoolean, code: 'invalid_search_show_ranking_score_details' },
  showPerformanceDetails: { parse: parseBoolean, code: 'invalid_search_show_performance_details' },
});

/** The GET parameters as the POST body they stand for. */
function fromQueryString(query: ReturnType<typeof parseQueryString>): SearchQuery {
  const { hybridEmbedder, hybridSemanticRatio, personalizeUserContext, ...rest } = query;
  if (hybridSemanticRatio !== undefined && hybridEmbedder === undefined) {
    throw new ApiError('invalid_search_hybrid_query', '`hybridEmbedder` is mandatory when `hybridSemanticRatio` is present');
  }
  if (rest.vector !== undefined && hybridEmbedder === undefined) {
    throw new ApiError('missing_search_hybrid', '`hybridEmbedder` is mandatory when `vector` is present');
  }
  refuseNullFilter(rest.filter, 'invalid_search_filter');
  const out: SearchQuery = { ...rest };
  if (hybridEmbedder !== undefined) out.hybrid = { embedder: hybridEmbedder, ...(hybridSemanticRatio === undefined ? {} : { semanticRatio: hybridSemanticRatio }) };
  if (personalizeUserContext !== undefined) out.personalize = { userContext: personalizeUserContext };
  return out;
}

/**
 * Whether the request carries `Meili-Include-Metadata: true` (or `1`, in any case), which adds
 * `metadata` to each search result (search.md §5); any other value, or none, leaves it out.
 */
export function wantsMetadata(headers: IncomingHttpHeaders): boolean {
  const value = headers['meili-include-metadata'];
  return typeof value === 'string' && ['true', '1'].includes(value.toLowerCase());
}

async function countedSearch(deps: AppDeps, headers: IncomingHttpHeaders, caller: Caller, uid: string, query: SearchQuery): Promise<Record<string, unknown> | StreamedJson> {
  if (query.personalize !== undefined && query.personalize !== null) metricsRecorder(deps).personalizedSearch();
  const { body, degraded } = await searchRequest(deps, caller, uid, query, wantsMetadata(headers));
  if (degraded) metricsRecorder(deps).degradedSearch();
  return streamedWhenLong(body, (body.hits as unknown[]).length);
}

export const searchRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/search',
    body: parseSearchBody,
    handler: (ctx, deps) => countedSearch(deps, ctx.headers, ctx.caller, ctx.params.indexUid!, ctx.body),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/search',
    query: parseQueryString,
    handler: (ctx, deps) => countedSearch(deps, ctx.headers, ctx.caller, ctx.params.indexUid!, fromQueryString(ctx.query)),
  }),
];
