/**
 * Key dates: the `expiresAt` formats Meilisearch accepts and its message for the others
 * (keys-auth.md §1, §6.1), on types/dates.ts (the clock, RFC 3339).
 *
 * `createdAt`/`updatedAt` print in UTC; `expiresAt` keeps the offset it was given.
 * Callers: key-store.ts, the `POST /keys` route (through `parseExpiresAt`). Pure.
 */
import { formatDateTime, instantOf, parseRfc3339, TIME_CRATE_RFC3339, utcDateTime, type DateTimeParts } from '../types/dates.js';

/** An expiration date as given (its offset kept for display) and as an instant. */
export interface ExpirationDate {
  /** RFC 3339 in the offset it was given (`Z` for UTC). */
  readonly text: string;
  readonly ns: bigint;
}

const PRIMITIVE = /^([+-]?)(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * Reads an `expiresAt` string: RFC 3339 with an offset, or `YYYY-MM-DDTHH:MM:SS`,
 * `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD` taken as UTC. `undefined` when it is none of those or is
 * not strictly later than `now`.
 */
export function parseExpiresAt(raw: string, now: bigint): ExpirationDate | undefined {
  const parts = parseRfc3339(raw, TIME_CRATE_RFC3339) ?? parsePrimitive(raw);
  if (parts === undefined) return undefined;
  const ns = instantOf(parts);
  return ns > now ? { text: formatDateTime(parts), ns } : undefined;
}

/** Meilisearch's message for an unparsable or past `expiresAt`; it really ends with a newline. */
export function invalidExpiresAtMessage(raw: string): string {
  return (
    `\`${raw}\` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the ` +
    "future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n"
  );
}

function parsePrimitive(raw: string): DateTimeParts | undefined {
  const m = PRIMITIVE.exec(raw);
  if (m === null) return undefined;
  const [, sign, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  return utcDateTime((sign === '-' ? -1 : 1) * Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
}
