/**
 * Hybrid and semantic search over HTTP on fiori-docs (778 documentation chunks with their real
 * 384-d MiniLM embeddings, indexed as a userProvided embedder): the real server on loopback, one
 * connection, the query vector given in the request (no embedding server), against keyword search
 * on the same index, and similar-document requests (a document's own vectors as the query).
 * Prints indexing time and p50/p99 per search kind.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/vectors/hybrid-http.js
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startQuarry } from '../peers/quarry-http.js';

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/datasets/fiori-docs.ndjson.gz');
const ROUNDS = 3;

interface Chunk {
  id: number;
  title: string;
  content: string;
  _vectors: { minilm: number[] };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function json(url: string, method: string, body?: unknown): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json();
}

async function waitIdle(url: string): Promise<void> {
  for (;;) {
    const { total } = await json(`${url}/tasks?statuses=enqueued,processing&limit=1`, 'GET');
    if (total === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const chunks = gunzipSync(readFileSync(FILE))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Chunk);
const dir = mkdtempSync(path.join(tmpdir(), 'quarry-hybrid-bench-'));
const { child, url } = await startQuarry(path.join(dir, 'db'));
try {
  const started = performance.now();
  await json(`${url}/indexes/fiori/settings`, 'PATCH', { embedders: { minilm: { source: 'userProvided', dimensions: 384 } } });
  await json(`${url}/indexes/fiori/documents`, 'POST', chunks);
  await waitIdle(url);
  const indexMs = performance.now() - started;

  const queries = chunks.slice(0, 100).map((chunk) => ({ q: chunk.title.split(' ').slice(0, 3).join(' '), vector: chunk._vectors.minilm, id: chunk.id }));
  const kinds: [string, (q: { q: string; vector: number[]; id: number }) => object, string?][] = [
    ['keyword', ({ q }) => ({ q })],
    ['semantic (vector, ratio 1)', ({ vector }) => ({ vector, hybrid: { embedder: 'minilm', semanticRatio: 1 } })],
    ['hybrid (q + vector, ratio 0.5)', ({ q, vector }) => ({ q, vector, hybrid: { embedder: 'minilm', semanticRatio: 0.5 } })],
    ['similar (`POST /similar`, the document\'s id)', ({ id }) => ({ id, embedder: 'minilm' }), 'similar'],
  ];
  const rows: string[] = [];
  for (const [name, body, route = 'search'] of kinds) {
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const query of queries) {
        const t = performance.now();
        await json(`${url}/indexes/fiori/${route}`, 'POST', { ...body(query), limit: 10, attributesToRetrieve: ['id', 'title'] });
        times.push(performance.now() - t);
      }
    }
    times.sort((a, b) => a - b);
    rows.push(`| ${name} | ${times.length} | ${percentile(times, 0.5).toFixed(2)} | ${percentile(times, 0.99).toFixed(2)} |`);
  }
  console.log(`# hybrid search over HTTP, fiori-docs (${chunks.length} × 384) — ${cpus().length} × ${cpus()[0]!.model.trim()}, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`);
  console.log(`# indexed (settings + documents, userProvided vectors) in ${(indexMs / 1000).toFixed(2)} s`);
  console.log('| search | requests | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows) console.log(row);
} finally {
  child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
