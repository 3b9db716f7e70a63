import { describe, expect, it } from 'vitest';
import { decodeRoaring, encodeRoaring } from '../../../src/dumps/roaring.js';

describe('roaring bitmaps in the portable format', () => {
  it('writes the bytes Meilisearch writes (dumps-snapshots-upgrade.md §3.4)', () => {
    expect(encodeRoaring([])).toEqual([58, 48, 0, 0, 0, 0, 0, 0]);
    expect(encodeRoaring([0])).toEqual([58, 48, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0]);
    expect(encodeRoaring([2, 1, 2])).toEqual([58, 48, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 16, 0, 0, 0, 1, 0, 2, 0]);
  });

  it('round-trips array and bitmap containers across several keys', () => {
    const values = [...Array.from({ length: 5000 }, (_, i) => i * 3), 70_000, 70_001, 4_000_000_000];
    expect(decodeRoaring(encodeRoaring(values))).toEqual(values);
  });

  it('reads the run-container format', () => {
    // cookie 12347 with one container, its run flag set, one run [5, 5+2]
    const bytes = [0x3b, 0x30, 0, 0, 0b1, 0, 0, 2, 0, 1, 0, 5, 0, 2, 0];
    expect(decodeRoaring(bytes)).toEqual([5, 6, 7]);
  });

  it('refuses bytes of no known format', () => {
    expect(() => decodeRoaring([1, 2, 3, 4, 0, 0, 0, 0])).toThrow(/not a roaring bitmap/);
  });
});
