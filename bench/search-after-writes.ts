/**
 * Searches on an index that keeps taking small writes, the way a live catalogue does: after each
 * write of one document (every other one adding a document, a copy of one of the dataset's with a
 * word the index never held, with its facet values; the next deleting it again), the dataset's
 * query file is run once, each query with a facet distribution on every filterable field. Prints,
 * per build, the first search after a write, the rounds after a write, and warm rounds (no write
 * since the last round). Builds are opened with engine-build.ts.
 *
 *   node dist/bench/search-after-writes.js [movies|debdocs] [--writes N] [--base path/to/dist]
 *
 * `--base` loads another build's compiled engine in the same process (its own modules, caches
 * and index folder) and alternates the two builds write by write, so both meet the same machine.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.js';
import { loadDataset } from './datasets.js';
import { openBuild, type EngineBuild } from './engine-build.js';
import { percentile } from './latency.js';

const args = process.argv.slice(2);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const writes = numberOption(args, '--writes', 12);
const baseAt = args.indexOf('--base');
const dists = [path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), ...(baseAt === -1 ? [] : [path.resolve(args[baseAt + 1]!)])];

const dataset = await loadDataset(name, Number.POSITIVE_INFINITY);
const builds: EngineBuild[] = [];
for (const dist of dists) builds.push(await openBuild(dist, dataset));
const labels = dists.map((dist, i) => (i === 0 ? 'this build' : `base (${dist})`));
/** each query with its facets, in ms */
const round = (build: EngineBuild) =>
  dataset.queries.map((query) => {
    const start = performance.now();
    build.facets(build.search(query.q, query.id).candidates);
    return performance.now() - start;
  });
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
stats.forEach((s, b) => {
  const sorted = (list: number[]) => [...list].sort((x, y) => x - y);
  const after = sorted(s.after);
  const warm = sorted(s.warm);
  const first = sorted(s.first);
  console.log(`  ${labels[b]}`);
  console.log(`    first search after a write: p50 ${ms(percentile(first, 50))}, max ${ms(first[first.length - 1]!)}`);
  console.log(`    round after a write: median ${ms(percentile(sorted(s.afterSums), 50))}; per search p50 ${ms(percentile(after, 50))}, p99 ${ms(percentile(after, 99))}`);
  console.log(`    warm round:          median ${ms(percentile(sorted(s.warmSums), 50))}; per search p50 ${ms(percentile(warm, 50))}, p99 ${ms(percentile(warm, 99))}`);
});
for (const build of builds) await build.close();
