// milli's attribute_fid.rs (v1.50): the `attribute` rule (attributeRank then wordPosition) over three
// weighted fields, where a document may match through the 3-grams `quickbrownfox` and `overthelazy`:
// an n-gram costs weight × its words, and a document is scored on one cut of the query into terms
// it fully matches. The data and queries are milli's; the expected docids and ranks its snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

/** [title, description, plot] of each document, by id */
const DOCS: [string, string, string][] = [
  ['', '', 'the quick brown fox jumps over the lazy dog'],
  ['', 'the quick brown foxes jump over the lazy dog', ''],
  ['the quick brown fox jumps over the lazy dog', '', ''],
  ['the', 'quick brown fox jumps over the lazy dog', ''],
  ['the quick', 'brown fox jumps over the lazy dog', ''],
  ['the quick brown', 'fox jumps over the lazy dog', ''],
  ['the quick brown fox', 'jumps over the lazy dog', ''],
  ['the quick', 'brown fox jumps', 'over the lazy dog'],
  ['the quick brown', 'fox', 'jumps over the lazy dog'],
  ['the quick brown', 'fox jumps', 'over the lazy dog'],
  ['', 'the quick brown fox', 'jumps over the lazy dog'],
  ['the quick', '', 'brown fox jumps over the lazy dog'],
  ['', 'the quickbrownfox', 'jumps over the lazy dog'],
  ['', 'the quick brown fox', 'jumps over the lazy dog'],
  ['', 'the quickbrownfox', 'jumps overthelazy dog'],
];

function createIndex(): TestIndex {
  const created = openTestIndex({ searchableAttributes: ['title', 'description', 'plot'], rankingRules: ['attribute'] });
  created.write(Object.fromEntries(DOCS.map(([title, description, plot], id) => [String(id), { id, title, description, plot }])));
  return created;
}

/** v1.50's order with [attributeRank of max 19, wordPosition of max 91] per document. */
const EXPECTED: [number, number, number][] = [
  [2, 19, 91],
  [6, 15, 81],
  [5, 14, 79],
  [4, 13, 77],
  [3, 12, 83],
  [9, 11, 75],
  [8, 10, 79],
  [7, 10, 73],
  [11, 7, 77],
  [10, 6, 81],
  [13, 6, 81],
  [12, 6, 78],
  [14, 5, 75],
  [0, 1, 91],
];

function ranked(q: string) {
  const ids = index.ids(q, { matchingStrategy: 'all' });
  return index.search(q, { matchingStrategy: 'all' }).hits.map((hit, k) => {
    const [fid, position] = hit.details as { kind: string; rank: number; max: number }[];
    expect([fid!.max, position!.max]).toEqual([19, 91]);
    return [ids[k], fid!.rank, position!.rank];
  });
}

describe('milli attribute_fid.rs', () => {
  it('attribute_fid_simple: each word costs the weight of its best field', () => {
    index = createIndex();
    expect(ranked('the quick brown fox jumps over the lazy dog')).toEqual(EXPECTED);
  });

  it('attribute_fid_ngrams: a 3-gram costs weight × 3, and a document is scored on one cut it fully matches', () => {
    index = createIndex();
    expect(ranked('the quick brown fox jumps over the lazy dog')).toEqual(EXPECTED);
  });
});
