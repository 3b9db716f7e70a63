// Forward records as searches read them: kept between searches, and never stale after the
// documents or the settings that shape the word index change.
import { afterEach, describe, expect, it } from 'vitest';

import { fieldWordCounts, ForwardReader, layRecord, placesOfWord } from '../../../../src/engine/search/forward.js';
import { RecordArena } from '../../../../src/kernels/record-arena.js';
import { readWordsVersion } from '../../../../src/engine/index-changes.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const tokenCount = (target: TestIndex, docid: number) => {
  const tokens = new ForwardReader(target.env, readWordsVersion(target.env)).read(docid);
  return tokens === null ? null : tokens.placesEnd - tokens.placesAt;
};

describe('forward reader', () => {
  it('reads a record again after its document is replaced', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one two' } });
    expect(tokenCount(index, 0)).toBe(2);
    index.write({ a: { id: 'a', title: 'one two three' } });
    expect(tokenCount(index, 0)).toBe(3);
  });

  it('reads records again after a settings change rebuilt the word index', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'quick brown fox', body: 'the lazy dog sleeps' } });
    expect(tokenCount(index, 0)).toBe(3);
    index.reconfigure({ searchableAttributes: ['title', 'body'] });
    expect(tokenCount(index, 0)).toBe(7);
    // and the search sees the rebuilt positions
    expect(index.ids('lazy dog')).toEqual(['a']);
  });

  it('answers null for a docid without a record, and a record once the document exists', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'x' } });
    expect(tokenCount(index, 1)).toBeNull();
    index.write({ b: { id: 'b', title: 'y z' } });
    expect(tokenCount(index, 1)).toBe(2);
  });
});

/** A stored record's bytes (postings.ts format) at an odd offset, as LMDB hands them out unaligned. */
function storedRecord(fields: readonly [number, number][], tokens: readonly [number, number][]): Uint8Array {
  const u32 = [fields.length, ...fields.map(([field, words]) => (field << 16) | words), tokens.length, ...tokens.flat()];
  const bytes = Buffer.alloc(1 + 4 * u32.length);
  u32.forEach((value, k) => bytes.writeUInt32LE(value >>> 0, 1 + 4 * k));
  return bytes.subarray(1);
}

describe('record layout', () => {
  it('lays records one after the other with their distinct words and where the tokens of each word start', () => {
    const arena = new RecordArena();
    const first = layRecord(storedRecord([[0, 2], [1, 3]], [[4, 2], [7, 0], [7, (1 << 16) | 2], [7, (1 << 16) | 0], [9, 1]]), arena);
    const second = layRecord(storedRecord([[0, 1]], [[3, 0]]), arena);
    expect(second.arena).toBe(first.arena);
    expect(second.head).toBe(first.placesEnd);
    expect(Array.from(first.words.subarray(first.idsAt, first.idsAt + first.nIds))).toEqual([4, 7, 9]);
    expect(placesOfWord(first, 7)).toEqual([0, (1 << 16) | 2, (1 << 16) | 0]);
    expect(placesOfWord(first, 9)).toEqual([1]);
    expect(placesOfWord(first, 5)).toEqual([]);
    expect(placesOfWord(first, 10)).toEqual([]);
    expect(fieldWordCounts(first)).toEqual([[0, 2], [1, 3]]);
    expect(placesOfWord(second, 3)).toEqual([0]);
    expect(fieldWordCounts(second)).toEqual([[0, 1]]);
  });

  it('keeps earlier records readable while its memory grows for later ones', () => {
    const arena = new RecordArena();
    const first = layRecord(storedRecord([[0, 1]], [[1, 0]]), arena);
    const buffer = first.words.buffer;
    let record = first;
    while (record.words.buffer === buffer) record = layRecord(storedRecord([[0, 100]], Array.from({ length: 100 }, (_, k): [number, number] => [k, k])), arena);
    expect(placesOfWord(record, 99)).toEqual([99]);
    expect(first.words).toBe(record.words);
    expect(placesOfWord(first, 1)).toEqual([0]);
    expect(arena.used).toBe(record.placesEnd - first.head);
  });

  it('lays a truncated or overstated record as what its bytes hold, never reading past them', () => {
    const arena = new RecordArena();
    const empty = layRecord(new Uint8Array(0), arena);
    expect([empty.nIds, fieldWordCounts(empty)]).toEqual([0, []]);
    // a header claiming 1,000 fields and a token count far past the bytes
    const bytes = Buffer.alloc(4 * 5);
    [1000, 0, 0, 0, 0].forEach((value, k) => bytes.writeUInt32LE(value, 4 * k));
    const overstated = layRecord(bytes, arena);
    expect(overstated.placesEnd - overstated.placesAt).toBe(0);
    const tokens = storedRecord([[0, 2]], [[3, 0], [4, 1], [5, 2]]);
    const cut = layRecord(tokens.subarray(0, tokens.length - 8), arena);
    expect(placesOfWord(cut, 4)).toEqual([1]);
    expect(placesOfWord(cut, 5)).toEqual([]);
    const next = layRecord(storedRecord([[0, 1]], [[7, 0]]), arena);
    expect(placesOfWord(next, 7)).toEqual([0]);
    expect(fieldWordCounts(empty)).toEqual([]);
  });

  it('lays a record bigger than its whole memory so far', () => {
    const arena = new RecordArena();
    const small = layRecord(storedRecord([[0, 1]], [[1, 0]]), arena);
    const tokens = Array.from({ length: 1_000_000 }, (_, k): [number, number] => [k >> 1, k & 0xffff]);
    const big = layRecord(storedRecord([[0, tokens.length]], tokens), arena);
    expect(big.nIds).toBe(500_000);
    expect(placesOfWord(big, 499_999)).toEqual([(999_998 & 0xffff), (999_999 & 0xffff)]);
    expect(placesOfWord(small, 1)).toEqual([0]);
  });
});
