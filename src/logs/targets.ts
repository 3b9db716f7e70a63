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

function rankOf(word: string): number | undefined {
  const lower = word.toLowerCase();
  return lower in LEVEL_RANK ? LEVEL_RANK[lower as Level | 'off'] : undefined;
}

export function parseTarget(raw: string): LogFilter {
  if (raw.trim() === '') {
    throw new TargetError(
      'Empty string is not a valid target. If you want to get no logs use `OFF`. Usage: `info`, `meilisearch=info`, or you can write multiple filters in one target: `index_scheduler=info,milli=trace`',
    );
  }
  const filter: LogFilter = { defaultRank: LEVEL_RANK.off, targets: [] };
  for (const directive of raw.split(',')) {
    const part = directive.trim();
    if (part === '') continue;
    const pieces = part.split('=');
    if (pieces.length > 2) throw new TargetError("invalid filter directive: too many '=' in filter directive, expected 0 or 1");
    const [target, level] = pieces as [string, string | undefined];
    if (level === undefined) {
      const rank = rankOf(target);
      if (rank !== undefined) filter.defaultRank = rank;
      else filter.targets.push({ target, rank: LEVEL_RANK.trace });
      continue;
    }
    const rank = rankOf(level);
    if (rank === undefined) throw new TargetError(`invalid filter directive: invalid level filter \`${level}\``);
    filter.targets.push({ target, rank });
  }
  return filter;
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
  return Math.min(filter.defaultRank, ...filter.targets.map((t) => t.rank));
}
