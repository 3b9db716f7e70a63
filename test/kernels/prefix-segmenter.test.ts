// charabia's FstSegmenter (src/kernels/prefix-segmenter.ts) over a small word list: longest words
// first, and the characters where no word starts gathered without limit or one by one.
import { describe, expect, it } from 'vitest';

import { prefixWordStarts, wordTrie } from '../../src/kernels/prefix-segmenter.js';

const WORDS = wordTrie(['ab', 'abc', 'cd', 'x', 'ภาษา', 'ไทย']);
const pieces = (piece: string, maxUnmatched: number): string[] => {
  const cuts = [0, ...prefixWordStarts(WORDS, piece, maxUnmatched), piece.length];
  return cuts.slice(1).map((end, i) => piece.slice(cuts[i], end));
};

describe('prefixWordStarts', () => {
  it('takes the longest word at each position', () => {
    expect(pieces('abcd', Infinity)).toEqual(['abc', 'd']);
    expect(pieces('abxcd', Infinity)).toEqual(['ab', 'x', 'cd']);
    expect(pieces('ภาษาไทย', 1)).toEqual(['ภาษา', 'ไทย']);
  });

  it('gathers the characters where no word starts into one piece without a limit', () => {
    expect(pieces('qqqab', Infinity)).toEqual(['qqq', 'ab']);
    expect(pieces('abqqq', Infinity)).toEqual(['ab', 'qqq']);
  });

  it('cuts them one by one with a limit of one, a surrogate pair staying whole', () => {
    expect(pieces('qqqab', 1)).toEqual(['q', 'q', 'q', 'ab']);
    expect(pieces('ab😀q', 1)).toEqual(['ab', '😀', 'q']);
    expect(pieces('q😀', Infinity)).toEqual(['q😀']);
  });

  it('gives no start for an empty or one-character run', () => {
    for (const piece of ['', 'q', 'x', '😀']) expect(prefixWordStarts(WORDS, piece, 1)).toEqual([]);
  });
});
