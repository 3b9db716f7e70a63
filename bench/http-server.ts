/**
 * A Quarry server process for the HTTP benchmarks: started on a free loopback port from a build's
 * `dist/src/main.js`, requests on a keep-alive agent, and the task waits they need.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request, type Agent } from 'node:http';
import zlib from 'node:zlib';
import { freePort } from './peers/quarry-http.js';

export interface Answer {
  status: number;
  body: string;
}

/** Decoders of the content encodings a server may answer with, when `call` asked for them. */
const DECODE: Record<string, (bytes: Buffer) => Buffer> = { gzip: zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync };

/**
 * One request on `agent`'s keep-alive sockets, with `headers` besides the content type; resolves
 * with the status and the body text (decoded when the server compressed it).
 */
export function call(agent: Agent, url: string, method: string, body?: string, contentType = 'application/json', headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: body === undefined ? headers : { ...headers, 'content-type': contentType }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const decode = DECODE[res.headers['content-encoding'] ?? ''];
        resolve({ status: res.statusCode ?? 0, body: (decode === undefined ? bytes : decode(bytes)).toString() });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Starts `server` (a main.js) on `dbPath` with `nodeArgs` for node; resolves once it answers /health. */
export async function startServer(server: string, dbPath: string, nodeArgs: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, server, '--http-addr', `127.0.0.1:${port}`, '--db-path', dbPath, '--log-level', 'WARN', '--no-analytics'], { stdio: 'ignore' });
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { child, url };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Stops the server with SIGTERM (its graceful shutdown, so `--cpu-prof` writes its profile). */
export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Waits for task `uid` to succeed; throws when it fails. */
export async function waitTask(agent: Agent, url: string, uid: number, pollMs = 50): Promise<void> {
  for (;;) {
    const task = JSON.parse((await call(agent, `${url}/tasks/${uid}`, 'GET')).body) as { status: string; error?: unknown };
    if (task.status === 'succeeded') return;
    if (task.status === 'failed') throw new Error(`task ${uid} failed: ${JSON.stringify(task.error)}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
