/**
 * A process stopped by kill -9 while it imports a dump leaves a half-filled db path. It used to
 * start as if sound (no indexes, no tasks, orphan index folders, a scratch folder in the temp
 * dir); an import is now marked in progress from its start to its last write, so the next start
 * refuses the db path, and the same `--import-dump` imports the dump again over the half import.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { MAIN, runCli, startServer, tempDir } from '../../helpers/server.js';

const DOCUMENTS = 10_000;

describe('a dump import interrupted by kill -9', () => {
  it('is refused at the next start, and imported again when asked', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'big.dump');
    await writeArchive(file, {
      'metadata.json': JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.50.0', dumpDate: '2025-02-04T10:22:31Z' }),
      'indexes/big/metadata.json': JSON.stringify({ uid: 'big', primaryKey: 'id', createdAt: '2025-02-04T10:15:21Z', updatedAt: '2025-02-04T10:15:21Z' }),
      'indexes/big/documents.jsonl': jsonl(Array.from({ length: DOCUMENTS }, (_, id) => ({ id, text: `document number ${id} with a few words to index` }))),
    });
    const dbPath = path.join(dir, 'db');
    const args = ['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--no-analytics', '--dump-dir', path.join(dir, 'dumps'), '--snapshot-dir', path.join(dir, 'snapshots')];

    const importing = spawn(process.execPath, [MAIN, ...args, '--import-dump', file], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '', TMPDIR: dir } });
    const exited = new Promise((resolve) => importing.once('exit', resolve));
    // the index environments' folder is made once the instance store is open, before the dump is read
    const deadline = Date.now() + 10_000;
    while (!existsSync(path.join(dbPath, 'indexes'))) {
      if (Date.now() > deadline || importing.exitCode !== null) throw new Error('the import never started');
      await new Promise((resolve) => setImmediate(resolve));
    }
    importing.kill('SIGKILL');
    await exited;

    const refused = await runCli(args);
    expect(refused.stderr).toContain(`the import of "${file}" into "${dbPath}" was interrupted before it ended: the database is incomplete`);
    expect(refused.code).toBe(1);

    const server = await startServer({ dbPath, args: ['--import-dump', file] });
    try {
      expect((await call(server, 'GET', '/indexes/big/stats')).body.numberOfDocuments).toBe(DOCUMENTS);
      expect(readdirSync(path.join(dbPath, 'indexes'))).toHaveLength(1);
      expect(readdirSync(dbPath).sort()).toEqual(['indexes', 'instance', 'quarry.lock', 'update_files']);
      expect(readdirSync(dir).filter((name) => name.startsWith('quarry-dump-'))).toEqual([]);
    } finally {
      await server.dispose();
    }
  }, 60_000);
});
