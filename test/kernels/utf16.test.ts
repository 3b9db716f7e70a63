import { describe, expect, it } from 'vitest';
import { isSurrogatePair } from '../../src/kernels/utf16.js';

describe('isSurrogatePair', () => {
  it('is true at the high half of a pair only', () => {
    const text = 'a😀b';
    expect([0, 1, 2, 3].map((at) => isSurrogatePair(text, at))).toEqual([false, true, false, false]);
  });

  it('is false for a lone half and past the end', () => {
    expect(isSurrogatePair('\ud83dx', 0)).toBe(false);
    expect(isSurrogatePair('x\ude00', 0)).toBe(false);
    expect(isSurrogatePair('\ud83d', 0)).toBe(false);
    expect(isSurrogatePair('', 0)).toBe(false);
  });
});
