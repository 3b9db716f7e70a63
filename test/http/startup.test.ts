import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { open } from 'lmdb';
import { describe, expect, it } from 'vitest';
import { freePort, MAIN, runCli, startServer, tempDir } from '../helpers/server.js';

describe('server start-up', () => {
  // The start-up time itself is measured by bench/startup.ts, not asserted here (timing flakes under load).
  it('answers once started and creates its db path', async () => {
    const server = await startServer();
    try {
      expect(existsSync(path.join(server.dbPath, 'instance'))).toBe(true);
      expect(server.output()).toContain(`Database path:`);
      expect(server.output()).toContain(`http://127.0.0.1:${server.port}`);
      expect(server.output()).toContain('No master key was found');
    } finally {
      await server.dispose();
    }
  });

  // Routes validate their bodies themselves: Fastify's schema compilers (and the packages they
  // require) would only cost every start their loading. @fastify/compress compresses only the
  // bodies compressed as streams, and is loaded at the first (~70 ms of CPU with its packages);
  // ajv only compiles what the build did not precompile and locates invalid bodies' errors (~35 ms);
  // the TOML parser only reads a configuration file (~12 ms).
  it('loads neither of Fastify\'s schema compilers, nor ajv while bodies are valid, nor @fastify/compress while no body is compressed as a stream, nor a TOML parser without a configuration file', async () => {
    const dir = tempDir();
    const hook = path.join(dir, 'loaded.cjs');
    writeFileSync(hook, `process.on('exit', () => process.stderr.write('loaded ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));`);
    const server = await startServer({ env: { NODE_OPTIONS: `--require ${hook}` } });
    try {
      const answer = await fetch(`${server.url}/indexes`, { headers: { 'accept-encoding': 'gzip' } });
      expect([answer.status, answer.headers.get('content-encoding')]).toEqual([200, 'gzip']);
      const searched = await fetch(`${server.url}/multi-search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ queries: [] }) });
      expect(searched.status).toBe(200);
      await server.stop();
      const loaded = JSON.parse(/^loaded (.*)$/m.exec(server.output())![1]!) as string[];
      expect(loaded.some((file) => file.includes('/node_modules/fastify/'))).toBe(true);
      expect(loaded.filter((file) => /\/node_modules\/(@fastify\/(ajv-compiler|fast-json-stringify-compiler|compress)|ajv|smol-toml)\//.test(file))).toEqual([]);
    } finally {
      await server.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The warm-up of the search path commits its temporary index asynchronously right after the
  // listen: an exit during that commit never ended (libuv waited for LMDB's write thread). The
  // stop comes at the first answer, as early as a client can send it.
  it('exits on a SIGTERM sent as soon as it answers, its search warm-up under way', async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'data.ms');
    for (let attempt = 0; attempt < 4; attempt++) {
      const port = await freePort();
      const child = spawn(process.execPath, [MAIN, '--http-addr', `127.0.0.1:${port}`, '--db-path', dbPath, '--no-analytics', '--log-level', 'OFF'], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', () => resolve('exited')));
      // a process that exits before answering fails the expectations below
      while (child.exitCode === null) {
        const answered = await fetch(`http://127.0.0.1:${port}/health`).then((res) => res.ok, () => false);
        if (answered) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000, 'hung'))]);
      if (stopped === 'hung') child.kill('SIGKILL');
      expect(stopped).toBe('exited');
      expect(child.exitCode).toBe(0);
    }
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('accepts Meilisearch environment variable names as aliases', async () => {
    const server = await startServer({ env: { MEILI_MASTER_KEY: 'MASTER_KEY_OF_AT_LEAST_16_BYTES' } });
    try {
      expect((await fetch(`${server.url}/version`)).status).toBe(401);
      expect(server.output()).toContain('A master key has been set');
    } finally {
      await server.dispose();
    }
  });

  it('refuses to start in production without a master key', async () => {
    const dir = tempDir();
    const { code, stderr } = await runCli(['--env', 'production', '--db-path', path.join(dir, 'db'), '--http-addr', '127.0.0.1:0']);
    expect(code).toBe(1);
    expect(stderr).toContain('You must provide a master key to secure your instance in a production environment.');
  });

  it('refuses to start in production with a master key shorter than 16 bytes', async () => {
    const dir = tempDir();
    const { code, stderr } = await runCli(['--env', 'production', '--master-key', 'short', '--db-path', path.join(dir, 'db'), '--http-addr', '127.0.0.1:0']);
    expect(code).toBe(1);
    expect(stderr).toContain('The master key must be at least 16 bytes in a production environment. The provided key is only 5 bytes.');
  });

  it('exits with the system error, as Meilisearch does, when its address is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as { port: number };
      const { code, stderr } = await runCli(['--db-path', path.join(tempDir(), 'db'), '--http-addr', `127.0.0.1:${port}`]);
      expect(code).toBe(1);
      expect(stderr).toContain('Error: Address already in use (os error 98)');
      expect(stderr).not.toContain('    at ');
    } finally {
      taken.close();
    }
  });

  // these crashed with Node's stack trace (an uncaught EEXIST / ENOTDIR / ENOTFOUND)
  it('exits with the system error, not a stack trace, when its db path or dump dir cannot be a directory or its host does not resolve', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    const cases: [string[], string][] = [
      [['--db-path', file], 'Error: File exists (os error 17)'],
      [['--db-path', path.join(file, 'db')], 'Error: Not a directory (os error 20)'],
      [['--db-path', path.join(dir, 'db'), '--dump-dir', file], 'Error: File exists (os error 17)'],
      [['--db-path', path.join(dir, 'db2'), '--http-addr', 'no-such-host.invalid:7700'], 'Error: failed to lookup address information: Name or service not known'],
    ];
    for (const [args, message] of cases) {
      const address = args.includes('--http-addr') ? [] : ['--http-addr', '127.0.0.1:0'];
      const { code, stderr } = await runCli([...address, '--log-level', 'OFF', ...args]);
      expect(code, stderr).toBe(1);
      expect(stderr.trim()).toBe(message);
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('stops with status 2 and names the flag on a bad value, as clap does', async () => {
    const { code, stderr } = await runCli(['--http-payload-size-limit', 'lots']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: invalid value 'lots' for '--http-payload-size-limit <SIZE>'/);
  });

  // v1.50 reads the file before clap parses anything: its anyhow error, `Error: …`, status 1 (was 2)
  it('stops with status 1 and `Error: ` on a configuration file it cannot use', async () => {
    const dir = tempDir();
    const cases: [string, string][] = [
      ['unknown = 1\n', 'Error: unknown field `unknown` in the '],
      ['config_file_path = "x"\n', 'Error: `config_file_path` is not supported in the configuration file'],
      ['max_indexing_threads = "two"\n', "Error: invalid value \"two\" for '--max-indexing-threads <N>'"],
      ['not toml\n', 'Error: TOML parse error in the '],
    ];
    for (const [text, message] of cases) {
      const file = path.join(dir, 'config.toml');
      writeFileSync(file, text);
      const { code, stderr } = await runCli(['--config-file-path', file, '--db-path', path.join(dir, 'db'), '--http-addr', '127.0.0.1:0']);
      expect(code, stderr).toBe(1);
      expect(stderr.startsWith(message), stderr).toBe(true);
    }
    const missing = await runCli(['--config-file-path', path.join(dir, 'missing.toml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`Error: unable to open or read the ${JSON.stringify(path.join(dir, 'missing.toml'))} configuration file: No such file or directory (os error 2).`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits with status 130 on a SIGINT, as v1.50 on Ctrl-C', async () => {
    const server = await startServer();
    try {
      const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
      server.process.kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      await server.dispose();
    }
  });

  it('prints the help text and exits', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--master-key');
    expect(stdout).toContain('MEILI_MASTER_KEY');
  });

  it('prints its name and version and exits, as clap answers --version', async () => {
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`quarry ${String((JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version)}\n`);
  });

  it('refuses a database of a newer storage format, as a downgrade with --upgrade-db', async () => {
    const dbPath = path.join(tempDir(), 'db');
    const root = open({ path: path.join(dbPath, 'instance'), maxDbs: 32 });
    await root.openDB({ name: 'main' }).put('version', { format: 999, pkgVersion: '99.0.0' });
    await root.close();
    const { code, stderr } = await runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0']);
    expect(code).toBe(1);
    expect(stderr).toContain('Your database version (999.0.0) is incompatible with your current engine version (4.0.0).');
    const upgrading = await runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--upgrade-db']);
    expect(upgrading.code).toBe(1);
    expect(upgrading.stderr.trim()).toBe('Database version 999.0.0 is higher than the Meilisearch version 4.0.0. Downgrade is not supported');
  });
});
