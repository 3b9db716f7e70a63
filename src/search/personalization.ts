/**
 * `personalize` (search.md): v1.50 reranks a search's hits with its personalization service, which
 * runs only with `--experimental-personalization-api-key` (a Cohere reranker). Quarry has no such
 * service, so a search that asks for it fails as v1.50's does without one, once the search itself
 * ran (its own errors come first), rather than answering hits that were not reranked.
 */
import { ApiError } from '../errors/api-error.js';

/** Throws v1.50's `feature_not_enabled` when `personalize` is given. */
export function refusePersonalization(personalize: { userContext: string } | null | undefined): void {
  if (personalize === undefined || personalize === null) return;
  throw new ApiError(
    'feature_not_enabled',
    'reranking search results requires enabling the `personalization` experimental feature. See https://github.com/orgs/meilisearch/discussions/866',
  );
}
