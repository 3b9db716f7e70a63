import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { open } from 'lmdb';
import { describe, expect, it } from 'vitest';
import { lmdbFileProblem } from '../../../src/store/lmdb-header.js';
import { tempDir } from '../../helpers/server.js';

/** The data file of an environment opened with `options`, after `fill` wrote to it. */
async function dataFile(options: object, fill: (env: ReturnType<typeof open>) => void): Promise<string> {
  const dir = tempDir();
  const env = open({ path: dir, compression: false, ...options });
  fill(env);
  await env.close();
  return path.join(dir, 'data.mdb');
}

describe('lmdbFileProblem', () => {
  it('passes sound files: new, written, mapped for writing (an index environment), with named databases', async () => {
    const files = [
      await dataFile({}, () => {}),
      await dataFile({}, (env) => { for (let i = 0; i < 2000; i++) env.putSync(`k${i}`, 'v'.repeat(200)); }),
      await dataFile({ useWritemap: true, mapSize: 1024 ** 3 }, (env) => env.putSync('k', 'v')),
      await dataFile({ maxDbs: 4 }, (env) => env.openDB({ name: 'tasks' }).putSync(1, 'x'.repeat(10_000))),
    ];
    for (const file of files) expect(lmdbFileProblem(file), file).toBeNull();
  });

  it("refuses another LMDB's file (Meilisearch's: a 16-byte page header, data version 1)", async () => {
    const file = await dataFile({}, () => {});
    const bytes = readFileSync(file);
    for (const page of [0, 4096]) {
      bytes.copy(bytes, page + 16, page + 24, page + 4096); // the meta 8 bytes earlier
      bytes.writeUInt32LE(1, page + 20);
    }
    writeFileSync(file, bytes);
    expect(lmdbFileProblem(file)).toBe('MDB_INVALID: File is not an LMDB file');
  });

  it('refuses a data version it does not read', async () => {
    const file = await dataFile({}, () => {});
    const bytes = readFileSync(file);
    bytes.writeUInt32LE(1, 28);
    writeFileSync(file, bytes);
    expect(lmdbFileProblem(file)).toBe('MDB_INVALID: its data version is 1, not 2');
  });

  it('refuses files cut inside a page, or before their trees', async () => {
    const file = await dataFile({}, (env) => { for (let i = 0; i < 2000; i++) env.putSync(`k${i}`, 'v'.repeat(200)); });
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, 3 * 4096 + 100));
    expect(lmdbFileProblem(file)).toMatch(/^MDB_INVALID: it is cut \(12388 bytes are not/);
    writeFileSync(file, bytes.subarray(0, 3 * 4096));
    expect(lmdbFileProblem(file)).toBe('MDB_INVALID: it is cut (its trees start past its 3 pages)');
    writeFileSync(file, bytes.subarray(0, 100));
    expect(lmdbFileProblem(file)).toBe('MDB_INVALID: it holds 100 bytes, less than LMDB\'s two meta pages');
  });
});
