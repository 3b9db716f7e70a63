// A database's count of all its entries read from its B-tree's header: the same count a walk gives,
// in a write transaction (its uncommitted puts and removes) and in a snapshot read before a
// commit, without walking the entries; a count of a range still walks it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countedFromHeader } from '../../../src/store/header-count.js';

let dir: string;
let root: RootDatabase;
let db: Database<Buffer, number>;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-header-count-'));
  root = open({ path: dir, maxDbs: 4, compression: false, useWritemap: true });
  db = countedFromHeader(root.openDB<Buffer, number>({ name: 'documents', keyEncoding: 'uint32', encoding: 'binary' }));
});

afterEach(async () => {
  await root.close();
  rmSync(dir, { recursive: true, force: true });
});

const walked = () => [...db.getKeys()].length;

describe('countedFromHeader', () => {
  it('counts what a walk counts, committed or inside the write transaction', () => {
    expect(db.getCount()).toBe(0);
    root.transactionSync(() => {
      for (let key = 0; key < 5_000; key++) db.putSync(key, Buffer.from([key % 256]));
      expect(db.getCount()).toBe(5_000);
      for (let key = 0; key < 5_000; key += 5) db.removeSync(key);
      expect(db.getCount()).toBe(4_000);
    });
    expect(db.getCount()).toBe(4_000);
    expect(walked()).toBe(4_000);
    // replacing a value adds no entry
    root.transactionSync(() => db.putSync(1, Buffer.from([9])));
    expect(db.getCount()).toBe(4_000);
  });

  it('reads the header, not the entries: a count over a range still walks that range', () => {
    root.transactionSync(() => {
      for (let key = 0; key < 1_000; key++) db.putSync(key, Buffer.from([1]));
    });
    const getKeys = db.getKeys.bind(db);
    const getRange = db.getRange.bind(db);
    let walks = 0;
    db.getKeys = (...args: Parameters<typeof getKeys>) => (walks++, getKeys(...args));
    db.getRange = (...args: Parameters<typeof getRange>) => (walks++, getRange(...args));
    expect(db.getCount()).toBe(1_000);
    expect(walks).toBe(0);
    expect(db.getCount({ start: 100, end: 200 })).toBe(100);
    expect(walks).toBe(1);
  });

  it('counts a pinned snapshot as a walk of it would, while a later commit is not yet read', () => {
    root.transactionSync(() => {
      for (let key = 0; key < 10; key++) db.putSync(key, Buffer.from([1]));
    });
    const snapshot = root.useReadTransaction();
    try {
      root.transactionSync(() => db.putSync(10, Buffer.from([1])));
      expect(db.getCount({ transaction: snapshot })).toBe(10);
      expect(db.getCount()).toBe(11);
    } finally {
      snapshot.done();
    }
  });
});
