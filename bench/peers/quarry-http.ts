/**
 * Quarry over HTTP: the real server process on loopback, documents sent as NDJSON batches
 * (end-to-end indexing: payload, tasks, full index build), searches with one connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dataset, Query } from '../datasets.js';
import type { Engine, HighlightRequest } from './engine.js';

/** The server's entry: this build's, or another build's (`QUARRY_MAIN`, for before/after runs in the same window). */
const MAIN = process.env.QUARRY_MAIN ?? fileURLToPath(new URL('../../src/main.js', import.meta.url));
/** Node options for the server (`QUARRY_NODE_ARGS="--cpu-prof --cpu-prof-dir=…"`: NODE_OPTIONS refuses profiling flags). */
const NODE_ARGS = process.env.QUARRY_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The servers started and still running: a bench that dies (an exception) takes them along instead of leaving them running. */
const servers = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of servers) child.kill('SIGKILL');
});

/** Spawns the server on a free loopback port with its data under `dbPath`; resolves once it answers. */
export async function startQuarry(dbPath: string, extraArgs: readonly string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...NODE_ARGS, MAIN, '--http-addr', `127.0.0.1:${port}`, '--db-path', dbPath, '--log-level', 'WARN', ...extraArgs], { stdio: 'ignore' });
  servers.add(child);
  child.once('exit', () => servers.delete(child));
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { child, url };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Bytes `dir` takes on disk. A file or folder the server deletes meanwhile (a finished task's payload) counts as nothing. */
function du(dir: string): number {
  let total = 0;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      total += entry.isDirectory() ? du(full) : (statSync(full, { throwIfNoEntry: false })?.blocks ?? 0) * 512;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return total;
}

/** Peak resident set of another process (Linux), in bytes. */
export function peakRss(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

const filterOf = (query: Query) => (query.meiliFilter === undefined ? {} : { filter: query.meiliFilter });
const idsOf = (hits: unknown) => (hits as { id: number }[]).map((hit) => hit.id);

export function quarryHttp(): Engine & { serverPid(): number | undefined } {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-quarry-'));
  let child: ChildProcess | null = null;
  let url = '';
  const json = { 'content-type': 'application/json' };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = async (method: string, route: string, body?: string, contentType = 'application/json') => {
    const res = await fetch(url + route, { method, headers: body === undefined ? {} : { 'content-type': contentType }, body });
    return (await res.json()) as Record<string, unknown>;
  };
  // One keep-alive connection through node:http: fetch would add milliseconds of client work.
  const post = (route: string, body: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(url + route, { method: 'POST', headers: json, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const parsed = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
          if (res.statusCode === 200) resolve(parsed);
          else reject(new Error(`${route} answered ${res.statusCode}: ${parsed.message as string}`));
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const waitTask = async (uid: number) => {
    for (;;) {
      const task = await call('GET', `/tasks/${uid}`);
      if (task.status === 'succeeded') return;
      if (task.status === 'failed') throw new Error(`task ${uid} failed: ${JSON.stringify(task.error)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const configure = async (uid: string, dataset: Dataset) => {
    const settings = await call('PATCH', `/indexes/${uid}/settings`, JSON.stringify({
      searchableAttributes: dataset.searchable,
      filterableAttributes: dataset.filterable,
      sortableAttributes: dataset.sortable,
    }));
    if (typeof settings.taskUid === 'number') await waitTask(settings.taskUid);
  };
  const load = async (uid: string, dataset: Dataset) => {
    let last = -1;
    for (const chunk of dataset.ndjson) {
      const task = await call('POST', `/indexes/${uid}/documents?primaryKey=id`, chunk, 'application/x-ndjson');
      last = task.taskUid as number;
    }
    await waitTask(last);
  };
  return {
    name: 'Quarry (HTTP)',
    how: {
      faceted: '`facets` → facetDistribution',
      filtered: '`filter`',
      highlighted: '`attributesToHighlight`, `attributesToCrop`',
      'multi-search': 'one POST /multi-search',
      federated: 'one POST /multi-search with `federation`',
    },
    serverPid: () => child?.pid,
    async prepare(dataset: Dataset) {
      ({ child, url } = await startQuarry(path.join(dir, 'db')));
      await configure('bench', dataset);
    },
    async index(dataset: Dataset) {
      await load('bench', dataset);
    },
    async indexAgain(dataset: Dataset) {
      const before = du(path.join(dir, 'db'));
      await configure('warm', dataset);
      await load('warm', dataset);
      return { diskBytes: du(path.join(dir, 'db')) - before };
    },
    search(query: Query) {
      return post('/indexes/bench/search', { q: query.q, limit: 20, ...filterOf(query) }).then((body) => idsOf(body.hits));
    },
    async facets(query: Query, field: string) {
      const body = await post('/indexes/bench/search', { q: query.q, limit: 20, facets: [field], ...filterOf(query) });
      return { ids: idsOf(body.hits), distribution: (body.facetDistribution as Record<string, Record<string, number>>)[field] ?? {} };
    },
    async highlight(query: Query, request: HighlightRequest) {
      const body = await post('/indexes/bench/search', {
        q: query.q,
        limit: 20,
        attributesToHighlight: request.attributes,
        attributesToCrop: [request.crop],
        cropLength: request.cropWords,
        ...filterOf(query),
      });
      return (body.hits as { id: number; _formatted: Record<string, string> }[]).map((hit) => ({ id: hit.id, formatted: hit._formatted }));
    },
    async multiSearch(queries: Query[], federated: boolean) {
      const body = await post('/multi-search', {
        ...(federated ? { federation: { limit: 20 } } : {}),
        queries: queries.map((query) => ({ indexUid: 'bench', q: query.q, ...(federated ? {} : { limit: 20 }), ...filterOf(query) })),
      });
      return federated ? [idsOf(body.hits)] : (body.results as { hits: unknown }[]).map((result) => idsOf(result.hits));
    },
    diskBytes: () => du(path.join(dir, 'db')),
    async close() {
      agent.destroy();
      child?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
