/**
 * One-process A/B of in-process search between two builds (e.g. a commit before a change, checked
 * out and built in another worktree, against this checkout): each build indexes the dataset with
 * its own modules (engine-build.ts), the answers of every query are compared (hits, scores, score
 * details, hit count), then each query runs `rounds` times per build, alternating A/B and B/A, and
 * the fastest run of each is kept: on a shared machine only such interleaved ratios mean anything.
 * Prints per query type the sum of fastest times and the ratio B/A, then the overall ratio.
 *
 *   npm run build && tsc -p bench/tsconfig.json
 *   node dist/bench/search-ab.js [movies|debdocs] [--base <dist dir of build A>] [--rounds R] [--limit N] [--top K] [--cpu] [--type T]
 *
 * `--cpu` times each run by the process's CPU time (user + system) instead of the wall clock: on a
 * loaded machine a run preempted by other processes then costs only what it computed.
 * `--type T` runs only the queries of one type (e.g. multi-words), for more rounds of fewer queries.
 * `--top K` also lists the K queries whose fastest time grew most from A to B (where to look next).
 * `--slowest K` lists the K queries slowest in A (fastest run), with B's time beside (the tail).
 * `--worst K` lists the K slowest single runs of each build (query, round): what makes its p99.
 * Each build's every-run p50/p95/p99 is printed overall and per query type.
 *
 * `--base` defaults to ../prerank/dist beside this checkout (a worktree at the older commit, built).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.js';
import { indexThenRelease, type Query } from './datasets.js';
import { openBuild, type EngineBuild } from './engine-build.js';
import { percentile } from './latency.js';

const args = process.argv.slice(2);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const rounds = numberOption(args, '--rounds', 10);
const limit = numberOption(args, '--limit', Number.POSITIVE_INFINITY);
const top = numberOption(args, '--top', 0);
const slowest = numberOption(args, '--slowest', 0);
const worst = numberOption(args, '--worst', 0);
const cpuClock = args.includes('--cpu');
const typeAt = args.indexOf('--type');
const onlyType = typeAt === -1 ? null : args[typeAt + 1]!;
const ownDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const baseAt = args.indexOf('--base');
const baseDist = path.resolve(baseAt === -1 ? path.join(ownDist, '../../prerank/dist') : args[baseAt + 1]!);
if (!existsSync(path.join(baseDist, 'bench/engine-search.js'))) throw new Error(`${baseDist} holds no built bench/engine-search.js (build A)`);

const loaded = await indexThenRelease(name, limit, async (dataset) => [await openBuild(baseDist, dataset), await openBuild(ownDist, dataset)] as const);
const [a, b] = loaded.indexed;
const queries = onlyType === null ? loaded.queries : loaded.queries.filter((query) => query.type === onlyType);
console.log(`${name}: ${loaded.docCount} documents, ${queries.length} queries, fastest of ${rounds} alternated runs (${cpuClock ? 'CPU time' : 'wall clock'})`);
console.log(`  A ${a.root} (indexed in ${(a.indexMs / 1000).toFixed(1)} s)`);
console.log(`  B ${b.root} (indexed in ${(b.indexMs / 1000).toFixed(1)} s)`);

/** What a query answers, as compared between the builds. */
function answer(build: EngineBuild, query: Query): string {
  const outcome = build.search(query.q, query.id);
  return JSON.stringify({ totalHits: outcome.totalHits, hits: outcome.hits.map((hit) => [hit.docid, hit.score, hit.details]) });
}

const differing: Query[] = [];
for (const query of queries) if (answer(a, query) !== answer(b, query)) differing.push(query);
console.log(`answers differ for ${differing.length} of ${queries.length} queries${differing.length === 0 ? '' : ':'}`);
for (const query of differing) console.log(`  #${query.id} ${query.type}: ${JSON.stringify(query.q)}`);

/** Milliseconds: of the wall clock, or of the process's CPU time with `--cpu`. */
const clock = cpuClock
  ? () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    }
  : () => performance.now();
const time = (build: EngineBuild, query: Query): number => {
  const start = clock();
  build.search(query.q, query.id);
  return clock() - start;
};
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average before timing: ${load()}`);
const fastest = new Map<Query, [number, number]>();
const samples: [number[], number[]] = [[], []];
/** every run per build: time, query, round */
const runs: [[number, Query, number][], [number, Query, number][]] = [[], []];
/** every run's time per query type, per build */
const typeSamples = new Map<string, [number[], number[]]>();
for (const query of queries) {
  let [bestA, bestB] = [Infinity, Infinity];
  for (let round = 0; round < rounds; round++) {
    // alternate which build goes first, so neither always runs on the other's warmed caches
    let ta: number;
    let tb: number;
    if (round % 2 === 0) {
      ta = time(a, query);
      tb = time(b, query);
    } else {
      tb = time(b, query);
      ta = time(a, query);
    }
    samples[0].push(ta);
    samples[1].push(tb);
    runs[0].push([ta, query, round]);
    runs[1].push([tb, query, round]);
    let perType = typeSamples.get(query.type);
    if (perType === undefined) typeSamples.set(query.type, (perType = [[], []]));
    perType[0].push(ta);
    perType[1].push(tb);
    bestA = Math.min(bestA, ta);
    bestB = Math.min(bestB, tb);
  }
  fastest.set(query, [bestA, bestB]);
}
console.log(`load average after timing: ${load()}`);

const row = (label: string, queries: Query[]) => {
  let [sumA, sumB] = [0, 0];
  for (const query of queries) {
    const [ta, tb] = fastest.get(query)!;
    sumA += ta;
    sumB += tb;
  }
  console.log(`  ${label.padEnd(14)} ${String(queries.length).padStart(4)}  ${sumA.toFixed(1).padStart(9)}  ${sumB.toFixed(1).padStart(9)}  ${(sumB / sumA).toFixed(3)}×`);
};
console.log(`  ${'type'.padEnd(14)} ${'n'.padStart(4)}  ${'A ms'.padStart(9)}  ${'B ms'.padStart(9)}  B/A (sum of fastest)`);
const types = [...new Set(queries.map((query) => query.type))];
for (const type of types) row(type, queries.filter((query) => query.type === type));
row('all', queries);
const percentiles = (list: number[]) => {
  list.sort((x, y) => x - y);
  return `p50 ${percentile(list, 50).toFixed(3)}, p95 ${percentile(list, 95).toFixed(3)}, p99 ${percentile(list, 99).toFixed(3)}, max ${list[list.length - 1]!.toFixed(3)} ms`;
};
for (const [label, list] of [['A', samples[0]], ['B', samples[1]]] as const) console.log(`  ${label} every run: ${percentiles(list)}`);
console.log('every run per query type:');
for (const [type, [listA, listB]] of typeSamples) {
  console.log(`  ${type.padEnd(14)} A ${percentiles(listA)}`);
  console.log(`  ${''.padEnd(14)} B ${percentiles(listB)}`);
}
if (slowest > 0) {
  console.log(`the ${slowest} queries slowest in A (fastest A → B):`);
  const timeA = (query: Query) => fastest.get(query)![0];
  for (const query of [...queries].sort((x, y) => timeA(y) - timeA(x)).slice(0, slowest)) {
    const [ta, tb] = fastest.get(query)!;
    console.log(`  #${query.id} ${query.type} ${JSON.stringify(query.q)}: ${ta.toFixed(3)} → ${tb.toFixed(3)} ms`);
  }
}
if (worst > 0) {
  for (const [label, list] of [['A', runs[0]], ['B', runs[1]]] as const) {
    console.log(`the ${worst} slowest runs of ${label}:`);
    for (const [ms, query, round] of [...list].sort((x, y) => y[0] - x[0]).slice(0, worst)) {
      console.log(`  ${ms.toFixed(3)} ms  #${query.id} ${query.type} ${JSON.stringify(query.q)} (round ${round}, fastest ${fastest.get(query)![label === 'A' ? 0 : 1].toFixed(3)} ms)`);
    }
  }
}
if (top > 0) {
  console.log(`the ${top} queries B slowed most (fastest A → B):`);
  const growth = (query: Query) => fastest.get(query)![1] - fastest.get(query)![0];
  for (const query of [...queries].sort((x, y) => growth(y) - growth(x)).slice(0, top)) {
    const [ta, tb] = fastest.get(query)!;
    console.log(`  #${query.id} ${query.type} ${JSON.stringify(query.q)}: ${ta.toFixed(3)} → ${tb.toFixed(3)} ms`);
  }
}
await a.close();
await b.close();
