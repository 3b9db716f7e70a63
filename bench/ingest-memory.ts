/**
 * Ingestion memory benchmark (issue 4): debdocs sent over HTTP as ONE NDJSON payload of growing
 * size (its first 60k, 120k and all 253k documents), each into a fresh server, request → task
 * succeeded. Prints documents per second and the server's peak anonymous RSS (sampled every
 * 50 ms from /proc): streaming ingestion keeps it flat whatever the payload size. File-backed
 * pages (the LMDB map) are left out on purpose: they are the index, cached by the kernel.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/ingest-memory.js
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDataset } from './datasets.js';
import { startQuarry } from './peers/quarry-http.js';

const SIZES = [60_000, 120_000, 253_170];

function anonymousRss(pid: number): number {
  const match = /RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? 0 : Number(match[1]) * 1024;
}

async function ingest(lines: string[]): Promise<{ docsPerSecond: number; peakAnon: number; payloadBytes: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-ingest-'));
  const { child, url } = await startQuarry(path.join(dir, 'db'), ['--http-payload-size-limit', '1GB']);
  try {
    let peakAnon = 0;
    const sampler = setInterval(() => (peakAnon = Math.max(peakAnon, anonymousRss(child.pid!))), 50);
    const call = async (method: string, route: string, body?: string, type = 'application/json') =>
      (await (await fetch(url + route, { method, headers: body === undefined ? {} : { 'content-type': type }, body })).json()) as Record<string, unknown>;
    await call('PATCH', '/indexes/deb/settings', JSON.stringify({ searchableAttributes: ['title', 'summary', 'heading', 'content'], filterableAttributes: ['kind', 'category', 'package', 'size', 'tags'], sortableAttributes: ['size'] }));
    const payload = lines.join('\n');
    const started = performance.now();
    const { taskUid } = await call('POST', '/indexes/deb/documents?primaryKey=id', payload, 'application/x-ndjson');
    for (;;) {
      const task = await call('GET', `/tasks/${String(taskUid)}`);
      if (task.status === 'failed') throw new Error(JSON.stringify(task.error));
      if (task.status === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    clearInterval(sampler);
    return { docsPerSecond: lines.length / ((performance.now() - started) / 1000), peakAnon, payloadBytes: Buffer.byteLength(payload) };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

const all = loadDataset('debdocs').docs.map((doc) => JSON.stringify(doc));
const MiB = 2 ** 20;
console.log('| documents | payload | docs/s | peak anonymous RSS |');
console.log('|---:|---:|---:|---:|');
for (const size of SIZES) {
  const { docsPerSecond, peakAnon, payloadBytes } = await ingest(all.slice(0, size));
  console.log(`| ${size} | ${(payloadBytes / MiB).toFixed(0)} MiB | ${docsPerSecond.toFixed(0)} | ${(peakAnon / MiB).toFixed(0)} MiB |`);
}
