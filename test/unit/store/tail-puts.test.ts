// Puts by docid that append past a database's last key: every value lands where an ordinary put
// would put it, and a load of ascending docids fills its leaf pages.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TailPuts } from '../../../src/store/tail-puts.js';

let dir: string;
let root: RootDatabase;
let db: Database<Buffer, number>;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-tail-puts-'));
  root = open({ path: dir, maxDbs: 4, compression: false, useWritemap: true });
  db = root.openDB<Buffer, number>({ name: 'records', keyEncoding: 'uint32', encoding: 'binary' });
});

afterEach(async () => {
  await root.close();
  rmSync(dir, { recursive: true, force: true });
});

const value = (key: number) => Buffer.alloc(100 + (key % 900), key % 251);
const leafPages = () => (db.getStats() as { treeLeafPageCount: number }).treeLeafPageCount;

describe('TailPuts', () => {
  it('fills the leaf pages of ascending docids better than putting them one by one', () => {
    root.transactionSync(() => {
      for (let key = 0; key < 5000; key++) db.putSync(key, value(key));
    });
    const ordinary = leafPages();
    root.transactionSync(() => {
      db.clearSync();
      const puts = new TailPuts(db);
      for (let key = 0; key < 5000; key++) puts.put(key, value(key));
    });
    expect(leafPages()).toBeLessThan(ordinary * 0.85);
    expect(Array.from(db.getRange({}), ({ key, value }) => [key, value.length])).toEqual(Array.from({ length: 5000 }, (_, key) => [key, value(key).length]));
  });

  it('replaces values at or below the last key, and appends past the keys the database already held', () => {
    root.transactionSync(() => {
      for (const key of [3, 7, 9]) db.putSync(key, value(key));
    });
    root.transactionSync(() => {
      const puts = new TailPuts(db);
      for (const key of [7, 1, 10, 11, 8]) puts.put(key, Buffer.from(`v${key}`));
    });
    expect(Array.from(db.getRange({}), ({ key, value }) => [key, value.toString()])).toEqual([
      [1, 'v1'],
      [3, value(3).toString()],
      [7, 'v7'],
      [8, 'v8'],
      [9, value(9).toString()],
      [10, 'v10'],
      [11, 'v11'],
    ]);
  });

  it('puts a value LMDB refuses to append, past a larger key written around the puts', () => {
    root.transactionSync(() => {
      const puts = new TailPuts(db);
      db.putSync(20, Buffer.from('v20'));
      puts.put(15, Buffer.from('v15'));
      puts.put(16, Buffer.from('v16'));
    });
    expect(Array.from(db.getRange({}), ({ key, value }) => [key, value.toString()])).toEqual([
      [15, 'v15'],
      [16, 'v16'],
      [20, 'v20'],
    ]);
  });
});
