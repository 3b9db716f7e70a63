// The ranking's scratch (src/engine/search/scratch.ts): arrays come zeroed, stay intact for the
// length of their call whatever is taken after them (a new chunk included), are reused once it
// returns, and cannot be taken outside a call.
import { describe, expect, it } from 'vitest';

import { scratchInt32, scratchUint16, scratchUint32, scratchUint8, withScratch } from '../../../../src/engine/search/scratch.js';

describe('the ranking scratch', () => {
  it('hands out zeroed arrays, also where an earlier call wrote', () => {
    withScratch(() => scratchInt32(1000).fill(-1));
    withScratch(() => {
      expect(scratchInt32(1000).every((v) => v === 0)).toBe(true);
      expect(scratchUint16(7).every((v) => v === 0)).toBe(true);
    });
  });

  it('fills an array with the value asked for, where an earlier call wrote', () => {
    withScratch(() => scratchUint16(9).fill(3));
    withScratch(() => {
      expect(Array.from(scratchUint16(9, 0xffff))).toEqual(new Array(9).fill(0xffff));
      expect(Array.from(scratchUint8(5, 7))).toEqual([7, 7, 7, 7, 7]);
    });
  });

  it('lays byte arrays of odd lengths so that the wider arrays after them stay aligned', () => {
    withScratch(() => scratchUint8(1001).fill(255));
    withScratch(() => {
      const bytes = scratchUint8(1001);
      expect(bytes.every((v) => v === 0)).toBe(true);
      const words = scratchUint32(3).fill(5);
      expect(words.byteOffset % 4).toBe(0);
      expect(bytes.every((v) => v === 0)).toBe(true);
      expect(Array.from(words)).toEqual([5, 5, 5]);
    });
  });

  it('keeps each array intact while its call runs, past the first chunk', () => {
    withScratch(() => {
      const arrays = Array.from({ length: 40 }, (_, i) => scratchUint32(20_000 + i).fill(i + 1));
      arrays.forEach((array, i) => {
        expect(array.length).toBe(20_000 + i);
        expect(array.every((v) => v === i + 1)).toBe(true);
      });
    });
  });

  it('takes back what a nested call took, and only that, when it returns', () => {
    withScratch(() => {
      const outer = scratchUint32(16).fill(7);
      const inner = withScratch(() => {
        const array = scratchUint32(16).fill(9);
        return { buffer: array.buffer, at: array.byteOffset };
      });
      const again = scratchUint32(16);
      expect([again.buffer, again.byteOffset]).toEqual([inner.buffer, inner.at]);
      expect(outer.every((v) => v === 7)).toBe(true);
    });
  });

  it('refuses to hand out an array outside a call', () => {
    expect(() => scratchInt32(4)).toThrow(/outside withScratch/);
  });
});
