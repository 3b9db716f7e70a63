/**
 * What a networked search teaches about the remotes (network.md §7.6, v1.50's federated search):
 * when the network has shards, every remote whose error has a 5xx status (it failed, timed out,
 * could not be reached or answered nonsense) is marked unavailable, so that the next searches
 * pick another owner of its shards for a while. A refused key or another 4xx says nothing about
 * the remote's health and marks nothing.
 */
import type { ErrorBody } from '../errors/api-error.js';
import { ERROR_CODES } from '../errors/codes.js';
import type { SearchContext } from './context.js';

export function markFailedRemotes(network: Pick<SearchContext['network'], 'current' | 'availability'>, remoteErrors: Readonly<Record<string, ErrorBody>>): void {
  if (Object.keys(network.current().shards).length === 0) return;
  for (const [name, error] of Object.entries(remoteErrors)) {
    if (ERROR_CODES[error.code].status >= 500) network.availability.markFailed(name);
  }
}
