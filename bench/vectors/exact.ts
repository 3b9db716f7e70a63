/**
 * Exact (brute-force) vector search: top-10 latency of Quarry's VectorBlock (WASM kernel,
 * vectors resident in linear memory) against usearch's `exactSearch` (native SIMD, one thread
 * and all threads) and Orama's vector mode (plain JS scan), on one seeded synthetic data set in
 * one process. Also checks that every engine returns Quarry's top-10 ids.
 *
 * Data: 100 Gaussian clusters in 384 dimensions (centres N(0, 1), points centre + N(0, 0.6²)),
 * 100k vectors by default, 200 queries drawn the same way; cosine distance throughout.
 *
 *   npm run bench:vectors -- [--docs N] [--queries N] [--orama-docs N]
 *
 * Orama's build is slow (one JS object per document): it indexes `--orama-docs` vectors (default:
 * all) and, when fewer than `--docs`, its latencies are scaled linearly to the full count (its
 * scan is linear), which the table says.
 */
import os from 'node:os';

import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import usearch, { type Matches } from 'usearch';

import { VectorBlock } from '../../src/kernels/vector.js';
import { fmt, measure, percentile, type Latency } from '../latency.js';
import { centres, CLUSTERS, clustered, DIMS, option } from './synthetic.js';

const K = 10;

const DOCS = option('--docs', 100_000);
const QUERIES = option('--queries', 200);
const ORAMA_DOCS = Math.min(DOCS, option('--orama-docs', DOCS));

interface Row {
  engine: string;
  buildMs: number;
  latency: Latency;
  note: string;
  sameTop10: number;
}

async function main(): Promise<void> {
  const around = centres();
  const t0 = performance.now();
  const data = clustered(DOCS, 7, around);
  const queryData = clustered(QUERIES, 99, around);
  // copies, not views: usearch's binding reads a typed array from its buffer's start, ignoring byteOffset
  const queries = Array.from({ length: QUERIES }, (_, q) => queryData.slice(q * DIMS, (q + 1) * DIMS));
  const cpus = os.cpus();
  const machine = `${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, ${os.platform()} ${os.arch()}, node ${process.version}`;
  const load = `load average ${os.loadavg()[0]!.toFixed(1)}`;
  console.log(`# exact top-${K}, ${DOCS} × ${DIMS}-d f32 (${CLUSTERS} clusters, cosine), ${QUERIES} queries — ${machine}, ${load}`);
  console.log(`# data generated in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  const rows: Row[] = [];

  // Quarry: VectorBlock (release kernel); its answers are the reference ids
  let t = performance.now();
  const block = new VectorBlock({ dimensions: DIMS, metric: 'cosine', initialCapacity: DOCS, variant: 'release' });
  for (let row = 0; row < DOCS; row++) block.add(data.subarray(row * DIMS, (row + 1) * DIMS));
  const quarryBuild = performance.now() - t;
  const truth = queries.map((q) => Array.from(block.topK(q, K).slots));

  // Quarry, binary quantized (what a `binaryQuantized` embedder stores): Hamming scan
  t = performance.now();
  const bq = new VectorBlock({ dimensions: DIMS, metric: 'hamming', initialCapacity: DOCS, variant: 'release' });
  for (let row = 0; row < DOCS; row++) bq.add(data.subarray(row * DIMS, (row + 1) * DIMS));
  const bqBuild = performance.now() - t;

  // usearch exactSearch: the dataset is passed as is (no index to build)
  const usearchTop = (threads: number) => (q: Float32Array) => usearch.exactSearch(data, q, DIMS, K, usearch.MetricKind.Cos, threads) as Matches;
  const ids = (keys: Uint32Array | BigUint64Array) => Array.from(keys, Number);
  const fast = [
    { engine: 'Quarry VectorBlock (WASM SIMD, 1 thread)', buildMs: quarryBuild, note: '', run: (q: Float32Array) => ids(block.topK(q, K).slots) },
    {
      engine: 'Quarry VectorBlock, binary quantized (Hamming)',
      buildMs: bqBuild,
      note: 'other metric: same ids = its recall',
      run: (q: Float32Array) => ids(bq.topK(q, K).slots),
    },
    { engine: 'usearch exactSearch (native SIMD, 1 thread)', buildMs: 0, note: '', run: (q: Float32Array) => ids(usearchTop(1)(q).keys) },
    { engine: `usearch exactSearch (native SIMD, ${cpus.length} threads)`, buildMs: 0, note: '', run: (q: Float32Array) => ids(usearchTop(0)(q).keys) },
  ];
  // interleaved, query by query, so the load of a shared machine falls on every engine alike
  const latencies = interleaved(fast.map((e) => e.run), queries, 3);
  fast.forEach((e, i) => rows.push({ ...e, latency: latencies[i]!, sameTop10: overlap(queries.map(e.run), truth) }));
  bq.dispose();

  // Orama: vector property, `mode: 'vector'`, every document scored (similarity ≥ −1)
  t = performance.now();
  const db: AnyOrama = create({ schema: { embedding: `vector[${DIMS}]` } as never });
  const docs = Array.from({ length: ORAMA_DOCS }, (_, row) => ({
    id: String(row),
    embedding: Array.from(data.subarray(row * DIMS, (row + 1) * DIMS)),
  }));
  await insertMultiple(db, docs as never, 1000);
  const oramaBuild = performance.now() - t;
  const oramaSearch = (q: Float32Array) =>
    search(db, { mode: 'vector', vector: { value: Array.from(q), property: 'embedding' }, similarity: -1, limit: K, includeVectors: false } as never);
  const oramaQueries = queries.slice(0, Math.min(QUERIES, 50));
  const oramaIds: number[][] = [];
  for (const q of oramaQueries) oramaIds.push(((await oramaSearch(q)) as { hits: { id: string }[] }).hits.map((h) => Number(h.id)));
  const measured = await measure(oramaQueries, 1, oramaSearch);
  const scale = DOCS / ORAMA_DOCS;
  rows.push({
    engine: 'Orama vector mode (JS)',
    buildMs: oramaBuild * scale,
    latency: { ...measured, p50: measured.p50 * scale, p95: measured.p95 * scale, p99: measured.p99 * scale },
    note: `${scale === 1 ? '' : `measured on ${ORAMA_DOCS} docs, scaled ×${fmt(scale, 1)}; `}${oramaQueries.length} queries`,
    sameTop10: ORAMA_DOCS === DOCS ? overlap(oramaIds, truth) : NaN,
  });

  const base = rows[0]!.latency;
  console.log('| engine | build s | p50 ms | p99 ms | p50 vs Quarry | p99 vs Quarry | same top-10 ids as Quarry | note |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const same = Number.isNaN(r.sameTop10) ? '—' : `${fmt(r.sameTop10 * 100, 1)} %`;
    const ratios = `${fmt(r.latency.p50 / base.p50, 2)}× | ${fmt(r.latency.p99 / base.p99, 2)}×`;
    console.log(`| ${r.engine} | ${fmt(r.buildMs / 1000, 1)} | ${fmt(r.latency.p50, 2)} | ${fmt(r.latency.p99, 2)} | ${ratios} | ${same} | ${r.note} |`);
  }
}

/** Warm-up pass, then `rounds` passes timing every engine on each query in turn; milliseconds. */
function interleaved(engines: ((q: Float32Array) => unknown)[], queries: Float32Array[], rounds: number): Latency[] {
  for (const q of queries) for (const run of engines) run(q);
  const samples = engines.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      engines.forEach((run, i) => {
        const t = performance.now();
        run(q);
        samples[i]!.push(performance.now() - t);
      });
    }
  }
  return samples.map((list) => {
    list.sort((a, b) => a - b);
    return { p50: percentile(list, 50), p95: percentile(list, 95), p99: percentile(list, 99), samples: list.length };
  });
}

/** Share of `truth`'s ids that `got` also returned, over all queries it has. */
function overlap(got: number[][], truth: number[][]): number {
  let same = 0;
  let total = 0;
  got.forEach((ids, q) => {
    const expected = new Set(truth[q]);
    total += expected.size;
    for (const id of ids) if (expected.has(id)) same++;
  });
  return total === 0 ? NaN : same / total;
}

await main();
