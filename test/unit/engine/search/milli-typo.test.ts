// milli's typo.rs (v1.50): typo tolerance of the words rule and the typo rule's buckets — budgets by
// word length, the first-letter rule, exact words and attributes, n-gram typos (a 2-gram costs
// 2 + its typos), split words, synonyms, and maxTypoCount over the cuts of the query. The data and
// queries are milli's; the expected docids and score details are its snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import type { IndexSettings } from '../../../../src/types/settings.js';
import { defaultTypoTolerance } from '../../../../src/types/settings.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

const DOCS: Record<string, unknown>[] = [
  { text: 'the quick brown fox jumps over the lazy dog' },
  { text: 'the quick brown foxes jump over the lazy dog' },
  { text: 'the quick brown fax sends a letter to the dog' },
  { text: 'the quickest brownest fox jumps over the laziest dog' },
  { text: "a fox doesn't quack, that crown goes to the duck." },
  { text: 'the quicker browner fox jumped over the lazier dog' },
  { text: 'the extravagant fox skyrocketed over the languorous dog' },
  { text: 'the quick brown fox jumps over the lazy' },
  { text: 'the quick brown fox jumps over the' },
  { text: 'the quick brown fox jumps over' },
  { text: 'the quick brown fox jumps' },
  { text: 'the quick brown fox' },
  { text: 'the quick brown' },
  { text: 'the quick' },
  { text: 'netwolk interconections sunflawar' },
  { text: 'network interconnections sunflawer' },
  { text: 'network interconnection sunflower' },
  { text: 'network interconnection sun flower' },
  { text: 'network interconnection sunflowering' },
  { text: 'network interconnection sun flowering' },
  { text: 'network interconnection sunflowar' },
  { text: 'the fast brownish fox jumps over the lackadaisical dog' },
  { text: 'the quick brown fox jumps over the lackadaisical dog' },
  { text: 'the quivk brown fox jumps over the lazy dog' },
  { tolerant_text: 'the quick brown fox jumps over the lazy dog' },
  { tolerant_text: 'the quivk brown fox jumps over the lazy dog' },
];

function createIndex(settings: Partial<IndexSettings> = {}): TestIndex {
  const created = openTestIndex({ searchableAttributes: ['text'], rankingRules: ['words'], ...settings });
  created.write(Object.fromEntries(DOCS.map((doc, id) => [String(id), { id, ...doc }])));
  return created;
}

const typos = (overrides: Partial<IndexSettings['typoTolerance']>) => ({ typoTolerance: { ...defaultTypoTolerance(), ...overrides } });

const all = (q: string) => index.ids(q, { matchingStrategy: 'all' });
const details = (q: string, matchingStrategy: 'all' | 'last' = 'all') => index.search(q, { matchingStrategy }).hits.map((hit) => hit.details);
const typo = (count: number, max: number) => ({ kind: 'typo', count, max });

describe('milli typo.rs', () => {
  it('no_typo: with typos disabled only the exact words match', () => {
    index = createIndex(typos({ enabled: false }));
    expect(all('the quick brown fox jumps over the lazy dog')).toEqual([0]);
    expect(details('the quick brown fox jumps over the lazy dog')).toEqual([[]]);
  });

  it('default_typo: one typo from 5 characters, two from 9; missing, extra and replaced letters', () => {
    index = createIndex();
    expect(all('the quick brown fox jumps over the lazy dog')).toEqual([0, 23]);
    expect(details('the quick brown fox jumps over the lazy dog')).toEqual([[], []]);
    expect(all('the quack brown fox jumps over the lazy dog')).toEqual([0]);
    expect(all('the quicest brownest fox jummps over the laziest dog')).toEqual([3]);
  });

  it('phrase_no_typo_allowed: a phrase takes no typo', () => {
    index = createIndex();
    expect(all('the "quick brewn" fox jumps over the lazy dog')).toEqual([]);
  });

  it('typo_exact_word: exact words take no typo but stay prefixes and split', () => {
    index = createIndex(typos({ disableOnWords: ['quick', 'quack', 'sunflower'] }));
    expect(all('the quick brown fox jumps over the lazy dog')).toEqual([0]);
    expect(all('the quack brown fox jumps over the lazy dog')).toEqual([]);
    expect(all('the quicest brownest fox jummps over the laziest dog')).toEqual([3]);
    expect(all('network interconnection sunflower')).toEqual([16, 17, 18]);
    expect(details('network interconnection sunflower')).toEqual([[], [], []]);
  });

  it('typo_exact_attribute: an exact attribute matches only the exact words', () => {
    index = createIndex({ searchableAttributes: ['text', 'tolerant_text'], ...typos({ disableOnAttributes: ['text'], disableOnWords: ['quivk'] }) });
    expect(all('the quick brown fox jumps over the lazy dog')).toEqual([0, 24, 25]);
    expect(details('the quick brown fox jumps over the lazy dog')).toEqual([[], [], []]);
    expect(all('the quidk brown fox jumps over the lazy dog')).toEqual([24, 25]);
    expect(all('the quivk brown fox jumps over the lazy dog')).toEqual([23, 25]);
    expect(all('the quicest brownest fox jummps over the laziest dog')).toEqual([]);
  });

  it('ngram_typos: a 2-gram of 9 characters takes a typo, a 3-gram none', () => {
    index = createIndex();
    expect(all('the extra lagant fox skyrocketed over the languorous dog')).toEqual([6]);
    expect(details('the extra lagant fox skyrocketed over the languorous dog')).toEqual([[]]);
    expect(all('the ex tra lagant fox skyrocketed over the languorous dog')).toEqual([]);
  });

  it('typo_ranking_rule_not_preceded_by_words_ranking_rule: typo alone ranks as words then typo', () => {
    const order = [0, 23, 7, 8, 9, 22, 10, 11, 1, 2, 12, 13, 4, 3, 5, 6, 21];
    const words = [9, 9, 8, 7, 7, 7, 5, 4, 3, 3, 3, 2, 2, 1, 1, 1, 1];
    const counts = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0];
    // after the words bucket, the typo rule's maximum is that of the words kept (no n-gram matches)
    const expected = words.map((matching, k) => [{ kind: 'words', matching, max: 9 }, typo(counts[k]!, matching)]);
    index = createIndex({ rankingRules: ['typo'] });
    const q = 'the quick brown fox jumps over the lazy dog';
    expect(index.ids(q, { matchingStrategy: 'last' })).toEqual(order);
    expect(details(q, 'last')).toEqual(expected);
    index.reconfigure({ rankingRules: ['words', 'typo'] });
    expect(index.ids(q, { matchingStrategy: 'last' })).toEqual(order);
    expect(details(q, 'last')).toEqual(expected);
  });

  it('typo_bucketing: documents with as many typos share a bucket; split words and n-grams cost typos', () => {
    index = createIndex();
    expect(all('network interconnection sunflower')).toEqual([14, 15, 16, 17, 18, 20]);
    expect(details('network interconnection sunflower')).toEqual([[], [], [], [], [], []]);

    index.reconfigure({ rankingRules: ['typo'] });
    expect(all('network interconnection sunflower')).toEqual([16, 18, 17, 20, 15, 14]);
    expect(details('network interconnection sunflower')).toEqual([0, 0, 1, 1, 2, 5].map((count) => [typo(count, 5)]));
    // the 2-gram sunflower costs 2: the cut network + interconnection + sunflower has maximum 1 + 2 + 3
    expect(all('network interconnection sun flower')).toEqual([17, 19, 16, 18, 20, 15]);
    expect(details('network interconnection sun flower')).toEqual([0, 0, 2, 2, 3, 4].map((count) => [typo(count, 6)]));
  });

  it('typo_synonyms: synonyms cost no typo, a multi-word synonym through an n-gram costs the n-gram', () => {
    index = createIndex({ rankingRules: ['typo'], synonyms: { lackadaisical: ['lazy'], 'fast brownish': ['quick brown'] } });
    expect(all('the quick brown fox jumps over the lackadaisical dog')).toEqual([0, 22, 23]);
    expect(details('the quick brown fox jumps over the lackadaisical dog')).toEqual([0, 0, 1].map((count) => [typo(count, 13)]));
    expect(all('the fast brownish fox jumps over the lackadaisical dog')).toEqual([21, 0, 22]);
    expect(details('the fast brownish fox jumps over the lackadaisical dog')).toEqual([0, 2, 2].map((count) => [typo(count, 13)]));
  });
});
