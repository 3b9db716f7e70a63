// The limits of applying rules, read from the environment as v1.50 reads them (search-rules/limits.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE_LIMITS, ruleLimitsFromEnv } from '../../../src/search-rules/limits.js';

describe('ruleLimitsFromEnv', () => {
  it('reads the four fuels of v1.50, either prefix, and refuses a value that is no integer', () => {
    expect(ruleLimitsFromEnv({ MEILI_EXPERIMENTAL_DSR_FUEL_MAX_PIN_ACTIONS: '3', QUARRY_EXPERIMENTAL_DSR_FUEL_WORD_FUEL: '7' })).toEqual({ ...DEFAULT_RULE_LIMITS, maxPinActions: 3, wordFuel: 7 });
    expect(() => ruleLimitsFromEnv({ MEILI_EXPERIMENTAL_DSR_FUEL_MAX_COUNTED_WORDS: '256' })).toThrow();
  });

  it('ignores the filter fuels v1.50 does not have', () => {
    const env = { MEILI_EXPERIMENTAL_DSR_FUEL_FILTER_FUEL: 'lots', MEILI_EXPERIMENTAL_DSR_FUEL_FILTER_OR_FUEL: 'x', MEILI_EXPERIMENTAL_DSR_FUEL_FILTER_DEPTH_FUEL: '-1' };
    expect(ruleLimitsFromEnv(env)).toEqual({ maxCountedWords: 10, maxActiveRules: 1000, maxPinActions: 100, wordFuel: 4096 });
  });
});
