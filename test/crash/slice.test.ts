/** A 3-kill slice of the crash harness with a fixed seed, so `npm test` runs it the same way every time. */
import { describe, expect, it } from 'vitest';
import { runCrash } from './harness.js';

describe('kill -9 at random moments (3 kills)', () => {
  it('loses no acknowledged task, keeps the stores sound, and ends as an uninterrupted run', async () => {
    const report = await runCrash(20261123, 3);
    expect(report.lostTasks).toEqual([]);
    expect(report.corruptedStores).toEqual([]);
    expect(report.differences).toEqual([]);
    expect(report.kills).toBe(3);
  }, 180_000);
});
