/**
 * In-process search benchmark: indexes a shared dataset straight through the engine (document
 * store + index updaters in one write transaction per chunk, as the scheduler does), then runs
 * every query of its query set (filters evaluated by the engine) and prints indexing rate and
 * search latency percentiles. No HTTP, no peers (run-peers.ts compares over HTTP).
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/search-inprocess.js [movies|debdocs] [--limit N] [--rounds R]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { numberOption } from './args.js';
import { loadDataset } from './datasets.js';
import { engineSearch } from './engine-search.js';
import { percentile } from './latency.js';
import { DocumentStore } from '../src/engine/documents/store.js';
import { parseFilter } from '../src/engine/filter-parser/index.js';
import { IndexEnvs } from '../src/engine/index-env.js';
import { INDEX_UPDATERS } from '../src/engine/indexer/registry.js';
import { writeSettings } from '../src/engine/index-settings.js';
import { defaultSettings } from '../src/types/settings.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const limit = option('--limit', Number.POSITIVE_INFINITY);
const rounds = option('--rounds', 3);
const CHUNK = 10_000;

const dataset = loadDataset(name, limit);
const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-'));
const envs = new IndexEnvs(dir);
const env = envs.get('bench');
const settings = {
  ...defaultSettings(),
  searchableAttributes: dataset.searchable,
  filterableAttributes: dataset.filterable,
  sortableAttributes: dataset.sortable,
};

const indexStart = performance.now();
for (let at = 0; at < dataset.docs.length; at += CHUNK) {
  const changes = new Map(dataset.docs.slice(at, at + CHUNK).map((doc) => [String(doc.id), doc]));
  env.root.transactionSync(() => {
    writeSettings(env, settings);
    const applied = new DocumentStore(env).apply(changes, false);
    for (const updater of INDEX_UPDATERS) updater.apply(env, settings, applied);
  });
}
const indexMs = performance.now() - indexStart;

const filters = new Map(
  dataset.queries.map((query) => {
    const ast = query.meiliFilter === undefined ? null : parseFilter(query.meiliFilter, { code: 'invalid_search_filter' });
    return [query.id, ast];
  }),
);
const run = (q: string, id: number) => engineSearch(env, settings, q, filters.get(id) ?? null);
run('warm up', 0); // loads the dictionary and the kernels once
const timings: number[] = [];
const byType = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const query of dataset.queries) {
    const start = performance.now();
    run(query.q, query.id);
    const ms = performance.now() - start;
    timings.push(ms);
    const list = byType.get(query.type) ?? [];
    list.push(ms);
    byType.set(query.type, list);
  }
}
timings.sort((a, b) => a - b);
const mem = process.memoryUsage();
console.log(`${name}: ${dataset.docs.length} documents indexed in ${(indexMs / 1000).toFixed(2)} s (${Math.round(dataset.docs.length / (indexMs / 1000))} docs/s), rss ${Math.round(mem.rss / 2 ** 20)} MiB`);
console.log(
  `search (${timings.length} runs of ${dataset.queries.length} queries): p50 ${percentile(timings, 50).toFixed(3)} ms, p95 ${percentile(timings, 95).toFixed(3)} ms, p99 ${percentile(timings, 99).toFixed(3)} ms, max ${timings[timings.length - 1]!.toFixed(3)} ms`,
);
for (const [type, list] of byType) {
  list.sort((a, b) => a - b);
  console.log(`  ${type.padEnd(12)} p50 ${percentile(list, 50).toFixed(3)} ms  p99 ${percentile(list, 99).toFixed(3)} ms`);
}
await envs.closeAll();
rmSync(dir, { recursive: true, force: true });
