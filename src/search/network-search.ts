/**
 * A search (or non-federated multi-search query) with `useNetwork: true` (network.md §7.1): run
 * as a one-query federated search over the network, then answered in a single search's shape,
 * as v1.50's `into_search_result`. The query's window, `distinct`, `showPerformanceDetails` and
 * facets move to the federation; hits keep `_federation` only when it names their instance; the
 * index's facets become `facetDistribution`/`facetStats`, `remoteErrors` lists the remotes
 * that failed, and `metadata` (`Meili-Include-Metadata`) is that of the query's last copy sent
 * over the network (its `query` and `remote` included).
 */
import { markupBudget, type MarkupBudget } from '../engine/search/format.js';
import type { Caller } from '../auth/caller.js';
import type { SearchContext } from './context.js';
import { federatedResponse } from './federation.js';
import type { PerformanceSteps } from './performance-details.js';
import type { Federation, SearchQuery } from './query.js';
import { isJsonObject } from '../types/json-text.js';

export async function networkSearchResponse(
  ctx: SearchContext,
  caller: Caller,
  uid: string,
  query: SearchQuery,
  metadata: boolean,
  timer: PerformanceSteps | undefined,
  markup: MarkupBudget = markupBudget(),
): Promise<{ body: Record<string, unknown>; degraded: boolean }> {
  const { offset, limit, page, hitsPerPage, distinct, showPerformanceDetails, facets, personalize, ...rest } = query;
  const federation: Federation = {};
  if (offset !== undefined) federation.offset = offset;
  if (limit !== undefined) federation.limit = limit;
  if (page !== undefined && page !== null) federation.page = page;
  if (hitsPerPage !== undefined && hitsPerPage !== null) federation.hitsPerPage = hitsPerPage;
  if (distinct !== undefined && distinct !== null) federation.distinct = distinct;
  if (showPerformanceDetails === true) federation.showPerformanceDetails = true;
  if (facets !== undefined && facets !== null && facets.length > 0) federation.facetsByIndex = { [uid]: facets };
  if (personalize !== undefined && personalize !== null) federation.personalize = personalize;
  const options = { proxy: false, includeMetadata: metadata, metadataPerCopy: true };
  const federated = await federatedResponse(ctx, caller, [{ ...rest, indexUid: uid }], federation, options, showPerformanceDetails === true ? timer : undefined, markup);
  return { body: asSearchResult(federated, query.q ?? '', uid), degraded: false };
}

/** A federated response in a single search's shape and key order. */
function asSearchResult(federated: Record<string, unknown>, q: string, uid: string): Record<string, unknown> {
  const { hits, queryVectors, processingTimeMs, facetsByIndex, requestUid, metadata, remoteErrors, semanticHitCount, performanceDetails, ...window } = federated;
  const body: Record<string, unknown> = { hits: (hits as Record<string, unknown>[]).map(withRemoteOnly), query: q };
  const vectors = isJsonObject(queryVectors) ? Object.values(queryVectors) : [];
  if (vectors.length > 0) body.queryVector = vectors[vectors.length - 1];
  body.processingTimeMs = processingTimeMs;
  Object.assign(body, window);
  const facets = isJsonObject(facetsByIndex) && isJsonObject(facetsByIndex[uid]) ? facetsByIndex[uid] : null;
  if (facets !== null) {
    body.facetDistribution = facets.distribution;
    body.facetStats = facets.stats;
  }
  body.requestUid = requestUid;
  // the entry of the query's last copy, as v1.50 keeps the last of a federated answer's
  if (Array.isArray(metadata) && metadata.length > 0) body.metadata = metadata[metadata.length - 1];
  if (performanceDetails !== undefined) body.performanceDetails = performanceDetails;
  if (remoteErrors !== undefined) body.remoteErrors = remoteErrors;
  if (semanticHitCount !== undefined) body.semanticHitCount = semanticHitCount;
  return body;
}

/** A hit keeps `_federation` only when it says which instance answered it (v1.50's `OnNetworkOnly`). */
function withRemoteOnly(hit: Record<string, unknown>): Record<string, unknown> {
  if (isJsonObject(hit._federation) && Object.hasOwn(hit._federation, 'remote')) return hit;
  const { _federation: _dropped, ...rest } = hit;
  return rest;
}
