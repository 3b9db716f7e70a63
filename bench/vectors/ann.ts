/**
 * Approximate nearest-neighbour search: Quarry's HNSW graph (engine/vectors/hnsw.ts over the
 * vector kernel's VectorBlock, in process) against hnswlib-node with the same M and
 * efConstruction as Quarry's (16, 100), cosine distance, recall@10 measured against an exact scan.
 *
 * Data sets:
 * - synthetic: 100 Gaussian clusters in 384 dimensions (centres N(0, 1), points centre +
 *   N(0, 0.6²)), 100k vectors and 200 queries drawn the same way — the recipe of
 *   bench/vectors/exact.ts, whose generator is not exported, so written again here;
 * - fiori: ../shared/datasets/fiori-docs.ndjson.gz, 778 real 384-d MiniLM embeddings; the
 *   queries are the first 100 documents' own vectors.
 *
 * Each engine runs in a child process of its own so its peak RSS is its own. For each ef the
 * table shows recall@10 and the p50/p99 latency of one query; "qps @0.95" is the throughput at
 * the smallest ef reaching recall 0.95. Binary quantization: Quarry's graph over sign bits
 * (Hamming), its recall against the f32 exact top 10 (what quantization loses) and against the
 * exact Hamming top 10 (what the graph loses), and its storage per vector.
 *
 *   npm run bench:ann -- [--docs N] [--queries N]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import hnswlib from 'hnswlib-node';

import { EF_CONSTRUCTION, HnswGraph, M } from '../../src/engine/vectors/hnsw.js';
import { VectorSpace } from '../../src/engine/vectors/space.js';
import { VectorBlock, binaryWords } from '../../src/kernels/vector.js';
import { fmt, percentile } from '../latency.js';
import { centres, CLUSTERS, clustered, DIMS, option, rows } from './synthetic.js';

const K = 10;
const EFS = [16, 32, 64, 128, 256];

interface DataSet {
  name: string;
  vectors: Float32Array[];
  queries: Float32Array[];
}

function dataSet(name: string): DataSet {
  if (name === 'fiori') {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/datasets/fiori-docs.ndjson.gz');
    const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean);
    const vectors = lines.map((line) => Float32Array.from((JSON.parse(line) as { _vectors: { minilm: number[] } })._vectors.minilm));
    return { name, vectors, queries: vectors.slice(0, 100) };
  }
  const around = centres();
  return { name, vectors: rows(clustered(option('--docs', 100_000), 7, around)), queries: rows(clustered(option('--queries', 200), 99, around)) };
}

/** The exact top 10 of each query, by the kernel's exact scan. */
function truth(data: DataSet): Uint32Array[] {
  const block = new VectorBlock({ dimensions: DIMS, metric: 'cosine', initialCapacity: data.vectors.length });
  data.vectors.forEach((vector, slot) => block.set(slot, vector));
  const top = data.queries.map((query) => block.topK(query, K).slots);
  block.dispose();
  return top;
}

/**
 * Recall@10 of a quantized graph against the exact Hamming top 10, ties counted as found (sign
 * bits make many vectors equidistant): the graph's own quality, quantization aside.
 */
function hammingRecall(data: DataSet, graph: HnswGraph, space: VectorSpace, ef: number): number {
  const block = new VectorBlock({ dimensions: DIMS, metric: 'hamming', initialCapacity: data.vectors.length });
  data.vectors.forEach((vector, slot) => block.set(slot, vector));
  let found = 0;
  for (const query of data.queries) {
    const tenth = block.topK(query, K).distances[K - 1]!;
    const got = graph.search(space.prepare(query), ef).distances.subarray(0, K);
    found += Array.from(got).filter((d) => d <= tenth).length;
  }
  block.dispose();
  return found / (data.queries.length * K);
}

interface EfRow {
  ef: number;
  recall: number;
  p50: number;
  p99: number;
  qps: number;
}

interface EngineResult {
  engine: string;
  buildPerSecond: number;
  rows: EfRow[];
  peakRssMiB: number;
  note: string;
}

function efRows(data: DataSet, exact: Uint32Array[], search: (query: Float32Array, ef: number) => ArrayLike<number>): EfRow[] {
  return EFS.map((ef) => {
    for (const query of data.queries.slice(0, 20)) search(query, ef);
    const latencies: number[] = [];
    let found = 0;
    const start = performance.now();
    data.queries.forEach((query, q) => {
      const t = performance.now();
      const ids = search(query, ef);
      latencies.push(performance.now() - t);
      const expected = new Set(exact[q]);
      for (let i = 0; i < Math.min(K, ids.length); i++) if (expected.has(ids[i]!)) found++;
    });
    const total = performance.now() - start;
    latencies.sort((a, b) => a - b);
    return { ef, recall: found / (data.queries.length * K), p50: percentile(latencies, 50), p99: percentile(latencies, 99), qps: (data.queries.length / total) * 1000 };
  });
}

function runQuarry(data: DataSet, exact: Uint32Array[], quantized: boolean): EngineResult {
  const space = new VectorSpace(DIMS, quantized, data.vectors.length);
  const graph = new HnswGraph(space, data.vectors.length);
  const start = performance.now();
  data.vectors.forEach((vector, slot) => {
    space.set(slot, vector);
    graph.insert(slot, slot);
  });
  const seconds = (performance.now() - start) / 1000;
  const rows = efRows(data, exact, (query, ef) => graph.search(space.prepare(query), Math.max(ef, K)).ids);
  const bytes = quantized ? binaryWords(DIMS) * 8 : DIMS * 4;
  const own = quantized ? `; recall@10 vs exact Hamming at ef 64: ${fmt(hammingRecall(data, graph, space, 64), 3)}` : '';
  return {
    engine: quantized ? 'Quarry HNSW, binary quantized' : 'Quarry HNSW',
    buildPerSecond: data.vectors.length / seconds,
    rows,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    note: `${bytes} B/vector${quantized ? ` (${fmt((DIMS * 4) / bytes, 0)}× smaller than f32)` : ''}${own}`,
  };
}

function runHnswlib(data: DataSet, exact: Uint32Array[]): EngineResult {
  const index = new hnswlib.HierarchicalNSW('cosine', DIMS);
  index.initIndex(data.vectors.length, M, EF_CONSTRUCTION, 100);
  const rows = data.vectors.map((vector) => Array.from(vector));
  const start = performance.now();
  rows.forEach((row, label) => index.addPoint(row, label));
  const seconds = (performance.now() - start) / 1000;
  const queries = new Map(data.queries.map((query) => [query, Array.from(query)]));
  return {
    engine: 'hnswlib-node',
    buildPerSecond: data.vectors.length / seconds,
    rows: efRows(data, exact, (query, ef) => {
      index.setEf(Math.max(ef, K));
      return index.searchKnn(queries.get(query)!, K).neighbors;
    }),
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    note: 'native C++, one thread',
  };
}

/** In a child: one engine on one data set, as JSON on stdout. */
function child(engine: string, set: string): void {
  const data = dataSet(set);
  const exact = truth(data);
  const result = engine === 'hnswlib' ? runHnswlib(data, exact) : runQuarry(data, exact, engine === 'quarry-bq');
  process.stdout.write(JSON.stringify(result));
}

function table(set: string, results: EngineResult[]): void {
  console.log(`\n## ${set}\n`);
  console.log('| engine | build vectors/s | ef | recall@10 | p50 ms | p99 ms | queries/s | qps @0.95 | peak RSS MiB | note |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const result of results) {
    const at95 = result.rows.find((row) => row.recall >= 0.95);
    result.rows.forEach((row, i) => {
      const first = i === 0;
      console.log(
        `| ${first ? result.engine : ''} | ${first ? fmt(result.buildPerSecond, 0) : ''} | ${row.ef} | ${fmt(row.recall, 3)} | ${fmt(row.p50, 3)} | ${fmt(row.p99, 3)} | ${fmt(row.qps, 0)} | ${first ? (at95 === undefined ? '—' : `${fmt(at95.qps, 0)} (ef ${at95.ef})`) : ''} | ${first ? fmt(result.peakRssMiB, 0) : ''} | ${first ? result.note : ''} |`,
      );
    });
  }
}

function main(): void {
  const at = process.argv.indexOf('--child');
  if (at !== -1) return child(process.argv[at + 1]!, process.argv[at + 2]!);
  const cpus = os.cpus();
  console.log(`# ANN top-${K}, M ${M}, efConstruction ${EF_CONSTRUCTION}, cosine — ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);
  const passThrough = process.argv.slice(2);
  for (const set of ['synthetic', 'fiori']) {
    const results = ['quarry', 'hnswlib', 'quarry-bq'].map((engine) => {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), ...passThrough, '--child', engine, set], { maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] });
      return JSON.parse(out.toString('utf8')) as EngineResult;
    });
    table(set === 'synthetic' ? `synthetic ${option('--docs', 100_000)} × ${DIMS}, ${CLUSTERS} clusters, ${option('--queries', 200)} queries` : 'fiori-docs (778 × 384 MiniLM, 100 queries)', results);
  }
}

main();
