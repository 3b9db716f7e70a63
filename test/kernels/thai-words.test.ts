// The Thai word list (src/kernels/data/thai-words.json) is charabia's
// dictionaries/txt/thai/words.txt unchanged: its line count, its ends and a SHA-256 of the whole
// list catch any later corruption of the data file.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { wordList } from '../../src/kernels/word-lists.js';

const THAI_WORDS = wordList('thai').join('\n');

const lines = THAI_WORDS.split('\n');

describe('THAI_WORDS', () => {
  it('has the 62,055 lines of charabia words.txt, without a trailing newline', () => {
    expect(lines).toHaveLength(62055);
    expect(THAI_WORDS).toHaveLength(548709);
    expect(THAI_WORDS.endsWith('\n')).toBe(false);
  });

  it('starts and ends with the file first and last five lines', () => {
    expect(lines.slice(0, 5)).toEqual(['ก ข ไม่กระดิกหู', 'ก.', 'ก.ค.', 'ก.ต.', 'ก.ป.ส.']);
    expect(lines.slice(-5)).toEqual(['ไฮไฟ', 'ไฮไฟว์', 'ไฮไลต์', 'ไฮไลท์', 'ไฮ้']);
  });

  it('has the SHA-256 of the file lines joined by "\\n"', () => {
    expect(createHash('sha256').update(THAI_WORDS, 'utf8').digest('hex')).toBe(
      'de02c4b86197bdc1395a2c0940fa724cfa8976be5e7a7e274ad5a6401418ecfe',
    );
  });

  it('keeps the file order: strictly increasing by code point, no blank lines', () => {
    for (let i = 1; i < lines.length; i++) {
      if (!(lines[i - 1] < lines[i])) throw new Error(`line ${i + 1} out of order: ${lines[i - 1]} / ${lines[i]}`);
    }
    expect(lines.includes('')).toBe(false);
  });

  it('keeps entries with spaces and punctuation exactly', () => {
    expect(lines).toContain('สมเด็จพระเจ้าลูกยาเธอ เจ้าฟ้าทีปังกรรัศมีโชติ มหาวชิโรตตมางกูร สิริวิบูลยราชกุมาร');
    expect(lines).toContain('ไอ.ซี.ยู.');
    expect(lines).toContain('หา…ไม่');
    expect(lines).toContain('ว/ด/ป');
    expect(lines).toContain('เซเว่น-อีเลฟเว่น');
  });
});
