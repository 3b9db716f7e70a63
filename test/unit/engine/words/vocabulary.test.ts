// The byte-keyed batch vocabulary: one id per distinct byte string, whatever the hash collisions
// and table growth, compared against a Map of the same words.
import { describe, expect, it } from 'vitest';

import { ByteVocabulary } from '../../../../src/engine/words/vocabulary.js';
import { mulberry32 } from '../../../helpers/random.js';

describe('ByteVocabulary', () => {
  it('gives each distinct byte string one id, in order of first sight, with its latin1 key', () => {
    const vocabulary = new ByteVocabulary();
    const source = Buffer.from('chat chaton chat été', 'utf8');
    const words = [[0, 4], [5, 6], [12, 4], [17, 5]] as const;
    expect(words.map(([start, length]) => vocabulary.idOf(source, start, length))).toEqual([0, 1, 0, 2]);
    expect(vocabulary.keys).toEqual(['chat', 'chaton', Buffer.from('été', 'utf8').toString('latin1')]);
  });

  it('makes the keys of the words added since they were last read', () => {
    const vocabulary = new ByteVocabulary();
    const source = Buffer.from('un deux trois', 'utf8');
    vocabulary.idOf(source, 0, 2);
    expect(vocabulary.keys).toEqual(['un']);
    vocabulary.idOf(source, 3, 4);
    vocabulary.idOf(source, 8, 5);
    expect(vocabulary.size).toBe(3);
    expect(vocabulary.keys).toEqual(['un', 'deux', 'trois']);
  });

  it('matches a Map of strings over tens of thousands of random words, prefixes of each other included', () => {
    const random = mulberry32(7);
    const vocabulary = new ByteVocabulary();
    const expected = new Map<string, number>();
    const text: string[] = [];
    for (let i = 0; i < 60_000; i++) {
      const length = 1 + Math.floor(random() * 6);
      text.push(Array.from({ length }, () => 'abcdé'[Math.floor(random() * 5)]).join(''));
    }
    const source = Buffer.from(text.join(' '), 'utf8');
    let start = 0;
    for (const word of text) {
      const length = Buffer.byteLength(word);
      if (!expected.has(word)) expected.set(word, expected.size);
      expect(vocabulary.idOf(source, start, length)).toBe(expected.get(word));
      start += length + 1;
    }
    expect(vocabulary.keys.length).toBe(expected.size);
    expect(vocabulary.keys.map((key) => Buffer.from(key, 'latin1').toString('utf8'))).toEqual([...expected.keys()]);
  });
});
