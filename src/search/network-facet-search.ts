/**
 * `POST /indexes/{uid}/facet-search` with `useNetwork` (network.md §7.1, §7.3; v1.50's
 * `facet_search::search_federated`). The request is partitioned like a search
 * (network-partition.ts); each copy for another instance is the request itself, its filter ANDed
 * with the caller's tenant-token rules and the copy's shard filter, sent to
 * `<remote>/indexes/{uid}/facet-search` (remote-search.ts: deadline, retries, errors). This
 * instance always searches its own index, restricted to the shards of its copies when it has any
 * (v1.50 searches it whole otherwise, even when it is not one of the remotes). Facet hits are
 * merged by value (UTF-8 order, counts of equal values summed); when the facet is ordered by
 * count, the merged hits are then sorted by total count. `facetQuery` and `processingTimeMs` are
 * this instance's; `remoteErrors` is always present.
 */
import type { Caller } from '../auth/caller.js';
import type { ErrorBody } from '../errors/api-error.js';
import type { FacetHit } from '../engine/facets/facet-hits.js';
import { validateIndexUid } from '../indexes/uid.js';
import { isCount } from '../network/remote-answer.js';
import { isJsonObject } from '../types/json-text.js';
import { compareBytes } from '../types/bytes.js';
import type { SearchContext } from './context.js';
import { facetSearch, type FacetSearchQuery } from './facet-search.js';
import { fuseFilters } from './filter.js';
import { forwardable, requestPartition, usesNetwork } from './network-use.js';
import { sendCopies, sortedErrors } from './network-requests.js';
import { queued } from './queued.js';

/** The facet search route's service: over the network when `useNetwork` says so (or defaults to it), else here only. */
export async function facetSearchRequest(ctx: SearchContext, caller: Caller, rawUid: string, request: FacetSearchQuery): Promise<Record<string, unknown>> {
  // the uid's format first, then `useNetwork`'s feature, then the index itself (v1.50's order)
  validateIndexUid(rawUid);
  // under a search-queue permit, as v1.50's facet search (taken before `useNetwork` is read)
  return queued(ctx, undefined, async () => {
    if (!usesNetwork(ctx, request.useNetwork)) return (await facetSearch(ctx, caller, rawUid, request)).body;
    return networkFacetSearch(ctx, caller, rawUid, request);
  });
}

async function networkFacetSearch(ctx: SearchContext, caller: Caller, uid: string, request: FacetSearchQuery): Promise<Record<string, unknown>> {
  const self = ctx.network.names().self;
  const copies = requestPartition(ctx);
  const { useNetwork: _useNetwork, ...plain } = request;
  // the tenant token's rules go with the request, before any shard filter
  const filter = fuseFilters(plain.filter, caller.searchFilter(uid));
  const sent = forwardable(ctx, plain);
  const abandoned = new AbortController();
  const answers = sendCopies(ctx, copies, {
    path: `/indexes/${encodeURIComponent(uid)}/facet-search`,
    body: ({ shardFilter }) => ({ ...sent, filter: fuseFilters(filter, shardFilter) }),
    accepts: isFacetSearchResponse,
    signal: abandoned.signal,
  });
  try {
    const localShards = copies.filter(({ remote, shardFilter }) => remote === self && shardFilter !== null).map(({ shardFilter }) => shardFilter);
    // the shards this instance answers for, ORed (none: its whole index)
    const local = await facetSearch(ctx, caller, uid, localShards.length === 0 ? plain : { ...plain, filter: fuseFilters(plain.filter, [localShards]) });
    const lists: FacetHit[][] = [];
    const remoteErrors: Record<string, ErrorBody> = {};
    for (const { remote, answer } of await Promise.all(answers)) {
      if (answer.ok) lists.push(answer.body.facetHits as FacetHit[]);
      else remoteErrors[remote] = answer.error;
    }
    lists.push(local.body.facetHits);
    return { ...local.body, facetHits: mergeFacetHits(lists, local.order), remoteErrors: sortedErrors(remoteErrors) };
  } finally {
    // a failed local search leaves no remote request running
    abandoned.abort();
  }
}

/** Whether a remote's answer reads as a facet search result. */
export function isFacetSearchResponse(body: Record<string, unknown>): boolean {
  const hits = body.facetHits;
  const query = body.facetQuery;
  return (
    Array.isArray(hits) &&
    hits.every((hit) => isJsonObject(hit) && typeof hit.value === 'string' && isCount(hit.count)) &&
    (query === undefined || query === null || typeof query === 'string') &&
    typeof body.processingTimeMs === 'number'
  );
}

/**
 * Facet hit lists merged as v1.50 merges them: a k-way merge by value (UTF-8 order; each list is
 * taken in its own order), equal neighbours coalesced with their counts summed; in count order
 * each list is first sorted by value, and the merged hits then by total count (descending).
 */
export function mergeFacetHits(lists: readonly (readonly FacetHit[])[], order: 'alpha' | 'count'): FacetHit[] {
  const heads = (order === 'count' ? lists.map((list) => [...list].sort((a, b) => compareBytes(a.value, b.value))) : lists).map((list) => ({ list, at: 0 }));
  const merged: FacetHit[] = [];
  for (;;) {
    let next: (typeof heads)[number] | undefined;
    for (const head of heads) {
      if (head.at < head.list.length && (next === undefined || compareBytes(head.list[head.at]!.value, next.list[next.at]!.value) < 0)) next = head;
    }
    if (next === undefined) break;
    const hit = next.list[next.at++]!;
    const last = merged[merged.length - 1];
    if (last !== undefined && last.value === hit.value) last.count += hit.count;
    else merged.push({ value: hit.value, count: hit.count });
  }
  return order === 'count' ? merged.sort((a, b) => b.count - a.count) : merged;
}
