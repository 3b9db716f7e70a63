// The browser build's cache of decoded bundle values: a value read again comes from the cache
// (not decoded again), the least recently used values leave first once the budget is spent, a
// value too large for it is never kept, and the databases it does not decode are read through.
import { describe, expect, it } from 'vitest';
import { withDecodedValuesKept } from '../../browser/decoded-cache.js';
import type { IndexReadEnv, ReadDb } from '../../src/engine/index-read-env.js';

/** A database whose values are `size` bytes per key, counting its reads. */
function countingDb(size: (key: string) => number) {
  const reads: string[] = [];
  const db: ReadDb<Buffer, string> = {
    get: (key) => Buffer.alloc(size(key)),
    getBinary: (key) => {
      reads.push(key);
      return size(key) === 0 ? undefined : Buffer.alloc(size(key), key.charCodeAt(0));
    },
    getBinaryFast: (key) => db.getBinary(key),
    getRange: () => [],
    getKeys: () => [],
    getCount: () => 0,
  };
  return { db, reads };
}

function envWith(wordDocids: ReadDb<Buffer, string>, main: ReadDb<unknown, string>): IndexReadEnv {
  return { uuid: 'u', main, wordDocids, prefixDocids: wordDocids, postingBlocks: wordDocids, docWords: wordDocids } as unknown as IndexReadEnv;
}

describe('withDecodedValuesKept', () => {
  it('decodes a value once while it stays within the budget', () => {
    const { db, reads } = countingDb(() => 10);
    const env = withDecodedValuesKept(envWith(db, db), 100);
    const first = env.wordDocids.getBinaryFast('alien');
    expect(env.wordDocids.getBinaryFast('alien')).toBe(first);
    expect(env.wordDocids.getBinary('alien')).toBe(first);
    expect(reads).toEqual(['alien']);
  });

  it('lets the least recently used values go first once the budget is spent', () => {
    const { db, reads } = countingDb(() => 6);
    const env = withDecodedValuesKept(envWith(db, db), 25);
    for (const key of ['a', 'b', 'c', 'd']) env.wordDocids.getBinaryFast(key); // 24 bytes
    env.wordDocids.getBinaryFast('a'); // `a` is now the most recent, `b` the least
    env.wordDocids.getBinaryFast('e'); // 30 bytes: `b` goes
    env.wordDocids.getBinaryFast('a');
    env.wordDocids.getBinaryFast('b');
    expect(reads).toEqual(['a', 'b', 'c', 'd', 'e', 'b']);
  });

  it('keeps no value larger than a quarter of the budget, nor a missing one', () => {
    const { db, reads } = countingDb((key) => (key === 'big' ? 30 : 0));
    const env = withDecodedValuesKept(envWith(db, db), 100);
    env.wordDocids.getBinaryFast('big');
    env.wordDocids.getBinaryFast('big');
    expect(env.wordDocids.getBinaryFast('none')).toBeUndefined();
    env.wordDocids.getBinaryFast('none');
    expect(reads).toEqual(['big', 'big', 'none', 'none']);
  });

  it('tells the databases apart, and reads the others through', () => {
    const { db, reads } = countingDb(() => 4);
    const main = countingDb(() => 4);
    const env = withDecodedValuesKept(envWith(db, main.db), 100);
    env.wordDocids.getBinaryFast('x');
    env.prefixDocids.getBinaryFast('x');
    env.main.getBinaryFast('x');
    env.main.getBinaryFast('x');
    expect(reads).toEqual(['x', 'x']);
    expect(main.reads).toEqual(['x', 'x']);
  });
});
