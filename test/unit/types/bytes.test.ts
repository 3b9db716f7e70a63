// Rust's string order (UTF-8 bytes) without encoding: checked against Buffer.compare on strings that
// mix ASCII, the BMP on both sides of the surrogate range, and code points above U+FFFF.
import { describe, expect, it } from 'vitest';
import { compareBytes, sortBytes, sortedKeys, sortedSet } from '../../../src/types/bytes.js';
import { mulberry32 } from '../../helpers/random.js';

const byBuffers = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const SAMPLES = ['', 'a', 'ab', 'b', 'Z', 'é', '\u{d7ff}', '\u{e000}', '\u{fffd}', '\u{ffff}', '😀', '😀a', '𝔸', 'a😀', 'a\u{ffff}', '中文'];

describe('compareBytes', () => {
  it('agrees in sign with a comparison of the UTF-8 bytes, for every pair', () => {
    for (const a of SAMPLES) for (const b of SAMPLES) expect(Math.sign(compareBytes(a, b)), `${a} vs ${b}`).toBe(Math.sign(byBuffers(a, b)));
  });

  it('puts code points above U+FFFF after U+E000–U+FFFF, unlike UTF-16 order', () => {
    expect(sortedSet(['😀', '\u{ffff}', '\u{e000}', 'a', '😀'])).toEqual(['a', '\u{e000}', '\u{ffff}', '😀']);
  });

  it('sorts 100,000 words without encoding each comparison (well under a second)', () => {
    const words = Array.from({ length: 100_000 }, (_, i) => `w${(i * 7919) % 100_000}`);
    const started = performance.now();
    const sorted = sortedSet(words);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(sorted).toHaveLength(100_000);
    expect(sorted.slice(0, 3)).toEqual(['w0', 'w1', 'w10']);
  });

  it('sorts as the UTF-8 bytes compare, with or without code points where UTF-16 order differs', () => {
    const random = mulberry32(20261207);
    const alphabet = ['a', 'b', 'z', 'é', '中', '\u{d7ff}', '\u{e000}', '\u{ffff}', '😀', '𝔸'];
    for (let round = 0; round < 200; round++) {
      // half the rounds draw from the first six characters only: below U+D800, the native sort's case
      const letters = round % 2 === 0 ? alphabet.slice(0, 6) : alphabet;
      const strings = Array.from({ length: 30 }, () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => letters[Math.floor(random() * letters.length)]).join(''));
      expect(sortBytes([...strings])).toEqual([...strings].sort(byBuffers));
    }
    expect(Object.keys(sortedKeys({ '😀': 1, '\u{ffff}': 2, b: 3, a: 4 }))).toEqual(['a', 'b', '\u{ffff}', '😀']);
  });
});
