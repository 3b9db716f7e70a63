/**
 * The movies bundle the demo and the browser benchmark search: the movies of
 * ../shared/datasets/movies.json.gz (bench/datasets.ts reads them) with the fields the page shows,
 * indexed by a Quarry process (dist/src/main.js, on a temporary db path and a free loopback port)
 * with the settings Meilisearch's movies workload uses, then written with `quarry export-bundle`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDataset } from '../bench/datasets.js';

/** A movie as the page shows it. */
export interface Movie {
  id: number;
  title: string;
  overview: string;
  genres: string[];
  year: number;
}

export const MOVIES_INDEX = 'movies';
export const MOVIES_SETTINGS = { searchableAttributes: ['title', 'overview'], filterableAttributes: ['genres', 'year'] };

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The built server, from demo/ (vitest) or from dist/demo/ (compiled). */
const MAIN = path.basename(path.dirname(HERE)) === 'dist' ? path.join(HERE, '../src/main.js') : path.join(HERE, '../dist/src/main.js');

/** Every movie of the dataset with the fields the page shows, in the dataset's order. */
export function readMovies(): Movie[] {
  return loadDataset('movies').docs.map((doc) => {
    const { id, title, overview, genres, year } = doc as unknown as Movie;
    return { id, title, overview, genres, year };
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', QUARRY_LOG_LEVEL: 'WARN' } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`quarry ${args[0]} exited with ${code}:\n${out}`))));
  });
}

async function waitForTask(url: string, taskUid: number): Promise<void> {
  for (;;) {
    const task = (await (await fetch(`${url}/tasks/${taskUid}`)).json()) as { status: string; error?: unknown };
    if (task.status === 'succeeded') return;
    if (task.status === 'failed' || task.status === 'canceled') throw new Error(`task ${taskUid} ${task.status}: ${JSON.stringify(task.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function post(url: string, method: string, body: unknown): Promise<number> {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 202) throw new Error(`${method} ${url}: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { taskUid: number }).taskUid;
}

/** Indexes `movies` in a Quarry process and exports them as a bundle at `out`. */
export async function buildMoviesBundle(out: string, movies: readonly Movie[] = readMovies()): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-movies-bundle-'));
  const dbPath = path.join(dir, 'data.ms');
  let child: ChildProcess | undefined;
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [MAIN, '--db-path', dbPath, '--dump-dir', path.join(dir, 'dumps'), '--http-addr', `127.0.0.1:${port}`, '--no-analytics'], {
      stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '', QUARRY_LOG_LEVEL: 'WARN' },
    });
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`quarry exited with ${child.exitCode} before being ready`);
      if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
      if (tries > 500) throw new Error('quarry did not become ready in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await waitForTask(url, await post(`${url}/indexes`, 'POST', { uid: MOVIES_INDEX, primaryKey: 'id' }));
    await waitForTask(url, await post(`${url}/indexes/${MOVIES_INDEX}/settings`, 'PATCH', MOVIES_SETTINGS));
    await waitForTask(url, await post(`${url}/indexes/${MOVIES_INDEX}/documents`, 'POST', movies));
    const stopped = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await stopped;
    await run(['export-bundle', '--db-path', dbPath, '--index', MOVIES_INDEX, '--out', out]);
  } finally {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
