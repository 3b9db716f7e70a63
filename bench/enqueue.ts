/**
 * Enqueue throughput benchmark (issue 3): 10,000 small tasks sent over HTTP to a fresh server by
 * CONNECTIONS keep-alive connections, each sending its next request as soon as the previous one is
 * answered (202). Prints tasks/s from the first request to the last answer, and the server's CPU
 * time per task (all its threads, the processing of the batches that run meanwhile included).
 * Kinds: `POST /indexes` (index creations) and `POST /indexes/docs/documents` with one document.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/enqueue.js [--connections N] [--tasks N]
 */
import { Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startQuarry } from './peers/quarry-http.js';
import { numberOption } from './args.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(args, name, fallback);
const CONNECTIONS = option('--connections', 100);
const TASKS = option('--tasks', 10_000);

/** User + system CPU time of a process, in milliseconds (Linux clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function run(kind: string, route: string, bodyOf: (n: number) => unknown): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-enqueue-'));
  const { child, url } = await startQuarry(path.join(dir, 'db'));
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    const post = (body: string) =>
      new Promise<void>((resolve, reject) => {
        const req = request(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, agent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 202 ? resolve() : reject(new Error(`POST ${route}: ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end(body);
      });
    let sent = 0;
    const cpuBefore = cpuMs(child.pid!);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (sent < TASKS) await post(JSON.stringify(bodyOf(sent++)));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuMs(child.pid!) - cpuBefore;
    console.log(`| ${kind} | ${TASKS} | ${CONNECTIONS} | ${Math.round(TASKS / seconds)} | ${(cpu / TASKS).toFixed(3)} |`);
  } finally {
    agent.destroy();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`# enqueue over HTTP — ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, node ${process.version}`);
console.log('| tasks | count | connections | tasks/s | server CPU ms/task |');
console.log('|---|---|---|---|---|');
await run('POST /indexes', '/indexes', (n) => ({ uid: `index-${n}` }));
await run('POST /indexes/docs/documents, 1 document', '/indexes/docs/documents', (n) => [{ id: n, title: `document ${n}` }]);
