/**
 * `npm run crash`: the crash harness with 50 kills and a random seed, printed so that a failing
 * run can be replayed with CRASH_SEED=<seed> npm run crash.
 */
import { describe, expect, it } from 'vitest';
import { runCrash } from './harness.js';

const KILLS = 50;
const seed = process.env.CRASH_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.CRASH_SEED);

describe(`kill -9 at random moments (${KILLS} kills, seed ${seed})`, () => {
  it('loses no acknowledged task, keeps the stores sound, and ends as an uninterrupted run', async () => {
    console.log(`crash harness: seed ${seed}`);
    const report = await runCrash(seed, KILLS, (line) => console.log(line));
    console.log(JSON.stringify(report, null, 2));
    expect(report.lostTasks).toEqual([]);
    expect(report.corruptedStores).toEqual([]);
    expect(report.differences).toEqual([]);
  });
});
