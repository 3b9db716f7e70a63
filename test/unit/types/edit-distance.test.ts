// Edit distances of the "did you mean" hints: strsim's unrestricted Damerau–Levenshtein and the
// optimal string alignment variant, over code points.
import { describe, expect, it } from 'vitest';
import { damerauLevenshtein, osaWithin } from '../../../src/types/edit-distance.js';

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

/** The whole matrix of the optimal string alignment distance: the oracle of the banded `osaWithin`. */
function osaDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const rows = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[x.length]![y.length]!;
}

describe('osaWithin', () => {
  it.each([
    ['', 'abc', 3],
    ['_vectors', '_vectros', 1],
    ['userProvided', 'userprovided', 1],
    // a transposed pair is not edited again (the unrestricted distance gives 2)
    ['ca', 'abc', 3],
    ['😀a', 'a😀', 1],
  ])('says whether %j → %j (distance %i) is within each limit, over code points', (a, b, distance) => {
    for (let limit = 0; limit <= 4; limit++) {
      expect(osaWithin(a, b, limit)).toBe(distance <= limit);
      expect(osaWithin(b, a, limit)).toBe(distance <= limit);
    }
  });

  it('agrees with the whole matrix on random strings', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const word = () => Array.from({ length: Math.floor(random() * 9) }, () => 'abcé😀'[Math.floor(random() * 5)]).join('');
    for (let round = 0; round < 3000; round++) {
      const [a, b, limit] = [word(), word(), Math.floor(random() * 4)];
      expect(osaWithin(a, b, limit), `${a} ${b} ${limit}`).toBe(osaDistance(a, b) <= limit);
    }
  });

  it('answers for names of tens of thousands of characters, in a band of the matrix', () => {
    const long = 'x'.repeat(40_000);
    expect(osaWithin(`${long}ab`, `${long}ba`, 2)).toBe(true);
    expect(osaWithin(`${long}abc`, `${long}xyz`, 2)).toBe(false);
    expect(osaWithin(long, `${long}yyy`, 2)).toBe(false);
  });
});
