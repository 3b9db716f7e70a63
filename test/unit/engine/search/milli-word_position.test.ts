// milli's word_position.rs (v1.50): the `attribute` rule (attributeRank then wordPosition) on word
// positions far into a field, repeated query words, words in other fields, and the 2-gram
// `quickbrown`, whose position costs Σ_{i<2} cost(d + i). The data and queries are milli's; the
// expected docids and score details are its snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

const INDENT = ' '.repeat(16);
const as = (count: number) => Array(count).fill('a').join(' ');
/** A text as milli's test writes it: a first line, lines of 45 `a` indented by 16 spaces, a last line. */
const lines = (first: string, full: number, last: string) => [first, ...Array(full).fill(INDENT + as(45)), INDENT + last].join('\n');

const DOCS: Record<string, string>[] = [
  { text: 'do you know about the quick and talented brown fox' },
  { text: 'do you know about the quick brown fox' },
  { text: 'the quick and talented brown fox' },
  { text: 'fox brown quick the' },
  { text: 'the quick brown fox' },
  { text: lines(as(40), 29, 'the quick brown fox') },
  { text: lines(`quick ${as(33)}`, 3, 'brown') },
  { text: lines(as(35), 3, 'quickbrown') },
  { text: lines(as(35), 3, 'quick brown') },
  { text: lines(as(35), 3, 'quickbrown') },
  { text: 'quick brown', text2: 'brown quick' },
  { text: 'quickbrown' },
  { text: 'quick brown' },
  { text: 'quickbrown' },
];

function createIndex(): TestIndex {
  const created = openTestIndex({ searchableAttributes: ['text', 'text2', 'other'], rankingRules: ['attribute'] });
  created.write(Object.fromEntries(DOCS.map((doc, id) => [String(id), { id, ...doc }])));
  return created;
}

/** [id, attributeRank rank, wordPosition rank] of each hit, best first. */
function ranked(q: string): [unknown, number, number][] {
  const ids = index.ids(q, { matchingStrategy: 'all' });
  return index.search(q, { matchingStrategy: 'all' }).hits.map((hit, k) => {
    const [fid, position] = hit.details as { kind: string; rank: number; max: number }[];
    return [ids[k], fid!.rank, position!.rank];
  });
}

const maxRanks = (q: string) =>
  new Set(index.search(q, { matchingStrategy: 'all' }).hits.map((hit) => hit.details.map((d) => `${d.kind}:${(d as { max: number }).max}`).join()));

/** v1.50's order and ranks for `quick brown` (attributeRank of max 5, wordPosition of max 21). */
const QUICK_BROWN: [number, number, number][] = [
  [10, 5, 21],
  [12, 5, 21],
  [11, 5, 20],
  [13, 5, 20],
  [3, 5, 19],
  [4, 5, 19],
  [2, 5, 18],
  [0, 5, 15],
  [1, 5, 15],
  [6, 5, 13],
  [8, 5, 5],
  [7, 5, 4],
  [9, 5, 4],
  [5, 5, 1],
];

describe('milli word_position.rs', () => {
  it('attribute_position_simple: words far into a field cost by their bucketed distance', () => {
    index = createIndex();
    expect(ranked('quick brown')).toEqual(QUICK_BROWN);
    expect(maxRanks('quick brown')).toEqual(new Set(['fid:5,position:21']));
  });

  it('attribute_position_repeated: a repeated query word is matched at each of its query positions', () => {
    index = createIndex();
    expect(ranked('a a a a a')).toEqual([
      [5, 11, 51],
      [7, 11, 51],
      [8, 11, 51],
      [9, 11, 51],
      [6, 11, 50],
    ]);
  });

  it('attribute_position_different_fields: the best place over every field counts', () => {
    index = createIndex();
    expect(ranked('quick brown')).toEqual(QUICK_BROWN);
  });

  it('attribute_position_ngrams: the 2-gram quickbrown costs Σ cost(d + i) over its two words', () => {
    index = createIndex();
    expect(ranked('quick brown')).toEqual(QUICK_BROWN);
  });
});
