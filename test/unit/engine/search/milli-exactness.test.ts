// milli's `search/new/tests/exactness.rs` (v1.50) ported: the exactness rule (exactAttribute then
// exactWords) after the words rule it always follows, with typos, prefixes, phrases and later
// rules. Whether a term has an exact form is decided once per query (its word is in the index, or
// it is a phrase), not per document. The documents and queries are milli's; the expected orders
// and details are v1.50's insta snapshots, written `id W(ords) EA(exactAttribute) EW(exactWords)
// T(ypo) P(roximity)` in the order of the rules.
import { afterEach, describe, expect, it } from 'vitest';
import type { StepDetail } from '../../../../src/engine/search/ranking.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

const Q = 'the quick brown fox jumps over the lazy dog';

function createIndex(texts: readonly string[], rankingRules: string[] = ['exactness']): TestIndex {
  const created = openTestIndex({ searchableAttributes: ['text'], rankingRules });
  created.write(Object.fromEntries(texts.map((text, id) => [String(id), { id, text }])));
  return created;
}

const SIMPLE_ORDERED = [
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
];

const SIMPLE_REVERSED = [
  '',
  'dog',
  'lazy dog',
  'the lazy dog',
  'over the lazy dog',
  'jumps over the lazy dog',
  'fox jumps over the lazy dog',
  'brown fox jumps over the lazy dog',
  'quick brown fox jumps over the lazy dog',
  'the quick brown fox jumps over the lazy dog',
];

const SIMPLE_RANDOM = [
  '',
  'over',
  'jump dog',
  'brown the lazy',
  'jump dog quick the',
  'fox the lazy dog brown',
  'jump fox quick lazy the dog',
  'the dog brown over jumps quick lazy',
  'the jumps dog quick over brown lazy fox',
];

const ATTRIBUTE_STARTS_WITH = [
  'what a lovely view from this balcony, I love it',
  'this balcony is overlooking the sea',
  'this balcony',
  'over looking the sea is a beautiful balcony',
  'a beautiful balcony is overlooking the sea',
  'overlooking the sea is a beautiful balcony, I love it',
  'overlooking the sea is a beautiful balcony',
  'overlooking',
];

const SIMPLE_ORDERED_WITH_TYPOS = [
  '',
  'the',
  'the quack',
  'the quack briwn',
  'the quack briwn fox',
  'the quack briwn fox jlmps',
  'the quack briwn fox jlmps over',
  'the quack briwn fox jlmps over the',
  'the quack briwn fox jlmps over the lazy',
  'the quack briwn fox jlmps over the lazy dog',
  ...SIMPLE_ORDERED,
];

const VARYING_PROXIMITIES = [
  'lazy jumps dog brown quick the over fox the',
  'the quick brown fox jumps over the very lazy dog',
  'the quick brown fox jumps over the lazy dog',
  'dog brown quick the over fox the lazy',
  'the quick brown fox over the very lazy dog',
  'the quick brown fox over the lazy dog',
  'brown quick the over fox',
  'the very quick brown fox over',
  'the quick brown fox over',
];

const TYPO_AND_PREFIX = [
  'expraordinarily quick brown fox',
  'extraordinarily quick brown fox',
  'extra quick brown fox',
  'expraordinarily quack brown fox',
  'expraordinapily quick brown fox',
];

const PROXIMITY_BETWEEN_IGNORED_TERMS = [
  'lazy jumps dog brown quick the over fox the',
  'lazy jumps dog brown quick the over fox the. quack briwn jlmps',
  'lazy jumps dog brown quick the over fox the. quack briwn jlmps overt',
];

function short(detail: StepDetail): string {
  switch (detail.kind) {
    case 'words':
      return `W${detail.matching}/${detail.max}`;
    case 'typo':
      return `T${detail.count}/${detail.max}`;
    case 'proximity':
      return `P${detail.rank}/${detail.max}`;
    case 'exactAttribute':
      return `EA:${detail.match[0]!.toUpperCase()}${detail.match.slice(1)}`;
    case 'exactWords':
      return `EW${detail.matching}/${detail.max}`;
    default:
      return detail.kind;
  }
}

/** Each hit as `id details`, in ranking order. */
function ranked(q: string): string[] {
  const store = new DocumentStore(index.env);
  return index.search(q).hits.map((hit) => `${String(store.byDocid(hit.docid)!.id)} ${hit.details.map(short).join(',')}`);
}

describe('milli exactness.rs: the exactness rule', () => {
  it('ranks whole-attribute matches first, removing words from the end (test_exactness_simple_ordered)', () => {
    index = createIndex(SIMPLE_ORDERED);
    expect(ranked(Q)).toEqual([
      '9 W9/9,EA:ExactMatch,EW9/9', '8 W8/9,EA:ExactMatch,EW8/8', '7 W7/9,EA:ExactMatch,EW7/7', '6 W7/9,EA:NoExactMatch,EW7/7', '5 W5/9,EA:ExactMatch,EW5/5',
      '4 W4/9,EA:ExactMatch,EW4/4', '3 W3/9,EA:ExactMatch,EW3/3', '2 W2/9,EA:ExactMatch,EW2/2', '1 W1/9,EA:ExactMatch,EW1/1',
    ]);
  });

  it('an attribute starting with what is left of the query matches its start (test_exactness_simple_reversed)', () => {
    index = createIndex(SIMPLE_REVERSED);
    const expected = [
      '9 W9/9,EA:ExactMatch,EW9/9', '8 W9/9,EA:NoExactMatch,EW9/9', '3 W1/9,EA:MatchesStart,EW1/1', '4 W1/9,EA:NoExactMatch,EW1/1',
      '5 W1/9,EA:NoExactMatch,EW1/1', '6 W1/9,EA:NoExactMatch,EW1/1', '7 W1/9,EA:NoExactMatch,EW1/1',
    ];
    expect(ranked(Q)).toEqual(expected);
    expect(ranked(Q)).toEqual(expected);
  });

  it('words out of order never match exactly (test_exactness_simple_random)', () => {
    index = createIndex(SIMPLE_RANDOM);
    expect(ranked(Q)).toEqual([
      '8 W9/9,EA:NoExactMatch,EW9/9', '7 W3/9,EA:NoExactMatch,EW3/3', '4 W2/9,EA:NoExactMatch,EW2/2', '6 W2/9,EA:NoExactMatch,EW2/2',
      '3 W1/9,EA:NoExactMatch,EW1/1', '5 W1/9,EA:NoExactMatch,EW1/1',
    ]);
  });

  it('exact match, then attribute start, then the rest (test_exactness_attribute_starts_with_simple)', () => {
    index = createIndex(ATTRIBUTE_STARTS_WITH);
    expect(ranked('this balcony')).toEqual(['2 W2/2,EA:ExactMatch,EW2/2', '1 W2/2,EA:MatchesStart,EW2/2', '0 W2/2,EA:NoExactMatch,EW2/2']);
  });

  it('a phrase is one exact term of the exact attribute (test_exactness_attribute_starts_with_phrase)', () => {
    index = createIndex(ATTRIBUTE_STARTS_WITH);
    expect(ranked('"overlooking the sea" is a beautiful balcony')).toEqual([
      '6 W7/7,EA:ExactMatch,EW5/5', '5 W7/7,EA:MatchesStart,EW5/5', '4 W7/7,EA:NoExactMatch,EW5/5', '1 W4/7,EA:NoExactMatch,EW2/2',
    ]);
    expect(ranked('overlooking the sea is a beautiful balcony')).toEqual([
      '6 W7/7,EA:ExactMatch,EW7/7', '5 W7/7,EA:MatchesStart,EW7/7', '4 W7/7,EA:NoExactMatch,EW7/7', '3 W7/7,EA:NoExactMatch,EW6/7',
      '1 W4/7,EA:NoExactMatch,EW4/4', '7 W1/7,EA:ExactMatch,EW1/1',
    ]);
  });

  it('a first word with no exact form in the index leaves every document without exact match (test_exactness_all_candidates_with_typo)', () => {
    index = createIndex(ATTRIBUTE_STARTS_WITH);
    expect(ranked('overlocking the sea is a beautiful balcony')).toEqual([
      '4 W7/7,EA:NoExactMatch,EW6/7', '5 W7/7,EA:NoExactMatch,EW6/7', '6 W7/7,EA:NoExactMatch,EW6/7', '1 W4/7,EA:NoExactMatch,EW3/4',
      '7 W1/7,EA:NoExactMatch,EW0/1',
    ]);
  });

  const AFTER_WORDS = [
    '19 W9/9,EA:ExactMatch,EW9/9', '9 W9/9,EA:NoExactMatch,EW6/9', '18 W8/9,EA:ExactMatch,EW8/8', '8 W8/9,EA:NoExactMatch,EW5/8',
    '17 W7/9,EA:ExactMatch,EW7/7', '16 W7/9,EA:NoExactMatch,EW7/7', '6 W7/9,EA:NoExactMatch,EW4/7', '7 W7/9,EA:NoExactMatch,EW4/7',
    '15 W5/9,EA:ExactMatch,EW5/5', '5 W5/9,EA:NoExactMatch,EW2/5', '14 W4/9,EA:ExactMatch,EW4/4', '4 W4/9,EA:NoExactMatch,EW2/4',
    '13 W3/9,EA:ExactMatch,EW3/3', '3 W3/9,EA:NoExactMatch,EW1/3', '12 W2/9,EA:ExactMatch,EW2/2', '2 W2/9,EA:NoExactMatch,EW1/2',
    '1 W1/9,EA:ExactMatch,EW1/1', '11 W1/9,EA:ExactMatch,EW1/1',
  ];

  it('a term whose word is in the index is exact for every document, even one holding only a typo of it (test_exactness_after_words)', () => {
    index = createIndex(SIMPLE_ORDERED_WITH_TYPOS, ['words', 'exactness']);
    expect(ranked(Q)).toEqual(AFTER_WORDS);
  });

  it('words placed after exactness still runs first (test_words_after_exactness)', () => {
    index = createIndex(SIMPLE_ORDERED_WITH_TYPOS, ['exactness', 'words']);
    expect(ranked(Q)).toEqual(AFTER_WORDS);
  });

  it('proximity after exactness orders each exactness bucket (test_proximity_after_exactness)', () => {
    index = createIndex(VARYING_PROXIMITIES, ['exactness', 'words', 'proximity']);
    expect(ranked(Q)).toEqual([
      '2 W9/9,EA:ExactMatch,EW9/9,P25/25', '1 W9/9,EA:NoExactMatch,EW9/9,P24/25', '0 W9/9,EA:NoExactMatch,EW9/9,P9/25',
      '4 W4/9,EA:MatchesStart,EW4/4,P10/10', '5 W4/9,EA:MatchesStart,EW4/4,P10/10', '8 W4/9,EA:MatchesStart,EW4/4,P10/10',
      '7 W4/9,EA:NoExactMatch,EW4/4,P9/10', '3 W4/9,EA:NoExactMatch,EW4/4,P5/10', '6 W4/9,EA:NoExactMatch,EW4/4,P5/10',
    ]);
    void index.close();
    index = createIndex(PROXIMITY_BETWEEN_IGNORED_TERMS, ['exactness', 'words', 'proximity']);
    expect(ranked(Q)).toEqual(['0 W9/9,EA:NoExactMatch,EW9/9,P9/25', '1 W9/9,EA:NoExactMatch,EW9/9,P9/25', '2 W9/9,EA:NoExactMatch,EW9/9,P9/25']);
  });

  it('exact words before typos prefer the exact word to a prefix of it (test_exactness_followed_by_typo_prefer_no_typo_prefix)', () => {
    index = createIndex(TYPO_AND_PREFIX, ['exactness', 'words', 'typo']);
    expect(ranked('quick brown fox extra')).toEqual([
      '2 W4/4,EA:NoExactMatch,EW4/4,T0/1', '1 W4/4,EA:NoExactMatch,EW3/4,T0/2', '0 W4/4,EA:NoExactMatch,EW3/4,T1/2',
      '4 W4/4,EA:NoExactMatch,EW3/4,T1/2', '3 W4/4,EA:NoExactMatch,EW2/4,T2/3',
    ]);
  });

  it('typo before exactness (test_typo_followed_by_exactness)', () => {
    index = createIndex(TYPO_AND_PREFIX, ['words', 'typo', 'exactness']);
    expect(ranked('extraordinarily quick brown fox')).toEqual([
      '1 W4/4,T0/5,EA:ExactMatch,EW4/4', '0 W4/4,T1/5,EA:NoExactMatch,EW3/4', '4 W4/4,T2/5,EA:NoExactMatch,EW3/4', '3 W4/4,T2/5,EA:NoExactMatch,EW2/4',
    ]);
  });
});
