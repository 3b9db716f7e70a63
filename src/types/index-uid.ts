/**
 * Index uid format (Meilisearch `IndexUid`): 1 to 400 bytes of ASCII letters, digits, `-` and
 * `_` (so an integer written in decimal is a valid uid). The error text says "512 bytes" while
 * 400 is enforced: both are Meilisearch v1.50 behaviour, kept as-is (errors.md §4 item 8).
 *
 * Bodies and query strings use `indexUidProblem` as a validator so the message gets their location
 * prefix; path segments are checked by indexes/uid.ts (the bare message). A uid handed to v1.50's
 * `user_index` unchecked (the fields route, the chat's search tool) is only refused when reserved
 * (`.meili…`), in the index scheduler's own words (`reservedIndexUidMessage`).
 */

const MAX_INDEX_UID_BYTES = 400;
const INDEX_UID_CHARS = /^[A-Za-z0-9_-]+$/;

export function isValidIndexUid(uid: string): boolean {
  // The character class is ASCII-only, so the length in bytes is the length in UTF-16 units.
  return INDEX_UID_CHARS.test(uid) && uid.length <= MAX_INDEX_UID_BYTES;
}

export function invalidIndexUidMessage(uid: string): string {
  return (
    `\`${uid}\` is not a valid index uid. Index uid can be an integer or a string containing only ` +
    'alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'
  );
}

/** The prefix of the uids v1.50 keeps for its own indexes (`.meili_dsr`; `UserIndex::new` refuses them). */
export const RESERVED_INDEX_UID_PREFIX = '.meili';

/**
 * The index scheduler's `InvalidIndexUid` (v1.50 index-scheduler/src/error.rs), for a reserved uid
 * reaching `user_index` unchecked: no backticks, and the 400 bytes it enforces.
 */
export function reservedIndexUidMessage(uid: string): string {
  return (
    `${uid} is not a valid index uid. Index uid can be an integer or a string containing only ` +
    'alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 400 bytes.'
  );
}

/** Validator form: the reason `uid` is not an index uid, or `undefined` when it is one. */
export function indexUidProblem(uid: unknown): string | undefined {
  return typeof uid === 'string' && isValidIndexUid(uid) ? undefined : invalidIndexUidMessage(String(uid));
}
