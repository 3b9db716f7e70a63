/**
 * How `/multi-search` locates an error in its request: ``Inside `.queries[<i>]`: `` in front of
 * the single-search message, and a missing index answering 400 rather than 404.
 */
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';

/**
 * An error of one query or facet index, re-worded. A missing index answers 400 here, not the 404 of
 * single-index routes: Meilisearch's multi-search looks indexes up with BAD_REQUEST as their status.
 */
export function reworded(err: ApiError, message: string): ApiError {
  return new ApiError(err.code as ErrorCode, message, err.code === 'index_not_found' ? 400 : err.status);
}

/** Runs `work` for query `position`, prefixing its error as Meilisearch does. */
export function atQuery<T>(position: number, work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw atQueryError(position, err);
  }
}

/** `atQuery` for asynchronous work. */
export async function atQueryAsync<T>(position: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw atQueryError(position, err);
  }
}

function atQueryError(position: number, err: unknown): unknown {
  return err instanceof ApiError ? inQuery(position, err) : err;
}

/** `err` as query `position` reports it. */
export function inQuery(position: number, err: ApiError): ApiError {
  return reworded(err, `Inside \`.queries[${position}]\`: ${err.message}`);
}

export function queryError(position: number, code: ErrorCode, message: string): ApiError {
  return new ApiError(code, `Inside \`.queries[${position}]\`: ${message}`);
}

/**
 * Hits one `/multi-search` may gather in all (Quarry's bound, not Meilisearch's): the answer is
 * built in memory, so thousands of queries with large limits could exhaust the process.
 */
export const MAX_MULTI_SEARCH_HITS = 100_000;

/**
 * Facet values one `/multi-search` may gather in all, over its queries' facet distributions
 * (Quarry's bound, not Meilisearch's): with `maxValuesPerFacet` raised, 500 queries asking every
 * facet of the movies gathered gigabytes and exhausted the process.
 */
export const MAX_MULTI_SEARCH_FACET_VALUES = 1_000_000;

/** What the queries of one multi-search gather in all, its bound, and what passing it answers. */
const GATHERED = {
  hits: {
    max: MAX_MULTI_SEARCH_HITS,
    code: 'invalid_search_limit',
    message: `The queries of this multi-search gather more than ${MAX_MULTI_SEARCH_HITS} hits in all. Lower their \`limit\` or \`hitsPerPage\`, or split them into several requests.`,
  },
  facetValues: {
    max: MAX_MULTI_SEARCH_FACET_VALUES,
    code: 'invalid_search_facets',
    message: `The queries of this multi-search gather more than ${MAX_MULTI_SEARCH_FACET_VALUES} facet values in all. Ask for fewer \`facets\`, lower the index's \`faceting.maxValuesPerFacet\`, or split the queries into several requests.`,
  },
} as const satisfies Record<string, { max: number; code: ErrorCode; message: string }>;

/** Refuses the request once the queries up to `position` have gathered more `what` than its bound. */
function checkGathered(what: keyof typeof GATHERED, position: number, gathered: number): void {
  const { max, code, message } = GATHERED[what];
  if (gathered > max) throw queryError(position, code, message);
}

/** Refuses the request once the queries up to `position` have gathered more hits than the bound. */
export const checkGatheredHits = (position: number, gathered: number): void => checkGathered('hits', position, gathered);

/** Refuses the request once the queries up to `position` have gathered more facet values than the bound. */
export const checkGatheredFacetValues = (position: number, gathered: number): void => checkGathered('facetValues', position, gathered);
