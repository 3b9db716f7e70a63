/**
 * Searches on an index that keeps taking small writes, the way a live catalogue does: after each
 * write of one document (every other one adding a document, a copy of one of the dataset's with a
 * word the index never held, with its facet values; the next deleting it again), the dataset's
 * query file is run once, each query with a facet distribution on every filterable field. Prints, per build, the first search after a write, the rounds after a
 * write, and warm rounds (no write since the last round), fastest-first percentiles.
 *
 *   node dist/bench/search-after-writes.js [movies|debdocs] [--writes N] [--base path/to/dist]
 *
 * `--base` loads another build's compiled engine in the same process (its own modules, caches
 * and index folder) and alternates the two builds write by write, so both meet the same machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { numberOption } from './args.js';
import { loadDataset, type Dataset } from './datasets.js';
import { percentile } from './latency.js';
import type { JsonObject } from '../src/engine/document-id.js';

const args = process.argv.slice(2);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const writes = numberOption(args, '--writes', 12);
const baseAt = args.indexOf('--base');
const dists = [path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), ...(baseAt === -1 ? [] : [path.resolve(args[baseAt + 1]!)])];
const CHUNK = 10_000;

interface Build {
  readonly label: string;
  /** writes documents by id (null deletes) */
  write(docs: ReadonlyMap<string, JsonObject | null>): void;
  /** one search with its facets, in ms */
  search(q: string, queryId: number): number;
  close(): Promise<void>;
}

async function openBuild(dist: string, label: string, dataset: Dataset): Promise<Build> {
  const load = <T>(file: string) => import(pathToFileURL(path.join(dist, file)).href) as Promise<T>;
  const { DocumentStore } = await load<typeof import('../src/engine/documents/store.js')>('src/engine/documents/store.js');
  const { IndexEnvs } = await load<typeof import('../src/engine/index-env.js')>('src/engine/index-env.js');
  const { INDEX_UPDATERS } = await load<typeof import('../src/engine/indexer/registry.js')>('src/engine/indexer/registry.js');
  const { writeSettings } = await load<typeof import('../src/engine/index-settings.js')>('src/engine/index-settings.js');
  const { defaultSettings } = await load<typeof import('../src/types/settings.js')>('src/types/settings.js');
  const { parseFilter } = await load<typeof import('../src/engine/filter-parser/index.js')>('src/engine/filter-parser/index.js');
  const { computeFacets } = await load<typeof import('../src/engine/facets/distribution.js')>('src/engine/facets/distribution.js');
  const { engineSearch } = await load<typeof import('./engine-search.js')>('bench/engine-search.js');
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-after-writes-'));
  const envs = new IndexEnvs(dir);
  const env = envs.get('bench');
  const settings = { ...defaultSettings(), searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable };
  const write = (docs: ReadonlyMap<string, JsonObject | null>) =>
    env.root.transactionSync(() => {
      writeSettings(env, settings);
      const applied = new DocumentStore(env).apply(docs, false);
      for (const updater of INDEX_UPDATERS) updater.apply(env, settings, applied);
    });
  for (let at = 0; at < dataset.docs.length; at += CHUNK) write(new Map(dataset.docs.slice(at, at + CHUNK).map((doc) => [String(doc.id), doc])));
  const filters = new Map(dataset.queries.map((query) => [query.id, query.meiliFilter === undefined ? null : parseFilter(query.meiliFilter, { code: 'invalid_search_filter' })]));
  return {
    label,
    write,
    search(q, queryId) {
      const start = performance.now();
      const outcome = engineSearch(env, settings, q, filters.get(queryId) ?? null);
      computeFacets(env, settings, outcome.candidates, dataset.filterable);
      return performance.now() - start;
    },
    async close() {
      await envs.closeAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const dataset = await loadDataset(name, Number.POSITIVE_INFINITY);
const builds: Build[] = [];
for (const [i, dist] of dists.entries()) builds.push(await openBuild(dist, i === 0 ? 'this build' : `base (${dist})`, dataset));
const round = (build: Build) => dataset.queries.map((query) => build.search(query.q, query.id));
for (const build of builds) for (let i = 0; i < 2; i++) round(build);

const stats = builds.map(() => ({ first: [] as number[], after: [] as number[], warm: [] as number[], afterSums: [] as number[], warmSums: [] as number[] }));
const target = dataset.docs[7]!;
const field = dataset.searchable[0]!;
const sum = (list: readonly number[]) => list.reduce((a, b) => a + b, 0);
const added = 'search-after-writes';
for (let w = 0; w < writes; w++) {
  // every other write adds a document with a word no document holds, the next deletes it
  const doc = w % 2 === 0 ? { ...target, id: added, [field]: `zqxw${w}fresh ${String(target[field] ?? '')}` } : null;
  builds.forEach((build, b) => {
    build.write(new Map([[added, doc]]));
    const after = round(build);
    const warm = round(build);
    stats[b]!.first.push(after[0]!);
    stats[b]!.after.push(...after);
    stats[b]!.warm.push(...warm);
    stats[b]!.afterSums.push(sum(after));
    stats[b]!.warmSums.push(sum(warm));
  });
}
const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log(`${name}: ${dataset.docs.length} documents, ${dataset.queries.length} queries with facets on ${dataset.filterable.join(', ')}, ${writes} one-document writes`);
builds.forEach((build, b) => {
  const s = stats[b]!;
  const sorted = (list: number[]) => [...list].sort((x, y) => x - y);
  const after = sorted(s.after);
  const warm = sorted(s.warm);
  const first = sorted(s.first);
  console.log(`  ${build.label}`);
  console.log(`    first search after a write: p50 ${ms(percentile(first, 50))}, max ${ms(first[first.length - 1]!)}`);
  console.log(`    round after a write: median ${ms(percentile(sorted(s.afterSums), 50))}; per search p50 ${ms(percentile(after, 50))}, p99 ${ms(percentile(after, 99))}`);
  console.log(`    warm round:          median ${ms(percentile(sorted(s.warmSums), 50))}; per search p50 ${ms(percentile(warm, 50))}, p99 ${ms(percentile(warm, 99))}`);
});
for (const build of builds) await build.close();
