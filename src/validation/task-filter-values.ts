/**
 * Query-value parsers for the task and batch filters (`GET /tasks`, `GET /batches`,
 * `POST /tasks/cancel`, `DELETE /tasks`): task types, statuses and the six date bounds.
 * Wording from Meilisearch `ParseTaskKindError`, `ParseTaskStatusError`, `InvalidTaskDateError`.
 */
import { instantOf, parseRfc3339, TIME_CRATE_RFC3339, utcDateTime } from '../types/dates.js';
import { TASK_STATUSES, TASK_TYPES, type TaskStatus, type TaskType } from '../types/task.js';
import { QueryValueError, type ValueParser } from './query-values.js';

export { TASK_STATUSES, TASK_TYPES, type TaskStatus, type TaskType };

const backticked = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');

// Rust `eq_ignore_ascii_case`: only ASCII letters fold, so e.g. the Kelvin sign never matches `k`.
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function caseInsensitive<V extends string>(values: readonly V[], describe: (raw: string) => string, aliases: Readonly<Record<string, V>> = {}): ValueParser<V> {
  const byLower = new Map([...values.map((v) => [asciiLower(v), v] as const), ...Object.entries(aliases).map(([alias, v]) => [asciiLower(alias), v] as const)]);
  return (raw) => {
    const value = byLower.get(asciiLower(raw));
    if (value === undefined) throw new QueryValueError(describe(raw));
    return value;
  };
}

/**
 * A task type, case-insensitive, returned in its canonical spelling. The spec names the upgrade
 * task `databaseUpgrade` where v1.50 says `upgradeDatabase`: both select it.
 */
export const parseTaskType: ValueParser<TaskType> = caseInsensitive(
  TASK_TYPES,
  (raw) => `\`${raw}\` is not a valid task type. Available types are ${backticked(TASK_TYPES)}.`,
  { databaseUpgrade: 'upgradeDatabase' },
);

/** A task status, case-insensitive, returned in its canonical spelling. */
export const parseTaskStatus: ValueParser<TaskStatus> = caseInsensitive(
  TASK_STATUSES,
  (raw) => `\`${raw}\` is not a valid task status. Available statuses are ${backticked(TASK_STATUSES)}.`,
);

// v1.50's `[year repr:full base:calendar]-[month]-[day]`: four digits, a sign allowed
const DATE_ONLY = /^([+-]?\d{4})-(\d{2})-(\d{2})$/;
const NS_PER_DAY = 86_400_000_000_000n;

/**
 * A task date filter: RFC 3339 (`2024-08-08T16:37:09.971Z`, `…+02:00`) is that instant;
 * `YYYY-MM-DD` is midnight UTC for a `before` bound and the next midnight for an `after` bound
 * (so `afterEnqueuedAt=2024-01-01` means after the whole day). Combine with `starOr` for `*`.
 * @returns nanoseconds since the Unix epoch, exact (RFC 3339 allows nanosecond fractions).
 */
export function parseTaskDate(bound: 'before' | 'after'): ValueParser<bigint> {
  return (raw) => {
    const dateTime = parseRfc3339(raw, TIME_CRATE_RFC3339);
    if (dateTime !== undefined) return instantOf(dateTime);
    const date = DATE_ONLY.exec(raw);
    if (date !== null) {
      const midnight = utcDateTime(Number(date[1]), Number(date[2]), Number(date[3]));
      if (midnight !== undefined) return instantOf(midnight) + (bound === 'after' ? NS_PER_DAY : 0n);
    }
    throw new QueryValueError(
      `\`${raw}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`,
    );
  };
}
