/**
 * Dates and times, the one module for them: the clock, RFC 3339 reading and printing, ISO 8601
 * durations, and the proleptic Gregorian calendar arithmetic under them. Keys (auth/dates.ts),
 * tasks, batches and the task filters of the HTTP routes build on it.
 *
 * Timestamps are bigint nanoseconds since the Unix epoch (bigint: lmdb's msgpack would round
 * larger numbers). Dates print as RFC 3339 with the fraction's trailing zeros removed, as Rust's
 * `time` crate does: `2024-08-08T09:01:13.348471Z`; durations as Meilisearch prints a task's
 * (tasks-batches.md §4): `PT0.009330S`; step timings (a batch's `progressTrace`, a search's
 * `performanceDetails`) as Rust's `{:.2?}`: `12.35ms`. Pure except `nowNs`, which reads the clock.
 */

const NS_PER_SECOND = 1_000_000_000n;
const SECONDS_PER_DAY = 86_400n;

// Date.now() only has millisecond precision: anchoring it once to the monotonic nanosecond clock
// gives successive timestamps distinct, ordered times with nanoseconds, as Meilisearch's have
// (GET /keys and the task queue sort on them). The anchor's own sub-millisecond part, which
// Date.now() truncated, is taken from the monotonic clock: still within that millisecond, and the
// first timestamp has nanoseconds too. Anchored on the first call, not at import, so that a host
// without `process` (the browser build, which reads no clock here) can import this module.
let anchors: { readonly wall: bigint; readonly mono: bigint } | undefined;

export function nowNs(): bigint {
  const mono = process.hrtime.bigint();
  anchors ??= { wall: BigInt(Date.now()) * 1_000_000n + (mono % 1_000_000n), mono };
  return anchors.wall + (mono - anchors.mono);
}

/** A date-time in an offset from UTC. */
export interface DateTimeParts {
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

/** `2024-08-08T09:01:13.348471Z`: UTC, fraction only when non-zero, trailing zeros removed. */
export function formatRfc3339(ns: bigint): string {
  const seconds = floorDiv(ns, NS_PER_SECOND);
  const secondOfDay = Number(seconds - floorDiv(seconds, SECONDS_PER_DAY) * SECONDS_PER_DAY);
  const [year, month, day] = civilFromDays(Number(floorDiv(seconds, SECONDS_PER_DAY)));
  return formatDateTime({
    year,
    month,
    day,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor(secondOfDay / 60) % 60,
    second: secondOfDay % 60,
    nanosecond: Number(ns - seconds * NS_PER_SECOND),
    offset: 0,
  });
}

/** RFC 3339 in the date-time's own offset (`Z` for UTC), fraction as formatRfc3339's. */
export function formatDateTime(p: DateTimeParts): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const fraction = p.nanosecond === 0 ? '' : `.${pad(p.nanosecond, 9).replace(/0+$/, '')}`;
  const absolute = Math.abs(p.offset);
  const offset = p.offset === 0 ? 'Z' : `${p.offset < 0 ? '-' : '+'}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${fraction}${offset}`;
}

/**
 * ISO 8601 duration as Meilisearch prints a task's or batch's: `P[<days>D][T<seconds>[.<3|6|9
 * digits>]S]`, the seconds part present when non-zero or when there is no day; `null` for a
 * negative duration.
 */
export function formatDuration(ns: bigint): string | null {
  if (ns < 0n) return null;
  const totalSeconds = ns / NS_PER_SECOND;
  const nanos = ns % NS_PER_SECOND;
  const days = totalSeconds / SECONDS_PER_DAY;
  const seconds = totalSeconds % SECONDS_PER_DAY;
  let out = 'P';
  if (days > 0n) out += `${days}D`;
  if (seconds > 0n || nanos > 0n || days === 0n) {
    let fraction = '';
    if (nanos > 0n) {
      if (nanos % 1_000_000n === 0n) fraction = `.${(nanos / 1_000_000n).toString().padStart(3, '0')}`;
      else if (nanos % 1_000n === 0n) fraction = `.${(nanos / 1_000n).toString().padStart(6, '0')}`;
      else fraction = `.${nanos.toString().padStart(9, '0')}`;
    }
    out += `T${seconds}${fraction}S`;
  }
  return out;
}

/** What an RFC 3339 reader accepts at the edges of the format. */
export interface Rfc3339Rules {
  /** the highest offset hour */
  readonly maxOffsetHour: number;
  /** whether second 60 is read (as 23:59:59.999999999 UTC, and only on the last day of a month) */
  readonly leapSecond: boolean;
}

/**
 * The `time` crate's `Rfc3339` as v1.50 reads it (0.3.47: keys' `expiresAt`, task date filters,
 * dynamic search rules): any one byte between date and time, offsets up to 23 hours, second 60
 * on a month's last second.
 */
export const TIME_CRATE_RFC3339: Rfc3339Rules = { maxOffsetHour: 23, leapSecond: true };

/** Dates read back from storage: what earlier versions accepted (offsets up to 25 hours) still reads. */
const STORED_RFC3339: Rfc3339Rules = { maxOffsetHour: 25, leapSecond: true };

// the separator: any one byte, so one ASCII character (another is two bytes or more in UTF-8)
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[\x00-\x7f](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** An RFC 3339 date-time, or undefined when `raw` is none or a field is out of range. */
export function parseRfc3339(raw: string, rules: Rfc3339Rules): DateTimeParts | undefined {
  const m = RFC3339.exec(raw);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, sign, oh, om] = m;
  const offsetHours = sign === undefined ? 0 : Number(oh);
  const offsetMinutes = sign === undefined ? 0 : Number(om);
  if (offsetHours > rules.maxOffsetHour || offsetMinutes > 59) return undefined;
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
  if (parts.second === 60 && rules.leapSecond) {
    parts.second = 59;
    parts.nanosecond = 999_999_999;
    if (!validParts(parts) || !isLeapSecondStandIn(parts)) return undefined;
  }
  return validParts(parts) ? parts : undefined;
}

/** Reads a date this module printed (formatRfc3339, formatDateTime), e.g. from storage. */
export function instantOfRfc3339(text: string): bigint {
  const parts = parseRfc3339(text, STORED_RFC3339);
  if (parts === undefined) throw new Error(`not an RFC 3339 date: ${text}`);
  return instantOf(parts);
}

/** A UTC date-time of whole seconds, or undefined when a field is out of range. */
export function utcDateTime(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): DateTimeParts | undefined {
  const parts: DateTimeParts = { year, month, day, hour, minute, second, nanosecond: 0, offset: 0 };
  return validParts(parts) ? parts : undefined;
}

/** Whether the fields name a real date and time of day (second 0–59). */
function validParts(p: DateTimeParts): boolean {
  return (
    p.month >= 1 && p.month <= 12 && p.day >= 1 && p.day <= daysInMonth(p.year, p.month) &&
    p.hour <= 23 && p.minute <= 59 && p.second <= 59
  );
}

function isLeapSecondStandIn(p: DateTimeParts): boolean {
  const utcSeconds = instantOf(p) / NS_PER_SECOND;
  const secondOfDay = Number(((utcSeconds % SECONDS_PER_DAY) + SECONDS_PER_DAY) % SECONDS_PER_DAY);
  const [year, month, day] = civilFromDays(Number((utcSeconds - BigInt(secondOfDay)) / SECONDS_PER_DAY));
  return secondOfDay === 86_399 && day === daysInMonth(year, month);
}

/** The instant of valid parts, in nanoseconds since the epoch. */
export function instantOf(p: DateTimeParts): bigint {
  const seconds =
    BigInt(daysFromCivil(p.year, p.month, p.day)) * SECONDS_PER_DAY +
    BigInt(p.hour * 3600 + p.minute * 60 + p.second - p.offset * 60);
  return seconds * NS_PER_SECOND + BigInt(p.nanosecond);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
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

const DEBUG_UNITS: [bigint, string][] = [
  [1_000_000_000n, 's'],
  [1_000_000n, 'ms'],
  [1_000n, 'µs'],
  [1n, 'ns'],
];

/** Rust's `format!("{:.2?}", duration)`: `1.20s`, `12.35ms`, `350.00µs`, `500.00ns` (half rounded up). */
export function formatStepDuration(ns: bigint): string {
  const [unit, suffix] = DEBUG_UNITS.find(([size]) => ns >= size) ?? DEBUG_UNITS[DEBUG_UNITS.length - 1]!;
  const hundredths = (ns * 200n + unit) / (2n * unit);
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}${suffix}`;
}

/** The `time` crate's `Display` of an offset date-time (`2025-11-28 0:00:00.0 +00:00:00`), which some of v1.50's messages print. */
export function timeCrateDisplay(p: DateTimeParts): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const fraction = pad(p.nanosecond, 9).replace(/0+$/, '') || '0';
  const offset = Math.abs(p.offset);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${p.hour}:${pad(p.minute)}:${pad(p.second)}.${fraction} ${p.offset < 0 ? '-' : '+'}${pad(Math.floor(offset / 60))}:${pad(offset % 60)}:00`;
}
