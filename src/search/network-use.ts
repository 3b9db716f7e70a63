/**
 * Queries that name the network (network.md §7): `useNetwork` and `federationOptions.remote`.
 * Both need the `network` experimental feature, with v1.50's messages. A remote must be
 * registered; naming this instance (`self`) searches locally, as v1.50 does (and the request's
 * hits then carry `_federation.remote`, federation.ts). Quarry does not
 * send searches to other instances yet (issue 26), so a query that would — `useNetwork: true`,
 * or a remote other than `self` — is refused with `unimplemented_network_search` rather than
 * answered from the local indexes alone.
 */
import { ApiError } from '../errors/api-error.js';
import type { SearchContext } from './context.js';
import { queryError } from './query-errors.js';

const DISCUSSION = 'See https://github.com/orgs/meilisearch/discussions/805';

function featureNeeded(action: string): ApiError {
  return new ApiError('feature_not_enabled', `${action} requires enabling the \`network\` experimental feature. ${DISCUSSION}`);
}

function unimplemented(what: string): ApiError {
  return new ApiError('unimplemented_network_search', `${what} is not supported by Quarry yet: it searches its own indexes only.`);
}

/** `useNetwork` of a search query: only `false` (the default without a leader) can be served. */
export function checkUseNetwork(ctx: SearchContext, useNetwork: boolean | null | undefined): void {
  if (useNetwork === undefined) return;
  if (!ctx.features.enabled('network')) throw featureNeeded('passing `useNetwork` in a search query');
  if (useNetwork === true) throw unimplemented('Searching the network with `useNetwork: true`');
}

/** `federationOptions.remote` of federated query `position`: `self` is served locally. */
export function checkRemote(ctx: SearchContext, position: number, remote: string | null | undefined, useNetwork: boolean | null | undefined): void {
  if (remote === undefined || remote === null) return;
  if (!ctx.features.enabled('network')) throw featureNeeded('Performing a remote federated search');
  if (useNetwork !== undefined && useNetwork !== null) {
    throw queryError(
      position,
      'invalid_multi_search_federation_options',
      'Using `.useNetwork` is not allowed as the same time as `.federationOptions.remote`.\n  - Hint: to perform an explicit query against a remote, remove `.useNetwork`.\n  - Hint: to automatically perform queries against the entire network, remove `.federationOptions.remote`.',
    );
  }
  const { self, remotes } = ctx.network.names();
  if (!remotes.includes(remote)) throw queryError(position, 'invalid_multi_search_remote', `Invalid \`.federation_options.remote\`: remote \`${remote}\` is not registered`);
  if (remote !== self) throw unimplemented(`Sending query #${position} to remote \`${remote}\``);
}
