/**
 * Index uid patterns of API keys and tenant tokens (keys-auth.md §5): `*` (every index),
 * `prefix*` (every uid starting with `prefix`) or an exact uid.
 *
 * Pure. Callers: the `POST /keys` route (validation), caller.ts and authenticate.ts (matching,
 * and the pattern lists printed in 403 messages).
 * Invariant: only keys' patterns are validated; tenant-token patterns are any strings, as
 * Meilisearch reads them without validation.
 */
import { compareBytes } from '../types/bytes.js';
import { isValidIndexUid } from '../types/index-uid.js';
import { rustDebugString } from '../types/rust-debug.js';

/** Why `pattern` is not a valid key index pattern, or `undefined` when it is one. */
export function indexPatternProblem(pattern: string): string | undefined {
  const prefix = pattern.endsWith('*') ? pattern.slice(0, -1) : pattern;
  if (pattern === '*' || isValidIndexUid(prefix)) return undefined;
  // Meilisearch names the part it validated: the prefix of a `prefix*` pattern.
  return (
    `\`${prefix}\` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing ` +
    'only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).'
  );
}

/** Whether `pattern` matches index `uid` (a trailing `*` makes it a prefix). */
export function patternMatches(pattern: string, uid: string): boolean {
  return pattern.endsWith('*') ? uid.startsWith(pattern.slice(0, -1)) : pattern === uid;
}

/** Whether any of `patterns` matches `uid`. */
export function patternsCover(patterns: Iterable<string>, uid: string): boolean {
  for (const pattern of patterns) if (patternMatches(pattern, uid)) return true;
  return false;
}

/**
 * The patterns as Meilisearch prints them in 403 messages: de-duplicated, sorted by bytes, as a
 * Rust debug list (`["catto", "doggo"]`).
 */
export function formatPatternList(patterns: Iterable<string>): string {
  const sorted = [...new Set(patterns)].sort(compareBytes);
  return `[${sorted.map(rustDebugString).join(', ')}]`;
}
