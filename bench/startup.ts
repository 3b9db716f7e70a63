/**
 * Time from spawning `quarry` to its first `GET /health` answer, with an empty and with an
 * existing db path (the target: ready in under 2 s).
 *
 *   npm run build && npx tsc -p bench/tsconfig.json && node dist/bench/startup.js
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function timeStart(dbPath: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, '--http-addr', `127.0.0.1:${port}`, '--db-path', dbPath, '--log-level', 'OFF'], { stdio: 'ignore' });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const elapsed = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return elapsed;
}

const dir = mkdtempSync(path.join(tmpdir(), 'bench-startup-'));
const db = path.join(dir, 'data.ms');
const fresh: number[] = [];
const existing: number[] = [];
for (let i = 0; i < 5; i++) {
  rmSync(db, { recursive: true, force: true });
  fresh.push(await timeStart(db));
  existing.push(await timeStart(db));
}
rmSync(dir, { recursive: true, force: true });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`ready after start: empty db median ${median(fresh).toFixed(0)} ms, existing db median ${median(existing).toFixed(0)} ms (5 runs each)`);
