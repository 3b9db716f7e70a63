// The gather kernel against its TS reference: a fixed case pins which entries fill which lists,
// seeded random batches (records with several entries per word, documents without a record,
// levels and phrases allowed or not) check the two agree everywhere.
// fresh process: it checks that a call grows the kernels' memory, which earlier files may have
// grown enough.
import { describe, expect, it } from 'vitest';

import { getKernels } from '../../src/kernels/module.js';
import { PAIR_JOIN, proximityCosts } from '../../src/kernels/proximity.js';
import {
  GATHER_ENTRY_U32,
  GATHER_HASH,
  GATHER_LISTS_PER_TERM,
  gatherTable,
  RecordArena,
  type GatherDocs,
  type GatherTable,
} from '../../src/kernels/record-arena.js';
import { referenceGatherPlaces } from '../../src/kernels/reference/gather.js';
import { mulberry32 } from '../helpers/random.js';

/** A record: each distinct word id (ascending) with its places. */
type Record = [number, number[]][];

/** Lays records as forward.ts does (ids, run starts, places) and returns their (idsAt, nIds). */
function lay(arena: RecordArena, record: Record | null): [number, number] {
  if (record === null) return [0, 0];
  const tokens = record.reduce((sum, [, places]) => sum + places.length, 0);
  const idsAt = arena.take(2 * record.length + 1 + tokens);
  const u32 = arena.u32;
  let at = idsAt + 2 * record.length + 1;
  record.forEach(([id, places], j) => {
    u32[idsAt + j] = id;
    u32[idsAt + record.length + j] = at;
    for (const place of places) u32[at++] = place;
  });
  u32[idsAt + 2 * record.length] = at;
  arena.settle(at);
  return [idsAt, record.length];
}

interface Entry {
  id: number;
  list: number;
  level: number;
  phrase: number;
}

function tableOf(terms: number, phrases: number, entries: readonly Entry[]): GatherTable {
  return gatherTable(
    terms,
    phrases,
    entries.map((e) => e.id),
    entries.map((e) => e.list),
    entries.map((e) => e.level),
    entries.map((e) => e.phrase),
  );
}

/** Gathers with the kernel, checks the reference agrees, and returns the lists per document. */
function gather(arena: RecordArena, table: GatherTable, records: readonly [number, number][], allowed: number[], present: number[]): number[][][] {
  const docs: GatherDocs = {
    count: records.length,
    records: Uint32Array.from(records.flat()),
    allowed: Uint8Array.from(allowed),
    present: Uint8Array.from(present),
    tokens: 0,
  };
  const { offsets, places } = arena.gather(table, docs);
  const actual = { offsets: [...offsets], places: [...places] };
  expect(actual).toEqual(referenceGatherPlaces(arena.u32, table, docs));
  const lists = table.terms * GATHER_LISTS_PER_TERM;
  return records.map((_, d) => Array.from({ length: lists }, (_, l) => actual.places.slice(actual.offsets[d * lists + l], actual.offsets[d * lists + l + 1])));
}

describe('gather kernel', () => {
  it('agrees with the host on its entry layout and hash', () => {
    const kernels = getKernels();
    expect(kernels.constant('GATHER_ENTRY_U32')).toBe(GATHER_ENTRY_U32);
    expect(kernels.constant('GATHER_HASH') >>> 0).toBe(GATHER_HASH);
    expect(kernels.constant('GATHER_LISTS_PER_TERM')).toBe(GATHER_LISTS_PER_TERM);
  });

  it('puts a word\'s places in the list of each entry whose level and phrase the document allows', () => {
    const arena = new RecordArena();
    // two terms (lists 0-3 and 4-7), one phrase-like derivation of term 1
    const table = tableOf(2, 1, [
      { id: 5, list: 0, level: 0, phrase: -1 },
      { id: 9, list: 4, level: 1, phrase: -1 },
      { id: 9, list: 5, level: 3, phrase: 0 },
      { id: 12, list: 7, level: 0, phrase: -1 },
    ]);
    const first = lay(arena, [[3, [1]], [5, [0, 4]], [9, [2, 7]], [12, [(1 << 16) | 3]]]);
    const second = lay(arena, [[5, [6]], [9, [8]]]);
    const lists = gather(arena, table, [first, second, [0, 0]], [0b1, 0b1010, 0b1, 0b1000, 0b1111, 0b1111], [1, 0, 1]);
    expect(lists[0]).toEqual([[0, 4], [], [], [], [2, 7], [2, 7], [], []]);
    // level 0 only for term 1 and the phrase not held: word 9 fills nothing; word 12 is not in the record
    expect(lists[1]).toEqual([[6], [], [], [], [], [], [], []]);
    expect(lists[2]).toEqual([[], [], [], [], [], [], [], []]);
  });

  it('matches the reference on random records, entries, levels and phrases, growing its rooms when short', () => {
    const next = mulberry32(2026_11_29);
    const rand = (n: number) => Math.floor(next() * n);
    for (let round = 0; round < 150; round++) {
      const arena = new RecordArena();
      const terms = 1 + rand(4);
      const phrases = rand(3);
      const vocabulary = 4 + rand(300);
      const entries: Entry[] = Array.from({ length: 1 + rand(40) }, () => ({
        id: rand(vocabulary),
        list: rand(terms * GATHER_LISTS_PER_TERM),
        level: rand(4),
        phrase: phrases === 0 || rand(3) > 0 ? -1 : rand(phrases),
      }));
      const table = tableOf(terms, phrases, entries);
      const count = rand(60);
      const records: [number, number][] = [];
      for (let d = 0; d < count; d++) {
        if (rand(8) === 0) {
          records.push([0, 0]);
          continue;
        }
        const ids = [...new Set(Array.from({ length: rand(80) }, () => rand(vocabulary)))].sort((a, b) => a - b);
        records.push(lay(arena, ids.map((id) => [id, Array.from({ length: 1 + rand(5) }, () => (rand(3) << 16) | rand(500))])));
      }
      const allowed = Array.from({ length: count * terms }, () => rand(16));
      const present = Array.from({ length: count * phrases }, () => rand(2));
      gather(arena, table, records, allowed, present);
    }
  });

  it('prices the gathered lists in place as the proximity kernel prices a copied batch, and refuses lists a later take overwrote', () => {
    const arena = new RecordArena();
    // two terms: word 5 (term 0) and word 9 (term 1), in order at distance 2 in the first record, reversed in the second
    const table = tableOf(2, 0, [
      { id: 5, list: 0, level: 0, phrase: -1 },
      { id: 9, list: GATHER_LISTS_PER_TERM, level: 0, phrase: -1 },
    ]);
    const records = [lay(arena, [[5, [1]], [9, [3]]]), lay(arena, [[5, [4]], [9, [2]]]), [0, 0] as [number, number]];
    const docs: GatherDocs = { count: 3, records: Uint32Array.from(records.flat()), allowed: new Uint8Array(6).fill(1), present: new Uint8Array(0), tokens: 4 };
    const pairs = Uint32Array.from([0, GATHER_LISTS_PER_TERM, 0, 0]);
    const gathered = arena.gather(table, docs);
    const copied = proximityCosts({ docs: 3, lists: 2 * GATHER_LISTS_PER_TERM, places: gathered.places.slice(), offsets: gathered.offsets.slice(), pairs, byAttribute: false });
    // in order at distance 2: 1; reversed at distance 2 (2 + 1): 2; no places: 3
    expect([...arena.proximity(gathered, pairs, false)]).toEqual([1, 2, 3]);
    expect([...copied]).toEqual([1, 2, 3]);
    // a call whose pair records grow the memory leaves the lists readable by the next call
    const many = new Uint32Array(4 * 300_000);
    for (let r = 0; r < 300_000; r++) many.set([0, GATHER_LISTS_PER_TERM, r === 0 ? 0 : PAIR_JOIN, 0], 4 * r);
    const before = arena.u32.buffer.byteLength;
    expect([...arena.proximity(gathered, many, false)]).toEqual([1, 2, 3]);
    expect(arena.u32.buffer.byteLength).toBeGreaterThan(before);
    expect([...arena.proximity(gathered, pairs, false)]).toEqual([1, 2, 3]);
    arena.take(16);
    expect(() => arena.proximity(gathered, pairs, false)).toThrow(/overwritten/);
  });

  it('refuses a record pointing outside its memory instead of reading there', () => {
    const arena = new RecordArena();
    const table = tableOf(1, 0, [{ id: 1, list: 0, level: 0, phrase: -1 }]);
    const outside = arena.u32.length;
    const docs: GatherDocs = { count: 1, records: Uint32Array.from([outside, 4]), allowed: Uint8Array.from([1]), present: new Uint8Array(0), tokens: 0 };
    expect(() => arena.gather(table, docs)).toThrow(RangeError);
  });
});
