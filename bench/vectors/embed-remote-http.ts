/**
 * Indexing with a remote embedder over HTTP: movies documents added to the real server on
 * loopback, whose `rest` embedder (batch mode, 10 texts a request) is a mock embedding server in
 * this process answering each request after a fixed latency with deterministic vectors (from the
 * text's bytes). Prints, per latency, the documents indexed per second (enqueue to the task's
 * end), the time of the batch's embedding step (its `progressTrace`: requests and HNSW insertion),
 * the requests the mock answered and the most it had in flight at once, and the server's CPU time
 * over the run (every thread). `QUARRY_MAIN` runs another build (before/after runs in the same
 * window).
 *
 *   npm run build:ts && tsc -p bench/tsconfig.json && node dist/bench/vectors/embed-remote-http.js \
 *     [--docs 3000] [--dims 384] [--latency 0,20,100]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadDataset } from '../datasets.js';
import { startQuarry } from '../peers/quarry-http.js';
import { option } from './synthetic.js';
import { cpuSeconds, json, waitIdle } from './server-calls.js';

const DOCS = option('--docs', 3_000);
const DIMS = option('--dims', 384);
const at = process.argv.indexOf('--latency');
const LATENCIES = (at >= 0 ? process.argv[at + 1]! : '0,20,100').split(',').map(Number);

/** The seconds of a `progressTrace` duration (`1.23s`, `791.06ms`, `12.3µs`). */
function seconds(duration: string): number {
  const unit = /[a-zµ]+$/.exec(duration)?.[0] ?? 's';
  return parseFloat(duration) / ({ s: 1, ms: 1e3, µs: 1e6, us: 1e6, ns: 1e9 }[unit] ?? 1);
}

/** A deterministic embedding of `text`: DIMS components from its bytes. */
function embedding(text: string): number[] {
  const out = new Array<number>(DIMS);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  for (let i = 0; i < DIMS; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ i;
    out[i] = ((h >>> 8) % 2001) / 1000 - 1;
  }
  return out;
}

interface Mock {
  url: string;
  latencyMs: number;
  inFlight: number;
  maxInFlight: number;
  requests: number;
  close(): Promise<void>;
}

async function mockEmbedder(): Promise<Mock> {
  const mock = { url: '', latencyMs: 0, inFlight: 0, maxInFlight: 0, requests: 0 } as Mock;
  const server = http.createServer((req, res) => {
    mock.inFlight++;
    mock.maxInFlight = Math.max(mock.maxInFlight, mock.inFlight);
    mock.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { input } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] };
      const body = JSON.stringify({ data: input.map((text) => ({ embedding: embedding(text) })) });
      setTimeout(() => {
        mock.inFlight--;
        res.setHeader('content-type', 'application/json');
        res.end(body);
      }, mock.latencyMs);
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return mock;
}

const { docs } = loadDataset('movies', DOCS);
const payload = docs.map((doc) => JSON.stringify(doc)).join('\n');
const mock = await mockEmbedder();
const dir = mkdtempSync(path.join(tmpdir(), 'quarry-embed-remote-bench-'));
const { child, url } = await startQuarry(path.join(dir, 'db'), ['--experimental-allowed-ip-networks', '127.0.0.0/8']);
try {
  console.log(`# ${docs.length} movies × ${DIMS} dims, rest embedder (10 texts a request) — ${cpus().length} × ${cpus()[0]!.model.trim()}, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`);
  console.log('| latency ms | documents/s | wall s | embeddings step s | requests | most in flight | server CPU s |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const [i, latencyMs] of LATENCIES.entries()) {
    const index = `movies${i}`;
    mock.latencyMs = 0;
    await json(`${url}/indexes/${index}/settings`, 'PATCH', {
      embedders: {
        remote: {
          source: 'rest',
          url: mock.url,
          dimensions: DIMS,
          documentTemplate: '{{doc.title}}: {{doc.overview}}',
          request: { input: ['{{text}}', '{{..}}'] },
          response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] },
        },
      },
    });
    await waitIdle(url);
    Object.assign(mock, { latencyMs, maxInFlight: 0, requests: 0 });
    const cpu = cpuSeconds(child.pid!);
    const started = performance.now();
    const { taskUid } = (await (await fetch(`${url}/indexes/${index}/documents`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: payload })).json()) as { taskUid: number };
    await waitIdle(url);
    const wall = (performance.now() - started) / 1000;
    const cpuSpent = cpuSeconds(child.pid!) - cpu;
    const { batchUid } = await json(`${url}/tasks/${taskUid}`, 'GET');
    const { stats } = await json(`${url}/batches/${batchUid}`, 'GET');
    const step = Object.entries(stats.progressTrace as Record<string, string>).find(([name]) => name.endsWith('extracting embeddings'));
    console.log(`| ${latencyMs} | ${(docs.length / wall).toFixed(0)} | ${wall.toFixed(2)} | ${step === undefined ? '–' : seconds(step[1]).toFixed(2)} | ${mock.requests} | ${mock.maxInFlight} | ${cpuSpent.toFixed(2)} |`);
  }
} finally {
  child.kill('SIGTERM');
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
}
