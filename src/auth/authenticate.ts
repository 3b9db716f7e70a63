/**
 * Request authentication (keys-auth.md §7, http-conventions.md §7): parses the Authorization
 * header and decides whether the token may perform the route's actions on the path's index.
 * Runs before any other request processing. API keys and tenant tokens plug in through
 * `KeyResolver`; until they exist only the master key authenticates.
 */
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import { KEY_ACTIONS, type Action } from '../types/key.js';

export type Credential = { kind: 'none' } | { kind: 'token'; token: string };

/**
 * Who is calling, as handlers need it: lists (indexes, tasks, batches, stats) keep only the
 * indexes the caller may see, and some routes check an index named in the body.
 */
export interface Caller {
  /** Whether the caller may see `uid` in lists. */
  canSeeIndex(uid: string): boolean;
  /** The same as a predicate for the task queue's filtered lists; undefined when unrestricted. */
  indexFilter(): ((uid: string) => boolean) | undefined;
  /** Throws `invalid_api_key` unless the caller may perform `action` on index `uid`. */
  assertIndexAction(action: Action, uid: string): void;
}

/** The master key, or any request when no master key is set. */
export const UNRESTRICTED: Caller = {
  canSeeIndex: () => true,
  indexFilter: () => undefined,
  assertIndexAction: () => undefined,
};

const INVALID_API_KEY = 'The provided API key is invalid.';

export function missingAuthorizationHeader(): ApiError {
  return new ApiError(
    'missing_authorization_header',
    'The Authorization header is missing. It must use the bearer authorization method.',
  );
}

export function invalidApiKey(message = INVALID_API_KEY): ApiError {
  return new ApiError('invalid_api_key', message);
}

/** Header parsing rules, applied even when no master key is set. */
export function parseAuthorization(header: string | undefined): Credential {
  if (header === undefined) return { kind: 'none' };
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme !== 'Bearer') throw missingAuthorizationHeader();
  if (space === -1) throw invalidApiKey();
  return { kind: 'token', token: header.slice(space + 1) };
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  // Compare equal-length buffers so the time taken does not reveal a prefix match.
  return left.length === right.length && timingSafeEqual(left, right);
}

export class Authenticator {
  constructor(private readonly masterKey: string | null) {}

  get hasMasterKey(): boolean {
    return this.masterKey !== null;
  }

  /** Throws the Meilisearch auth error when the request may not proceed. */
  authenticate(header: string | undefined, actions: readonly Action[]): Caller {
    const credential = parseAuthorization(header);
    if (this.masterKey === null) {
      if (actions.some((a) => KEY_ACTIONS.includes(a))) {
        throw new ApiError(
          'missing_master_key',
          'Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.',
        );
      }
      return UNRESTRICTED;
    }
    if (credential.kind === 'none') throw missingAuthorizationHeader();
    if (sameSecret(credential.token, this.masterKey)) return UNRESTRICTED;
    throw invalidApiKey();
  }
}
