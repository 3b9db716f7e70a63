// The index conversion of the storage upgrade on a real environment: from format 1, postings
// stored whole beyond BLOCK_ENTRIES are split; from formats 1 and 2, every posting and block in
// the columns layout is packed; from formats 1 to 3, every document kept as msgpack is stored as
// its JSON text; the contents stay the same, and an interrupted conversion leaves the
// environment as it was.
import { afterEach, describe, expect, it } from 'vitest';

import { INDEX_MAIN_KEYS } from '../../../src/engine/index-read-env.js';
import { indexFormat, upgradeIndexEnv } from '../../../src/engine/storage-upgrade.js';
import { BLOCK_ENTRIES, PostingWriter, prefixPostings, readPosting, wordPostings } from '../../../src/engine/words/posting-blocks.js';
import { decodePosting, PACKED } from '../../../src/engine/words/postings.js';
import { STORE_FORMAT_VERSION } from '../../../src/store/env.js';
import { ProtoSafePackr } from '../../../src/store/proto-safe-packr.js';
import { INDEX_DBS } from '../../../src/engine/index-read-env.js';
import { parseJson, stringifyJson } from '../../../src/types/json-text.js';
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

const packedCount = (values: Iterable<{ value: Buffer }>) => [...values].filter(({ value }) => (value.readUInt32LE(0) & PACKED) !== 0).length;

const snapshot = (posting: ReturnType<typeof readPosting>) => ({ id: posting.id, docids: [...posting.docids], masks: [...posting.masks], infos: [...posting.infos] });

describe('upgradeIndexEnv from format 1', () => {
  it('splits the postings stored whole beyond one block, keeps their contents, and records the current format', () => {
    index = formatOneIndex();
    const env = index.env;
    const before = ['common', 'rare'].map((key) => snapshot(readPosting(wordPostings(env), key)));
    expect(indexFormat(env, 1)).toBe(1);
    expect(upgradeIndexEnv(env, 1, () => {})).toEqual({ split: 2, packed: 1, documents: 0 });
    expect(['common', 'rare'].map((key) => snapshot(readPosting(wordPostings(env), key)))).toEqual(before);
    expect(readPosting(prefixPostings(env), 'co').docids.length).toBe(BLOCK_ENTRIES + 1);
    // common: 3 blocks (head + 2), co: 2 blocks (head + 1)
    expect(env.postingBlocks.getCount()).toBe(3);
    // every value packed: the split heads and blocks as written, `rare` by the packing step
    for (const db of [env.wordDocids, env.prefixDocids, env.postingBlocks]) expect(packedCount(db.getRange())).toBe(db.getCount());
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

/** The column layout of a stored posting (either layout), its first u32's flags kept: format 2's values. */
function inColumns(stored: Buffer): Buffer {
  const { docids, masks, infos } = decodePosting(stored);
  const n = docids.length;
  return Buffer.from(Uint32Array.from([(stored.readUInt32LE(0) & ~PACKED) >>> 0, n, ...docids, ...masks, ...infos]).buffer);
}

describe('upgradeIndexEnv from format 2', () => {
  it('packs every posting and block stored in columns, keeping their contents and the blocks they continue in', () => {
    index = openTestIndex();
    const env = index.env;
    const docs = (n: number, step: number) => ({
      docids: Uint32Array.from({ length: n }, (_, i) => step * i),
      masks: Uint32Array.from({ length: n }, (_, i) => 1 << i % 3),
      infos: Uint32Array.from({ length: n }, (_, i) => (i % 50) | (i % 4 === 0 ? 1 << 16 : 0)),
    });
    env.root.transactionSync(() => {
      new PostingWriter(wordPostings(env)).update('common', [], docs(2 * BLOCK_ENTRIES + 5, 3), () => 4);
      new PostingWriter(wordPostings(env)).update('rare', [], docs(3, 1000), () => 5);
      new PostingWriter(prefixPostings(env)).update('co', [], docs(BLOCK_ENTRIES + 1, 2), () => 0);
      // as format 2 stored them
      for (const db of [env.wordDocids, env.prefixDocids, env.postingBlocks] as unknown as { getRange(): Iterable<{ key: unknown; value: Buffer }>; putSync(key: unknown, value: Buffer): void }[]) {
        for (const { key, value } of [...db.getRange()]) db.putSync(key, inColumns(value));
      }
      env.main.putSync(INDEX_MAIN_KEYS.format, 2);
    });
    expect(packedCount(env.wordDocids.getRange())).toBe(0);
    const before = ['common', 'rare'].map((key) => snapshot(readPosting(wordPostings(env), key)));
    const prefixBefore = snapshot(readPosting(prefixPostings(env), 'co'));
    expect(upgradeIndexEnv(env, indexFormat(env, 3), () => {})).toEqual({ split: 0, packed: 2 + 1 + 3, documents: 0 });
    expect(['common', 'rare'].map((key) => snapshot(readPosting(wordPostings(env), key)))).toEqual(before);
    expect(snapshot(readPosting(prefixPostings(env), 'co'))).toEqual(prefixBefore);
    expect(before[0]!.id).toBe(4);
    for (const db of [env.wordDocids, env.prefixDocids, env.postingBlocks]) expect(packedCount(db.getRange())).toBe(db.getCount());
    expect(indexFormat(env, 2)).toBe(STORE_FORMAT_VERSION);
  });
});

describe('upgradeIndexEnv from format 3', () => {
  const DOCS = ['{"id":1,"title":"a","__proto__":{"x":[1]}}', '{"id":2,"big":18446744073709551615}', '{"id":3,"title":"json already"}'];

  /** An index whose documents 1 and 2 are stored as format 3 stored them (msgpack), 3 as JSON text. */
  function formatThreeIndex(): TestIndex {
    const opened = openTestIndex();
    opened.write(Object.fromEntries(DOCS.map((text) => [String((parseJson(text) as { id: number }).id), parseJson(text) as Record<string, unknown>])));
    const raw = opened.env.root.openDB<Buffer, number>({ name: INDEX_DBS.documents, keyEncoding: 'uint32', encoding: 'binary' });
    const packr = new ProtoSafePackr();
    opened.env.root.transactionSync(() => {
      for (const docid of [0, 1]) raw.putSync(docid, Buffer.from(packr.pack(opened.env.documents.get(docid))));
      opened.env.main.putSync(INDEX_MAIN_KEYS.format, 3);
    });
    return opened;
  }

  const texts = (env: TestIndex['env']) => [0, 1, 2].map((docid) => env.documents.getBinary(docid)!.toString('utf8'));

  it('stores every msgpack document as its JSON text, 64-bit integers and `__proto__` keys kept', () => {
    index = formatThreeIndex();
    const env = index.env;
    expect(texts(env).map((text) => text.startsWith('{'))).toEqual([false, false, true]);
    expect(upgradeIndexEnv(env, indexFormat(env, 3), () => {})).toEqual({ split: 0, packed: 0, documents: 2 });
    expect(texts(env)).toEqual(DOCS);
    expect(stringifyJson(env.documents.get(1))).toBe(DOCS[1]);
    expect(indexFormat(env, 3)).toBe(STORE_FORMAT_VERSION);
  });

  it('writes nothing when interrupted', () => {
    index = formatThreeIndex();
    const env = index.env;
    expect(() =>
      upgradeIndexEnv(env, 3, () => {
        throw new Error('canceled');
      }),
    ).toThrow('canceled');
    expect(texts(env).map((text) => text.startsWith('{'))).toEqual([false, false, true]);
    expect(indexFormat(env, 1)).toBe(3);
  });
});
