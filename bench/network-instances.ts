/**
 * Quarry processes for the network benchmarks (bench/network*.ts): each on a free loopback port
 * with its own db path and outgoing requests to loopback allowed, and the few HTTP calls the
 * benchmarks make (JSON or NDJSON bodies, task waiting).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { percentile } from './latency.js';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

export interface Instance {
  url: string;
  child: ChildProcess;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a Quarry process on `dir` and waits for `/health`. */
export async function start(dir: string, env: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN, '--http-addr', `127.0.0.1:${port}`, '--db-path', dir, '--no-analytics', '--experimental-allowed-ip-networks', 'any'], {
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '', QUARRY_LOG_LEVEL: 'WARN', ...env },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('an instance did not start');
}

/** One request; an object body is sent as JSON, a string as NDJSON. Answers the parsed body. */
export async function call(instance: Instance, method: string, route: string, body?: unknown): Promise<any> {
  const ndjson = typeof body === 'string';
  const response = await fetch(`${instance.url}${route}`, {
    method,
    headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
    body: body === undefined ? undefined : ndjson ? body : JSON.stringify(body),
  });
  return response.json();
}

/** Waits for a task to succeed (throws on failure). */
export async function settle(instance: Instance, taskUid: number): Promise<void> {
  for (;;) {
    const task = await call(instance, 'GET', `/tasks/${taskUid}`);
    if (task.status === 'succeeded') return;
    if (task.status === 'failed') throw new Error(JSON.stringify(task.error));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until an instance has no enqueued or processing task, and that none of its tasks failed. */
export async function idle(instance: Instance): Promise<void> {
  for (;;) {
    const pending = await call(instance, 'GET', '/tasks?statuses=enqueued,processing&limit=1');
    if (pending.results.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const failed = await call(instance, 'GET', '/tasks?statuses=failed&limit=1');
  if (failed.results.length > 0) throw new Error(`a task failed on ${instance.url}: ${JSON.stringify(failed.results[0].error)}`);
}

/**
 * CPU seconds (user + system, every thread) the instance's process has used so far, from
 * /proc/<pid>/stat (Linux; clock ticks of 1/100 s).
 */
export function cpuSeconds(instance: Instance): number {
  const stat = readFileSync(`/proc/${instance.child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** p50, p95 and p99 of a list of milliseconds. */
export const summary = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
};
