import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTxn, writeTxnAsync } from '../../../src/store/write-txn.js';

let dir: string;
let root: RootDatabase;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-write-txn-'));
  root = open({ path: dir });
});

afterEach(async () => {
  await root.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('writeTxn', () => {
  it('commits the writes of nested calls together with the outer ones', () => {
    const before = root.getStats() as { lastTxnId: number };
    writeTxn(root, () => {
      root.putSync('a', 1);
      writeTxn(root, () => root.putSync('b', 2));
    });
    expect([root.get('a'), root.get('b')]).toEqual([1, 2]);
    expect((root.getStats() as { lastTxnId: number }).lastTxnId).toBe(before.lastTxnId + 1);
  });

  it('rolls back every write, nested ones included, when anything throws', () => {
    expect(() =>
      writeTxn(root, () => {
        root.putSync('a', 1);
        writeTxn(root, () => root.putSync('b', 2));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect([root.get('a'), root.get('b')]).toEqual([undefined, undefined]);
  });

  it('opens a new transaction once the previous one has ended, even after an error', () => {
    expect(() => writeTxn(root, () => { throw new Error('refused'); })).toThrow('refused');
    writeTxn(root, () => root.putSync('c', 3));
    expect(root.get('c')).toBe(3);
  });

  it('commits asynchronously, nested calls joining, and resolves with the result once flushed', async () => {
    const result = await writeTxnAsync(root, () => {
      root.putSync('a', 1);
      writeTxn(root, () => root.putSync('b', 2));
      return 'done';
    });
    expect(result).toBe('done');
    expect([root.get('a'), root.get('b')]).toEqual([1, 2]);
  });

  it('rolls back an asynchronous group that throws without touching the writes committed with it', async () => {
    const kept = root.put('kept', true);
    const refused = writeTxnAsync(root, () => {
      root.putSync('a', 1);
      writeTxn(root, () => root.putSync('b', 2));
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    await kept;
    expect([root.get('kept'), root.get('a'), root.get('b')]).toEqual([true, undefined, undefined]);
  });
});
