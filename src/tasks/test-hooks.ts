/**
 * TEST-ONLY hooks, read from the environment: they let HTTP tests reach moments a server passes
 * too quickly to hit from outside. No deployment sets them; unset, they do nothing.
 *  - QUARRY_TEST_UPGRADE_INDEX_DELAY_MS=<ms>: an `upgradeDatabase` batch waits this long after
 *    converting each index (a cancelation still interrupts the wait), so a test can cancel it midway.
 *  - QUARRY_TEST_UPGRADE_FAILS=1: an `upgradeDatabase` batch fails after converting its first index.
 *  - QUARRY_TEST_EXIT_AFTER_INDEX_COMMIT=1: the process exits (status 86) right after a batch's
 *    index write commits and before its tasks are committed: the crash point that
 *    process/context.ts describes.
 *  - QUARRY_TEST_MAX_NUMBER_OF_TASKS=<n>: the automatic cleanup of the task queue starts at n tasks
 *    instead of 1,000,000 (v1.50's own tests lower its `max_number_of_tasks` the same way).
 */
const env = process.env;

export const TEST_HOOKS = {
  upgradeIndexDelayMs: Number(env.QUARRY_TEST_UPGRADE_INDEX_DELAY_MS ?? 0) || 0,
  upgradeFails: env.QUARRY_TEST_UPGRADE_FAILS === '1',
  exitAfterIndexCommit: env.QUARRY_TEST_EXIT_AFTER_INDEX_COMMIT === '1',
  maxNumberOfTasks: Number(env.QUARRY_TEST_MAX_NUMBER_OF_TASKS ?? 0) || null,
} as const;

/** Waits `ms`, or less when `signal` aborts. */
export function hookDelay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** The exit of QUARRY_TEST_EXIT_AFTER_INDEX_COMMIT. */
export function crashAfterIndexCommit(): void {
  if (TEST_HOOKS.exitAfterIndexCommit) process.exit(86);
}
