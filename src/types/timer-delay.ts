/**
 * Delays handed to Node's timers (`setTimeout`, `setInterval`, `AbortSignal.timeout`), which take
 * at most 2^31 - 1 ms (~24.8 days): a longer one fires after 1 ms instead (with a
 * TimeoutOverflowWarning), and `AbortSignal.timeout` throws past 2^53. Options and environment
 * variables in seconds (`--schedule-snapshot`, `MEILI_EXPERIMENTAL_*_TIMEOUT_SECONDS`) reach
 * far beyond that in v1.50, whose sleeps and timeouts take any u64.
 */

/** The longest delay a Node timer keeps. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** `ms` as a timer takes it: a longer delay waits as long as a timer can (for a timeout, never in practice). */
export function timerDelay(ms: number): number {
  return Math.min(Math.max(ms, 0), MAX_TIMER_DELAY_MS);
}
