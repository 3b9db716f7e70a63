/**
 * One build's engine over a benchmark dataset, loaded from that build's compiled `dist/` by path:
 * the in-process benchmark opens its own build, the A/B benchmark (search-ab.ts) opens two builds
 * (e.g. an older worktree and this one) in one process. Each build indexes the dataset into its own
 * temporary LMDB directory with its own modules (the stored format may differ between builds), as
 * the scheduler does: document store + index updaters in one write transaction per chunk; later
 * writes go the same way (search-after-writes.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Dataset } from './datasets.js';
import type { SearchOutcome } from '../src/engine/search/search.js';
import type { JsonObject } from '../src/engine/document-id.js';
import type { DocSet } from '../src/engine/docset.js';

const CHUNK = 10_000;

export interface EngineBuild {
  readonly root: string;
  readonly indexMs: number;
  /** runs one query of the dataset's query set (its filter parsed once) through the engine */
  search(q: string, queryId: number): SearchOutcome;
  /** the facet distribution and stats of every filterable field of the dataset over `candidates` */
  facets(candidates: DocSet): unknown;
  /** writes documents by id (null deletes) in one write transaction, as a batch does */
  write(docs: ReadonlyMap<string, JsonObject | null>): void;
  close(): Promise<void>;
}

/** Opens the build whose compiled files are under `distDir` (holding src/ and bench/) and indexes `dataset`. */
export async function openBuild(distDir: string, dataset: Dataset): Promise<EngineBuild> {
  const load = <T>(file: string) => import(pathToFileURL(path.join(distDir, file)).href) as Promise<T>;
  const { DocumentStore } = await load<typeof import('../src/engine/documents/store.js')>('src/engine/documents/store.js');
  const { parseFilter } = await load<typeof import('../src/engine/filter-parser/index.js')>('src/engine/filter-parser/index.js');
  const { IndexEnvs } = await load<typeof import('../src/engine/index-env.js')>('src/engine/index-env.js');
  const { INDEX_UPDATERS } = await load<typeof import('../src/engine/indexer/registry.js')>('src/engine/indexer/registry.js');
  const { writeSettings } = await load<typeof import('../src/engine/index-settings.js')>('src/engine/index-settings.js');
  const { defaultSettings } = await load<typeof import('../src/types/settings.js')>('src/types/settings.js');
  const { computeFacets } = await load<typeof import('../src/engine/facets/distribution.js')>('src/engine/facets/distribution.js');
  const { engineSearch } = await load<typeof import('./engine-search.js')>('bench/engine-search.js');

  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-'));
  const envs = new IndexEnvs(dir);
  const env = envs.get('bench');
  const settings = {
    ...defaultSettings(),
    searchableAttributes: dataset.searchable,
    filterableAttributes: dataset.filterable,
    sortableAttributes: dataset.sortable,
  };
  const write = (changes: ReadonlyMap<string, JsonObject | null>) =>
    env.root.transactionSync(() => {
      writeSettings(env, settings);
      const applied = new DocumentStore(env).apply(changes, false);
      for (const updater of INDEX_UPDATERS) updater.apply(env, settings, applied);
    });
  const indexStart = performance.now();
  for (let at = 0; at < dataset.docs.length; at += CHUNK) write(new Map(dataset.docs.slice(at, at + CHUNK).map((doc) => [String(doc.id), doc])));
  const indexMs = performance.now() - indexStart;
  const filters = new Map(dataset.queries.map((query) => [query.id, query.meiliFilter === undefined ? null : parseFilter(query.meiliFilter, { code: 'invalid_search_filter' })]));
  // the closures below hold what they need, not the dataset: its payload (42 MB of strings for
  // movies) would stay in the heap every search's collections go through, as no server's does
  const { filterable } = dataset;
  return {
    root: distDir,
    indexMs,
    search: (q, queryId) => engineSearch(env, settings, q, filters.get(queryId) ?? null),
    facets: (candidates) => computeFacets(env, settings, candidates, filterable),
    write,
    async close() {
      await envs.closeAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
