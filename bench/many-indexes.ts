/**
 * Many indexes (issue 25): N indexes (default 1,000) of one document each, written into one server
 * started under `ulimit -n` (default 1024), then every index searched. Prints how far it got (the
 * process's exit signal if it died), the time of `GET /stats`, and the server's descriptors, RSS
 * and address space read from /proc. `QUARRY_MAIN` points at another build to compare.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/many-indexes.js [indexes] [ulimit]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './peers/quarry-http.js';

const INDEXES = Number(process.argv[2] ?? 1000);
const OPEN_FILES = Number(process.argv[3] ?? 1024);
const MAIN = process.env.QUARRY_MAIN ?? fileURLToPath(new URL('../src/main.js', import.meta.url));

function proc(pid: number): { fds: number; rssMiB: number; vmGiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { fds: readdirSync(`/proc/${pid}/fd`).length, rssMiB: Math.round(kb('VmRSS') / 1024), vmGiB: Math.round(kb('VmSize') / 1024 ** 2) };
}

const dir = mkdtempSync(path.join(tmpdir(), 'bench-many-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const child = spawn('sh', ['-c', `ulimit -n ${OPEN_FILES} && exec "$0" "$@"`, process.execPath, MAIN, '--http-addr', `127.0.0.1:${port}`, '--db-path', path.join(dir, 'db'), '--log-level', 'WARN', '--no-analytics'], { stdio: 'ignore' });
let died: string | null = null;
child.on('exit', (code, signal) => (died = signal ?? `exit ${code}`));
const call = async (method: string, route: string, body?: unknown) => {
  const res = await fetch(url + route, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
for (;;) {
  try {
    if ((await fetch(`${url}/health`)).ok) break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let sent = 0;
try {
  const started = performance.now();
  for (; sent < INDEXES; sent++) await call('POST', `/indexes/i${sent}/documents`, [{ id: sent, title: `index number ${sent}` }]);
  for (;;) {
    const pending = await call('GET', '/tasks?statuses=enqueued,processing&limit=1');
    if (pending.body.total === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const failed = (await call('GET', '/tasks?statuses=failed&limit=1')).body;
  console.log(`${INDEXES} indexes written in ${((performance.now() - started) / 1000).toFixed(1)} s, ${failed.total} tasks failed ${failed.total > 0 ? JSON.stringify(failed.results[0].error) : ''}`);
  let found = 0;
  const errors = new Map<string, number>();
  for (let k = 0; k < INDEXES; k++) {
    const reply = await call('POST', `/indexes/i${k}/search`, { q: 'number' });
    if (reply.status === 200 && reply.body.hits.length === 1) found++;
    else errors.set(String(reply.body.code), (errors.get(String(reply.body.code)) ?? 0) + 1);
  }
  console.log(`searches: ${found}/${INDEXES} found their document`, errors.size > 0 ? Object.fromEntries(errors) : '');
  for (const round of ['first', 'second']) {
    const t = performance.now();
    const stats = await call('GET', '/stats');
    console.log(`GET /stats (${round}): ${stats.status} in ${(performance.now() - t).toFixed(0)} ms, ${Object.keys(stats.body.indexes ?? {}).length} indexes`);
  }
  console.log('server:', proc(child.pid!));
} catch (err) {
  console.log(`stopped after ${sent} additions sent: ${(err as Error).message}`);
} finally {
  await new Promise((resolve) => setTimeout(resolve, 200));
  console.log(died === null ? 'server alive' : `server died: ${died}`);
  child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
