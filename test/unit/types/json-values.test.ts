// The count of a JSON text's values before it is parsed: commas and opening brackets outside
// strings, up to a bound.
import { describe, expect, it } from 'vitest';
import { holdsMoreValuesThan } from '../../../src/types/json-values.js';

const more = (text: string, max: number) => holdsMoreValuesThan(Buffer.from(text), max);

describe('holdsMoreValuesThan', () => {
  it('counts commas and opening brackets outside strings', () => {
    expect(more('[1,2,3]', 3)).toBe(false); // [ , ,
    expect(more('[1,2,3,4]', 3)).toBe(true);
    expect(more('{"a":[{},{}]}', 5)).toBe(false); // { [ { , {
    expect(more('{"a":[{},{}]}', 4)).toBe(true);
  });

  it('skips commas and brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ q: ',,,[[[{{{'.repeat(1000), r: 'a\\",[,{"' });
    expect(more(text, 2)).toBe(false);
    expect(more(`[${text},${text}]`, 2)).toBe(true);
  });

  it('answers false for a text of few such bytes anywhere, and for an unterminated string', () => {
    expect(more('"just a string"', 0)).toBe(false);
    expect(more('["unterminated,,,,', 1)).toBe(false);
  });

  it('finds a million values past a bound of a thousand', () => {
    expect(more(JSON.stringify(Array.from({ length: 1_000_000 }, () => 0)), 1_000)).toBe(true);
  });
});
