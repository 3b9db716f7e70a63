/**
 * Search over HTTP right after small writes, as a live catalogue's users meet it: each build's
 * server (this one, and `--base` builds' main.js) gets the dataset, every query once twice over
 * (warm), then `--writes` one-document writes through the API (every other one adds a copy of one
 * of the dataset's documents with a word no document holds, the next deletes it), each waited for,
 * then followed by one search with facets on every filterable field, and the same search again.
 * The builds are alternated write by write.
 *
 *   node dist/bench/search-after-writes-http.js [movies|debdocs] [--writes N] [--base path/to/dist/src/main.js]...
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { numberOption } from './args.js';
import { loadDataset, type Query } from './datasets.js';
import { percentile } from './latency.js';
import { call, startServer, stopServer, waitTask } from './http-server.js';

const args = process.argv.slice(2);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const writes = numberOption(args, '--writes', 12);
const servers = [fileURLToPath(new URL('../src/main.js', import.meta.url)), ...args.flatMap((arg, i) => (arg === '--base' ? [path.resolve(args[i + 1]!)] : []))];
const dataset = await loadDataset(name, Number.POSITIVE_INFINITY);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Running {
  readonly server: string;
  readonly dbPath: string;
  readonly child: ChildProcess;
  readonly url: string;
  readonly first: number[];
  readonly again: number[];
}

const taskOf = (body: string) => (JSON.parse(body) as { taskUid: number }).taskUid;
const searchBody = (query: Query) => JSON.stringify({ q: query.q, limit: 20, facets: dataset.filterable, ...(query.meiliFilter === undefined ? {} : { filter: query.meiliFilter }) });
async function search(url: string, query: Query): Promise<number> {
  const start = performance.now();
  const answer = await call(agent, `${url}/indexes/bench/search`, 'POST', searchBody(query));
  if (answer.status !== 200) throw new Error(`search answered ${answer.status}: ${answer.body}`);
  return performance.now() - start;
}

const running: Running[] = [];
for (const server of servers) {
  const dbPath = mkdtempSync(path.join(tmpdir(), 'quarry-after-writes-http-'));
  const { child, url } = await startServer(server, dbPath, []);
  const settings = { searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable };
  await waitTask(agent, url, taskOf((await call(agent, `${url}/indexes/bench/settings`, 'PATCH', JSON.stringify(settings))).body));
  let last = 0;
  for (const chunk of dataset.ndjson) last = taskOf((await call(agent, `${url}/indexes/bench/documents?primaryKey=id`, 'POST', chunk, 'application/x-ndjson')).body);
  await waitTask(agent, url, last);
  for (let round = 0; round < 2; round++) for (const query of dataset.queries) await search(url, query);
  running.push({ server, dbPath, child, url, first: [], again: [] });
}

const target = dataset.docs[7]!;
const field = dataset.searchable[0]!;
for (let w = 0; w < writes; w++) {
  const query = dataset.queries[(w * 7) % dataset.queries.length]!;
  for (const one of running) {
    const write =
      w % 2 === 0
        ? await call(agent, `${one.url}/indexes/bench/documents`, 'POST', JSON.stringify([{ ...target, id: 'after-writes', [field]: `zqxw${w}fresh ${String(target[field] ?? '')}` }]))
        : await call(agent, `${one.url}/indexes/bench/documents/after-writes`, 'DELETE');
    await waitTask(agent, one.url, taskOf(write.body), 10);
    one.first.push(await search(one.url, query));
    one.again.push(await search(one.url, query));
  }
}

console.log(`${name}: ${dataset.docs.length} documents, ${writes} one-document writes, each followed by one search with facets on ${dataset.filterable.join(', ')}`);
for (const one of running) {
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
  const first = sorted(one.first);
  console.log(`  ${one.server}`);
  console.log(`    first search after a write: median ${percentile(first, 50).toFixed(1)} ms, max ${first[first.length - 1]!.toFixed(1)} ms; the same search again: median ${percentile(sorted(one.again), 50).toFixed(1)} ms`);
  await stopServer(one.child);
  rmSync(one.dbPath, { recursive: true, force: true });
}
agent.destroy();
