/**
 * Starts the real Quarry process (the built dist/src/main.js) on a free loopback port with a
 * temporary db path, for HTTP tests that talk to it the way users do.
 */
import { get as httpsGet } from 'node:https';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

export interface ServerOptions {
  masterKey?: string;
  /** Extra CLI arguments. */
  args?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Reuse an existing db path (restart tests). */
  dbPath?: string;
  /** Listen on this loopback port instead of a free one (a restart keeps the address others know). */
  port?: number;
  /** The process's limit of open file descriptors (`ulimit -n`), when lower than the default. */
  openFiles?: number;
  /** The server answers over HTTPS (its `--ssl-*` arguments are in `args`): its url and readiness probe use it. */
  https?: boolean;
}

export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly dbPath: string;
  readonly process: ChildProcess;
  output(): string;
  /** Graceful stop (SIGTERM), keeping the db path. */
  stop(): Promise<void>;
  /** kill -9, keeping the db path. */
  kill(): Promise<void>;
  /** Stop and delete the db path. */
  dispose(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Whether `url` answers over TLS, whatever its certificate: a 200, or a handshake the server
 * refuses (it requires a client certificate), as opposed to a connection refused.
 */
function answersOverTls(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpsGet(url, { rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'ECONNREFUSED'));
  });
}

export function tempDir(prefix = 'quarry-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const port = options.port ?? (await freePort());
  const dbPath = options.dbPath ?? path.join(tempDir(), 'data.ms');
  const args = [MAIN, '--http-addr', `127.0.0.1:${port}`, '--db-path', dbPath, '--dump-dir', path.join(dbPath, '..', 'dumps'), '--no-analytics'];
  if (options.masterKey !== undefined) args.push('--master-key', options.masterKey);
  // its own snapshot folder too: the default, `snapshots/` in the working directory, is shared by
  // every server of the run, and each sweeps the `data.ms` snapshot leftovers there at startup
  // (a restart then failed with ENOTEMPTY while another test's server wrote its snapshot)
  if (!(options.args ?? []).includes('--snapshot-dir')) args.push('--snapshot-dir', path.join(dbPath, '..', 'snapshots'));
  args.push(...(options.args ?? []));
  // a shell lowers the limit, then execs node, so the child is node itself
  const [command, commandArgs] =
    options.openFiles === undefined ? [process.execPath, args] : ['sh', ['-c', `ulimit -n ${options.openFiles} && exec "$0" "$@"`, process.execPath, ...args]];
  const child = spawn(command, commandArgs, {
    env: { PATH: process.env.PATH ?? '', QUARRY_LOG_LEVEL: 'WARN', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `${options.https === true ? 'https' : 'http'}://127.0.0.1:${port}`;

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      // The port freePort gave was taken before the child could bind it: another one. A db path of
      // the helper's own is a new one too, since the child may have written it before binding (a
      // dump or snapshot imported first then refuses to start again: the database exists).
      if (options.port === undefined && out.includes('Address already in use')) {
        if (options.dbPath === undefined) rmSync(path.dirname(dbPath), { recursive: true, force: true });
        return startServer(options);
      }
      throw new Error(`quarry exited with ${child.exitCode} before being ready:\n${out}`);
    }
    // The startup report is written once the child listens: a /health answer alone may come from
    // another test's server that took the port freePort gave (the child then fails to bind).
    if (out.includes('Server listening on:')) {
      try {
        if (options.https === true ? await answersOverTls(`${url}/health`) : (await fetch(`${url}/health`)).ok) break;
      } catch {
        // not answering yet
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`quarry did not become ready in 10 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }

  const server: TestServer = {
    url,
    port,
    dbPath,
    process: child,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    dispose: async () => {
      await server.kill();
      if (options.dbPath === undefined) rmSync(path.dirname(dbPath), { recursive: true, force: true });
    },
  };
  return server;
}

/** Runs the CLI to completion (for startup-refusal tests). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 10_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit within ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
