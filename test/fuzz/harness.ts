/**
 * The fuzz run: generated requests against a Target, each judged (verdict.ts), tallied per route
 * and per failure class. fast-check stops and shrinks at a failure; the run then goes on with the
 * next seed and that class set aside, until the requested number of requests were generated, so
 * one run reports every class it meets, each shrunk once, with the seed and path replaying it.
 */
import fc from 'fast-check';
import { fuzzRequest, type FuzzRequest } from './arbitraries.js';
import { exchange, type Outcome } from './raw-http.js';
import type { Target } from './target.js';
import { classOf, judge, type Failure } from './verdict.js';

export interface FuzzOptions {
  /** Generated requests (shrinking sends more). */
  runs: number;
  seed: number;
  /** A counterexample path to replay with `seed`. */
  path?: string;
  timeoutMs: number;
  /** Largest tolerated growth of the server's resident memory over the run. */
  rssGrowthKb: number;
  log: (line: string) => void;
}

export interface FailureClass {
  failure: Failure;
  count: number;
  routes: Set<string>;
  /** The first request of the class. */
  first: FuzzRequest;
  /** fast-check's shrunk counterexample, and how to replay it. */
  shrunk?: { request: FuzzRequest; seed: number; path: string };
}

export interface FuzzReport {
  seed: number;
  generated: number;
  requests: number;
  ms: number;
  /** route → status (or failure kind) → count */
  perRoute: Map<string, Map<string, number>>;
  classes: Map<string, FailureClass>;
  rss: { baselineKb: number; peakKb: number };
}

const RSS_SAMPLE_EVERY = 50;
/** Requests one shrink may send: a hang costs seconds each, and the machine is shared. */
const SHRINK_BUDGET = 80;
const RECOVERY_MS = 30_000;

export async function fuzz(target: Target, options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const report: FuzzReport = {
    seed: options.seed, generated: 0, requests: 0, ms: 0, perRoute: new Map(), classes: new Map(),
    rss: { baselineKb: target.memory().rssKb, peakKb: 0 },
  };
  const shrunkClasses = new Set<string>();
  let failing: string[] = [];
  let sentSinceFailure = 0;

  const tally = (route: string, outcome: string) => {
    const counts = report.perRoute.get(route) ?? new Map<string, number>();
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    report.perRoute.set(route, counts);
  };

  const record = (failure: Failure, request: FuzzRequest): string => {
    const key = classOf(failure);
    const seen = report.classes.get(key);
    if (seen !== undefined) {
      seen.count += 1;
      seen.routes.add(request.route);
    } else {
      report.classes.set(key, { failure, count: 1, routes: new Set([request.route]), first: request });
      options.log(`new failure class: ${key} — ${failure.detail.slice(0, 200)}`);
    }
    return key;
  };

  /** The failure the server's own state shows after an exchange: a crash, or memory past the bound. */
  const afterwards = async (request: FuzzRequest, failure: Failure | undefined): Promise<Failure | undefined> => {
    if (failure?.kind === 'hang' || failure?.kind === 'no-answer') await target.recovered(RECOVERY_MS);
    if (!target.alive()) {
      const crash: Failure = { kind: 'crash', route: request.route, detail: target.output().slice(-2_000) };
      await target.restart();
      return crash;
    }
    if (report.requests % RSS_SAMPLE_EVERY === 0) {
      const { rssKb, anonKb, fileKb } = target.memory();
      report.rss.peakKb = Math.max(report.rss.peakKb, rssKb);
      if (rssKb - report.rss.baselineKb > options.rssGrowthKb) {
        const detail = `VmRSS ${rssKb} kB (RssAnon ${anonKb}, RssFile ${fileKb}), ${rssKb - report.rss.baselineKb} kB over the start`;
        return failure ?? { kind: 'rss', route: request.route, detail };
      }
    }
    return failure;
  };

  /**
   * One exchange; a timeout is retried once the server is responsive again, so that a moment of
   * load on the shared machine is not taken for a freeze: a request that freezes the server
   * freezes it again.
   */
  const send = async (request: FuzzRequest): Promise<Outcome> => {
    report.requests += 1;
    const outcome = await exchange(target.port, request.raw, options.timeoutMs);
    if (outcome.kind !== 'timeout' || !(await target.recovered(RECOVERY_MS))) return outcome;
    report.requests += 1;
    return exchange(target.port, request.raw, options.timeoutMs);
  };

  const property = fc.asyncProperty(fuzzRequest(target.context), async (request) => {
    // Past the budget, every candidate passes unsent: fast-check keeps the smallest failure so far.
    if (failing.length > 0 && sentSinceFailure++ >= SHRINK_BUDGET) return true;
    const outcome = await send(request);
    const failure = await afterwards(request, judge(request.route, outcome));
    tally(request.route, failure?.kind ?? (outcome.kind === 'answer' ? String(outcome.status) : outcome.kind));
    if (failure === undefined) return true;
    const key = record(failure, request);
    // A class already shrunk is tallied, not shrunk again.
    const tolerated = shrunkClasses.has(key);
    if (!tolerated) failing.push(key);
    return tolerated;
  });

  for (let round = 0; report.generated < options.runs; round += 1) {
    failing = [];
    sentSinceFailure = 0;
    const seed = options.seed + round;
    const replay = round === 0 && options.path !== undefined ? { path: options.path } : {};
    const result = await fc.check(property, { seed, numRuns: options.runs - report.generated, ...replay });
    report.generated += Math.max(1, result.numRuns);
    if (!result.failed || result.counterexample === null) break;
    // The last failing execution is the shrunk counterexample; the first is what set shrinking off.
    const shrunkKey = failing[failing.length - 1]!;
    report.classes.get(shrunkKey)!.shrunk = { request: result.counterexample[0], seed, path: result.counterexamplePath! };
    shrunkClasses.add(shrunkKey).add(failing[0]!);
    options.log(`shrunk ${shrunkKey} (seed ${seed}, path ${result.counterexamplePath}); ${report.generated}/${options.runs} generated`);
    if (options.path !== undefined) break;
  }
  report.rss.peakKb = Math.max(report.rss.peakKb, target.memory().rssKb);
  report.ms = Date.now() - started;
  return report;
}

/** The classes that fail the run: every one found. */
export function failures(report: FuzzReport): FailureClass[] {
  return [...report.classes.values()];
}
