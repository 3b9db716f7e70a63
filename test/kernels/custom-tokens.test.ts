// Compiling separatorTokens / nonSeparatorTokens / dictionary for the tokenizer: milli's allowed
// separators, what counts as "nothing custom", the cache, and the rules region the kernel checks.
// Tokenization with custom tokens (kernel against reference) is in tokenizer.test.ts.
import { describe, expect, it } from 'vitest';

import {
  customTokens,
  OVERRIDE_KIND_SHIFT,
  OVERRIDE_RECORD_U32,
  OVERRIDE_SEPARATOR,
  PATTERN_RECORD_U32,
  RULES_HEADER_U32,
  RULES_INDEX_U32,
  type TokenizerSettings,
} from '../../src/kernels/custom-tokens.js';
import { DEFAULT_SEPARATORS } from '../../src/kernels/charabia-data.js';
import { tokenizeBatch, TokenKind } from '../../src/kernels/tokenizer.js';

const compile = (settings: Partial<TokenizerSettings>) =>
  customTokens({ separatorTokens: [], nonSeparatorTokens: [], dictionary: [], ...settings });

describe('customTokens', () => {
  it("takes milli's allowed separators: the defaults plus separatorTokens minus nonSeparatorTokens", () => {
    const custom = compile({ separatorTokens: ['&sep', '|'], nonSeparatorTokens: ['#', '|', '&sep', ''], dictionary: ['C#', ''] })!;
    expect(custom.separators.has('&sep')).toBe(false);
    expect(custom.separators.has('|')).toBe(false);
    expect(custom.separators.has('#')).toBe(false);
    expect(custom.separators.size).toBe(new Set(DEFAULT_SEPARATORS).size - 1);
    expect([...custom.dictionary]).toEqual(['C#']);
  });

  it('compiles to nothing when the settings tokenize like the defaults, and caches by value', () => {
    expect(compile({})).toBeUndefined();
    expect(compile({ separatorTokens: ['-', ''], nonSeparatorTokens: ['not a separator'] })).toBeUndefined();
    const settings = { nonSeparatorTokens: ['#'], dictionary: ['C#'] };
    expect(compile(settings)).toBe(compile({ ...settings }));
  });

  it('packs multi-character tokens in byte order, a token before those it starts, and overrides for single characters', () => {
    const { rules } = compile({ separatorTokens: ['J.'], nonSeparatorTokens: ['#'], dictionary: ['J. R. R.', 'J. K.'] })!;
    const u32 = new Uint32Array(rules.buffer, rules.byteOffset, rules.byteLength >>> 2);
    const [patterns, overrides, poolBytes] = [u32[0]!, u32[1]!, u32[2]!];
    const patternAt = RULES_HEADER_U32 + RULES_INDEX_U32;
    const fixed = (patternAt + patterns * PATTERN_RECORD_U32 + overrides * OVERRIDE_RECORD_U32) * 4;
    expect(rules.byteLength).toBe(fixed + poolBytes);
    const decoder = new TextDecoder();
    const text = (i: number) => {
      const at = patternAt + i * PATTERN_RECORD_U32;
      return decoder.decode(rules.subarray(fixed + u32[at]!, fixed + u32[at]! + u32[at + 1]!));
    };
    const jFirst = u32[RULES_HEADER_U32 + 2 * 'J'.charCodeAt(0)]!;
    expect(u32[RULES_HEADER_U32 + 2 * 'J'.charCodeAt(0) + 1]).toBe(3);
    expect([text(jFirst), text(jFirst + 1), text(jFirst + 2)]).toEqual(['J.', 'J. K.', 'J. R. R.']);
    expect(u32[patternAt + jFirst * PATTERN_RECORD_U32 + 2]).toBe(TokenKind.SoftSeparator);
    // "#" and its compatibility forms "﹟" and "＃" turn into words; "#" is no longer cut out
    const overrideAt = patternAt + patterns * PATTERN_RECORD_U32;
    const entries = Array.from({ length: overrides }, (_, i) => [u32[overrideAt + 2 * i]!, u32[overrideAt + 2 * i + 1]!]);
    expect(entries).toEqual([
      [0x23, TokenKind.Word << OVERRIDE_KIND_SHIFT],
      [0xfe5f, OVERRIDE_SEPARATOR | (TokenKind.Word << OVERRIDE_KIND_SHIFT)],
      [0xff03, OVERRIDE_SEPARATOR | (TokenKind.Word << OVERRIDE_KIND_SHIFT)],
    ]);
  });

  it('is rejected by the kernel when the rules region is cut short', () => {
    const custom = compile({ dictionary: ['C#'] })!;
    expect(() => tokenizeBatch(['C#'], { custom: { ...custom, rules: custom.rules.subarray(0, custom.rules.length - 1) } })).toThrow(RangeError);
  });
});
