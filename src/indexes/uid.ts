/**
 * Index uids of path segments (`/indexes/{indexUid}/…`), checked by the routes and the index
 * reader: the format check of types/index-uid.ts, failing with 400 `invalid_index_uid` and the
 * bare message (no location prefix).
 */
import { ApiError } from '../errors/api-error.js';
import { invalidIndexUidMessage, isValidIndexUid } from '../types/index-uid.js';

/** Checks an index uid taken from a path segment; throws 400 `invalid_index_uid` otherwise. */
export function validateIndexUid(uid: string): string {
  if (!isValidIndexUid(uid)) throw new ApiError('invalid_index_uid', invalidIndexUidMessage(uid));
  return uid;
}
