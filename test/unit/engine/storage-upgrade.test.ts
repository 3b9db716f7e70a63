// The index conversion of the storage upgrade (format 1 → 2) on a real environment: postings
// stored whole beyond BLOCK_ENTRIES are split with the same contents, and an interrupted conversion
// leaves the environment as it was.
import { afterEach, describe, expect, it } from 'vitest';

import { INDEX_MAIN_KEYS } from '../../../src/engine/index-read-env.js';
import { indexFormat, upgradeIndexEnv } from '../../../src/engine/storage-upgrade.js';
import { BLOCK_ENTRIES, prefixPostings, readPosting, wordPostings } from '../../../src/engine/words/posting-blocks.js';
import { STORE_FORMAT_VERSION } from '../../../src/store/env.js';
import { openTestIndex, type TestIndex } from './search/harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

/** A posting as format 1 stored it: one value, whatever its size. */
function wholePosting(id: number, n: number): Buffer {
  const all = new Uint32Array(2 + 3 * n);
  all[0] = id;
  all[1] = n;
  for (let i = 0; i < n; i++) {
    all[2 + i] = 3 * i;
    all[2 + n + i] = 1;
    all[2 + 2 * n + i] = i;
  }
  return Buffer.from(all.buffer);
}

function formatOneIndex(): TestIndex {
  const opened = openTestIndex();
  opened.env.root.transactionSync(() => {
    opened.env.wordDocids.putSync('common', wholePosting(4, BLOCK_ENTRIES * 2 + 5));
    opened.env.wordDocids.putSync('rare', wholePosting(5, 3));
    opened.env.prefixDocids.putSync('co', wholePosting(0, BLOCK_ENTRIES + 1));
    opened.env.main.removeSync(INDEX_MAIN_KEYS.format);
  });
  return opened;
}

const snapshot = (posting: ReturnType<typeof readPosting>) => ({ id: posting.id, docids: [...posting.docids], masks: [...posting.masks], infos: [...posting.infos] });

describe('upgradeIndexEnv from format 1', () => {
  it('splits the postings stored whole beyond one block, keeps their contents, and records the current format', () => {
    index = formatOneIndex();
    const env = index.env;
    const before = ['common', 'rare'].map((key) => snapshot(readPosting(wordPostings(env), key)));
    expect(indexFormat(env, 1)).toBe(1);
    expect(upgradeIndexEnv(env, 1, () => {})).toBe(2);
    expect(['common', 'rare'].map((key) => snapshot(readPosting(wordPostings(env), key)))).toEqual(before);
    expect(readPosting(prefixPostings(env), 'co').docids.length).toBe(BLOCK_ENTRIES + 1);
    // common: 3 blocks (head + 2), co: 2 blocks (head + 1)
    expect(env.postingBlocks.getCount()).toBe(3);
    expect(indexFormat(env, 1)).toBe(STORE_FORMAT_VERSION);
  });

  it('writes nothing when interrupted', () => {
    index = formatOneIndex();
    const env = index.env;
    expect(() =>
      upgradeIndexEnv(env, 1, () => {
        throw new Error('canceled');
      }),
    ).toThrow('canceled');
    expect(env.postingBlocks.getCount()).toBe(0);
    expect(indexFormat(env, 1)).toBe(1);
    expect(env.wordDocids.getBinary('common')!.readUInt32LE(4)).toBe(BLOCK_ENTRIES * 2 + 5);
  });
});
