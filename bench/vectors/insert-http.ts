/**
 * Vector indexing over HTTP: N documents with `userProvided` vectors of D dimensions (seeded
 * clustered data, synthetic.ts) added to the real server on loopback, then vector and `similar`
 * searches on the index they made. Prints the wall time of the addition (enqueue to the task's
 * end), the server's CPU time over it (every thread: the indexing runs in a worker), and p50/p99
 * of each search kind. `QUARRY_MAIN` runs another build (before/after runs in the same window);
 * `--cpu-prof` in NODE_OPTIONS profiles the server's threads.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/vectors/insert-http.js \
 *     [--docs 5000] [--dims 768] [--batch 5000] [--quantized 1] [--searches 100]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startQuarry } from '../peers/quarry-http.js';
import { centres, clustered, option, rows } from './synthetic.js';
import { cpuSeconds, json, waitIdle } from './server-calls.js';

const DOCS = option('--docs', 5_000);
const DIMS = option('--dims', 768);
const BATCH = option('--batch', DOCS);
const QUANTIZED = option('--quantized', 0) === 1;
const SEARCHES = option('--searches', 100);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function latencies(name: string, count: number, send: (i: number) => Promise<unknown>): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await send(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return `| ${name} | ${count} | ${percentile(times, 0.5).toFixed(2)} | ${percentile(times, 0.99).toFixed(2)} |`;
}

const around = centres(DIMS);
const vectors = rows(clustered(DOCS, 7, around, DIMS), DIMS);
const queries = rows(clustered(SEARCHES, 99, around, DIMS), DIMS);
// what a client sends: decimal text, 7 digits (fiori-docs' rounding)
const payloads: string[] = [];
for (let first = 0; first < DOCS; first += BATCH) {
  const docs = vectors.slice(first, first + BATCH).map((vector, i) => `{"id":${first + i},"title":"document ${first + i}","_vectors":{"vec":[${Array.from(vector, (x) => x.toFixed(7)).join(',')}]}}`);
  payloads.push(`[${docs.join(',')}]`);
}

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-vector-insert-bench-'));
const { child, url } = await startQuarry(path.join(dir, 'db'));
try {
  await json(`${url}/indexes/v/settings`, 'PATCH', { embedders: { vec: { source: 'userProvided', dimensions: DIMS, binaryQuantized: QUANTIZED } } });
  await waitIdle(url);
  const cpu = cpuSeconds(child.pid!);
  const started = performance.now();
  for (const payload of payloads) await json(`${url}/indexes/v/documents`, 'POST', payload);
  await waitIdle(url);
  const seconds = (performance.now() - started) / 1000;
  const cpuSpent = cpuSeconds(child.pid!) - cpu;

  const rowsOut = [
    await latencies('first vector search (loads the graph)', 1, () => json(`${url}/indexes/v/search`, 'POST', { vector: Array.from(queries[0]!), hybrid: { embedder: 'vec', semanticRatio: 1 }, limit: 10 })),
    await latencies('vector search', SEARCHES, (i) => json(`${url}/indexes/v/search`, 'POST', { vector: Array.from(queries[i]!), hybrid: { embedder: 'vec', semanticRatio: 1 }, limit: 10, attributesToRetrieve: ['id'] })),
    await latencies('hybrid (q + vector, ratio 0.5)', SEARCHES, (i) => json(`${url}/indexes/v/search`, 'POST', { q: `document ${i}`, vector: Array.from(queries[i]!), hybrid: { embedder: 'vec', semanticRatio: 0.5 }, limit: 10, attributesToRetrieve: ['id'] })),
    await latencies('similar (by id)', SEARCHES, (i) => json(`${url}/indexes/v/similar`, 'POST', { id: (i * 37) % DOCS, embedder: 'vec', limit: 10, attributesToRetrieve: ['id'] })),
  ];
  console.log(`# ${DOCS} documents × ${DIMS} dims${QUANTIZED ? ', binaryQuantized' : ''}, ${payloads.length} request(s) — ${cpus().length} × ${cpus()[0]!.model.trim()}, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`);
  console.log(`# indexed in ${seconds.toFixed(2)} s wall, ${cpuSpent.toFixed(2)} s server CPU (${(DOCS / seconds).toFixed(0)} documents/s)`);
  console.log('| search | requests | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  for (const row of rowsOut) console.log(row);
} finally {
  // a graceful stop, so that a profiled server writes its profiles
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
