// Query parsing (search.md §7): words and positions, prefix, phrases, negations, stop words, the
// index's custom tokens, unspaced (segmented) text and the ten-term limit.
import { describe, expect, it } from 'vitest';

import { MAX_QUERY_BYTES, parseQuery, termEnd } from '../../../../src/engine/search/query.js';
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

  it('keeps a phrase\'s holes at both ends, starting it at its first word, and drops a phrase of holes only', () => {
    const stop = new Set(['the', 'of']);
    const [phrase, word] = parseQuery('"the lord of" rings', stop).terms;
    // milli's phrase start is its first non-stop word; its end includes the trailing hole
    expect(phrase).toEqual({ kind: 'phrase', words: [null, 'lord', null], position: 1 });
    expect(termEnd(phrase!)).toBe(2);
    expect(word).toEqual({ kind: 'word', word: 'rings', position: 3, prefix: true });
    expect(parseQuery('"the of" rings', stop).terms).toEqual([{ kind: 'word', word: 'rings', position: 2, prefix: true }]);
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

  it('ignores every token after the tenth term: negations too, and a phrase opened after it', () => {
    expect(parseQuery('a b c d e f g h i j -k -"l m"', none)).toEqual(parseQuery('a b c d e f g h i j ', none));
    // a hard separator closes the tenth term (a phrase) and opens another, which the next token drops
    const parsed = parseQuery('a b c d e f g h i "j k. l m', none);
    expect(parsed.terms).toHaveLength(10);
    expect(parsed.terms[9]).toEqual({ kind: 'phrase', words: ['j', 'k'], position: 9 });
  });

  it('reads only the first thousand tokens, separators included', () => {
    const stop = new Set(['the']);
    // `the` and the space after it are two tokens: `late` is token 800, or 1200
    expect(parseQuery(`${'the '.repeat(400)}late`, stop).terms).toEqual([{ kind: 'word', word: 'late', position: 400, prefix: true }]);
    expect(parseQuery(`${'the '.repeat(600)}late`, stop).terms).toEqual([]);
  });

  it('reads a long query past its first window, whatever the cut falls on', () => {
    // a word across the cut, or the two bytes of é on both sides of it
    for (const pad of [4090, 4094, 4095, 20_000]) {
      const x = 'x'.repeat(pad);
      expect(parseQuery(`${x} été straddling`, none).terms).toEqual([
        { kind: 'word', word: x, position: 0, prefix: false },
        { kind: 'word', word: 'ete', position: 1, prefix: false },
        { kind: 'word', word: 'straddling', position: 2, prefix: true },
      ]);
    }
    const long = 'a'.repeat(1_000_000);
    expect(parseQuery(`${long} -b c`, none)).toEqual({
      terms: [
        { kind: 'word', word: long, position: 0, prefix: false },
        { kind: 'word', word: 'c', position: 2, prefix: true },
      ],
      negativeWords: ['b'],
      negativePhrases: [],
    });
    // each space is a token: the thousand are read before `beta`
    expect(parseQuery(`alpha${' '.repeat(10_000)}beta`, none).terms).toEqual([{ kind: 'word', word: 'alpha', position: 0, prefix: false }]);
  });

  it('reads no further than MAX_QUERY_BYTES, as if the query ended there', () => {
    const long = 'a'.repeat(MAX_QUERY_BYTES - 2);
    // `bc` is cut after its `b`: the last term, a prefix; what follows is not read
    expect(parseQuery(`${long} bc d`, none).terms).toEqual([
      { kind: 'word', word: long, position: 0, prefix: false },
      { kind: 'word', word: 'b', position: 1, prefix: true },
    ]);
    expect(parseQuery(`${'a'.repeat(3 * MAX_QUERY_BYTES)} b`, none).terms).toEqual([{ kind: 'word', word: 'a'.repeat(MAX_QUERY_BYTES), position: 0, prefix: true }]);
    // a surrogate pair across the cut is left out whole, never read as half a character
    const cut = parseQuery(`${'a'.repeat(MAX_QUERY_BYTES - 3)} b😀c`, none).terms;
    expect(cut.at(-1)).toEqual({ kind: 'word', word: 'b', position: 1, prefix: true });
  });
});

describe('typoBudget', () => {
  const settings = defaultSettings();
  it('allows 0 typos under 5 characters, 1 under 9, then 2, counting characters', () => {
    expect(['dogs', 'doggo', 'doggones', 'dogfights', 'élégant'].map((w) => typoBudget(w, settings))).toEqual([0, 1, 1, 2, 1]);
  });

  it('allows none to a word too long to be indexed (over 250 bytes)', () => {
    expect([250, 251].map((n) => typoBudget('a'.repeat(n), settings))).toEqual([2, 0]);
    expect(typoBudget('é'.repeat(126), settings)).toBe(0);
  });

  it('follows typoTolerance: disabled, minWordSizeForTypos, disableOnWords; disableOnNumbers leaves a number its budget', () => {
    const typo = settings.typoTolerance;
    expect(typoBudget('doggones', { ...settings, typoTolerance: { ...typo, enabled: false } })).toBe(0);
    expect(typoBudget('dog', { ...settings, typoTolerance: { ...typo, minWordSizeForTypos: { oneTypo: 2, twoTypos: 3 } } })).toBe(2);
    expect(typoBudget('doggones', { ...settings, typoTolerance: { ...typo, disableOnWords: ['doggones'] } })).toBe(0);
    expect(typoBudget('123456', { ...settings, typoTolerance: { ...typo, disableOnNumbers: true } })).toBe(1);
    expect(typoBudget('123456', settings)).toBe(1);
  });
});
