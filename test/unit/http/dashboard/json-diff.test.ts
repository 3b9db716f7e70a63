// The dashboard's pure helpers (browser modules without DOM use): the settings diff and the
// duration display.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain browser ES module, without types
import { duration, durationSeconds } from '../../../../src/http/dashboard/format.js';
// @ts-expect-error: a plain browser ES module, without types
import { jsonDiff } from '../../../../src/http/dashboard/json-diff.js';

describe('jsonDiff', () => {
  it('compares objects key by key and arrays as whole values', () => {
    const defaults = { rankingRules: ['words', 'typo'], typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } }, distinctAttribute: null };
    const current = { rankingRules: ['typo', 'words'], typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 9 } }, distinctAttribute: null, chat: {} };
    expect(jsonDiff(defaults, current)).toEqual([
      { path: 'rankingRules', from: ['words', 'typo'], to: ['typo', 'words'] },
      { path: 'typoTolerance.minWordSizeForTypos.oneTypo', from: 5, to: 4 },
      { path: 'chat', from: undefined, to: {} },
    ]);
  });

  it('finds nothing between equal values', () => {
    expect(jsonDiff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });
});

describe('duration', () => {
  it("reads Meilisearch's ISO 8601 durations", () => {
    expect(durationSeconds('PT0.012345S')).toBeCloseTo(0.012345);
    expect(durationSeconds('P1DT2H3M4.5S')).toBe(93784.5);
    expect(durationSeconds(null)).toBeNull();
  });

  it('shows milliseconds, seconds or minutes', () => {
    expect(duration('PT0.0051S')).toBe('5.10 ms');
    expect(duration('PT0.4511S')).toBe('451 ms');
    expect(duration('PT1.75S')).toBe('1.75 s');
    expect(duration('PT3M5S')).toBe('3 min 5 s');
    expect(duration(null)).toBe('—');
  });
});
