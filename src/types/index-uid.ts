/**
 * Index uid format (Meilisearch `IndexUid`): 1 to 400 bytes of ASCII letters, digits, `-` and
 * `_` (so an integer written in decimal is a valid uid). The error text says "512 bytes" while
 * 400 is enforced: both are Meilisearch v1.50 behaviour, kept as-is (errors.md §4 item 8).
 *
 * Bodies and query strings use `indexUidProblem` as a validator so the message gets their location
 * prefix; path segments are checked by indexes/uid.ts (the bare message). A uid looked up as
 * written (the chat's search tool) is only refused when reserved (`.meili…`), in the index
 * scheduler's own words.
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

/** The prefix of the uids Meilisearch keeps for its own indexes (`.meili_dsr`). */
export const RESERVED_INDEX_UID_PREFIX = '.meili';

/**
 * The index scheduler's refusal of a reserved uid where a user index is looked up (its
 * `InvalidIndexUid`, worded apart from the format check's: no backticks, 400 bytes).
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
