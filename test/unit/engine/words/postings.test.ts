// Posting merges as the word-index updater runs them: appends, replacements and removals, read
// back through the decoder searches use.
import { describe, expect, it } from 'vitest';
import { decodeForward, decodePosting, ForwardEncoder, PostingMerger, type PostingColumns } from '../../../../src/engine/words/postings.js';
import { mulberry32 } from '../../../helpers/random.js';

const columns = (entries: [number, number, number][]): PostingColumns => ({
  docids: Uint32Array.from(entries, (e) => e[0]),
  masks: Uint32Array.from(entries, (e) => e[1]),
  infos: Uint32Array.from(entries, (e) => e[2]),
});

const entriesOf = (bytes: Uint8Array) => {
  const posting = decodePosting(bytes);
  return { id: posting.id, entries: Array.from(posting.docids, (docid, i) => [docid, posting.masks[i], posting.infos[i]]) };
};

describe('posting merger', () => {
  it('starts a posting and appends later documents after the stored ones', () => {
    const merger = new PostingMerger();
    const first = Buffer.from(merger.merge(undefined, [], columns([[1, 1, 5]])).encoded(7));
    expect([merger.baseCount, merger.count]).toEqual([0, 1]);
    const second = merger.merge(first, [], columns([[4, 2, 0], [9, 0x80000000, 3]]));
    expect([second.baseId, second.baseCount, second.count]).toEqual([7, 1, 3]);
    expect(entriesOf(second.encoded(7))).toEqual({ id: 7, entries: [[1, 1, 5], [4, 2, 0], [9, 0x80000000, 3]] });
  });

  it('interleaves, replaces and removes documents', () => {
    const merger = new PostingMerger();
    const stored = Buffer.from(merger.merge(undefined, [], columns([[1, 1, 1], [3, 1, 3], [5, 1, 5], [7, 1, 7]])).encoded(2));
    const merged = merger.merge(stored, [5, 7], columns([[0, 2, 0], [3, 2, 30], [6, 2, 6]]));
    expect(merged.count).toBe(4);
    expect(entriesOf(merged.encoded(2))).toEqual({ id: 2, entries: [[0, 2, 0], [1, 1, 1], [3, 2, 30], [6, 2, 6]] });
  });

  it('reports a posting left without documents', () => {
    const merger = new PostingMerger();
    const stored = Buffer.from(merger.merge(undefined, [], columns([[4, 1, 0]])).encoded(3));
    expect([merger.merge(stored, [4], columns([])).baseCount, merger.count]).toEqual([1, 0]);
  });
});

describe('forward encoder', () => {
  it('groups tokens by ascending word id, in text order within a word, for small and large documents', () => {
    const random = mulberry32(99);
    const encoder = new ForwardEncoder();
    for (const words of [1, 5, 48, 49, 300, 3000]) {
      // distinct ids per slot, in random order, looked up through each slot's batch word
      const ids = Uint32Array.from(Array.from({ length: words }, (_, i) => i * 13 + 1).sort(() => random() - 0.5));
      const slotWords = Array.from({ length: words }, (_, slot) => words - 1 - slot);
      const wordIds = Uint32Array.from(slotWords.map((_, word) => ids[words - 1 - word]!));
      const tokenSlots = Array.from({ length: words * 3 }, (_, t) => (t < words ? t : Math.floor(random() * words)));
      const places = tokenSlots.map((_, t) => ((t % 3) << 16) | t);
      const fieldPairs = [0, 4, 2, 70_000];
      const record = decodeForward(Buffer.from(encoder.encode(fieldPairs, slotWords, wordIds, tokenSlots, places)));
      const expected = tokenSlots.map((slot, t) => [ids[slot]!, places[t]!, t] as const).sort((a, b) => a[0] - b[0] || a[2] - b[2]);
      expect(Array.from(record.wordIds)).toEqual(expected.map((e) => e[0]));
      expect(Array.from(record.places)).toEqual(expected.map((e) => e[1]));
      expect([...record.fieldWords]).toEqual([[0, 4], [2, 0xffff]]);
    }
  });
});
