/**
 * `--schedule-snapshot`: a snapshot task registered every interval, the first one a full interval
 * after the start, as v1.50's `register-snapshot-tasks` thread does (sleep, register, sleep…).
 * An interval longer than a Node timer holds (~24.8 days; `--schedule-snapshot 2592000` is 30)
 * is waited in several timers: one timer would fire after 1 ms, every ms.
 */
import { timerDelay } from '../types/timer-delay.js';

export interface SnapshotSchedule {
  stop(): void;
}

/** Calls `register` every `intervalSec` seconds until stopped. */
export function scheduleSnapshots(intervalSec: number, register: () => void): SnapshotSchedule {
  const intervalMs = intervalSec * 1000;
  let due = performance.now() + intervalMs;
  let timer: NodeJS.Timeout;
  const arm = () => {
    timer = setTimeout(tick, timerDelay(due - performance.now()));
  };
  const tick = () => {
    if (performance.now() >= due) {
      register();
      due = performance.now() + intervalMs;
    }
    arm();
  };
  arm();
  return { stop: () => clearTimeout(timer) };
}
