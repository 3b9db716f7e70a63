// Cutting strings by UTF-16 units without leaving half a surrogate pair.
import { describe, expect, it } from 'vitest';
import { leadingUnits, unitEnd } from '../../../src/types/utf16.js';

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
