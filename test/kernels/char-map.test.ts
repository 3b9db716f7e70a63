// The per-character map the formatter rebuilds for a prefix highlight, checked against the
// tokenizer kernel's normalised words: on fixed words of each normaliser and on random text.
import { describe, expect, it } from 'vitest';
import { charNormalizedBytes } from '../../src/kernels/char-map.js';
import { materializeTokens, tokenizeBatch } from '../../src/kernels/tokenizer.js';
import { utf8Length } from '../../src/kernels/utf8.js';
import { mulberry32 } from '../helpers/random.js';

/** Each word token of `text` as the kernel cuts and normalises it. */
const words = (text: string) => materializeTokens(tokenizeBatch([text]), [text]).filter((token) => token.kind === 'word');

describe('charNormalizedBytes', () => {
  it.each([
    ['Cafe\u0301', [1, 1, 1, 1, 0]],
    ['ﬁn', [2, 1]],
    ['Œuvre', [2, 1, 1, 1, 1]],
    ['שָׁלוֹם', [2, 0, 0, 2, 2, 0, 2]],
    ['カタカナ', [3, 3, 3, 3]],
    // an ideograph, matched by its length (a kVariants destination is one character too)
    ['進', [3]],
    ['a\u0001b', [1, 0, 1]],
  ])('maps each character of %s to the bytes it normalises into', (text, expected) => {
    const [token] = words(text);
    expect(token!.text).toBe(text);
    expect(charNormalizedBytes(text, token!.normalized)).toEqual(expected);
  });

  it('gives no map when characters were joined, as Swedish recomposition joins a and its ring', () => {
    expect(charNormalizedBytes('a\u030a', 'å')).toBeNull();
  });

  it('rebuilds the map of every word the kernel normalises, on random text of many scripts', () => {
    const alphabet = [...'aÉéßŒœﬁﬀ\u0301\u0308İıđДдΣσςאָשׁลุ่มحَمَّدカタかな漢字東京한국어ｶﾞ①²'];
    const random = mulberry32(20261207);
    for (let round = 0; round < 300; round++) {
      let text = '';
      const length = 1 + Math.floor(random() * 30);
      for (let i = 0; i < length; i++) text += random() < 0.15 ? ' ' : alphabet[Math.floor(random() * alphabet.length)];
      for (const token of words(text)) {
        const map = charNormalizedBytes(token.text, token.normalized);
        // a Greek final sigma inside a word is the one change the map cannot rebuild
        if (map === null && /ς./u.test(token.text)) continue;
        expect(map, `${token.text} → ${token.normalized}`).not.toBeNull();
        expect(map!.reduce((a, b) => a + b, 0)).toBe(utf8Length(token.normalized));
        expect(map!.length).toBe([...token.text].length);
      }
    }
  });
});
