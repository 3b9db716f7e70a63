// One owner per db path: a server and a library (or two libraries) never open the same database at
// once, and each refusal names the path. A lock left by a process that died is taken over.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Quarry, QuarryError } from '../../dist/src/library/index.js';
import { runCli, startServer, tempDir, type TestServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let dirs: string[] = [];
let open: Quarry[] = [];
let servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all([...open.map((quarry) => quarry.close()), ...servers.map((server) => server.dispose())]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
  open = [];
  servers = [];
});

function dbPath(): string {
  const dir = tempDir();
  dirs.push(dir);
  return path.join(dir, 'data.ms');
}

async function openLibrary(at: string): Promise<Quarry> {
  const quarry = await Quarry.open({ dbPath: at, logLevel: 'WARN' });
  open.push(quarry);
  return quarry;
}

/** Runs `code` as an ES module in another Node process from the checkout, importing the package by its name. */
function runModule(code: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (status) => resolve({ code: status, output }));
  });
}

describe('a db path', () => {
  it('held by a server is refused to the library, with the path named', async () => {
    const server = await startServer();
    servers.push(server);
    const refusal = Quarry.open({ dbPath: server.dbPath });
    await expect(refusal).rejects.toThrow(QuarryError);
    await expect(refusal).rejects.toThrow(`The database at "${server.dbPath}" is already open in another process (pid ${server.process.pid})`);
  });

  it('held by the library is refused to a server, which exits with status 1 naming the path', async () => {
    const at = dbPath();
    await openLibrary(at);
    const run = await runCli(['--db-path', at, '--http-addr', '127.0.0.1:0', '--dump-dir', path.join(at, '..', 'dumps')], {}, 30_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The database at "${at}" is already open in another process (pid ${process.pid})`);
  }, 40_000);

  it('held by the library is refused to a library of another process importing `quarry`', async () => {
    const at = dbPath();
    await openLibrary(at);
    const run = await runModule(
      `import { Quarry } from 'quarry';\ntry { await Quarry.open({ dbPath: ${JSON.stringify(at)} }); } catch (err) { console.log(err.name + ': ' + err.message); process.exit(3); }`,
    );
    expect(run.code, run.output).toBe(3);
    expect(run.output).toContain(`QuarryError: The database at "${at}" is already open in another process (pid ${process.pid})`);
  }, 40_000);

  it('is refused to a second library of the same process until the first is closed', async () => {
    const at = dbPath();
    const first = await openLibrary(at);
    await expect(Quarry.open({ dbPath: at })).rejects.toThrow(`The database at "${at}" is already open in this process`);
    await first.close();
    open = [];
    const second = await openLibrary(at);
    expect((await second.getRawIndexes()).results).toEqual([]);
  });

  it('whose lock names a process that is gone is taken over', async () => {
    const at = dbPath();
    await (await openLibrary(at)).close();
    open = [];
    const gone = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.once('exit', () => resolve(child.pid!));
    });
    writeFileSync(path.join(at, 'quarry.lock'), String(gone));
    const quarry = await openLibrary(at);
    expect((await quarry.getStats()).indexes).toEqual({});
  });
});
