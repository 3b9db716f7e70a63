/**
 * Task timestamps: the clock, and the text forms Meilisearch prints (tasks-batches.md §4).
 *
 * Timestamps are bigint nanoseconds since the Unix epoch. Output dates are RFC 3339 in UTC with the
 * fraction's trailing zeros removed; durations are ISO 8601 in seconds (`PT0.009330S`). Pure except
 * `nowNs`, which reads the clock. (Parsing the date filters of the task routes is
 * http/validation/task-filter-values.ts's job.)
 */
import type { Timestamp } from '../types/task.js';

const NS_PER_MS = 1_000_000n;
const NS_PER_SECOND = 1_000_000_000n;
const SECONDS_PER_DAY = 86_400n;

// Date.now() only has millisecond precision: anchor it once to the monotonic nanosecond clock so
// successive timestamps are strictly ordered and carry nanoseconds, as Meilisearch's do.
const wallAnchor = BigInt(Date.now()) * NS_PER_MS;
const monoAnchor = process.hrtime.bigint();

export function nowNs(): Timestamp {
  return wallAnchor + (process.hrtime.bigint() - monoAnchor);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

/** `2024-08-08T09:01:13.348471Z`: UTC, fraction only when non-zero, trailing zeros removed. */
export function formatRfc3339(ts: Timestamp): string {
  const seconds = floorDiv(ts, NS_PER_SECOND);
  const nanos = ts - seconds * NS_PER_SECOND;
  const date = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  if (nanos === 0n) return `${date}Z`;
  const fraction = nanos.toString().padStart(9, '0').replace(/0+$/, '');
  return `${date}.${fraction}Z`;
}

/**
 * ISO 8601 duration as Meilisearch prints it: `P[<days>D][T<seconds>[.<3|6|9 digits>]S]`, the seconds
 * part present when non-zero or when there is no day; `null` for a negative duration.
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
