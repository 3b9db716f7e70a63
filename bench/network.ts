/**
 * Network search on loopback (issue 26): three Quarry processes each hold a third of a dataset
 * (split by document id), a fourth holds all of it. The query set runs, query after query,
 * against the single instance and as a `useNetwork: true` search sent to one of the three (which
 * searches its third and asks the two others over HTTP, then merges). On one machine the network
 * only adds work (three searches, two proxied requests, a merge): the figure is the overhead of
 * the protocol, not a speed-up, which needs more machines.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/network.js [movies|debdocs] [--limit N] [--rounds R]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.js';
import { loadDataset, type Doc } from './datasets.js';
import { percentile } from './latency.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const limit = option('--limit', Number.POSITIVE_INFINITY);
const rounds = option('--rounds', 3);
const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

interface Instance {
  url: string;
  child: ChildProcess;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function start(dir: string): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN, '--http-addr', `127.0.0.1:${port}`, '--db-path', dir, '--no-analytics', '--experimental-allowed-ip-networks', 'any'], {
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '', QUARRY_LOG_LEVEL: 'WARN' },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('an instance did not start');
}

async function call(instance: Instance, method: string, route: string, body?: unknown): Promise<any> {
  const response = await fetch(`${instance.url}${route}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return response.json();
}

async function settle(instance: Instance, taskUid: number): Promise<void> {
  for (;;) {
    const task = await call(instance, 'GET', `/tasks/${taskUid}`);
    if (task.status === 'succeeded') return;
    if (task.status === 'failed') throw new Error(JSON.stringify(task.error));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function load(instance: Instance, docs: Doc[], settings: object): Promise<void> {
  await settle(instance, (await call(instance, 'PATCH', `/indexes/${name}/settings`, settings)).taskUid);
  await settle(instance, (await call(instance, 'POST', `/indexes/${name}/documents?primaryKey=id`, docs)).taskUid);
}

const summary = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
};

const dataset = loadDataset(name, limit);
const settings = { searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable };
const root = mkdtempSync(path.join(tmpdir(), 'quarry-bench-network-'));
const instances: Instance[] = [];
try {
  for (let i = 0; i < 4; i++) instances.push(await start(path.join(root, `db${i}`)));
  const [ms0, ms1, ms2, whole] = instances as [Instance, Instance, Instance, Instance];
  const shards = [ms0, ms1, ms2];
  await Promise.all([...shards.map((instance, i) => load(instance, dataset.docs.filter((doc) => doc.id % 3 === i), settings)), load(whole, dataset.docs, settings)]);
  await call(ms0, 'PATCH', '/experimental-features', { network: true });
  for (const instance of shards) await call(instance, 'PATCH', '/experimental-features', { network: true });
  await call(ms0, 'PATCH', '/network', { self: 'ms0', remotes: Object.fromEntries(shards.map((instance, i) => [`ms${i}`, { url: instance.url }])) });

  const single: number[] = [];
  const network: number[] = [];
  let differing = 0;
  for (let round = 0; round < rounds; round++) {
    for (const query of dataset.queries) {
      const body = { q: query.q, limit: 20, showRankingScore: true, ...(query.meiliFilter === undefined ? {} : { filter: query.meiliFilter }) };
      let started = performance.now();
      const alone = await call(whole, 'POST', `/indexes/${name}/search`, body);
      single.push(performance.now() - started);
      started = performance.now();
      const spread = await call(ms0, 'POST', `/indexes/${name}/search`, { ...body, useNetwork: true });
      network.push(performance.now() - started);
      const scores = (answer: { hits: { _rankingScore: number }[] }) => answer.hits.map((hit) => hit._rankingScore.toFixed(6)).join();
      if (round === 0 && scores(alone) !== scores(spread)) differing++;
    }
  }
  console.log(`${name}: ${dataset.docs.length} documents, three instances of a third each and one of all, ${dataset.queries.length} queries × ${rounds} rounds, one client`);
  console.log(`one instance, plain search:           ${summary(single)}`);
  console.log(`three instances, useNetwork search:  ${summary(network)}`);
  console.log(`queries whose 20 ranking scores differ between the two: ${differing} of ${dataset.queries.length}`);
} finally {
  for (const { child } of instances) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
}
