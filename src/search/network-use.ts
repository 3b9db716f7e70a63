/**
 * Queries that name the network (network.md §7.1, §7.2): `useNetwork` and
 * `federationOptions.remote` / `queryPosition`, each needing the `network` experimental feature
 * with v1.50's messages. A federated request's queries are routed here: a query naming this
 * instance (`self`) or no remote runs locally; one naming a registered remote goes to it, with
 * its weight, its position in the request, no `remote`, and its filter ANDed with the caller's
 * tenant-token rules; a query using the network becomes one copy per part of the request's
 * partition (network-partition.ts: by remote without a leader, by shard with one, each copy
 * then filtered on its shard), this instance's copies running locally. Without a leader
 * `useNetwork` defaults to false and forwarded queries carry none; with one, to true, and
 * forwarded queries carry `useNetwork: false`, so that no remote fans out again.
 */
import type { Caller } from '../auth/caller.js';
import { ApiError } from '../errors/api-error.js';
import type { SearchContext } from './context.js';
import { checkedFilter, fuseFilters } from './filter.js';
import { inQuery, queryError } from './query-errors.js';
import type { QueryWithIndex } from './query.js';
import type { RemoteAddress } from './remote-search.js';
import { networkCopies, type NetworkCopy } from './network-partition.js';
import { canonicalFilter } from '../engine/filter-parser/index.js';

const DISCUSSION = 'See https://github.com/orgs/meilisearch/discussions/805';

export function featureNeeded(action: string): ApiError {
  return new ApiError('feature_not_enabled', `${action} requires enabling the \`network\` experimental feature. ${DISCUSSION}`);
}

/**
 * Whether a search query runs on the network: `useNetwork` needs the feature whatever its value;
 * without it, true when the network has a leader (sharding), else false.
 */
export function usesNetwork(ctx: SearchContext, useNetwork: boolean | null | undefined): boolean {
  if (useNetwork === undefined || useNetwork === null) return ctx.network.sharding();
  if (!ctx.features.enabled('network')) throw featureNeeded('passing `useNetwork` in a search query');
  return useNetwork;
}

/** A query this instance runs: `position` is what `_federation.queriesPosition` and ties read. */
export interface LocalQuery {
  readonly index: number;
  readonly position: number;
  readonly query: QueryWithIndex;
}

/** The queries sent to one remote, in its `/multi-search` body's form. */
export interface RemoteQueries {
  readonly name: string;
  readonly address: RemoteAddress;
  readonly queries: Record<string, unknown>[];
}

export interface QueryRoutes {
  readonly local: LocalQuery[];
  readonly remotes: RemoteQueries[];
  /** some query named a remote, this instance included: the response then has `remoteErrors` and hits say where they come from */
  readonly hasRemote: boolean;
  /** per query, the remote each of its copies went to (one copy naming none, unless it used the network) */
  readonly copies: readonly (readonly (string | null)[])[];
}

/**
 * Routes the queries of a federated request, query by query in request order, with
 * `check(index, query)` (the query's own checks) before each is routed.
 */
export function routeQueries(ctx: SearchContext, caller: Caller, queries: readonly QueryWithIndex[], check: (index: number, query: QueryWithIndex) => void): QueryRoutes {
  const local: LocalQuery[] = [];
  const remotes = new Map<string, RemoteQueries>();
  let hasRemote = false;
  // made at the first networked query and kept for the others, as v1.50 makes it
  let partition: NetworkCopy[] | undefined;
  const targets: (string | null)[][] = [];
  queries.forEach((query, index) => {
    check(index, query);
    const remote = query.federationOptions?.remote ?? null;
    let networked: boolean;
    try {
      networked = usesNetwork(ctx, query.useNetwork) && remote === null;
    } catch (err) {
      throw err instanceof ApiError ? inQuery(index, err) : err;
    }
    const copies: readonly { remote: string | null; shardFilter: string | null }[] = networked ? (partition ??= requestPartition(ctx)) : [{ remote, shardFilter: null }];
    targets.push(copies.map((copy) => copy.remote));
    const { useNetwork: _useNetwork, ...plain } = query;
    const sent = forwardable(ctx, plain);
    for (const { remote: target, shardFilter } of copies) {
      if (target !== null) {
        hasRemote = true;
        if (!ctx.features.enabled('network')) throw inQuery(index, featureNeeded('Performing a remote federated search'));
      }
      if (target === null || target === ctx.network.names().self) {
        const position = query.federationOptions?.queryPosition ?? null;
        if (position !== null && !ctx.features.enabled('network')) throw inQuery(index, featureNeeded('Using `federationOptions.queryPosition`'));
        local.push({ index, position: position ?? index, query: shardFilter === null ? plain : { ...plain, filter: fuseFilters(plain.filter, shardFilter) } });
        continue;
      }
      const address = ctx.network.remoteAddress(target);
      if (address === null) throw queryError(index, 'invalid_multi_search_remote', `Invalid \`.federation_options.remote\`: remote \`${target}\` is not registered`);
      const group = remotes.get(target) ?? { name: target, address, queries: [] };
      remotes.set(target, group);
      group.queries.push(forwarded(ctx, caller, sent, index, shardFilter));
    }
  });
  return { local, remotes: [...remotes.values()], hasRemote, copies: targets };
}

/**
 * A request as a remote receives it: with `useNetwork: false` in a sharded network, so that no
 * remote fans out again; unchanged otherwise.
 */
export function forwardable<T extends object>(ctx: SearchContext, request: T): T {
  return ctx.network.sharding() ? { ...request, useNetwork: false } : request;
}

/** The partition of this request's networked queries, over the remotes available now. */
export function requestPartition(ctx: SearchContext): NetworkCopy[] {
  return networkCopies(ctx.network.current(), (name) => ctx.network.availability.status(name) === 'available');
}

/**
 * The query as a remote receives it: its weight and position, the caller's tenant-token rules in
 * its filter, then its shard's filter when the partition is by shard.
 */
function forwarded(ctx: SearchContext, caller: Caller, query: QueryWithIndex, index: number, shardFilter: string | null): Record<string, unknown> {
  const { federationOptions, filter, ...rest } = query;
  const filters = [filter, caller.searchFilter(query.indexUid)]
    .map((one) => checkedFilter(ctx.features, one, 'invalid_search_filter'))
    .filter((ast) => ast !== null)
    .map((ast): string => canonicalFilter(ast));
  if (shardFilter !== null) filters.push(shardFilter);
  const out: Record<string, unknown> = { ...rest };
  if (filters.length === 1) out.filter = filters[0];
  else if (filters.length > 1) out.filter = filters;
  out.federationOptions = { weight: federationOptions?.weight ?? 1, queryPosition: index };
  return out;
}
