/**
 * The in-process library against the engine it wraps (issue 23): one process indexes a dataset
 * through `Quarry` (the library's tasks and scheduler), then runs every query of the set, round
 * after round, alternately through `quarry.index(uid).search()` (the route's validation, the
 * search service, the formatted response) and through the engine's `executeSearch` on the same
 * index environment (ranking only: no validation, no hits formatted). The gap is what the library
 * adds over the bare engine.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/library.js [movies|debdocs] [--limit N] [--rounds R]
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { numberOption } from './args.js';
import { loadDataset } from './datasets.js';
import { engineSearch } from './engine-search.js';
import { percentile } from './latency.js';
import { parseFilter } from '../src/engine/filter-parser/index.js';
import { IndexEnvs } from '../src/engine/index-env.js';
import { searchSettings } from '../src/engine/index-settings.js';
import { Quarry } from '../src/library/index.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const limit = option('--limit', Number.POSITIVE_INFINITY);
const rounds = option('--rounds', 3);

const summary = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(3)} ms, p95 ${percentile(sorted, 95).toFixed(3)} ms, p99 ${percentile(sorted, 99).toFixed(3)} ms`;
};

const dataset = loadDataset(name, limit);
const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-library-'));
const quarry = await Quarry.open({ dbPath: dir });
const index = quarry.index(name);
const indexStart = performance.now();
await index.updateSettings({ searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable }).waitTask({ timeout: 600_000 });
await index.addDocuments(dataset.docs, { primaryKey: 'id' }).waitTask({ timeout: 600_000 });
const indexMs = performance.now() - indexStart;

// the same environment, read by the engine directly
const uuid = readdirSync(path.join(dir, 'indexes'))[0]!;
const envs = new IndexEnvs(dir);
const env = envs.get(uuid);
const settings = searchSettings(env);
const engine = (q: string, filter: string | undefined) => engineSearch(env, settings, q, filter === undefined ? null : parseFilter(filter, { code: 'invalid_search_filter' }));

// warm both paths once
engine('warm up', undefined);
await index.search('warm up');
const library: number[] = [];
const bare: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const query of dataset.queries) {
    let start = performance.now();
    await index.search(query.q, query.meiliFilter === undefined ? {} : { filter: query.meiliFilter });
    library.push(performance.now() - start);
    start = performance.now();
    engine(query.q, query.meiliFilter);
    bare.push(performance.now() - start);
  }
}
console.log(`${name}: ${dataset.docs.length} documents indexed through the library in ${(indexMs / 1000).toFixed(2)} s`);
console.log(`library search (${library.length} runs): ${summary(library)}`);
console.log(`engine ranking (${bare.length} runs):  ${summary(bare)}`);
await envs.closeAll();
await quarry.close();
rmSync(dir, { recursive: true, force: true });
