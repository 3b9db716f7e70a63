// Posting merges as the word-index updater runs them: appends, replacements and removals, read
// back through the decoder searches use; the packed layout against the columns layout older
// stores hold.
import { describe, expect, it } from 'vitest';
import { decodeForward, decodePosting, ForwardEncoder, PACKED, PackedWriter, PostingMerger, postingCount, type PostingColumns } from '../../../../src/engine/words/postings.js';
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

  it('appends documents after the stored ones with the bytes packing every entry gives, and their columns when asked', () => {
    const random = mulberry32(20261130);
    const wide = () => [0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 0xffff, 0x1ffff, 0x7fffffff, 0x80000000, 0xffffffff][Math.floor(random() * 11)]!;
    const entry = (docid: number): [number, number, number] => [docid, random() < 0.3 ? wide() : 1 << Math.floor(random() * 32), random() < 0.3 ? wide() : Math.floor(random() * 300) | (random() < 0.5 ? 1 << 16 : 0)];
    const merger = new PostingMerger();
    const whole = new PostingMerger();
    for (let round = 0; round < 300; round++) {
      let docid = Math.floor(random() * 100);
      const stored = Array.from({ length: 1 + Math.floor(random() * 200) }, () => entry((docid += 1 + (random() < 0.1 ? Math.floor(random() * 2 ** 27) : Math.floor(random() * 300)))));
      const added = Array.from({ length: 1 + Math.floor(random() * 200) }, () => entry((docid += 1 + Math.floor(random() * 1000))));
      const bytes = Buffer.from(merger.merge(undefined, [], columns(stored)).encoded(round));
      const merged = merger.merge(bytes, [], columns(added));
      expect([merged.baseId, merged.baseCount, merged.count]).toEqual([round, stored.length, stored.length + added.length]);
      const expected = whole.merge(undefined, [], columns([...stored, ...added])).encoded(round);
      expect(Buffer.from(merged.encoded(round)).equals(expected)).toBe(true);
      if (round % 3 === 0) {
        // a split asks for part of it, then the columns (a block's bound)
        const cut = Math.floor(merged.count / 2);
        expect(Buffer.from(merged.pack(0, cut, merged.count)).equals(whole.pack(0, cut, whole.count))).toBe(true);
        expect(Array.from(merged.columns().subarray(2, 2 + merged.count))).toEqual([...stored, ...added].map((e) => e[0]));
      }
    }
  });

  it('merges through the columns a posting whose bytes end before its entries do', () => {
    const merger = new PostingMerger();
    const stored = Buffer.from(merger.merge(undefined, [], columns([[1, 1, 1], [2, 0x80000000, 1], [3, 1, 1]])).encoded(4));
    // the last entry's info cut: only what the bytes hold is read
    const cut = stored.subarray(0, stored.length - 1);
    const merged = merger.merge(cut, [], columns([[9, 1, 2]]));
    expect(entriesOf(merged.encoded(4)).entries.at(-1)).toEqual([9, 1, 2]);
  });

  it('reports a posting left without documents', () => {
    const merger = new PostingMerger();
    const stored = Buffer.from(merger.merge(undefined, [], columns([[4, 1, 0]])).encoded(3));
    expect([merger.merge(stored, [4], columns([])).baseCount, merger.count]).toEqual([1, 0]);
  });
});

/** A posting in the columns layout, as stores before the packed layout hold them. */
const columnsLayout = (id: number, entries: [number, number, number][]) =>
  new Uint8Array(Uint32Array.from([id, entries.length, ...entries.map((e) => e[0]), ...entries.map((e) => e[1]), ...entries.map((e) => e[2])]).buffer);

describe('packed postings', () => {
  it('decode to the entries packed, for any docids, masks and infos below 2^32', () => {
    const random = mulberry32(7);
    const packer = new PackedWriter();
    const wide = () => [0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 0xffff, 0x1ffff, 0x7fffffff, 0x80000000, 0xffffffff][Math.floor(random() * 11)]!;
    for (let round = 0; round < 200; round++) {
      const n = Math.floor(random() * 300);
      const docids = new Set<number>();
      while (docids.size < n) docids.add(random() < 0.5 ? Math.floor(random() * 5000) : wide());
      const entries = [...docids].sort((a, b) => a - b).map((docid): [number, number, number] => [docid, random() < 0.3 ? wide() : 1 << Math.floor(random() * 32), random() < 0.3 ? wide() : Math.floor(random() * 300) | (random() < 0.5 ? 1 << 16 : 0)]);
      const all = Uint32Array.from([...entries.map((e) => e[0]), ...entries.map((e) => e[1]), ...entries.map((e) => e[2])]);
      const packed = packer.pack(round, all, 0, n, 2 * n, 0, n);
      expect(packed.readUInt32LE(0)).toBe((round | PACKED) >>> 0);
      expect(postingCount(packed)).toBe(n);
      expect(entriesOf(packed)).toEqual({ id: round, entries: entries.map((e) => [e[0] >>> 0, e[1] >>> 0, e[2] >>> 0]) });
    }
  });

  it('take a few bytes per entry where columns take 12', () => {
    const merger = new PostingMerger();
    const entries = Array.from({ length: 1000 }, (_, i): [number, number, number] => [3 * i, 1, i % 40]);
    expect(merger.merge(undefined, [], columns(entries)).encoded(5).length).toBe(8 + 3 * 1000);
  });

  it('merge into a posting stored in the columns layout and come out packed with its entries', () => {
    const merger = new PostingMerger();
    const stored = columnsLayout(9, [[1, 1, 5], [4, 2, 1 << 16], [8, 1, 3]]);
    expect(entriesOf(stored)).toEqual({ id: 9, entries: [[1, 1, 5], [4, 2, 1 << 16], [8, 1, 3]] });
    const appended = merger.merge(stored, [], columns([[10, 4, 0]]));
    expect([appended.baseId, appended.baseCount, appended.count]).toEqual([9, 3, 4]);
    const packed = Buffer.from(appended.encoded(9));
    expect(packed.readUInt32LE(0) & PACKED).not.toBe(0);
    expect(entriesOf(packed)).toEqual({ id: 9, entries: [[1, 1, 5], [4, 2, 1 << 16], [8, 1, 3], [10, 4, 0]] });
    const mixed = merger.merge(columnsLayout(9, [[1, 1, 5], [4, 2, 1 << 16], [8, 1, 3]]), [1], columns([[4, 8, 7], [6, 1, 1]]));
    expect(entriesOf(mixed.encoded(9))).toEqual({ id: 9, entries: [[4, 8, 7], [6, 1, 1], [8, 1, 3]] });
  });

  it('never count more entries than their bytes can hold', () => {
    const merger = new PostingMerger();
    const packed = Buffer.from(merger.merge(undefined, [], columns([[1, 1, 1], [2, 1, 1]])).encoded(1));
    packed.writeUInt32LE(1_000_000_000, 4);
    expect(postingCount(packed)).toBe(Math.floor((packed.length - 8) / 3));
    expect(postingCount(packed.subarray(0, 10))).toBe(0);
    const stored = columnsLayout(1, [[1, 1, 1]]);
    new DataView(stored.buffer).setUint32(4, 1_000_000_000, true);
    expect(postingCount(stored)).toBe(1);
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
