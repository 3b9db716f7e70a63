// Cutting strings by UTF-16 units without leaving half a surrogate pair.
import { describe, expect, it } from 'vitest';
import { codePointCount, leadingUnits, unitEnd, unitIndexOf } from '../../../src/types/utf16.js';

describe('unitEnd', () => {
  it('ends a cut of at most the units asked for, before a surrogate pair it would split', () => {
    const text = 'ab😀cd';
    expect(unitEnd(text, 0, 2)).toBe(2);
    // the pair takes units 2 and 3: a cut after unit 2 backs off
    expect(unitEnd(text, 0, 3)).toBe(2);
    expect(unitEnd(text, 0, 4)).toBe(4);
    expect(unitEnd(text, 1, 2)).toBe(2);
    expect(unitEnd(text, 4, 10)).toBe(text.length);
  });

  it('cuts at the end of the text whatever its last unit', () => {
    expect(unitEnd('a\ud83d', 0, 5)).toBe(2);
  });
});

describe('leadingUnits', () => {
  it('answers the text itself when short enough, else its first units without half a pair', () => {
    expect(leadingUnits('abc', 3)).toBe('abc');
    expect(leadingUnits('a😀b', 2)).toBe('a');
    expect(leadingUnits('a😀b', 3)).toBe('a😀');
    expect(new TextEncoder().encode(leadingUnits('😀'.repeat(10), 7))).toEqual(new TextEncoder().encode('😀'.repeat(3)));
  });
});

describe('codePointCount and unitIndexOf', () => {
  it('count and find code points as spreading the string does, a lone surrogate being one', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const units = ['a', 'é', '😀', '\ud83d', '\ude00', '\u0000'];
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: Math.floor(random() * 12) }, () => units[Math.floor(random() * units.length)]).join('');
      const points = [...text];
      expect(codePointCount(text), JSON.stringify(text)).toBe(points.length);
      for (let n = 0; n <= points.length + 1; n++) {
        const at = unitIndexOf(text, n);
        expect(at).toBe(points.slice(0, n).join('').length);
        expect(codePointCount(text, 0, at)).toBe(Math.min(n, points.length));
        if (n <= points.length) expect(unitIndexOf(text, 1, at)).toBe(points.slice(0, n + 1).join('').length);
      }
    }
  });
});
