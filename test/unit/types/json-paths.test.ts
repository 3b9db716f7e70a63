// A document's field paths measured in its JSON text (keys joined by dots, arrays adding none),
// before anything parses it: the first key past the bound is found, nothing else is.
import { describe, expect, it } from 'vitest';
import { longPathAt, MAX_FIELD_PATH_BYTES } from '../../../src/types/json-paths.js';

const at = (text: string) => longPathAt(Buffer.from(text));
const name = (n: number, c = 'k') => c.repeat(n);

describe('longPathAt', () => {
  it('finds a top-level key one byte past the bound, at its quote, and passes one at the bound', () => {
    const over = `{"id":1,"${name(MAX_FIELD_PATH_BYTES + 1)}":1}`;
    expect(at(over)).toBe(over.indexOf('"k'));
    expect(at(`{"id":1,"${name(MAX_FIELD_PATH_BYTES)}":1}`)).toBe(-1);
    // whitespace before the colon does not hide a key
    expect(at(`{ "${name(MAX_FIELD_PATH_BYTES + 1)}" \n : 1}`)).toBe(2);
  });

  it('counts a nested path with its dots, through arrays, and resets it for the next sibling', () => {
    const nest = (depth: number, inArrays = false) => {
      let text = '1';
      for (let d = depth; d > 0; d--) text = inArrays ? `[{"${name(1000, String.fromCharCode(96 + d))}":${text}}]` : `{"${name(1000, String.fromCharCode(96 + d))}":${text}}`;
      return `{"id":1,"v":${text}}`;
    };
    // "v" and 16 keys of 1,000 bytes, each after a dot: 1 + 16 × 1,001 = 16,017 bytes; a 17th key makes 17,018
    expect(at(nest(17))).toBe(nest(17).lastIndexOf('{"') + 1);
    expect(at(nest(16))).toBe(-1);
    expect(at(nest(17, true))).toBe(nest(17, true).lastIndexOf('{"') + 1);
    expect(at(nest(16, true))).toBe(-1);
    const siblings = `{"a":{"${name(16_000)}":1},"b":[{"${name(16_000, 'x')}":1}]}`;
    expect(at(siblings)).toBe(-1);
  });

  it('does not count string values, nor keys of values that are not objects', () => {
    expect(at(`{"id":1,"v":"${name(40_000)}","w":["${name(20_000)}"]}`)).toBe(-1);
    expect(at(`["${name(20_000)}", 1]`)).toBe(-1);
  });

  it('counts a key as its text writes it, escapes included', () => {
    const escaped = `{"${'\\"'.repeat(8192)}":1}`;
    expect(at(escaped)).toBe(1);
  });
});
