/**
 * The authentication failures, with Meilisearch's codes and texts (errors.md §3.2, §4).
 * Callers: authenticate.ts (request authentication), caller.ts (index checks inside handlers).
 */
import { ApiError } from '../errors/api-error.js';

export function missingAuthorizationHeader(): ApiError {
  return new ApiError(
    'missing_authorization_header',
    'The Authorization header is missing. It must use the bearer authorization method.',
  );
}

/** 403 `invalid_api_key`, generic unless a more specific Meilisearch message applies. */
export function invalidApiKey(message = 'The provided API key is invalid.'): ApiError {
  return new ApiError('invalid_api_key', message);
}

export function missingMasterKey(): ApiError {
  return new ApiError(
    'missing_master_key',
    'Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.',
  );
}
