/**
 * A snapshot or db path whose LMDB data file is damaged (zero-filled, cut) is refused with a
 * message before the file is mapped: lmdb-js crashed the process by signal on it (SIGSEGV for the
 * zeros, SIGBUS for the cut file), on that start and every later one. An imported snapshot's db
 * path is removed, as v1.50 removes it on MDB_INVALID.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { open } from 'lmdb';
import { describe, expect, it } from 'vitest';
import { writeArchive } from '../../helpers/dump-archive.js';
import { runCli, tempDir } from '../../helpers/server.js';

/** A real LMDB data file of a few dozen pages, cut to its first 4 pages. */
async function cutDataFile(): Promise<Buffer> {
  const dir = tempDir();
  const env = open({ path: dir, compression: false });
  for (let i = 0; i < 500; i++) env.putSync(`key ${i}`, 'value '.repeat(30));
  await env.close();
  return readFileSync(path.join(dir, 'data.mdb')).subarray(0, 4 * 4096);
}

const start = (dbPath: string, ...args: string[]) => runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--no-analytics', ...args]);

describe('a damaged LMDB data file', () => {
  it.each([
    ['zero-filled', async () => Buffer.alloc(65_536), 'MDB_INVALID: File is not an LMDB file'],
    ['cut', cutDataFile, 'MDB_INVALID: it is cut'],
  ] as const)('%s, in a snapshot: the import is refused and the db path removed', async (_, content, message) => {
    const dir = tempDir();
    const file = path.join(dir, 'damaged.snapshot');
    await writeArchive(file, { 'instance/data.mdb': await content() });
    const dbPath = path.join(dir, 'db');
    const { code, stderr } = await start(dbPath, '--import-snapshot', file);
    expect(stderr).toContain(`importing the snapshot failed: the database at "${dbPath}" is damaged: \`instance/data.mdb\` cannot be opened (${message}`);
    expect(code).toBe(1);
    expect(existsSync(dbPath)).toBe(false);
  });

  it('in an index of a db path: the start is refused, the files are kept', async () => {
    const dbPath = path.join(tempDir(), 'db');
    const index = path.join(dbPath, 'indexes', '9009fa01-8ebf-48f4-9f30-07cf37ed3949');
    mkdirSync(index, { recursive: true });
    writeFileSync(path.join(index, 'data.mdb'), Buffer.alloc(65_536));
    const { code, stderr } = await start(dbPath);
    expect(stderr).toContain(`the database at "${dbPath}" is damaged: \`indexes/9009fa01-8ebf-48f4-9f30-07cf37ed3949/data.mdb\` cannot be opened (MDB_INVALID: File is not an LMDB file)`);
    expect(code).toBe(1);
    expect(existsSync(path.join(index, 'data.mdb'))).toBe(true);
  });
});
