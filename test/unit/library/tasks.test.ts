import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LibraryRoutes } from '../../../src/library/routes.js';
import { TaskClient } from '../../../src/library/tasks.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A task queue whose task 1 stays processing; counts the looks. */
function processingForever(): { routes: LibraryRoutes; looks: () => number } {
  let looks = 0;
  const routes = {
    call: async () => {
      looks += 1;
      return { uid: 1, status: 'processing' };
    },
  } as unknown as LibraryRoutes;
  return { routes, looks: () => looks };
}

describe('TaskClient.waitForTask', () => {
  it('waits the longest delay a timer has between two looks when asked for a longer interval, instead of looking every millisecond', async () => {
    vi.useFakeTimers();
    const { routes, looks } = processingForever();
    void new TaskClient(routes).waitForTask(1, { interval: 2 ** 40, timeout: 0 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(looks()).toBe(1);
    await vi.advanceTimersByTimeAsync(2 ** 31 - 1_001);
    expect(looks()).toBe(2);
  });

  it('looks again after each interval until its timeout', async () => {
    vi.useFakeTimers();
    const { routes, looks } = processingForever();
    const waiting = new TaskClient(routes).waitForTask(1, { interval: 100, timeout: 1_000 });
    const failed = expect(waiting).rejects.toThrow(/1000/);
    await vi.advanceTimersByTimeAsync(1_000);
    await failed;
    expect(looks()).toBe(11);
  });
});
