// The Khmer word list (src/kernels/data/khmer-words.json), the words of ICU's khmerdict.txt that
// charabia's KhmerSegmenter builds its FST from: its size, its ends, its hash, and its shape.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { wordList } from '../../src/kernels/word-lists.js';

const KHMER_WORDS = wordList('khmer').join('\n');

const WORDS = KHMER_WORDS.split('\n');

describe('KHMER_WORDS', () => {
  it('holds the 81028 words of khmerdict.txt', () => {
    expect(WORDS).toHaveLength(81028);
    // The file is 731087 characters: its two header lines (108 characters with their newlines),
    // then each word and its newline.
    expect(KHMER_WORDS.length + 1 + 108).toBe(731087);
  });

  it('starts and ends with the words of the file', () => {
    expect(WORDS.slice(0, 5)).toEqual(['ក', 'កក', 'កកកុញ', 'កកកុះ', 'កកឈាម']);
    expect(WORDS.slice(-5)).toEqual(['ឳទក', 'ឳបក្រមិក', 'ឳពុក', 'ឳរស', 'ឳឡឹក']);
  });

  it('has the SHA-256 taken when it was written', () => {
    expect(createHash('sha256').update(KHMER_WORDS, 'utf8').digest('hex')).toBe(
      '167e055694f358e344052fa0ae2e8ea8277a939749d4f7980f1ea00bb97ea922',
    );
  });

  it('is in ascending UTF-8 byte order with no repeats, blanks, tabs or comments', () => {
    let previous = Buffer.alloc(0);
    for (const word of WORDS) {
      expect(word).not.toBe('');
      const bytes = Buffer.from(word, 'utf8');
      if (Buffer.compare(previous, bytes) >= 0) expect.fail(`out of order: ${word}`);
      previous = bytes;
    }
    expect(KHMER_WORDS).not.toMatch(/[\t #\r]/);
  });

  it('uses Khmer letters and signs only, with 14 ZWNJ and 11 ZWJ inside words', () => {
    expect(KHMER_WORDS).toMatch(/^[\u1780-\u17dd\u200c\u200d\n]+$/);
    expect(KHMER_WORDS.match(/\u200c/g)).toHaveLength(14);
    expect(KHMER_WORDS.match(/\u200d/g)).toHaveLength(11);
    expect(WORDS.filter((word) => /[\u200c\u200d]/.test(word))).toHaveLength(25);
    expect(WORDS).toContain('ហ\u200d៊ឹះ');
    expect(WORDS).toContain('អ៊\u200cិន');
  });
});
