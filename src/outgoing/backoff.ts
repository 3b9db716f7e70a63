/**
 * v1.50's `backoff::ExponentialBackoff::default()`, which its export and its S3 snapshots retry
 * with: the first retry after 0.5 s, each next interval ×1.5 up to 60 s, each delay ±50 % at
 * random, and no retry once 15 minutes would have passed. An attempt says a failure is worth
 * retrying by throwing it wrapped in `Transient`; anything else it throws ends the retries at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const MAX_ELAPSED_MS = 15 * 60 * 1000;
const MAX_INTERVAL_MS = 60_000;

/** A failure worth another attempt; `error` is what the caller gets when none is left. */
export class Transient {
  constructor(readonly error: unknown) {}
}

/** Runs `attempt` until it succeeds, fails for good, the retries run out, or `signal` aborts (its reason is thrown). */
export async function withBackoff<T>(signal: AbortSignal, attempt: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let interval = 500;
  for (;;) {
    signal.throwIfAborted();
    try {
      return await attempt();
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (!(err instanceof Transient)) throw err;
      const delay = interval * (0.5 + Math.random());
      if (Date.now() - started + delay > MAX_ELAPSED_MS) throw err.error;
      await sleep(delay, undefined, { signal });
      interval = Math.min(interval * 1.5, MAX_INTERVAL_MS);
    }
  }
}
