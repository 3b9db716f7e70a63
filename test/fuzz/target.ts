/**
 * The server under fuzz: a real Quarry process (test/helpers/server.ts) with a master key, a small
 * payload limit (so bombs and oversized bodies cost little to refuse), the movies fixture index
 * and an empty scratch index for write routes. It can report its resident memory and be
 * restarted after a crash, so one crash does not end the run.
 */
import { readFileSync } from 'node:fs';
import type { FuzzContext } from './arbitraries.js';
import { readMovies } from '../helpers/movies.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MASTER_KEY = 'fuzz-master-key-0123456789abcdef';
const PAYLOAD_LIMIT = 1024 * 1024;
const MOVIES = 500;

export class Target {
  private constructor(private current: TestServer) {}

  readonly context: FuzzContext = { masterKey: MASTER_KEY, payloadLimit: PAYLOAD_LIMIT, fixtureIndex: 'movies', scratchIndex: 'scratch' };

  static async start(): Promise<Target> {
    return new Target(await Target.launch());
  }

  private static async launch(): Promise<TestServer> {
    const server = await startServer({ masterKey: MASTER_KEY, args: ['--http-payload-size-limit', String(PAYLOAD_LIMIT)] });
    await authorized(server, 'PATCH', '/indexes/movies/settings', { filterableAttributes: ['genres', 'year'], sortableAttributes: ['year', 'title'] });
    await authorized(server, 'POST', '/indexes/movies/documents', readMovies().slice(0, MOVIES));
    const { taskUid } = await authorized(server, 'POST', '/indexes', { uid: 'scratch' });
    // Tasks run in order: the last one done means the fixture is in place.
    const deadline = Date.now() + 60_000;
    while ((await authorized(server, 'GET', `/tasks/${taskUid}`)).status !== 'succeeded') {
      if (Date.now() > deadline) throw new Error('the fuzz fixture was not indexed in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return server;
  }

  get port(): number {
    return this.current.port;
  }

  get pid(): number {
    return this.current.process.pid!;
  }

  alive(): boolean {
    return this.current.process.exitCode === null && this.current.process.signalCode === null;
  }

  /** The server's log, for crash reports. */
  output(): string {
    return this.current.output();
  }

  /**
   * Resident memory, in kB, from /proc/<pid>/status: VmRSS, and its anonymous (heap) and
   * file-backed (LMDB's mapped pages) parts.
   */
  memory(): { rssKb: number; anonKb: number; fileKb: number } {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), anonKb: field('RssAnon'), fileKb: field('RssFile') };
  }

  /** Waits until `/health` answers again (after a hang), up to `ms`; false if it never does. */
  async recovered(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (!this.alive()) return false;
      try {
        if ((await fetch(`${this.current.url}/health`, { signal: AbortSignal.timeout(1_000) })).ok) return true;
      } catch {
        // still busy
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  async restart(): Promise<void> {
    await this.current.dispose();
    this.current = await Target.launch();
  }

  async dispose(): Promise<void> {
    await this.current.dispose();
  }
}

/** A fixture call with the master key; throws unless it succeeds. */
async function authorized(server: TestServer, method: string, path: string, body?: unknown): Promise<{ taskUid: number; status: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`fuzz fixture: ${method} ${path} answered ${res.status} ${await res.text()}`);
  return (await res.json()) as { taskUid: number; status: string };
}
