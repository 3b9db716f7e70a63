/**
 * `performanceDetails` (search.md §14): the time a request spends in each step, keyed by the
 * path of nested steps open at the time (`search > execute local search > format`), summed over
 * repeats, in the order each path was first closed, as v1.50's `Progress::accumulated_durations`.
 * Steps still open when the details are read (the outermost `search`) count up to that instant,
 * innermost first, without being closed: a non-federated multi-search reads them after each
 * query, so its later results include the earlier queries' steps, as v1.50's do.
 * Durations print as Rust's `{:.2?}` of a `Duration` (types/dates.ts).
 *
 * A request that did not ask for the details gets NO_STEPS, which only runs the work.
 */

import { formatStepDuration } from '../types/dates.js';

export interface StepTimer {
  /** Runs `work` as step `name`, nested in the steps open now. */
  step<T>(name: string, work: () => T): T;
  /** `step` for work that awaits. */
  stepAsync<T>(name: string, work: () => Promise<T>): Promise<T>;
}

export class PerformanceSteps implements StepTimer {
  private readonly open: { readonly name: string; readonly started: number }[] = [];
  /** ms per path, in the order each path was first closed */
  private readonly totals = new Map<string, number>();

  step<T>(name: string, work: () => T): T {
    this.start(name);
    try {
      return work();
    } finally {
      this.end();
    }
  }

  async stepAsync<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.start(name);
    try {
      return await work();
    } finally {
      this.end();
    }
  }

  /** Opens step `name` until `end`: for a step whose work does not fit one call (the outermost `search`). */
  start(name: string): void {
    this.open.push({ name, started: performance.now() });
  }

  end(): void {
    const step = this.open.pop();
    if (step === undefined) throw new Error('no open step to end');
    this.add(this.pathOf(this.open.length, step.name), performance.now() - step.started, this.totals);
  }

  /** The details as v1.50 prints them; the steps still open count up to now. */
  details(): Record<string, string> {
    const now = performance.now();
    const totals = new Map(this.totals);
    for (let depth = this.open.length - 1; depth >= 0; depth--) {
      const step = this.open[depth]!;
      this.add(this.pathOf(depth, step.name), now - step.started, totals);
    }
    return Object.fromEntries([...totals].map(([path, ms]) => [path, formatStepDuration(BigInt(Math.max(0, Math.round(ms * 1e6))))]));
  }

  private pathOf(depth: number, name: string): string {
    return [...this.open.slice(0, depth).map((step) => step.name), name].join(' > ');
  }

  private add(path: string, ms: number, totals: Map<string, number>): void {
    totals.set(path, (totals.get(path) ?? 0) + ms);
  }
}

/** The timer of a request whose details were asked for: its outermost `search` step opened. */
export function requestTimer(): PerformanceSteps {
  const timer = new PerformanceSteps();
  timer.start('search');
  return timer;
}

/** Runs the work of each step and records nothing. */
export const NO_STEPS: StepTimer = {
  step: (_, work) => work(),
  stepAsync: (_, work) => work(),
};
