// Edit distances of the "did you mean" hints: strsim's unrestricted Damerau–Levenshtein and the
// optimal string alignment variant, over code points.
import { describe, expect, it } from 'vitest';
import { damerauLevenshtein, osaDistance } from '../../../src/types/edit-distance.js';

describe('damerauLevenshtein', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', 'abc', 0],
    ['sart', 'sort', 1],
    ['ab', 'ba', 1],
    ['expires_at', 'expiresAt', 2],
    // Unrestricted variant: a transposed pair can still be edited (OSA would give 3).
    ['ca', 'abc', 2],
    ['attributesToHighloght', 'attributesToHighlight', 1],
  ])('measures %j → %j as %i', (a, b, distance) => {
    expect(damerauLevenshtein(a, b)).toBe(distance);
    expect(damerauLevenshtein(b, a)).toBe(distance);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(damerauLevenshtein('😀a', 'a😀')).toBe(1);
  });
});

describe('osaDistance', () => {
  it.each([
    ['', 'abc', 3],
    ['_vectors', '_vectros', 1],
    ['userProvided', 'userprovided', 1],
    // a transposed pair is not edited again (the unrestricted distance gives 2)
    ['ca', 'abc', 3],
  ])('measures %j → %j as %i', (a, b, distance) => {
    expect(osaDistance(a, b)).toBe(distance);
    expect(osaDistance(b, a)).toBe(distance);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(osaDistance('😀a', 'a😀')).toBe(1);
  });
});
