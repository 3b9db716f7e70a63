// The phrase rule of phrase.ts on hand-made places (field << 16 | position): the pairs of 3-word
// windows a phrase needs, and which documents meet them (v1.50's compute_phrase_docids).
import { describe, expect, it } from 'vitest';
import { pairMet, phraseMet, phrasePairs } from '../../../../src/engine/search/phrase.js';

const at = (field: number, ...positions: number[]) => positions.map((p) => (field << 16) | p);

describe('phrasePairs', () => {
  it('needs each adjacent pair at distance 1 and each window’s outer pair within 2', () => {
    expect(phrasePairs(['the', 'quick', 'brown', 'fox'])).toEqual([
      { left: 0, right: 1, within: 1 },
      { left: 0, right: 2, within: 2 },
      { left: 1, right: 2, within: 1 },
      { left: 1, right: 3, within: 2 },
      { left: 2, right: 3, within: 1 },
    ]);
  });

  it('gives a stop-word hole no pair, and a two-word phrase its one pair', () => {
    expect(phrasePairs(['how', null, 'train'])).toEqual([{ left: 0, right: 2, within: 2 }]);
    expect(phrasePairs(['a', null, null, 'b'])).toEqual([]);
    expect(phrasePairs(['sun', 'flower'])).toEqual([{ left: 0, right: 1, within: 1 }]);
    expect(phrasePairs(['sun'])).toEqual([]);
  });
});

describe('pairMet', () => {
  it('needs the right word after the left one, within the distance, in the same field', () => {
    expect(pairMet(at(0, 3), at(0, 4), 1, false)).toBe(true);
    expect(pairMet(at(0, 3), at(0, 5), 1, false)).toBe(false);
    expect(pairMet(at(0, 3), at(0, 5), 2, false)).toBe(true);
    // reversed order never counts
    expect(pairMet(at(0, 4), at(0, 3), 2, false)).toBe(false);
    // other fields never pair, whatever their positions
    expect(pairMet(at(0, 3), at(1, 4), 2, false)).toBe(false);
    expect(pairMet([...at(0, 3), ...at(1, 9)], [...at(0, 20), ...at(1, 10)], 1, false)).toBe(true);
  });

  it('with byAttribute, needs only both words in one field', () => {
    expect(pairMet(at(0, 9), at(0, 2), 1, true)).toBe(true);
    expect(pairMet(at(0, 9), at(1, 2), 1, true)).toBe(false);
  });
});

describe('phraseMet', () => {
  const words = ['the', 'quick', 'brown', 'fox'];
  const pairs = phrasePairs(words);
  const met = (places: number[][]) => phraseMet(pairs, (offset) => places[offset]!, false);

  it('accepts the phrase as one run', () => {
    expect(met([at(0, 0), at(0, 1), at(0, 2), at(0, 3)])).toBe(true);
  });

  it('accepts each window met at its own place, as in "the quick brown. quick brown fox."', () => {
    // the@0 quick@1,10 brown@2,11 fox@12 (a hard separator adds 8)
    expect(met([at(0, 0), at(0, 1, 10), at(0, 2, 11), at(0, 12)])).toBe(true);
  });

  it('refuses a window whose words are not in order', () => {
    // "the brown quick fox"
    expect(met([at(0, 0), at(0, 2), at(0, 1), at(0, 3)])).toBe(false);
  });
});
