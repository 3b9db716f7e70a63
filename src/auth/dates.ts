/**
 * Key timestamps: the clock, RFC 3339 output, and the `expiresAt` formats Meilisearch accepts
 * (keys-auth.md §1, §6.1).
 *
 * Timestamps are bigint nanoseconds since the Unix epoch (bigint: lmdb's msgpack would round
 * larger numbers). `createdAt`/`updatedAt` print in UTC; `expiresAt` keeps the offset it was
 * given. Fractions print with trailing zeros removed, as Rust's `time` crate does.
 * Callers: key-store.ts, the `POST /keys` route (through `parseExpiresAt`). Pure except `nowNs`.
 */

const NS_PER_SECOND = 1_000_000_000n;

// Date.now() has millisecond precision only: anchoring it to the monotonic nanosecond clock gives
// successive keys distinct, ordered creation times (GET /keys sorts on them).
const wallAnchor = BigInt(Date.now()) * 1_000_000n;
const monoAnchor = process.hrtime.bigint();

export function nowNs(): bigint {
  return wallAnchor + (process.hrtime.bigint() - monoAnchor);
}

/** An expiration date as given (its offset kept for display) and as an instant. */
export interface ExpirationDate {
  /** RFC 3339 in the offset it was given (`Z` for UTC). */
  readonly text: string;
  readonly ns: bigint;
}

interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  /** Offset from UTC in minutes. */
  offset: number;
}

/** `2024-08-08T09:01:13.348471Z`. */
export function formatUtc(ns: bigint): string {
  const seconds = ns / NS_PER_SECOND - (ns % NS_PER_SECOND < 0n ? 1n : 0n);
  const nanosecond = Number(ns - seconds * NS_PER_SECOND);
  const [year, month, day] = civilFromDays(Number(seconds / 86_400n - (seconds % 86_400n < 0n ? 1n : 0n)));
  const secondOfDay = Number(((seconds % 86_400n) + 86_400n) % 86_400n);
  return formatParts({
    year,
    month,
    day,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor(secondOfDay / 60) % 60,
    second: secondOfDay % 60,
    nanosecond,
    offset: 0,
  });
}

function formatParts(p: DateTimeParts): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const fraction = p.nanosecond === 0 ? '' : `.${pad(p.nanosecond, 9).replace(/0+$/, '')}`;
  const absolute = Math.abs(p.offset);
  const offset = p.offset === 0 ? 'Z' : `${p.offset < 0 ? '-' : '+'}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${fraction}${offset}`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const PRIMITIVE = /^([+-]?)(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * Reads an `expiresAt` string: RFC 3339 with an offset, or `YYYY-MM-DDTHH:MM:SS`,
 * `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD` taken as UTC. `undefined` when it is none of those or is
 * not strictly later than `now`.
 */
export function parseExpiresAt(raw: string, now: bigint): ExpirationDate | undefined {
  const parts = parseRfc3339(raw) ?? parsePrimitive(raw);
  if (parts === undefined) return undefined;
  const ns = instantOf(parts);
  return ns > now ? { text: formatParts(parts), ns } : undefined;
}

/** Meilisearch's message for an unparsable or past `expiresAt`; it really ends with a newline. */
export function invalidExpiresAtMessage(raw: string): string {
  return (
    `\`${raw}\` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the ` +
    "future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n"
  );
}

/** Reads a date this module wrote (`ExpirationDate.text`, `formatUtc`), e.g. from storage. */
export function instantOfRfc3339(text: string): bigint {
  const parts = parseRfc3339(text);
  if (parts === undefined) throw new Error(`not an RFC 3339 date: ${text}`);
  return instantOf(parts);
}

function parseRfc3339(raw: string): DateTimeParts | undefined {
  const m = RFC3339.exec(raw);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, sign, oh, om] = m;
  const offsetHours = sign === undefined ? 0 : Number(oh);
  const offsetMinutes = sign === undefined ? 0 : Number(om);
  if (offsetHours > 25 || offsetMinutes > 59) return undefined;
  const parts: DateTimeParts = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
    // Digits past the ninth are read and ignored.
    nanosecond: fraction === undefined ? 0 : Number(fraction.slice(0, 9).padEnd(9, '0')),
    offset: (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes),
  };
  if (parts.second === 60) {
    // A leap second is read as 23:59:59.999999999 UTC, and only on the last day of a month.
    parts.second = 59;
    parts.nanosecond = 999_999_999;
    if (!validParts(parts) || !isLeapSecondStandIn(parts)) return undefined;
  }
  return validParts(parts) ? parts : undefined;
}

function parsePrimitive(raw: string): DateTimeParts | undefined {
  const m = PRIMITIVE.exec(raw);
  if (m === null) return undefined;
  const [, sign, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  const parts: DateTimeParts = {
    year: (sign === '-' ? -1 : 1) * Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
    nanosecond: 0,
    offset: 0,
  };
  return validParts(parts) ? parts : undefined;
}

function validParts(p: DateTimeParts): boolean {
  return (
    p.month >= 1 && p.month <= 12 && p.day >= 1 && p.day <= daysInMonth(p.year, p.month) &&
    p.hour <= 23 && p.minute <= 59 && p.second <= 59
  );
}

function isLeapSecondStandIn(p: DateTimeParts): boolean {
  const utcSeconds = instantOf(p) / NS_PER_SECOND;
  const secondOfDay = Number(((utcSeconds % 86_400n) + 86_400n) % 86_400n);
  const [year, month, day] = civilFromDays(Number((utcSeconds - BigInt(secondOfDay)) / 86_400n));
  return secondOfDay === 86_399 && day === daysInMonth(year, month);
}

function instantOf(p: DateTimeParts): bigint {
  const seconds =
    BigInt(daysFromCivil(p.year, p.month, p.day)) * 86_400n +
    BigInt(p.hour * 3600 + p.minute * 60 + p.second - p.offset * 60);
  return seconds * NS_PER_SECOND + BigInt(p.nanosecond);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// Proleptic Gregorian calendar <-> days since 1970-01-01 (H. Hinnant's algorithms).
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
