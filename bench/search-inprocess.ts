/**
 * In-process search benchmark: indexes a shared dataset straight through the engine (document
 * store + index updaters in one write transaction per chunk, as the scheduler does: engine-build.ts), drops
 * the parsed documents (a server holds none), then runs every query of its query set (filters
 * evaluated by the engine) and prints indexing rate and search latency percentiles. No HTTP, no
 * peers (run-peers.ts compares over HTTP).
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/search-inprocess.js [movies|debdocs] [--limit N] [--rounds R] [--profile out.cpuprofile] [--worst K]
 *
 * `--profile` writes a V8 CPU profile of the search rounds only (not the indexing), for DevTools or a script.
 * `--worst K` lists the K slowest single runs (query, round): what makes the p99.
 * Besides the percentiles of every run, it prints those of the first round alone (every query's
 * first run: postings and forward records read from LMDB, code paths compiled) and of the later
 * rounds (caches warm), since the first round's share of the runs moves the overall p99 with `--rounds`,
 * and how many of the runs above the p99 each holds.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.js';
import { indexThenRelease } from './datasets.js';
import { openBuild } from './engine-build.js';
import { percentile } from './latency.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const limit = option('--limit', Number.POSITIVE_INFINITY);
const rounds = option('--rounds', 3);
const profileAt = args.indexOf('--profile');
const profileFile = profileAt === -1 ? null : args[profileAt + 1]!;
const worst = option('--worst', 0);

// this build: dist/ holds this file's bench/ and the engine's src/
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { queries, docCount, indexed: build } = await indexThenRelease(name, limit, (dataset) => openBuild(dist, dataset));
const indexMs = build.indexMs;
const run = (q: string, id: number) => build.search(q, id);
run('warm up', 0); // loads the dictionary and the kernels once
const profiler = profileFile === null ? null : new Session();
if (profiler !== null) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const timings: number[] = [];
const firstRound: number[] = [];
const laterRounds: number[] = [];
const runs: { ms: number; label: string }[] = [];
const byType = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const query of queries) {
    const start = performance.now();
    run(query.q, query.id);
    const ms = performance.now() - start;
    timings.push(ms);
    (round === 0 ? firstRound : laterRounds).push(ms);
    if (worst > 0) runs.push({ ms, label: `#${query.id} ${query.type} ${JSON.stringify(query.q)} (round ${round})` });
    const list = byType.get(query.type) ?? [];
    list.push(ms);
    byType.set(query.type, list);
  }
}
if (profiler !== null) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(profileFile!, JSON.stringify(profile));
  profiler.disconnect();
}
timings.sort((a, b) => a - b);
const mem = process.memoryUsage();
console.log(`${name}: ${docCount} documents indexed in ${(indexMs / 1000).toFixed(2)} s (${Math.round(docCount / (indexMs / 1000))} docs/s), rss ${Math.round(mem.rss / 2 ** 20)} MiB`);
console.log(
  `search (${timings.length} runs of ${queries.length} queries): p50 ${percentile(timings, 50).toFixed(3)} ms, p95 ${percentile(timings, 95).toFixed(3)} ms, p99 ${percentile(timings, 99).toFixed(3)} ms, max ${timings[timings.length - 1]!.toFixed(3)} ms`,
);
for (const [name, list] of [['first round', firstRound], ['later rounds', laterRounds]] as const) {
  if (list.length === 0) continue;
  list.sort((a, b) => a - b);
  console.log(`  ${name.padEnd(12)} p50 ${percentile(list, 50).toFixed(3)} ms  p99 ${percentile(list, 99).toFixed(3)} ms  (${list.length} runs)`);
}
// the runs above the p99: which round they come from says whether first reads or the steady state make it
const p99 = percentile(timings, 99);
const above = (list: readonly number[]) => list.filter((ms) => ms > p99).length;
console.log(`  runs above the p99: ${above(firstRound)} in the first round, ${above(laterRounds)} in later rounds`);
for (const [type, list] of byType) {
  list.sort((a, b) => a - b);
  console.log(`  ${type.padEnd(12)} p50 ${percentile(list, 50).toFixed(3)} ms  p99 ${percentile(list, 99).toFixed(3)} ms`);
}
if (worst > 0) {
  console.log(`the ${worst} slowest runs:`);
  for (const { ms, label } of runs.sort((a, b) => b.ms - a.ms).slice(0, worst)) console.log(`  ${ms.toFixed(3)} ms  ${label}`);
}
await build.close();
