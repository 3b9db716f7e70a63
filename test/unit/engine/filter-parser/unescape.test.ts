import { describe, expect, it } from 'vitest';
import { unescapeValue } from '../../../../src/engine/filter-parser/unescape.js';

describe('unescapeValue', () => {
  it.each([
    ['plain', 'plain'],
    ['a\\\\b', 'a\\b'],
    ['\\n\\t\\r\\b\\f', '\n\t\r\b\f'],
    ["\\'\\\"\\/", '\'"/'],
    ['\\x41\\xff', 'Aÿ'],
    ['\\x+f', '\u000f'],
    ['\\u00e9', 'é'],
    ['\\u{1F600}', '😀'],
    ['\\u{41', 'A'],
    ['\\101\\7x', 'A\u0007x'],
    ['\\0', '\0'],
    ['\\3777', 'ÿ7'],
    ['🐻\\n', '🐻\n'],
  ])('decodes %j', (input, expected) => {
    expect(unescapeValue(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['\\', 'incomplete'],
    ['\\x', 'incomplete'],
    ['\\x4', 'incomplete'],
    ['\\u', 'incomplete'],
    ['\\u12', 'incomplete'],
    ['\\xZZ', 'number'],
    ['\\x-1', 'number'],
    ['\\u{}', 'number'],
    ['\\u{+}', 'number'],
    ['\\u{1F600 }', 'number'],
    ['\\u{FFFFFFFFF}', 'number'],
    ['\\u{110000}', 'char'],
    ['\\uD800', 'char'],
    ['\\q', 'char'],
    ['\\8', 'char'],
    ['\\v', 'char'],
  ])('rejects %j as %s', (input, reason) => {
    expect(unescapeValue(input)).toEqual({ ok: false, reason });
  });
});
