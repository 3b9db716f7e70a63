// milli's bucketed word position: exact below 16, 24 below 24, then the next power of two.
import { describe, expect, it } from 'vitest';

import { bucketedPosition } from '../../../../src/engine/search/bucketed-position.js';

describe('bucketedPosition', () => {
  it('keeps positions below 16, puts 16-23 at 24, and rounds the rest up to a power of two', () => {
    expect([0, 1, 15].map(bucketedPosition)).toEqual([0, 1, 15]);
    expect([16, 23, 24].map(bucketedPosition)).toEqual([24, 24, 32]);
    expect([31, 32, 33, 64, 65, 1000, 1024, 1025, 65535].map(bucketedPosition)).toEqual([32, 32, 64, 64, 128, 1024, 1024, 2048, 65536]);
  });

  it('agrees with the power of two above every position a posting can hold', () => {
    for (let position = 24; position <= 0xffff; position++) {
      expect(bucketedPosition(position)).toBe(2 ** Math.ceil(Math.log2(position)));
    }
  });
});
