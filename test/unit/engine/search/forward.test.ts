// Forward records as searches read them: kept between searches, and never stale after the
// documents or the settings that shape the word index change.
import { afterEach, describe, expect, it } from 'vitest';

import { FORWARD_BUDGET, fieldWordCounts, ForwardReader, layRecord, placesOfWord } from '../../../../src/engine/search/forward.js';
import { RecordArena } from '../../../../src/kernels/record-arena.js';
import { dictionaryOf } from '../../../../src/engine/search/dictionary.js';
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
  afterEach(() => FORWARD_BUDGET.empty());

  /** Fills what the budget has left with a stand-in for other indexes' records; answers whether it was emptied. */
  const fillBudget = () => {
    const other = { emptied: false, clear: () => (other.emptied = true) };
    for (let step = FORWARD_BUDGET.limit; step >= 1; step = Math.floor(step / 2)) {
      while (FORWARD_BUDGET.fits(step)) FORWARD_BUDGET.charge(other, step);
    }
    return other;
  };
  const words = (tokens: ReturnType<ForwardReader['read']>) => (tokens === null ? null : tokens.placesEnd - tokens.placesAt);

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

  it('empties the full caches for a search that read few of their records, and keeps the records it reads next', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one two' }, b: { id: 'b', title: 'three four five' } });
    FORWARD_BUDGET.empty();
    new ForwardReader(index.env, readWordsVersion(index.env)).read(1);
    const other = fillBudget();
    const reader = new ForwardReader(index.env, readWordsVersion(index.env));
    const first = reader.read(0);
    expect(other.emptied).toBe(true);
    // cached: the same object for a later search
    expect(new ForwardReader(index.env, readWordsVersion(index.env)).read(0)).toBe(first);
  });

  it('lays a record the full budget has no room for in scratch memory, keeping the cached ones, when the search read half of them', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one two' }, b: { id: 'b', title: 'three four five' }, c: { id: 'c', title: 'six' } });
    FORWARD_BUDGET.empty();
    const cachedA = new ForwardReader(index.env, readWordsVersion(index.env)).read(0);
    const other = fillBudget();
    const reader = new ForwardReader(index.env, readWordsVersion(index.env));
    expect(reader.read(0)).toBe(cachedA);
    const b = reader.read(1);
    expect(other.emptied).toBe(false);
    expect(words(b)).toBe(3);
    expect(Array.from(placesOfWord(b!, wordIdOf(index, 'four')))).toEqual([1]);
    // not cached: read again, a new record; the cached one stays
    expect(reader.read(1)).not.toBe(b);
    expect(reader.read(0)).toBe(cachedA);
  });

  it('empties the full caches once the search met more records past them than it found there', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write(Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((id, k) => [id, { id, title: `word${k} common` }])));
    FORWARD_BUDGET.empty();
    const before = new ForwardReader(index.env, readWordsVersion(index.env));
    for (const docid of [0, 1, 2]) before.read(docid);
    const other = fillBudget();
    const reader = new ForwardReader(index.env, readWordsVersion(index.env));
    reader.read(0);
    // one found, one past: kept
    expect(words(reader.read(3))).toBe(2);
    expect(other.emptied).toBe(false);
    // two past, one found of the three other searches left: emptied, and the record cached
    const e = reader.read(4);
    expect(other.emptied).toBe(true);
    expect(reader.read(4)).toBe(e);
  });

  it('lays the records after an emptying in the arena emptied the time before, and keeps the one just emptied', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one' }, b: { id: 'b', title: 'two' }, c: { id: 'c', title: 'three' } });
    FORWARD_BUDGET.empty();
    const search = () => new ForwardReader(index!.env, readWordsVersion(index!.env));
    const first = search().read(0)!;
    fillBudget();
    const second = search().read(1)!;
    expect(second.arena).not.toBe(first.arena);
    fillBudget();
    const third = search().read(2)!;
    expect(third.arena).toBe(first.arena);
    // the arena emptied last is left as it was
    expect(Array.from(placesOfWord(second, wordIdOf(index, 'two')))).toEqual([0]);
  });

  it('keeps the records of a group past the cache readable together until the group is opened again', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one two' }, b: { id: 'b', title: 'three four five' }, c: { id: 'c', title: 'six' } });
    FORWARD_BUDGET.empty();
    new ForwardReader(index.env, readWordsVersion(index.env)).read(0);
    fillBudget();
    const reader = new ForwardReader(index.env, readWordsVersion(index.env));
    reader.read(0);
    reader.openGroup();
    const b = reader.read(1)!;
    const c = reader.read(2)!;
    expect(reader.groupScratchBytes).toBeGreaterThan(0);
    expect(Array.from(placesOfWord(b, wordIdOf(index, 'five')))).toEqual([2]);
    expect(Array.from(placesOfWord(c, wordIdOf(index, 'six')))).toEqual([0]);
    reader.closeGroup();
    // outside a group, each record past the cache takes the scratch memory over
    const again = reader.read(2)!;
    expect(again.head).toBe(b.head);
    reader.openGroup();
    expect(reader.groupScratchBytes).toBe(0);
    reader.closeGroup();
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

/** The word id of `word` in the index (the dictionary's). */
function wordIdOf(target: TestIndex, word: string): number {
  const { words, ids } = dictionaryOf(target.env);
  const at = words.indexOf(word);
  if (at < 0) throw new Error(`no word ${word}`);
  return ids[at]!;
}

describe('record layout', () => {
  it('lays records one after the other with their distinct words and where the tokens of each word start', () => {
    const arena = new RecordArena();
    const first = layRecord(storedRecord([[0, 2], [1, 3]], [[4, 2], [7, 0], [7, (1 << 16) | 2], [7, (1 << 16) | 0], [9, 1]]), arena);
    const second = layRecord(storedRecord([[0, 1]], [[3, 0]]), arena);
    expect(second.arena).toBe(first.arena);
    expect(second.head).toBe(first.placesEnd);
    expect(Array.from(first.words.subarray(first.idsAt, first.idsAt + first.nIds))).toEqual([4, 7, 9]);
    expect(Array.from(placesOfWord(first, 7))).toEqual([0, (1 << 16) | 2, (1 << 16) | 0]);
    expect(Array.from(placesOfWord(first, 9))).toEqual([1]);
    expect(Array.from(placesOfWord(first, 5))).toEqual([]);
    expect(Array.from(placesOfWord(first, 10))).toEqual([]);
    expect(fieldWordCounts(first)).toEqual([[0, 2], [1, 3]]);
    expect(Array.from(placesOfWord(second, 3))).toEqual([0]);
    expect(fieldWordCounts(second)).toEqual([[0, 1]]);
  });

  it('keeps earlier records readable while its memory grows for later ones', () => {
    const arena = new RecordArena();
    const first = layRecord(storedRecord([[0, 1]], [[1, 0]]), arena);
    const buffer = first.words.buffer;
    let record = first;
    while (record.words.buffer === buffer) record = layRecord(storedRecord([[0, 100]], Array.from({ length: 100 }, (_, k): [number, number] => [k, k])), arena);
    expect(Array.from(placesOfWord(record, 99))).toEqual([99]);
    expect(first.words).toBe(record.words);
    expect(Array.from(placesOfWord(first, 1))).toEqual([0]);
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
    expect(Array.from(placesOfWord(cut, 4))).toEqual([1]);
    expect(Array.from(placesOfWord(cut, 5))).toEqual([]);
    const next = layRecord(storedRecord([[0, 1]], [[7, 0]]), arena);
    expect(Array.from(placesOfWord(next, 7))).toEqual([0]);
    expect(fieldWordCounts(empty)).toEqual([]);
  });

  it('lays a record bigger than its whole memory so far', () => {
    const arena = new RecordArena();
    const small = layRecord(storedRecord([[0, 1]], [[1, 0]]), arena);
    const tokens = Array.from({ length: 1_000_000 }, (_, k): [number, number] => [k >> 1, k & 0xffff]);
    const big = layRecord(storedRecord([[0, tokens.length]], tokens), arena);
    expect(big.nIds).toBe(500_000);
    expect(Array.from(placesOfWord(big, 499_999))).toEqual([(999_998 & 0xffff), (999_999 & 0xffff)]);
    expect(Array.from(placesOfWord(small, 1))).toEqual([0]);
  });
});
