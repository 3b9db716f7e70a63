/**
 * `--schedule-snapshot`'s timer: one registration per interval, the first a full interval after
 * the start, including intervals longer than a Node timer holds (~24.8 days).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduleSnapshots } from '../../../src/snapshots/schedule.js';

const DAY_MS = 86_400_000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('scheduleSnapshots', () => {
  it('registers once per interval, the first one an interval after the start', () => {
    const register = vi.fn();
    const schedule = scheduleSnapshots(3600, register);
    vi.advanceTimersByTime(3_599_999);
    expect(register).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(register).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3 * 3_600_000);
    expect(register).toHaveBeenCalledTimes(4);
    schedule.stop();
    vi.advanceTimersByTime(10 * 3_600_000);
    expect(register).toHaveBeenCalledTimes(4);
  });

  // setInterval(…, 30 days) fired every millisecond: thousands of snapshot tasks a second
  it('waits intervals longer than a Node timer holds in full', () => {
    const register = vi.fn();
    const schedule = scheduleSnapshots(30 * 86_400, register);
    vi.advanceTimersByTime(29 * DAY_MS);
    expect(register).not.toHaveBeenCalled();
    vi.advanceTimersByTime(DAY_MS);
    expect(register).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30 * DAY_MS);
    expect(register).toHaveBeenCalledTimes(2);
    schedule.stop();
  });
});
