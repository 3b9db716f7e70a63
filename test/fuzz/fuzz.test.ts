/**
 * The fuzz harness against a real server. In `npm test`: a 600-request slice with a fixed
 * seed, failing on any failure class. `npm run fuzz` runs this
 * file with FUZZ_RUNS=10000 and a random seed (printed), shrinking and failing on every class;
 * FUZZ_SEED and FUZZ_PATH replay a reported counterexample.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { failures, fuzz } from './harness.js';
import { formatReport } from './report.js';
import { Target } from './target.js';

const campaign = process.env.FUZZ_RUNS !== undefined;
const runs = Number(process.env.FUZZ_RUNS ?? 600);
const seed = Number(process.env.FUZZ_SEED ?? (campaign ? Math.floor(Math.random() * 2 ** 31) : 25_002));

let target: Target;

beforeAll(async () => {
  target = await Target.start();
}, 120_000);

afterAll(async () => {
  await target?.dispose();
});

test(`${runs} fuzzed requests (seed ${seed}) get answers within Meilisearch's error envelope`, async () => {
  console.log(`fuzz: ${runs} requests, seed ${seed}`);
  const report = await fuzz(target, {
    runs,
    seed,
    path: process.env.FUZZ_PATH,
    timeoutMs: 2_000,
    rssGrowthKb: 512 * 1024,
    log: (line) => console.log(line),
  });
  console.log(formatReport(report));
  expect(failures(report).map((entry) => entry.failure)).toEqual([]);
}, 3_600_000);
