// Query parsing (search.md §7): words and positions, prefix, phrases, negations, stop words, the
// index's custom tokens, unspaced (segmented) text and the ten-term limit.
import { describe, expect, it } from 'vitest';

import { parseQuery } from '../../../../src/engine/search/query.js';
import { customTokens } from '../../../../src/kernels/custom-tokens.js';
import { typoBudget } from '../../../../src/engine/search/terms.js';
import { defaultSettings } from '../../../../src/types/settings.js';

const none = new Set<string>();

describe('parseQuery', () => {
  it('normalises words, numbers positions and makes the last word a prefix only when nothing follows', () => {
    expect(parseQuery('Batman Returns', none).terms).toEqual([
      { kind: 'word', word: 'batman', position: 0, prefix: false },
      { kind: 'word', word: 'returns', position: 1, prefix: true },
    ]);
    expect(parseQuery('batman ', none).terms).toEqual([{ kind: 'word', word: 'batman', position: 0, prefix: false }]);
  });

  it('adds 8 positions after a hard separator', () => {
    expect(parseQuery('war. peace', none).terms.map((t) => t.position)).toEqual([0, 8]);
  });

  it('reads quoted text as a phrase, split by hard separators, and an unclosed quote to the end', () => {
    expect(parseQuery('"dark knight" rises', none).terms).toEqual([
      { kind: 'phrase', words: ['dark', 'knight'], position: 0 },
      { kind: 'word', word: 'rises', position: 2, prefix: true },
    ]);
    expect(parseQuery('"new york. city"', none).terms).toEqual([
      { kind: 'phrase', words: ['new', 'york'], position: 0 },
      { kind: 'phrase', words: ['city'], position: 9 },
    ]);
    expect(parseQuery('a "b c', none).terms[1]).toEqual({ kind: 'phrase', words: ['b', 'c'], position: 1 });
  });

  it('takes -word and -"phrase" as negations only after whitespace or at the start', () => {
    const parsed = parseQuery('-batman robin -"dark knight" a-b c - d', none);
    expect(parsed.negativeWords).toEqual(['batman']);
    expect(parsed.negativePhrases).toEqual([['dark', 'knight']]);
    expect(parsed.terms.map((t) => (t.kind === 'word' ? t.word : t.words.join(' ')))).toEqual(['robin', 'a', 'b', 'c', 'd']);
  });

  it('drops stop words except the last token, and keeps them as holes in phrases', () => {
    const stop = new Set(['the', 'of']);
    expect(parseQuery('lord of the rings', stop).terms.map((t) => (t.kind === 'word' ? [t.word, t.position] : t.words))).toEqual([
      ['lord', 0],
      ['rings', 3],
    ]);
    expect(parseQuery('rings of', stop).terms.map((t) => (t.kind === 'word' ? t.word : ''))).toEqual(['rings', 'of']);
    expect(parseQuery('"lord of the rings"', stop).terms).toEqual([{ kind: 'phrase', words: ['lord', null, null, 'rings'], position: 0 }]);
    // matched case-sensitively, before lowercasing
    expect(parseQuery('The end', stop).terms).toHaveLength(2);
  });

  it('cuts the query with the custom tokens: dictionary words, non-separators, custom separators', () => {
    const custom = customTokens({ separatorTokens: ['&sep'], nonSeparatorTokens: ['#', '&'], dictionary: ['C#', 'D#', 'J. R. R.'] });
    expect(parseQuery('C#D#G', none, custom).terms.map((t) => (t.kind === 'word' ? [t.word, t.position, t.prefix] : []))).toEqual([
      ['c#', 0, false], ['d#', 1, false], ['g', 2, true],
    ]);
    expect(parseQuery('Mac&sep&&sepcheese', none, custom).terms.map((t) => (t.kind === 'word' ? t.word : ''))).toEqual(['mac', '&', 'cheese']);
    expect(parseQuery('"J. R. R. Tolkien"', none, custom).terms).toEqual([{ kind: 'phrase', words: ['j. r. r.', 'tolkien'], position: 0 }]);
    // without them, the same queries cut on the default separators
    expect(parseQuery('C#D#G', none).terms.map((t) => (t.kind === 'word' ? t.word : ''))).toEqual(['c', 'd', 'g']);
  });

  it('cuts an unspaced Chinese query into words, the last a prefix, and a quoted one into a phrase', () => {
    // 学 takes its kVariants form 學, as charabia's ChineseNormalizer gives it
    expect(parseQuery('北京大学', none).terms).toEqual([
      { kind: 'word', word: '北京', position: 0, prefix: false },
      { kind: 'word', word: '大學', position: 1, prefix: true },
    ]);
    expect(parseQuery('"北京大学"', none).terms).toEqual([{ kind: 'phrase', words: ['北京', '大學'], position: 0 }]);
  });

  it('keeps only the first ten terms', () => {
    const parsed = parseQuery('a b c d e f g h i j k l', none);
    expect(parsed.terms).toHaveLength(10);
    expect(parsed.terms[9]).toEqual({ kind: 'word', word: 'j', position: 9, prefix: false });
  });
});

describe('typoBudget', () => {
  const settings = defaultSettings();
  it('allows 0 typos under 5 characters, 1 under 9, then 2, counting characters', () => {
    expect(['dogs', 'doggo', 'doggones', 'dogfights', 'élégant'].map((w) => typoBudget(w, settings))).toEqual([0, 1, 1, 2, 1]);
  });

  it('follows typoTolerance: disabled, minWordSizeForTypos, disableOnWords, disableOnNumbers', () => {
    const typo = settings.typoTolerance;
    expect(typoBudget('doggones', { ...settings, typoTolerance: { ...typo, enabled: false } })).toBe(0);
    expect(typoBudget('dog', { ...settings, typoTolerance: { ...typo, minWordSizeForTypos: { oneTypo: 2, twoTypos: 3 } } })).toBe(2);
    expect(typoBudget('doggones', { ...settings, typoTolerance: { ...typo, disableOnWords: ['doggones'] } })).toBe(0);
    expect(typoBudget('123456', { ...settings, typoTolerance: { ...typo, disableOnNumbers: true } })).toBe(0);
    expect(typoBudget('123456', settings)).toBe(1);
  });
});
