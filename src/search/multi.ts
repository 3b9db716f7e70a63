/**
 * `/multi-search` without `federation` (search.md §10.1): one single-search response per query,
 * each with its `indexUid`. Every queried index is checked against the caller's key, and the
 * first failing query answers for the whole request, as does a request whose queries gather more
 * than MAX_MULTI_SEARCH_HITS hits or MAX_MULTI_SEARCH_FACET_VALUES facet values (query-errors.ts).
 * Between queries the request gives other requests their turn (time-slices.ts). A query with
 * `useNetwork: true` runs over the network (network-search.ts). An answer of many hits is written
 * in pieces (streamed-answer.ts).
 */
import { markupBudget } from '../engine/search/format.js';
import type { Caller } from '../auth/caller.js';
import { ApiError } from '../errors/api-error.js';
import { uuidV7 } from '../types/uuid-v7.js';
import type { SearchContext } from './context.js';
import { atQueryAsync, checkGatheredFacetValues, checkGatheredHits } from './query-errors.js';
import type { QueryWithIndex } from './query.js';
import { networkSearchResponse } from './network-search.js';
import { usesNetwork } from './network-use.js';
import { searchResponse } from './single.js';
import { PerformanceSteps } from './performance-details.js';
import { queued } from './queued.js';
import { TimeSlices } from '../types/time-slices.js';
import { streamedWhenLong } from './streamed-answer.js';
import type { StreamedJson } from '../types/streamed-json.js';
import { withAnswerFloats } from './answer-floats.js';

export async function multiSearch(
  ctx: SearchContext,
  caller: Caller,
  queries: readonly QueryWithIndex[],
  metadata: boolean,
): Promise<{ results: Record<string, unknown>[] } | StreamedJson> {
  // one timer for the whole request, as v1.50: a result's performanceDetails include the queries before it
  const timer = queries.some((query) => query.showPerformanceDetails === true) ? new PerformanceSteps() : undefined;
  const { results, gathered } = await queued(ctx, timer, () => searchEach(ctx, caller, queries, metadata, timer));
  return streamedWhenLong(withAnswerFloats({ results }), gathered);
}

async function searchEach(
  ctx: SearchContext,
  caller: Caller,
  queries: readonly QueryWithIndex[],
  metadata: boolean,
  timer: PerformanceSteps | undefined,
): Promise<{ results: Record<string, unknown>[]; gathered: number }> {
  const requestUid = uuidV7();
  const slices = new TimeSlices();
  // the tags and crop markers of every query's hits together
  const markup = markupBudget();
  const results: Record<string, unknown>[] = [];
  let gathered = 0;
  let facetValues = 0;
  // one query after the other, so that the first failing query is the one reported
  for (const [position, { indexUid, federationOptions, ...query }] of queries.entries()) {
    await slices.pause();
    if (federationOptions !== undefined && federationOptions !== null) {
      throw new ApiError(
        'invalid_multi_search_federation_options',
        `Inside \`.queries[${position}]\`: Using \`federationOptions\` is not allowed in a non-federated search.\n - Hint: remove \`federationOptions\` from the query or add \`federation\` to the request.`,
      );
    }
    const body = await atQueryAsync(position, async () => {
      caller.assertIndexAction('search', indexUid);
      if (usesNetwork(ctx, query.useNetwork)) return (await networkSearchResponse(ctx, caller, indexUid, query, metadata, timer, markup)).body;
      return (await searchResponse(ctx, caller, indexUid, query, requestUid, metadata, timer, markup)).body;
    });
    gathered += (body.hits as unknown[]).length;
    checkGatheredHits(position, gathered);
    facetValues += facetValuesOf(body.facetDistribution);
    checkGatheredFacetValues(position, facetValues);
    results.push({ indexUid, ...body });
  }
  return { results, gathered };
}

/** The values a facet distribution counts, over all its facets. */
function facetValuesOf(distribution: unknown): number {
  if (typeof distribution !== 'object' || distribution === null) return 0;
  let values = 0;
  for (const counts of Object.values(distribution)) values += typeof counts === 'object' && counts !== null ? Object.keys(counts).length : 0;
  return values;
}
