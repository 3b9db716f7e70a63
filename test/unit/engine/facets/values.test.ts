import { describe, expect, it } from 'vitest';
import {
  facetKey,
  MAX_FACET_VALUE_BYTES,
  normalizeFacet,
  orderedF64,
  parseFiniteFloat,
  readOrderedF64,
  rustFloat,
  truncateFacet,
} from '../../../../src/engine/facets/values.js';
import { mulberry32 } from '../../../helpers/random.js';

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

describe('facetKey', () => {
  const reference = (value: string) => truncateFacet(normalizeFacet(value));

  it('is the truncated normal form of long ASCII values, their edges trimmed, whatever follows the cut', () => {
    const head = 'Ab'.repeat(MAX_FACET_VALUE_BYTES);
    for (const value of [head, ` \u3000${head}`, `${head}\u00a0 `, `${head.slice(0, MAX_FACET_VALUE_BYTES)}\u0301Σ`, `${head.slice(0, MAX_FACET_VALUE_BYTES)}İ`, `${head.slice(0, MAX_FACET_VALUE_BYTES)}\uD800`]) {
      expect(facetKey(value)).toBe(reference(value));
    }
    expect(facetKey(head)).toBe(head.slice(0, MAX_FACET_VALUE_BYTES).toLowerCase());
    // the cap or less before trailing spaces: nothing follows the cut, and the spaces are no part of the key
    for (const length of [MAX_FACET_VALUE_BYTES, MAX_FACET_VALUE_BYTES - 70]) {
      const spaced = `${'a'.repeat(length - 1)}B${' '.repeat(600)}`;
      expect(facetKey(spaced)).toBe(reference(spaced));
    }
  });

  it('matches truncateFacet(normalizeFacet()) on random values around the cap', () => {
    const random = mulberry32(20261207);
    const pieces = ['a', 'Z', ' ', '\t', '\u00a0', '\u2003', 'é', 'e\u0301', '\u0301', '\u0344', 'ﬁ', 'Σ', 'ς', 'İ', '😀', '\uD800', 'ｶ', '\uFF9E', '한', '1'];
    for (let round = 0; round < 3_000; round++) {
      const ascii = Math.floor(random() * (MAX_FACET_VALUE_BYTES + 40));
      let value = '';
      for (let i = Math.floor(random() * 4); i > 0; i--) value += pieces[Math.floor(random() * 6) + 2]!;
      for (let i = 0; i < ascii; i++) value += random() < 0.9 ? String.fromCharCode(33 + Math.floor(random() * 94)) : ' ';
      for (let i = Math.floor(random() * 12); i > 0; i--) value += pieces[Math.floor(random() * pieces.length)]!;
      expect(facetKey(value), JSON.stringify(value)).toBe(reference(value));
    }
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
