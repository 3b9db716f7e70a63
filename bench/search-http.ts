/**
 * Search over HTTP on loopback: a fresh server process with movies loaded, then the dataset's
 * query file at one keep-alive connection (latency percentiles) and at 8 keep-alive connections
 * (searches/s), with GET /health measured the same way in the same run as the empty-route
 * ceiling of the HTTP stack (the ratios to it hold better than raw figures on a shared machine).
 * At 8 connections it also reports the server's CPU per search, the share of the time its main
 * thread (which runs every search) was busy and that thread's CPU per search, whose inverse is
 * the one-thread ceiling, and this client's CPU per search.
 *
 *   npm run bench:search-http -- [movies|debdocs] [--limit N] [--rounds R] [--warmup W] [--seconds S] [--accept-encoding LIST]
 *     [--server path/to/dist/src/main.js] [--cpu-prof DIR]
 *
 * `--warmup W` (default 5): passes over the bodies at one connection before each one-connection
 * phase is timed. A fresh server answers its first thousand searches slower while V8 compiles
 * the search path (the query file's p50 fell from ~2 to ~0.7 ms over its first five passes, and
 * GET /health from 0.3 to 0.1 ms); `--warmup 1` times that settling too, as runs before
 * 2026-11-29 22:40 did.
 * `--accept-encoding LIST` sends that Accept-Encoding with the timed requests, as browsers and
 * fetch do (`gzip, deflate, br`): the server then compresses its answers, and the client decodes them.
 * `--server` runs another build's server (before/after comparisons). `--cpu-prof DIR` profiles the
 * 8-connection search phase alone: the server is loaded, stopped, restarted on the same data with
 * `node --cpu-prof`, warmed with `--warmup` passes of the queries, then runs only that phase (its
 * profile is written to DIR when it stops; its startup and the warm-up passes are in it too).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.js';
import { loadDataset, type Query } from './datasets.js';
import { percentile } from './latency.js';
import { call, startServer, stopServer, waitTask } from './http-server.js';

const args = process.argv.slice(2);
const stringOption = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const limit = numberOption(args, '--limit', Number.POSITIVE_INFINITY);
const rounds = numberOption(args, '--rounds', 3);
const warmup = numberOption(args, '--warmup', 5);
const seconds = numberOption(args, '--seconds', 5);
const CONNECTIONS = 8;
const server = path.resolve(stringOption('--server') ?? fileURLToPath(new URL('../src/main.js', import.meta.url)));
const cpuProfDir = stringOption('--cpu-prof');
const acceptEncoding = stringOption('--accept-encoding');
/** Headers of the timed requests (and their warm-up). */
const timed: Record<string, string> = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };

const searchBody = (query: Query) => JSON.stringify({ q: query.q, limit: 20, ...(query.meiliFilter === undefined ? {} : { filter: query.meiliFilter }) });

/**
 * Each body once in order at one connection, `rounds` times after `warmup` passes; milliseconds,
 * with the total time per body group (`groups[i]` names body i's) so the mean can be apportioned.
 */
async function oneConnection(url: string, route: string, bodies: readonly (string | undefined)[], groups: readonly string[] = []) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const method = bodies[0] === undefined ? 'GET' : 'POST';
  for (let pass = 0; pass < warmup; pass++) for (const body of bodies) await call(agent, url + route, method, body, undefined, timed);
  const latencies: number[] = [];
  const byGroup = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    for (const [i, body] of bodies.entries()) {
      const start = performance.now();
      const answer = await call(agent, url + route, method, body, undefined, timed);
      const took = performance.now() - start;
      latencies.push(took);
      const group = groups[i] ?? '';
      byGroup.set(group, (byGroup.get(group) ?? 0) + took);
      if (answer.status !== 200) throw new Error(`${route} answered ${answer.status}: ${answer.body}`);
    }
  }
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const mean = latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length;
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), mean, samples: latencies.length, byGroup };
}

/**
 * CPU time the process `pid` has used (user + system, Linux /proc), in milliseconds, or NaN
 * elsewhere: per request, it holds better than wall-clock figures on a shared machine. `thread`:
 * that thread's alone (the process's main thread is the one whose id is the pid).
 */
function cpuMs(pid: number | undefined, thread?: number): number {
  try {
    const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return Number.NaN;
  }
}

/**
 * CONNECTIONS clients in a closed loop over `bodies` for `seconds`: requests per second, and CPU
 * ms per request of the server, of its main thread (which runs every search: its share of the
 * time says how near the one-thread ceiling the rate is), and of this client.
 */
async function connections(url: string, route: string, bodies: readonly (string | undefined)[]): Promise<{ rate: number; cpuPerRequest: number; mainThreadShare: number; mainCpuPerRequest: number; clientCpuPerRequest: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const method = bodies[0] === undefined ? 'GET' : 'POST';
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const client = async (first: number) => {
    for (let next = first; performance.now() < end; next += CONNECTIONS) {
      const answer = await call(agent, url + route, method, bodies[next % bodies.length], undefined, timed);
      if (answer.status !== 200) throw new Error(`${route} answered ${answer.status}: ${answer.body}`);
      done++;
    }
  };
  const start = performance.now();
  const cpuStart = cpuMs(child.pid);
  const mainStart = cpuMs(child.pid, child.pid);
  const clientStart = process.cpuUsage();
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => client(i)));
  const elapsed = (performance.now() - start) / 1000;
  const cpu = cpuMs(child.pid) - cpuStart;
  const main = cpuMs(child.pid, child.pid) - mainStart;
  const clientCpu = process.cpuUsage(clientStart);
  agent.destroy();
  return {
    rate: done / elapsed,
    cpuPerRequest: cpu / done,
    mainThreadShare: main / (elapsed * 1000),
    mainCpuPerRequest: main / done,
    clientCpuPerRequest: (clientCpu.user + clientCpu.system) / 1000 / done,
  };
}

const dataset = loadDataset(name, limit);
const dir = mkdtempSync(path.join(tmpdir(), 'bench-search-http-'));
const dbPath = path.join(dir, 'db');
const loadStart = performance.now();
let { child, url } = await startServer(server, dbPath, []);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const settings = JSON.parse(
  (await call(agent, `${url}/indexes/bench/settings`, 'PATCH', JSON.stringify({ searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable }))).body,
) as { taskUid: number };
await waitTask(agent, url, settings.taskUid);
let last = -1;
for (const chunk of dataset.ndjson) last = (JSON.parse((await call(agent, `${url}/indexes/bench/documents?primaryKey=id`, 'POST', chunk, 'application/x-ndjson')).body) as { taskUid: number }).taskUid;
await waitTask(agent, url, last);
agent.destroy();
const loadMs = performance.now() - loadStart;

if (cpuProfDir !== undefined) {
  await stopServer(child);
  ({ child, url } = await startServer(server, dbPath, ['--cpu-prof', '--cpu-prof-dir', path.resolve(cpuProfDir)]));
}

const bodies = dataset.queries.map(searchBody);
const ms = (n: number) => n.toFixed(3);
const ms3 = (n: number) => n.toFixed(2);
const load = loadavg()[0]!.toFixed(1);
const finish = async () => {
  await stopServer(child);
  rmSync(dir, { recursive: true, force: true });
};

if (cpuProfDir !== undefined) {
  const warm = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let pass = 0; pass < warmup; pass++) for (const body of bodies) await call(warm, `${url}/indexes/bench/search`, 'POST', body, undefined, timed);
  warm.destroy();
  const search = await connections(url, '/indexes/bench/search', bodies);
  await finish();
  console.log(`${CONNECTIONS} connections, ${seconds} s, under --cpu-prof: search ${Math.round(search.rate)}/s (load average ${load}); profile in ${cpuProfDir}`);
} else {
  const health: undefined[] = bodies.map(() => undefined);
  const healthOne = await oneConnection(url, '/health', health);
  const searchOne = await oneConnection(url, '/indexes/bench/search', bodies, dataset.queries.map((query) => query.type));
  const healthRun = await connections(url, '/health', health);
  const searchRun = await connections(url, '/indexes/bench/search', bodies);
  const [healthRate, searchRate] = [healthRun.rate, searchRun.rate];
  await finish();
  console.log(`${name}: ${dataset.docs.length} documents loaded over HTTP in ${(loadMs / 1000).toFixed(1)} s; server ${path.relative(process.cwd(), server) || server}; load average ${load} → ${loadavg()[0]!.toFixed(1)}`);
  console.log(`1 connection, search (${searchOne.samples} requests after ${warmup} warm-up passes): p50 ${ms(searchOne.p50)} ms, p95 ${ms(searchOne.p95)} ms, p99 ${ms(searchOne.p99)} ms, mean ${ms(searchOne.mean)} ms`);
  console.log(`1 connection, GET /health (${healthOne.samples} requests): p50 ${ms(healthOne.p50)} ms, p95 ${ms(healthOne.p95)} ms, p99 ${ms(healthOne.p99)} ms`);
  console.log(`${CONNECTIONS} connections, ${seconds} s each: search ${Math.round(searchRate)}/s, GET /health ${Math.round(healthRate)}/s, search/empty-route ${(searchRate / healthRate).toFixed(3)}`);
  const total = [...searchOne.byGroup.values()].reduce((sum, ms) => sum + ms, 0);
  const shares = [...searchOne.byGroup].sort((a, b) => b[1] - a[1]).map(([type, ms]) => {
    const count = dataset.queries.filter((query) => query.type === type).length;
    return `${type} ×${count} ${((100 * ms) / total).toFixed(0)}% (mean ${ms3(ms / (count * rounds))} ms)`;
  });
  console.log(`1 connection, share of the search time by query type: ${shares.join(', ')}`);
  console.log(`server CPU per request at ${CONNECTIONS} connections: search ${ms(searchRun.cpuPerRequest)} ms, GET /health ${ms(healthRun.cpuPerRequest)} ms`);
  console.log(
    `searches at ${CONNECTIONS} connections: the server's main thread busy ${(100 * searchRun.mainThreadShare).toFixed(0)}% of the time (${ms(searchRun.mainCpuPerRequest)} ms per search, a one-thread ceiling of ${Math.round(1000 / searchRun.mainCpuPerRequest)}/s); this client ${ms(searchRun.clientCpuPerRequest)} ms of CPU per search`,
  );
  console.log(`search p50 / empty-route p50: ${(searchOne.p50 / healthOne.p50).toFixed(2)}`);
  console.log(`JSON ${JSON.stringify({ load, warmup, acceptEncoding: acceptEncoding ?? null, searchP50: searchOne.p50, searchP95: searchOne.p95, searchP99: searchOne.p99, searchMean: searchOne.mean, healthP50: healthOne.p50, searchRate, healthRate, searchCpuMs: searchRun.cpuPerRequest, searchMainThreadCpuMs: searchRun.mainCpuPerRequest, searchMainThreadShare: searchRun.mainThreadShare, clientCpuMs: searchRun.clientCpuPerRequest, healthCpuMs: healthRun.cpuPerRequest })}`);
}
