// N-gram terms (ngrams.ts): which adjacent query words join, and how a document matching through an
// n-gram is ranked — the words rule's levels, the typo maximum over the cuts, and proximity, where
// an n-gram's edge costs n − 1 more (ranking.md §3–§5). The proximity data is milli's proximity.rs
// simple index, its order v1.50's snapshot.
import { afterEach, describe, expect, it } from 'vitest';
import { ngramTerms } from '../../../../src/engine/search/ngrams.js';
import type { QueryTerm } from '../../../../src/engine/search/query.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const word = (text: string, position: number, prefix = false): QueryTerm => ({ kind: 'word', word: text, position, prefix });

describe('ngramTerms', () => {
  it('joins every run of 2 or 3 adjacent words, a prefix when its last word is', () => {
    const terms = [word('sun', 0), word('flow', 1), word('er', 2, true)];
    expect(ngramTerms(terms).map(({ first, term }) => [first, term.kind === 'word' && term.word, term.kind === 'word' && term.prefix])).toEqual([
      [0, 'sunflow', false],
      [0, 'sunflower', true],
      [1, 'flower', true],
    ]);
  });

  it('joins no phrase and no words apart (a hard separator or a dropped stop word between)', () => {
    const phrase: QueryTerm = { kind: 'phrase', words: ['sun'], position: 0 };
    expect(ngramTerms([phrase, word('flower', 1)])).toEqual([]);
    expect(ngramTerms([word('sun', 0), word('flower', 9)])).toEqual([]);
  });

  it('joins nothing longer than an indexable word', () => {
    expect(ngramTerms([word('a'.repeat(200), 0), word('b'.repeat(60), 1)])).toEqual([]);
  });
});

describe('ranking through n-grams', () => {
  it('matches a document holding only the joined word in the bucket of both words', () => {
    index = openTestIndex({ searchableAttributes: ['text'], rankingRules: ['words'] });
    index.write({ '1': { id: 1, text: 'a sunflower' }, '2': { id: 2, text: 'the sun' } });
    expect(index.ids('sun flower ')).toEqual([1, 2]);
    expect(index.search('sun flower ').hits.map((hit) => hit.details)).toEqual([[{ kind: 'words', matching: 2, max: 2 }], [{ kind: 'words', matching: 1, max: 2 }]]);
  });

  it('counts the typo maximum over the cuts the words bucket matched, and over every cut when typo comes first', () => {
    index = openTestIndex({ searchableAttributes: ['text'], rankingRules: ['words', 'typo'] });
    index.write({ '1': { id: 1, text: 'sun flower' }, '2': { id: 2, text: 'rain drop' } });
    // no document holds `raindrop`: after the words rule, only the cut of single words counts
    expect(index.search('rain drop').hits[0]!.details[1]).toEqual({ kind: 'typo', count: 0, max: 2 });
    index.reconfigure({ rankingRules: ['typo'] });
    expect(index.search('rain drop', { matchingStrategy: 'all' }).hits[0]!.details).toEqual([{ kind: 'typo', count: 0, max: 3 }]);
  });

  it('costs a 2-gram in proximity as its words one apart, plus one', () => {
    index = openTestIndex({ searchableAttributes: ['text'], rankingRules: ['words', 'proximity'] });
    const texts = [
      'the very quick dark brown and smart fox did jump over the terribly lazy and small dog',
      'the. quick brown fox jumps over the lazy. dog',
      'the quick brown fox jumps over the lazy. dog',
      'dog the quick brown fox jumps over the lazy',
      'the quickbrown fox jumps over the lazy dog',
      'brown quick fox jumps over the lazy dog',
      'the really quick brown fox jumps over the very lazy dog',
      'the really quick brown fox jumps over the lazy dog',
      'the quick brown fox jumps over the lazy',
      'the quack brown fox jumps over the lazy dog',
      'the quick brown fox jumps over the lazy dog',
    ];
    index.write(Object.fromEntries(texts.map((text, id) => [String(id), { id, text }])));
    const q = 'the quick brown fox jumps over the lazy dog';
    expect(index.ids(q, { matchingStrategy: 'all' })).toEqual([9, 10, 4, 7, 6, 2, 3, 5, 1, 0]);
    // `quickbrown`: every pair adjacent, the 2-gram's edge costs 1
    expect(index.search(q, { matchingStrategy: 'all' }).hits[2]!.details).toEqual([{ kind: 'proximity', rank: 24, max: 25 }]);
  });
});
