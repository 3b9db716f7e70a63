/**
 * Ingestion memory benchmark (issues 4 and 20): one NDJSON payload of growing size sent over HTTP,
 * each into a fresh server, request → task succeeded. Prints documents per second, the server's
 * peak RSS and peak anonymous RSS (sampled every 50 ms from /proc): streaming ingestion keeps them
 * flat whatever the payload size. File-backed pages (the LMDB map) are shown apart: they are the
 * index, cached by the kernel.
 *
 * `debdocs` (default): its first 60k, 120k and all 253k documents. `movies 1,5,10`: movies
 * repeated 1, 5 and 10 times (ids renumbered), to check that a payload many times the chunk size
 * streams.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/ingest-memory.js [debdocs|movies [1,5,10]]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDataset } from './datasets.js';
import { startQuarry } from './peers/quarry-http.js';

const SETTINGS = {
  debdocs: { searchableAttributes: ['title', 'summary', 'heading', 'content'], filterableAttributes: ['kind', 'category', 'package', 'size', 'tags'], sortableAttributes: ['size'] },
  movies: { searchableAttributes: ['title', 'overview'], filterableAttributes: ['genres', 'year', 'release_date'], sortableAttributes: ['release_date'] },
};

function memory(pid: number): { rss: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), anon: kib('RssAnon') };
}

async function ingest(set: keyof typeof SETTINGS, lines: string[]): Promise<{ docsPerSecond: number; peakRss: number; peakAnon: number; payloadBytes: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-ingest-'));
  const { child, url } = await startQuarry(path.join(dir, 'db'), ['--http-payload-size-limit', '2GB']);
  try {
    let peakRss = 0;
    let peakAnon = 0;
    const sampler = setInterval(() => {
      const now = memory(child.pid!);
      peakRss = Math.max(peakRss, now.rss);
      peakAnon = Math.max(peakAnon, now.anon);
    }, 50);
    const call = async (method: string, route: string, body?: string, type = 'application/json') =>
      (await (await fetch(url + route, { method, headers: body === undefined ? {} : { 'content-type': type }, body })).json()) as Record<string, unknown>;
    await call('PATCH', '/indexes/bench/settings', JSON.stringify(SETTINGS[set]));
    const payload = lines.join('\n');
    const started = performance.now();
    const { taskUid } = await call('POST', '/indexes/bench/documents?primaryKey=id', payload, 'application/x-ndjson');
    for (;;) {
      const task = await call('GET', `/tasks/${String(taskUid)}`);
      if (task.status === 'failed') throw new Error(JSON.stringify(task.error));
      if (task.status === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    clearInterval(sampler);
    return { docsPerSecond: lines.length / ((performance.now() - started) / 1000), peakRss, peakAnon, payloadBytes: Buffer.byteLength(payload) };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The payloads to send: debdocs prefixes, or movies repeated with fresh ids. */
function payloads(set: keyof typeof SETTINGS, times: readonly number[]): string[][] {
  if (set === 'debdocs') {
    const all = loadDataset('debdocs').docs.map((doc) => JSON.stringify(doc));
    return [60_000, 120_000, 253_170].map((size) => all.slice(0, size));
  }
  const docs = loadDataset('movies').docs;
  return times.map((n) => Array.from({ length: n * docs.length }, (_, i) => JSON.stringify({ ...docs[i % docs.length], id: i + 1 })));
}

const args = process.argv.slice(2);
const set = args[0] === 'movies' ? 'movies' : 'debdocs';
const times = (args[1] ?? '1,5,10').split(',').map(Number);
const MiB = 2 ** 20;
console.log('| documents | payload | docs/s | peak RSS | peak anonymous RSS |');
console.log('|---:|---:|---:|---:|---:|');
for (const lines of payloads(set, times)) {
  const { docsPerSecond, peakRss, peakAnon, payloadBytes } = await ingest(set, lines);
  console.log(`| ${lines.length} | ${(payloadBytes / MiB).toFixed(0)} MiB | ${docsPerSecond.toFixed(0)} | ${(peakRss / MiB).toFixed(0)} MiB | ${(peakAnon / MiB).toFixed(0)} MiB |`);
}
