// milli's `search/new/tests/words_tms.rs` (v1.50) ported: the `words` rule under matchingStrategy
// `last` and `all`, with phrases (never dropped, matched by 3-word windows). The documents and
// queries are milli's; the expected orders and details are v1.50's insta snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

const TEXTS = [
  '',
  'the',
  'the quick',
  'the quick brown',
  'the quick brown fox',
  'the quick brown fox jumps',
  'the quick brown fox jumps over',
  'the quick brown fox jumps over the',
  'the quick brown fox jumps over the lazy',
  'the quick brown fox jumps over the lazy dog',
  'the brown quick fox jumps over the lazy dog',
  'the quick brown fox talks to the lazy and slow dog',
  'the quick brown fox talks to the lazy dog',
  'the mighty and quick brown fox jumps over the lazy dog',
  'the great quick brown fox jumps over the lazy dog',
  'this quick brown and very scary fox jumps over the lazy dog',
  'this quick brown and scary fox jumps over the lazy dog',
  'the quick brown fox jumps over the really lazy dog',
  'the brown quick fox jumps over the really lazy dog',
  'the brown quick fox immediately jumps over the really lazy dog',
  'the brown quick fox immediately jumps over the really lazy blue dog',
  'the quick brown. quick brown fox. brown fox jumps. fox jumps over. over the lazy. the lazy dog.',
  'the, quick, brown, fox, jumps, over, the, lazy, dog',
];

function createIndex(rankingRules: string[] = ['words']): TestIndex {
  const created = openTestIndex({ searchableAttributes: ['text'], rankingRules });
  created.write(Object.fromEntries(TEXTS.map((text, id) => [String(id), { id, text }])));
  return created;
}

const words = (matching: number, max: number) => ({ kind: 'words', matching, max });

describe('milli words_tms.rs: the words rule and matchingStrategy', () => {
  it('last: drops terms from the end, a repeated word counting once (test_words_tms_last_simple)', () => {
    index = createIndex();
    expect(index.ids('the quick brown fox jumps over the lazy dog')).toEqual([9, 10, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 8, 6, 7, 5, 4, 11, 12, 3]);
    expect(index.ids('extravagant the quick brown fox jumps over the lazy dog')).toEqual([]);
  });

  it('last: never drops a phrase, which matches by 3-word windows (test_words_tms_last_phrase)', () => {
    index = createIndex();
    const q1 = '"the quick brown fox" jumps over the lazy dog';
    expect(index.ids(q1)).toEqual([9, 17, 21, 8, 6, 7, 5, 4, 11, 12]);
    const details1 = index.search(q1).hits.map((hit) => hit.details);
    expect(details1).toEqual([
      ...Array(3).fill([words(9, 9)]),
      [words(8, 9)],
      [words(7, 9)],
      [words(7, 9)],
      [words(5, 9)],
      [words(4, 9)],
      [words(4, 9)],
      [words(4, 9)],
    ]);

    const q2 = '"the quick brown fox" jumps over the "lazy" dog';
    expect(index.ids(q2)).toEqual([9, 17, 21, 8, 11, 12]);
    expect(index.search(q2).hits.map((hit) => hit.details)).toEqual([[words(9, 9)], [words(9, 9)], [words(9, 9)], [words(8, 9)], [words(5, 9)], [words(5, 9)]]);

    expect(index.ids('"the quick brown fox jumps over the lazy dog"')).toEqual([9]);
    expect(index.search('"the quick brown fox jumps over the lazy dog"').hits[0]!.details).toEqual([words(9, 9)]);
    // an unclosed quote still makes the rest of the query a phrase
    expect(index.ids('"the quick brown fox jumps over the lazy dog')).toEqual([9]);
    expect(index.search('"the quick brown fox jumps over the lazy dog').hits[0]!.details).toEqual([words(9, 9)]);
  });

  it('last then proximity: a repeated word pairs with its neighbours (test_words_proximity_tms_last_simple)', () => {
    index = createIndex(['words', 'proximity']);
    expect(index.ids('the quick brown fox jumps over the lazy dog')).toEqual([9, 21, 14, 17, 13, 10, 18, 16, 19, 15, 20, 22, 8, 7, 6, 5, 4, 11, 12, 3]);
    expect(index.ids('the brown quick fox jumps over the lazy dog')).toEqual([10, 18, 19, 9, 20, 21, 14, 17, 13, 15, 16, 22, 8, 7, 6, 5, 4, 11, 12, 3]);
  });

  it('last then proximity: a phrase pairs its first and last words with the query words around it (test_words_proximity_tms_last_phrase)', () => {
    index = createIndex(['words', 'proximity']);
    expect(index.ids('the "quick brown" fox jumps over the lazy dog')).toEqual([9, 21, 14, 17, 13, 16, 15, 8, 7, 6, 5, 4, 11, 12, 3]);
    expect(index.ids('the "quick brown" "fox jumps" over the lazy dog')).toEqual([9, 21, 14, 17, 13, 16, 15, 8, 7, 6, 5]);
  });

  it('all: keeps every term, and finds nothing for an unknown word (test_words_tms_all)', () => {
    index = createIndex(['words', 'proximity']);
    const all = { matchingStrategy: 'all' } as const;
    expect(index.ids('the quick brown fox jumps over the lazy dog', all)).toEqual([9, 21, 14, 17, 13, 10, 18, 16, 19, 15, 20, 22]);
    expect(index.ids('extravagant', all)).toEqual([]);
  });

  it('rules placed before words only reorder the hits, never drop any (test_words_tms_attribute_rank_word_position_order_keeps_hits)', () => {
    index = createIndex();
    const q = 'the quick brown fox jumps over the lazy dog';
    const count = (rankingRules: string[]) => {
      index.reconfigure({ rankingRules });
      return index.search(q, { need: 100 }).hits.length;
    };
    const wordsFirst = count(['words', 'typo', 'proximity', 'attributeRank', 'wordPosition', 'exactness']);
    expect(wordsFirst).toBe(22);
    expect(count(['attributeRank', 'words', 'typo', 'proximity', 'wordPosition', 'exactness'])).toBe(wordsFirst);
    expect(count(['wordPosition', 'words', 'typo', 'proximity', 'attributeRank', 'exactness'])).toBe(wordsFirst);
  });
});
