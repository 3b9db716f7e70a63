/**
 * Query-value parsers for the task and batch filters (`GET /tasks`, `GET /batches`,
 * `POST /tasks/cancel`, `DELETE /tasks`): task types, statuses and the six date bounds.
 * Wording from Meilisearch `ParseTaskKindError`, `ParseTaskStatusError`, `InvalidTaskDateError`.
 */
import { TASK_STATUSES, TASK_TYPES, type TaskStatus, type TaskType } from '../../types/task.js';
import { QueryValueError, type ValueParser } from './query-values.js';

export { TASK_STATUSES, TASK_TYPES, type TaskStatus, type TaskType };

const backticked = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');

// Rust `eq_ignore_ascii_case`: only ASCII letters fold, so e.g. the Kelvin sign never matches `k`.
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function caseInsensitive<V extends string>(values: readonly V[], describe: (raw: string) => string): ValueParser<V> {
  const byLower = new Map(values.map((v) => [asciiLower(v), v]));
  return (raw) => {
    const value = byLower.get(asciiLower(raw));
    if (value === undefined) throw new QueryValueError(describe(raw));
    return value;
  };
}

/** A task type, case-insensitive, returned in its canonical spelling. */
export const parseTaskType: ValueParser<TaskType> = caseInsensitive(
  TASK_TYPES,
  (raw) => `\`${raw}\` is not a valid task type. Available types are ${backticked(TASK_TYPES)}.`,
);

/** A task status, case-insensitive, returned in its canonical spelling. */
export const parseTaskStatus: ValueParser<TaskStatus> = caseInsensitive(
  TASK_STATUSES,
  (raw) => `\`${raw}\` is not a valid task status. Available statuses are ${backticked(TASK_STATUSES)}.`,
);

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const SECONDS_PER_DAY = 86_400;
const NANOS_PER_SECOND = 1_000_000_000n;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function isValidDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= lengths[month - 1]!;
}

/** Seconds since the epoch of a date-time, or undefined when a field is out of range. */
function epochSeconds(fields: readonly number[]): number | undefined {
  const [year, month, day, hour = 0, minute = 0, second = 0] = fields as [number, number, number, ...number[]];
  if (!isValidDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  return daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second;
}

/**
 * A task date filter: RFC 3339 (`2024-08-08T16:37:09.971Z`, `…+02:00`) is that instant;
 * `YYYY-MM-DD` is midnight UTC for a `before` bound and the next midnight for an `after` bound
 * (so `afterEnqueuedAt=2024-01-01` means after the whole day). Combine with `starOr` for `*`.
 * @returns nanoseconds since the Unix epoch, exact (RFC 3339 allows nanosecond fractions).
 */
export function parseTaskDate(bound: 'before' | 'after'): ValueParser<bigint> {
  return (raw) => {
    const dateTime = RFC3339.exec(raw);
    if (dateTime !== null) {
      const [, y, mo, d, h, mi, s, fraction = '', sign, offsetH = '0', offsetM = '0'] = dateTime;
      const seconds = epochSeconds([y, mo, d, h, mi, s].map(Number));
      if (seconds !== undefined && Number(offsetH) <= 23 && Number(offsetM) <= 59) {
        const offset = (sign === '-' ? -1 : 1) * (Number(offsetH) * 3600 + Number(offsetM) * 60);
        // Digits past nanoseconds are dropped, as the `time` crate does.
        return BigInt(seconds - offset) * NANOS_PER_SECOND + BigInt(fraction.slice(0, 9).padEnd(9, '0'));
      }
    }
    const date = DATE_ONLY.exec(raw);
    if (date !== null) {
      const seconds = epochSeconds(date.slice(1).map(Number));
      if (seconds !== undefined) {
        return BigInt(bound === 'after' ? seconds + SECONDS_PER_DAY : seconds) * NANOS_PER_SECOND;
      }
    }
    throw new QueryValueError(
      `\`${raw}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`,
    );
  };
}
