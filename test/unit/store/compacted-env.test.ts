// An environment written by LMDB's compacting copy takes a large write transaction once settled:
// unsettled, lmdb-js's free-page loader aborts the process in that transaction's commit path.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterEach, describe, expect, it } from 'vitest';

import { isUnsettledCopy, settleCompactedEnv } from '../../../src/store/compacted-env.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const valueOf = (i: number, size: number) => Buffer.alloc(size, i % 251);

describe('settleCompactedEnv', () => {
  it('lets the first large rewrite of a compacted copy commit, leaving its data as written', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-compacted-'));
    const source = open({ path: path.join(dir, 'source'), maxDbs: 8, compression: false });
    const dbs = ['a', 'b'].map((name) => source.openDB<Buffer, string>({ name, encoding: 'binary' }));
    // a few transactions of values large and small, as an index holds
    for (let round = 0; round < 4; round++) {
      source.transactionSync(() => {
        for (const db of dbs) for (let i = round; i < 6000; i += 4) db.putSync(`key ${i}`, valueOf(i, i % 10 === 0 ? 6000 : 300));
      });
    }
    mkdirSync(path.join(dir, 'copy'));
    await source.backup(path.join(dir, 'copy'), true);
    await source.close();

    const copy = open({ path: path.join(dir, 'copy'), maxDbs: 8, compression: false });
    expect(isUnsettledCopy(copy)).toBe(true);
    settleCompactedEnv(copy);
    expect(isUnsettledCopy(copy)).toBe(false);
    const copied = ['a', 'b'].map((name) => copy.openDB<Buffer, string>({ name, encoding: 'binary' }));
    // every value rewritten smaller in one transaction: pages freed and reused within it
    copy.transactionSync(() => {
      for (const db of copied) for (let i = 0; i < 6000; i++) db.putSync(`key ${i}`, valueOf(i, 40));
    });
    expect(copied[1]!.getBinary('key 5990')).toEqual(valueOf(5990, 40));
    expect(copied[0]!.getCount()).toBe(6000);
    expect(copy.get('quarry:settle-compacted-copy')).toBeUndefined();
    await copy.close();
  });

  it('leaves an environment that has recorded free pages, or a new one, as it is', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'quarry-compacted-'));
    const env = open({ path: path.join(dir, 'live'), maxDbs: 8, compression: false });
    expect(isUnsettledCopy(env)).toBe(false);
    const db = env.openDB<Buffer, string>({ name: 'a', encoding: 'binary' });
    for (let round = 0; round < 3; round++) env.transactionSync(() => db.putSync('key', valueOf(round, 100)));
    const { lastTxnId } = env.getStats() as { lastTxnId: number };
    settleCompactedEnv(env);
    expect((env.getStats() as { lastTxnId: number }).lastTxnId).toBe(lastTxnId);
    await env.close();
  });
});
