/**
 * Ingestion memory benchmark (issues 4 and 20): one NDJSON payload of growing size sent over HTTP,
 * each into a fresh server, request → task succeeded. Prints documents per second, the server's
 * peak RSS and peak anonymous RSS (sampled every 50 ms from /proc): streaming ingestion keeps them
 * flat whatever the payload size. File-backed pages (the LMDB map) are shown apart: they are the
 * index, cached by the kernel.
 *
 * `debdocs` (default): its first 60k, 120k and all 253k documents. `movies 1,5,10`: movies
 * repeated 1, 5 and 10 times (ids renumbered), to check that a payload many times the chunk size
 * streams. `stream 100,1000`: debdocs repeated with fresh ids up to 100 MB and 1,000 MB, generated
 * while the request is sent (never held whole, never written to disk by the bench), as NDJSON,
 * or with `json` as one JSON array, or with `gzip` as gzipped NDJSON (`Content-Encoding: gzip`).
 * Every run splits its peaks between receiving the payload (until the 202) and processing it, so
 * a payload that does not stream shows in the phase that holds it.
 *
 *   npm run bench:ingest-memory -- [debdocs | movies [1,5,10] | stream [100,1000] [ndjson|json|gzip]]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { loadDataset } from './datasets.js';
import { startQuarry } from './peers/quarry-http.js';

const SETTINGS = {
  debdocs: { searchableAttributes: ['title', 'summary', 'heading', 'content'], filterableAttributes: ['kind', 'category', 'package', 'size', 'tags'], sortableAttributes: ['size'] },
  movies: { searchableAttributes: ['title', 'overview'], filterableAttributes: ['genres', 'year', 'release_date'], sortableAttributes: ['release_date'] },
};

const MiB = 2 ** 20;

interface Memory {
  rss: number;
  anon: number;
  file: number;
}

function memory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), anon: kib('RssAnon'), file: kib('RssFile') };
}

/** Peaks of each /proc figure, sampled every 50 ms until `stop`. */
function sample(pid: number): { peak: Memory; stop(): void } {
  const peak: Memory = { rss: 0, anon: 0, file: 0 };
  const timer = setInterval(() => {
    try {
      const now = memory(pid);
      peak.rss = Math.max(peak.rss, now.rss);
      peak.anon = Math.max(peak.anon, now.anon);
      peak.file = Math.max(peak.file, now.file);
    } catch {
      // the process is gone: the run fails on its next request
    }
  }, 50);
  return { peak, stop: () => clearInterval(timer) };
}

interface Run {
  documents: number;
  payloadBytes: number;
  docsPerSecond: number;
  receive: Memory;
  process: Memory;
}

type Encoding = 'ndjson' | 'json' | 'gzip';

/** A payload: its documents' count, and its bytes as a stream (made on the fly) with their headers. */
interface Payload {
  documents: number;
  headers: Record<string, string>;
  body(): Readable;
}

const NDJSON = { 'content-type': 'application/x-ndjson' };

async function post(url: string, headers: Record<string, string>, body: Readable): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(url + '/indexes/bench/documents?primaryKey=id', { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(parts).toString()) as Record<string, unknown>));
      res.on('error', reject);
    });
    req.on('error', reject);
    body.on('error', reject);
    body.pipe(req);
  });
}

async function ingest(set: keyof typeof SETTINGS, payload: Payload): Promise<Run> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-ingest-'));
  const { child, url } = await startQuarry(path.join(dir, 'db'), ['--http-payload-size-limit', '2GB']);
  try {
    const call = async (method: string, route: string, body?: string) =>
      (await (await fetch(url + route, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body })).json()) as Record<string, unknown>;
    await call('PATCH', '/indexes/bench/settings', JSON.stringify(SETTINGS[set]));
    await waitIdle(call);
    const receiving = sample(child.pid!);
    const started = performance.now();
    const body = payload.body();
    let payloadBytes = 0;
    body.on('data', (chunk: Buffer) => (payloadBytes += chunk.length));
    const { taskUid } = await post(url, payload.headers, body);
    receiving.stop();
    const processing = sample(child.pid!);
    for (;;) {
      const task = await call('GET', `/tasks/${String(taskUid)}`);
      if (task.status === 'failed') throw new Error(JSON.stringify(task.error));
      if (task.status === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    processing.stop();
    return { documents: payload.documents, payloadBytes, docsPerSecond: payload.documents / ((performance.now() - started) / 1000), receive: receiving.peak, process: processing.peak };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitIdle(call: (method: string, route: string) => Promise<Record<string, unknown>>): Promise<void> {
  while (((await call('GET', '/tasks?statuses=enqueued,processing')).total as number) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
}

function fromLines(lines: string[]): Payload {
  return { documents: lines.length, headers: NDJSON, body: () => Readable.from([Buffer.from(lines.join('\n'))]) };
}

/**
 * debdocs repeated with fresh ids until `bytes` (of NDJSON): each line is the document's JSON
 * with its id replaced, emitted in ~1 MiB pieces as the request reads them.
 */
function streamed(bytes: number, encoding: Encoding): Payload {
  const tails = loadDataset('debdocs').docs.map(({ id: _id, ...rest }) => JSON.stringify(rest).slice(1));
  const lineBytes = (n: number) => `{"id":${n},`.length + Buffer.byteLength(tails[(n - 1) % tails.length]!) + 1;
  let documents = 0;
  for (let total = 0; total < bytes; ) total += lineBytes(++documents);
  function* pieces(): Generator<Buffer> {
    let piece: string[] = [];
    let size = 0;
    const [open, separator, close] = encoding === 'json' ? ['[', ',', ']'] : ['', '\n', ''];
    piece.push(open);
    for (let n = 1; n <= documents; n++) {
      const line = `${n === 1 ? '' : separator}{"id":${n},${tails[(n - 1) % tails.length]!}`;
      piece.push(line);
      size += line.length;
      if (size >= MiB) {
        yield Buffer.from(piece.join(''));
        piece = [];
        size = 0;
      }
    }
    piece.push(close);
    yield Buffer.from(piece.join(''));
  }
  if (encoding === 'gzip') return { documents, headers: { ...NDJSON, 'content-encoding': 'gzip' }, body: () => Readable.from(pieces()).pipe(createGzip()) };
  return { documents, headers: encoding === 'json' ? { 'content-type': 'application/json' } : NDJSON, body: () => Readable.from(pieces()) };
}

/** The payloads to send: debdocs prefixes, movies repeated, or debdocs streamed to sizes in MB. */
function payloads(set: string, sizes: readonly number[], encoding: Encoding): Payload[] {
  if (set === 'stream') return sizes.map((mb) => streamed(mb * 1e6, encoding));
  if (set === 'debdocs') {
    const all = loadDataset('debdocs').docs.map((doc) => JSON.stringify(doc));
    return [60_000, 120_000, 253_170].map((size) => fromLines(all.slice(0, size)));
  }
  const docs = loadDataset('movies').docs;
  return sizes.map((n) => fromLines(Array.from({ length: n * docs.length }, (_, i) => JSON.stringify({ ...docs[i % docs.length], id: i + 1 }))));
}

const args = process.argv.slice(2);
const set = args[0] === 'movies' || args[0] === 'stream' ? args[0] : 'debdocs';
const sizes = (args[1] ?? (set === 'stream' ? '100,1000' : '1,5,10')).split(',').map(Number);
const encoding: Encoding = args[2] === 'json' || args[2] === 'gzip' ? args[2] : 'ndjson';
const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
console.log('| documents | payload sent | docs/s | peak RSS | receiving: RSS / anonymous / file | processing: RSS / anonymous / file |');
console.log('|---:|---:|---:|---:|---|---|');
for (const payload of payloads(set, sizes, encoding)) {
  const { documents, payloadBytes, docsPerSecond, receive, process: work } = await ingest(set === 'movies' ? 'movies' : 'debdocs', payload);
  const phase = (m: Memory) => `${mib(m.rss)} / ${mib(m.anon)} / ${mib(m.file)}`;
  console.log(`| ${documents} | ${mib(payloadBytes)} | ${docsPerSecond.toFixed(0)} | ${mib(Math.max(receive.rss, work.rss))} | ${phase(receive)} | ${phase(work)} |`);
}
