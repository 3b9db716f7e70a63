// The nesting checks of payload lines and of edited documents: serde_json's 128 levels, counted
// over arrays and objects alike, brackets inside strings (escaped quotes included) not counted.
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_DEPTH, nestsTooDeep, tooDeepAt } from '../../../../src/engine/documents/depth.js';

const nested = (levels: number) => `{"f":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

describe('tooDeepAt', () => {
  it('accepts 128 levels and points at the bracket opening the 129th', () => {
    expect(tooDeepAt(Buffer.from(nested(MAX_DOCUMENT_DEPTH)))).toBe(-1);
    expect(tooDeepAt(Buffer.from(nested(MAX_DOCUMENT_DEPTH + 1)))).toBe('{"f":'.length + 127);
    expect(tooDeepAt(Buffer.from(`{"a":${'{"b":'.repeat(20_000)}1${'}'.repeat(20_000)}}`))).toBe(5 * 128);
  });

  it('counts siblings once: many brackets side by side are not deep', () => {
    expect(tooDeepAt(Buffer.from(`{"f":[${'[],'.repeat(1_000)}[]]}`))).toBe(-1);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(tooDeepAt(Buffer.from(JSON.stringify({ f: '['.repeat(1_000), g: '\\"{'.repeat(1_000) })))).toBe(-1);
    expect(tooDeepAt(Buffer.from(`{"s":"\\"[",${nested(MAX_DOCUMENT_DEPTH + 1).slice(1)}`))).toBe('{"s":"\\"[","f":'.length + 127);
  });
});

describe('nestsTooDeep', () => {
  /** A document nesting `levels` objects and arrays, its own braces included. */
  const wrapped = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = 1; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value };
    return { id: 1, f: value };
  };

  it('accepts 128 levels of objects and arrays, refuses 129, at any depth without recursion', () => {
    expect(nestsTooDeep(wrapped(MAX_DOCUMENT_DEPTH))).toBe(false);
    expect(nestsTooDeep(wrapped(MAX_DOCUMENT_DEPTH + 1))).toBe(true);
    expect(nestsTooDeep(wrapped(100_000))).toBe(true);
  });
});
