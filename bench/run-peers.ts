/**
 * Side-by-side benchmark of Quarry and its peers (MiniSearch, Orama, FlexSearch, SQLite FTS5)
 * over the shared datasets: indexing rate, peak RSS, size on disk, search latency p50/p95/p99.
 * Each engine runs in its own child process so peak RSS is its own. `--features` runs the
 * feature mixes of feature-queries.ts instead (facets, filters, highlighting, multi-search).
 * Engines with a warm load (Quarry, SQLite) then index the dataset again into a new index in the
 * same process, and a last table gives Quarry's ratios to SQLite FTS5 for docs/s, peak RSS and
 * disk, cold (fresh process, first load) and warm (that second load). Peak anonymous RSS is shown
 * beside peak RSS (sampled every 50 ms from /proc by this process, in the engine's process: the
 * Quarry server, else the child): RSS counts the file pages a process maps, which is how Quarry
 * reads and writes its LMDB index, while SQLite reads its file with read(), into the kernel's
 * page cache, outside its RSS.
 *
 * `--runs N` repeats the whole comparison N times, the engines' order reversed every other run
 * (a shared machine's load drifts), prints each run's ratios and then, per measure, the median of
 * the runs' ratios: a ratio is only ever taken between two engines of the same run.
 *
 *   npm run bench:peers -- [movies|debdocs] [--limit N] [--engines a,b] [--features] [--runs N]
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.js';
import { loadDataset, type Dataset } from './datasets.js';
import { printFeatureTables, runFeatureMixes, type FeatureReport } from './feature-queries.js';
import { fmt, measure, percentile, ratio } from './latency.js';
import type { Engine, EngineOptions } from './peers/engine.js';
import { flexSearch } from './peers/flexsearch.js';
import { miniSearch } from './peers/minisearch.js';
import { orama } from './peers/orama.js';
import { peakRss, quarryHttp } from './peers/quarry-http.js';
import { sqliteFts5 } from './peers/sqlite-fts5.js';

const ENGINES: Record<string, (options: EngineOptions) => Engine> = {
  quarry: quarryHttp,
  sqlite: sqliteFts5,
  minisearch: miniSearch,
  orama: orama,
  flexsearch: flexSearch,
};

interface Result {
  engine: string;
  docs: number;
  indexMs: number;
  docsPerSecond: number;
  peakRssBytes: number;
  diskBytes: number | null;
  p50: number;
  p95: number;
  p99: number;
  queries: number;
  /** The second load into a new index in the same process; its peak RSS is the process's through both loads. */
  warm?: { docsPerSecond: number; peakRssBytes: number; diskBytes: number | null };
  /** The engine process's RSS right before indexing, when it is the bench child (null for a server). */
  beforeIndexBytes: number | null;
  /** Peak anonymous RSS, cold and through both loads, sampled by the parent (`sampleAnonymous`). */
  peakAnonBytes?: number;
  warmPeakAnonBytes?: number;
}

/** The child's message that its cold load and searches are done and the warm load starts. */
const WARM = 'warm';

async function runChild(engineName: string, datasetName: Dataset['name'], limit: number, rounds: number, features: boolean): Promise<Result | FeatureReport> {
  const dataset = loadDataset(datasetName, limit);
  const engine = ENGINES[engineName]!({ features });
  await engine.prepare?.(dataset);
  const beforeIndexBytes = 'serverPid' in engine ? null : process.memoryUsage().rss;
  const started = performance.now();
  await engine.index(dataset);
  const indexMs = performance.now() - started;
  if (features) {
    const report = await runFeatureMixes(engine, dataset, rounds);
    await engine.close();
    return report;
  }
  const latency = await measure(dataset.queries, rounds, (query) => engine.search(query));
  const serverPid = 'serverPid' in engine ? (engine as ReturnType<typeof quarryHttp>).serverPid() : undefined;
  const peakRssBytes = () => (serverPid === undefined ? null : peakRss(serverPid)) ?? process.resourceUsage().maxRSS * 1024;
  const result: Result = {
    engine: engine.name,
    docs: dataset.docs.length,
    indexMs,
    docsPerSecond: dataset.docs.length / (indexMs / 1000),
    peakRssBytes: peakRssBytes(),
    beforeIndexBytes,
    diskBytes: engine.diskBytes(),
    p50: latency.p50,
    p95: latency.p95,
    p99: latency.p99,
    queries: latency.samples,
  };
  if (engine.indexAgain !== undefined) {
    process.send?.(WARM);
    const again = performance.now();
    const { diskBytes } = await engine.indexAgain(dataset);
    result.warm = { docsPerSecond: dataset.docs.length / ((performance.now() - again) / 1000), peakRssBytes: peakRssBytes(), diskBytes };
  }
  await engine.close();
  return result;
}

const mib = (b: number | null) => (b === null ? 'in memory' : `${fmt(b / 2 ** 20, 1)} MiB`);

/** RssAnon of `pid` in bytes, or null once it is gone. */
function anonymousRss(pid: number): number | null {
  try {
    const match = /RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

/** The first child process of `pid` (the Quarry server the bench child starts), or null. */
function childOf(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0];
    return first === undefined || first === '' ? null : Number(first);
  } catch {
    return null;
  }
}

/**
 * Samples every 50 ms the peak anonymous RSS of the engine under bench child `pid`: the server it
 * started if it started one, else the child itself; the cold peak until `warm()`, and the whole run's.
 */
function sampleAnonymous(pid: number): { warm(): void; stop(): { cold: number; all: number } } {
  const own = { cold: 0, all: 0 };
  const server = { cold: 0, all: 0 };
  let warm = false;
  const note = (peaks: { cold: number; all: number }, now: number | null) => {
    peaks.all = Math.max(peaks.all, now ?? 0);
    if (!warm) peaks.cold = peaks.all;
  };
  let serverSeen = false;
  const timer = setInterval(() => {
    note(own, anonymousRss(pid));
    const serverPid = childOf(pid);
    if (serverPid === null) return;
    serverSeen = true;
    note(server, anonymousRss(serverPid));
  }, 50);
  return {
    warm: () => (warm = true),
    stop: () => {
      clearInterval(timer);
      return serverSeen ? server : own;
    },
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    const [, engine, dataset, limit, rounds, features] = args;
    const result = await runChild(engine!, dataset as Dataset['name'], Number(limit), Number(rounds), features === 'features');
    process.send!(result);
    return;
  }
  const datasetName = (args.find((a) => a === 'movies' || a === 'debdocs') ?? 'movies') as Dataset['name'];
  const limitArg = args.indexOf('--limit');
  const limit = limitArg === -1 ? Number.POSITIVE_INFINITY : Number(args[limitArg + 1]);
  const enginesArg = args.indexOf('--engines');
  const names = enginesArg === -1 ? Object.keys(ENGINES) : args[enginesArg + 1]!.split(',');
  const features = args.includes('--features');
  const runs = numberOption(args, '--runs', 1);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive integer');
  const rounds = 3;
  console.log(`# ${datasetName}${Number.isFinite(limit) ? ` (first ${limit} docs)` : ''} — ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, node ${process.version}`);
  const all: Result[][] = [];
  for (let run = 0; run < runs; run++) {
    if (runs > 1) console.log(`\n## run ${run + 1} of ${runs}`);
    const ran = await runEngines(run % 2 === 0 ? names : [...names].reverse(), datasetName, limit, rounds, features);
    // the tables list the engines in the order asked, whichever ran first
    const results = ran.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name)).map(({ result }) => result);
    if (features) {
      printFeatureTables(results as FeatureReport[]);
      continue;
    }
    const plain = results as Result[];
    printPlainTable(plain);
    printRatioTable(plain);
    all.push(plain);
  }
  if (runs > 1 && !features) printMedianRatios(all);
}

/** Runs each engine of `names`, in that order, in a child process of its own; answers those that did not fail. */
async function runEngines(names: readonly string[], datasetName: Dataset['name'], limit: number, rounds: number, features: boolean): Promise<{ name: string; result: Result | FeatureReport }[]> {
  const results: { name: string; result: Result | FeatureReport }[] = [];
  for (const name of names) {
    const childArgs = ['--child', name, datasetName, String(limit), String(rounds), features ? 'features' : 'plain'];
    const child = fork(fileURLToPath(import.meta.url), childArgs, { execArgv: ['--max-old-space-size=8192'] });
    const anonymous = sampleAnonymous(child.pid!);
    const result = await new Promise<Result | FeatureReport | null>((resolve) => {
      child.on('message', (m) => {
        if (m === WARM) anonymous.warm();
        else resolve(m as Result | FeatureReport);
      });
      child.once('exit', (code) => {
        if (code !== 0) resolve(null);
      });
    });
    const { cold, all } = anonymous.stop();
    if (result === null) console.log(`${name}: failed`);
    else results.push({ name, result: features ? result : { ...(result as Result), peakAnonBytes: cold, ...((result as Result).warm === undefined ? {} : { warmPeakAnonBytes: all }) } });
  }
  return results;
}

function printPlainTable(results: Result[]): void {
  const quarry = results.find((r) => r.engine.startsWith('Quarry'));
  console.log('| engine | docs/s | peak RSS | peak anonymous RSS | RSS before indexing | disk | p50 ms | p95 ms | p99 ms | p50 vs Quarry | p99 vs Quarry |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.engine} | ${fmt(r.docsPerSecond, 0)} | ${mib(r.peakRssBytes)} | ${mib(r.peakAnonBytes ?? null)} | ${r.beforeIndexBytes === null ? 'n/a (server)' : mib(r.beforeIndexBytes)} | ${mib(r.diskBytes)} | ${fmt(r.p50, 3)} | ${fmt(r.p95, 3)} | ${fmt(r.p99, 3)} | ${ratio(r.p50, quarry?.p50)} | ${ratio(r.p99, quarry?.p99)} |`,
    );
  }
}

await main();

/** A run's Quarry and SQLite FTS5 results, whose ratios #20 measures; null unless both ran. */
function peerPair(results: readonly Result[]): { quarry: Result; sqlite: Result } | null {
  const quarry = results.find((r) => r.engine.startsWith('Quarry'));
  const sqlite = results.find((r) => r.engine === 'SQLite FTS5');
  return quarry === undefined || sqlite === undefined ? null : { quarry, sqlite };
}

/** Quarry's ratios to SQLite FTS5, cold and warm: above 1× is Quarry faster (docs/s) or larger (RSS, disk). */
function printRatioTable(results: Result[]): void {
  const peers = peerPair(results);
  if (peers === null) return;
  const { quarry, sqlite } = peers;
  const times = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || b === 0 ? 'n/a' : `${fmt(a / b, 2)}×`);
  const pair = (a: number | null | undefined, b: number | null | undefined, show: (n: number | null) => string) =>
    a === undefined || b === undefined ? 'n/a' : `${times(a, b)} (${show(a)} / ${show(b)})`;
  const rate = (n: number | null) => (n === null ? 'n/a' : fmt(n, 0));
  console.log('');
  console.log('| Quarry ÷ SQLite FTS5 | docs/s | peak RSS | peak anonymous RSS | disk |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| cold (fresh process, first load) | ${pair(quarry.docsPerSecond, sqlite.docsPerSecond, rate)} | ${pair(quarry.peakRssBytes, sqlite.peakRssBytes, mib)} | ${pair(quarry.peakAnonBytes, sqlite.peakAnonBytes, mib)} | ${pair(quarry.diskBytes, sqlite.diskBytes, mib)} |`,
  );
  const [qw, sw] = [quarry.warm, sqlite.warm];
  console.log(
    `| warm (second load, new index, same process) | ${pair(qw?.docsPerSecond, sw?.docsPerSecond, rate)} | ${pair(qw?.peakRssBytes, sw?.peakRssBytes, mib)} | ${pair(quarry.warmPeakAnonBytes, sqlite.warmPeakAnonBytes, mib)} | ${pair(qw?.diskBytes, sw?.diskBytes, mib)} |`,
  );
}

/** Per measure, the median over the runs (the upper one of an even count) of Quarry's ratio to SQLite FTS5 in the same run, with the runs' range. */
function printMedianRatios(runs: readonly Result[][]): void {
  const pairs = runs.flatMap((results) => peerPair(results) ?? []);
  if (pairs.length === 0) return;
  const cell = (of: (q: Result, s: Result) => number | null | undefined) => {
    const ratios = pairs.map(({ quarry, sqlite }) => of(quarry, sqlite)).filter((r): r is number => r !== null && r !== undefined && Number.isFinite(r));
    ratios.sort((a, b) => a - b);
    return ratios.length === 0 ? 'n/a' : `${fmt(percentile(ratios, 50), 2)}× (${fmt(ratios[0]!, 2)}–${fmt(ratios.at(-1)!, 2)})`;
  };
  const div = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || b === 0 ? null : a / b);
  console.log('');
  console.log(`| Quarry ÷ SQLite FTS5, median of ${pairs.length} alternated runs (range) | docs/s | peak RSS | peak anonymous RSS | disk |`);
  console.log('|---|---|---|---|---|');
  console.log(
    `| cold (fresh process, first load) | ${cell((q, s) => div(q.docsPerSecond, s.docsPerSecond))} | ${cell((q, s) => div(q.peakRssBytes, s.peakRssBytes))} | ${cell((q, s) => div(q.peakAnonBytes, s.peakAnonBytes))} | ${cell((q, s) => div(q.diskBytes, s.diskBytes))} |`,
  );
  console.log(
    `| warm (second load, new index, same process) | ${cell((q, s) => div(q.warm?.docsPerSecond, s.warm?.docsPerSecond))} | ${cell((q, s) => div(q.warm?.peakRssBytes, s.warm?.peakRssBytes))} | ${cell((q, s) => div(q.warmPeakAnonBytes, s.warmPeakAnonBytes))} | ${cell((q, s) => div(q.warm?.diskBytes, s.warm?.diskBytes))} |`,
  );
}
