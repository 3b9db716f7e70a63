/**
 * Log filter directives as Meilisearch accepts them (misc-routes.md §5): comma-separated
 * `level`, `target=level` or bare `target` (meaning trace for that target). Pure.
 */

export const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type Level = (typeof LEVELS)[number];

/** Numeric rank of a level; `off` is above every level. */
export const LEVEL_RANK: Record<Level | 'off', number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, off: 100 };

export interface LogFilter {
  /** minimum rank for records of no matching directive */
  defaultRank: number;
  /** target prefix → minimum rank; the longest matching prefix wins */
  targets: { target: string; rank: number }[];
}

export class TargetError extends Error {}

const LEVEL_NUMBERS: readonly (Level | 'off')[] = ['off', 'error', 'warn', 'info', 'debug', 'trace'];

/**
 * A level as tracing's `LevelFilter::from_str` reads it: `0`–`5` (a `+` allowed), a name in any
 * case, and the empty string, which is `error`.
 */
function rankOf(word: string): number | undefined {
  if (/^\+?\d+$/.test(word)) {
    const level = LEVEL_NUMBERS[Number(word)];
    if (level !== undefined) return LEVEL_RANK[level];
  }
  if (word === '') return LEVEL_RANK.error;
  const lower = word.toLowerCase();
  return Object.hasOwn(LEVEL_RANK, lower) ? LEVEL_RANK[lower as Level | 'off'] : undefined;
}

const invalid = (reason: string) => new TargetError(`invalid filter directive: ${reason}`);

/**
 * `target` as v1.50 reads it (tracing-subscriber's `Targets::from_str`): comma-separated
 * directives, taken as written (no trimming; an empty one is the level `error`), each a level, a
 * bare target (at trace), or `target[{fields}]=level`; a later directive for the same target
 * replaces an earlier one. Quarry's records carry no fields, so a directive on fields, checked
 * the same, matches none of them.
 */
export function parseTarget(raw: string): LogFilter {
  if (raw === '') {
    throw new TargetError(
      'Empty string is not a valid target. If you want to get no logs use `OFF`. Usage: `info`, `meilisearch=info`, or you can write multiple filters in one target: `index_scheduler=info,milli=trace`',
    );
  }
  let defaultRank: number = LEVEL_RANK.off;
  // by target: a later directive replaces an earlier one (a Map: no pass over the others per directive)
  const ranks = new Map<string, number>();
  const setTarget = (target: string, rank: number) => {
    ranks.delete(target);
    ranks.set(target, rank);
  };
  for (const directive of raw.split(',')) {
    const pieces = directive.split('=');
    if (pieces.length > 2) throw invalid("too many '=' in filter directive, expected 0 or 1");
    const [head, level] = pieces as [string, string | undefined];
    if (level === undefined) {
      const rank = rankOf(head);
      if (rank !== undefined) defaultRank = rank;
      else setTarget(head, LEVEL_RANK.trace);
      continue;
    }
    const withFields = head.split('[{');
    if (withFields.length > 2) throw invalid("too many '[{' in filter directive, expected 0 or 1");
    if (withFields.length === 2 && !withFields[1]!.endsWith('}]')) throw invalid("expected fields list to end with '}]'");
    const rank = rankOf(level);
    if (rank === undefined) throw new TargetError('error parsing level filter: expected one of "off", "error", "warn", "info", "debug", "trace", or a number 0-5');
    if (withFields.length === 1) setTarget(head, rank);
  }
  return { defaultRank, targets: [...ranks].map(([target, rank]) => ({ target, rank })) };
}

/** Whether a record of `target` at `rank` passes the filter. */
export function accepts(filter: LogFilter, target: string, rank: number): boolean {
  let best: { target: string; rank: number } | undefined;
  for (const rule of filter.targets) {
    if ((target === rule.target || target.startsWith(`${rule.target}::`)) && (best === undefined || rule.target.length > best.target.length)) best = rule;
  }
  return rank >= (best?.rank ?? filter.defaultRank);
}

/** The lowest rank any record could need to reach this filter (for the logger's level). */
export function lowestRank(filter: LogFilter): number {
  // a loop, not `Math.min(...)`: a target of 200,000 directives passes that many arguments
  let lowest = filter.defaultRank;
  for (const { rank } of filter.targets) lowest = Math.min(lowest, rank);
  return lowest;
}
