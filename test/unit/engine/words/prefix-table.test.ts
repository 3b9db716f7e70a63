// The prefix table over a vocabulary's bytes: each word's 1–3 character prefixes, cut at UTF-8
// character boundaries, one id per distinct prefix in order of first sight, and the per-document
// aggregation of their entries.
import { describe, expect, it } from 'vitest';

import { ByteVocabulary } from '../../../../src/engine/words/vocabulary.js';
import { PREFIX_MAX_CHARS, PrefixTable } from '../../../../src/engine/words/prefix-table.js';
import { mulberry32 } from '../../../helpers/random.js';

/** A vocabulary of `words` (their UTF-8 bytes), in that order. */
function vocabularyOf(words: readonly string[]): ByteVocabulary {
  const vocabulary = new ByteVocabulary();
  for (const word of words) {
    const bytes = Buffer.from(word, 'utf8');
    vocabulary.idOf(bytes, 0, bytes.length);
  }
  return vocabulary;
}

const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('PrefixTable', () => {
  it("cuts each word's prefixes of 1 to 3 characters at character boundaries, as latin1 keys of their UTF-8 bytes", () => {
    const words = ['chat', 'ch', 'été', '日本語で', 'c', 'çà'];
    const table = new PrefixTable(vocabularyOf(words).export());
    const prefixesOf = (word: number) => Array.from({ length: table.prefixCount(word) }, (_, k) => table.keys[table.prefixId(word, k)]);
    expect(words.map((_, word) => prefixesOf(word))).toEqual([
      ['c', 'ch', 'cha'],
      ['c', 'ch'],
      [latin1('é'), latin1('ét'), latin1('été')],
      [latin1('日'), latin1('日本'), latin1('日本語')],
      ['c'],
      [latin1('ç'), latin1('çà')],
    ]);
    expect(table.size).toBe(table.keys.length);
    expect(table.keys).toEqual(['c', 'ch', 'cha', latin1('é'), latin1('ét'), latin1('été'), latin1('日'), latin1('日本'), latin1('日本語'), latin1('ç'), latin1('çà')]);
  });

  it('gives the ids a Map of prefix strings gives, over thousands of random words, the vocabulary grown halfway', () => {
    const random = mulberry32(11);
    const alphabet = ['a', 'b', 'é', '日', 'ß', '🙂'];
    const words = new Set<string>();
    while (words.size < 3000) words.add(Array.from({ length: 1 + Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    // the words come in two halves, the table grown to the second as a worker's lexicon grows
    const all = [...words];
    const vocabulary = vocabularyOf(all.slice(0, 1500));
    const table = new PrefixTable(vocabulary.export());
    const expected = new Map<string, number>();
    all.forEach((word, w) => {
      if (w === 1500) {
        for (const more of all.slice(1500)) vocabulary.idOf(Buffer.from(more, 'utf8'), 0, Buffer.byteLength(more));
        table.grow(vocabulary.export());
      }
      const chars = Array.from(word);
      const prefixes = chars.slice(0, PREFIX_MAX_CHARS).map((_, n) => chars.slice(0, n + 1).join(''));
      for (const prefix of prefixes) if (!expected.has(prefix)) expected.set(prefix, expected.size);
      expect(table.prefixCount(w)).toBe(prefixes.length);
      expect(Array.from({ length: prefixes.length }, (_, k) => table.prefixId(w, k))).toEqual(prefixes.map((prefix) => expected.get(prefix)));
    });
    expect(table.keys).toEqual([...expected.keys()].map(latin1));
  });

  it("aggregates a document's entries per prefix: fields OR-ed, the lowest position kept", () => {
    const table = new PrefixTable(vocabularyOf(['cat', 'car', 'dog']).export());
    const kept = table.aggregate({ words: [0, 1, 2], masks: [1, 2, 4], infos: [7, 3, 5] });
    const byKey = Object.fromEntries(Array.from(kept, (id) => [table.keys[id], [table.masks[id], table.positions[id]]]));
    expect(byKey).toEqual({ c: [3, 3], ca: [3, 3], cat: [1, 7], car: [2, 3], d: [4, 5], do: [4, 5], dog: [4, 5] });
  });

  it("aggregates the words a grown table gained, whose prefixes have ids past the first table's", () => {
    const vocabulary = vocabularyOf(['cat']);
    const table = new PrefixTable(vocabulary.export());
    table.aggregate({ words: [0], masks: [1], infos: [0] });
    for (const word of ['dog', 'emu', 'fox']) vocabulary.idOf(Buffer.from(word), 0, word.length);
    table.grow(vocabulary.export());
    const kept = table.aggregate({ words: [3, 2], masks: [2, 4], infos: [9, 6] });
    const byKey = Object.fromEntries(Array.from(kept, (id) => [table.keys[id], [table.masks[id], table.positions[id]]]));
    expect(byKey).toEqual({ f: [2, 9], fo: [2, 9], fox: [2, 9], e: [4, 6], em: [4, 6], emu: [4, 6] });
  });
});
