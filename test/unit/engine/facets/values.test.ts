import { describe, expect, it } from 'vitest';
import {
  MAX_FACET_VALUE_BYTES,
  normalizeFacet,
  orderedF64,
  parseFiniteFloat,
  readOrderedF64,
  rustFloat,
  truncateFacet,
} from '../../../../src/engine/facets/values.js';

describe('normalizeFacet', () => {
  it('trims, decomposes (NFKD) and lowercases, keeping accents as combining marks', () => {
    expect(normalizeFacet('  PÉSTI\t')).toBe('pe\u0301sti');
    expect(normalizeFacet('ﬁ')).toBe('fi');
    expect(normalizeFacet('pesti')).not.toBe(normalizeFacet('pésti'));
  });

  it('trims Unicode White_Space like Rust, but not the BOM', () => {
    expect(normalizeFacet('\u00a0a\u2003')).toBe('a');
    expect(normalizeFacet('\ufeffa')).toBe('\ufeffa');
  });
});

describe('truncateFacet', () => {
  it('keeps short values and cuts long ones on a character boundary', () => {
    expect(truncateFacet('short')).toBe('short');
    const long = 'é'.repeat(300); // 2 bytes each
    expect(Buffer.byteLength(truncateFacet(long))).toBe(MAX_FACET_VALUE_BYTES);
    const odd = `a${'€'.repeat(200)}`; // 1 + 3n bytes: 468 falls inside a character
    const cut = truncateFacet(odd);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MAX_FACET_VALUE_BYTES);
    expect(cut).toBe(`a${'€'.repeat(155)}`);
  });
});

describe('parseFiniteFloat', () => {
  it('reads the numbers Rust reads', () => {
    expect(['12', '-1', '+.5', '12.', '1e3', '1E-2', '0012'].map(parseFiniteFloat)).toEqual([12, -1, 0.5, 12, 1000, 0.01, 12]);
  });

  it('refuses what Rust refuses, and infinities', () => {
    expect(['', '.', 'e5', '0x10', ' 1', '1_0', 'inf', 'NaN', 'Infinity', '1e400', '12a'].map(parseFiniteFloat)).toEqual(
      Array(11).fill(null),
    );
  });
});

describe('rustFloat', () => {
  it('prints f64 like Rust Display: no exponent, -0 kept', () => {
    expect([250, -110, 0.5, 1e21, 1.5e-7, -0, 90.000001].map(rustFloat)).toEqual([
      '250',
      '-110',
      '0.5',
      '1000000000000000000000',
      '0.00000015',
      '-0',
      '90.000001',
    ]);
  });
});

describe('orderedF64', () => {
  it('orders bytes like the numbers, and reads back', () => {
    const numbers = [-Number.MAX_VALUE, -1e10, -1.5, -Number.MIN_VALUE, 0, Number.MIN_VALUE, 1, 1.5, 2, 1e10, Number.MAX_VALUE];
    const keys = numbers.map((n) => orderedF64(n));
    const sorted = [...keys].sort(Buffer.compare);
    expect(sorted.map((key) => readOrderedF64(key, 0))).toEqual(numbers);
    expect(orderedF64(-0)).toEqual(orderedF64(0));
  });
});
