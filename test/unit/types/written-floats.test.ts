// The numbers a JSON text wrote as floats, marked on its parsed value so that they are written
// back as v1.50's serde_json writes an f64 (`9.0`, `1000.0`, `-0.0`), and nothing else.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/types/json-text.js';
import { stringifyReply } from '../../../src/types/reply-text.js';
import { markWrittenFloats, numberEnd } from '../../../src/types/written-floats.js';
import { mulberry32 } from '../../helpers/random.js';

/** The text read as a stored document is read, then written as an answer. */
function roundTrip(text: string): string {
  const value = parseJson(text);
  markWrittenFloats(text, value);
  return stringifyReply(value);
}

describe('markWrittenFloats', () => {
  it('writes integral and tiny floats as serde does, wherever they are nested', () => {
    expect(roundTrip('{"id": 1, "r": 9.0, "s": 1e3, "t": 1.50, "u": -0.0, "z": -0, "v": [1.0, 2, {"w": 3.00}], "n": {"x": 1E2}}')).toBe(
      '{"id":1,"r":9.0,"s":1000.0,"t":1.5,"u":-0.0,"z":-0.0,"v":[1.0,2,{"w":3.0}],"n":{"x":100.0}}',
    );
    expect(roundTrip('{"tiny": 0.000001, "exp": 1.5e-7, "big": 1e16, "bigger": 1e21}')).toBe('{"tiny":1e-6,"exp":1.5e-7,"big":1e16,"bigger":1e21}');
  });

  it('keeps 64-bit integers as digits and writes an integer past them as the f64 serde reads', () => {
    expect(roundTrip('{"u64": 18446744073709551615, "past": 18446744073709551616, "i64": -9223372036854775808, "v": [18446744073709551616]}')).toBe(
      '{"u64":18446744073709551615,"past":1.8446744073709552e19,"i64":-9223372036854775808,"v":[1.8446744073709552e19]}',
    );
  });

  it('leaves integers, strings that look like floats and escaped keys as they are', () => {
    expect(roundTrip('{"a": 9, "s": "9.0 or 1e3 or -0", "k\\u0065y": 2.0, "e\\"q": [0.0]}')).toBe('{"a":9,"s":"9.0 or 1e3 or -0","key":2.0,"e\\"q":[0.0]}');
    expect(roundTrip('{"a": 9, "b": [1, 2], "c": 7.5}')).toBe('{"a":9,"b":[1,2],"c":7.5}');
  });

  it('finds the floats after strings that end in escaped quotes and backslashes, and none in strings alone', () => {
    expect(roundTrip('{"a": "x\\\\", "b": 9.0, "c": "say \\"1.0\\"", "d": [1e2, "\\\\\\"-0"], "e": -0}')).toBe(
      '{"a":"x\\\\","b":9.0,"c":"say \\"1.0\\"","d":[100.0,"\\\\\\"-0"],"e":-0.0}',
    );
    expect(roundTrip('{"a": "x\\\\", "b": 9.0}')).toBe('{"a":"x\\\\","b":9.0}');
    expect(roundTrip('{"version": "1.0.0", "e": "1e5", "z": "-0", "n": -1, "t": true, "f": [false, null, 7.5]}')).toBe(
      '{"version":"1.0.0","e":"1e5","z":"-0","n":-1,"t":true,"f":[false,null,7.5]}',
    );
  });

  it('takes a number token for a possible float exactly as the pattern it reads by hand would, and finds where it ends', () => {
    const pattern = /\d\.0+(?!\d)|\d[eE][+-]?\d|0\.00000\d|-0(?![\d.eE])|\d{20}/;
    const next = mulberry32(20_261_206);
    const alphabet = '0000000123456789.eE+-';
    const tokens = ['9.0', '1e3', '1E+5', '2e-7', '-0', '-0.5', '-01', '0.000001', '0.0000001', '0.00001', '1.005', '1.50', '12345678901234567890', '1234567890123456789', '7.5'];
    for (let i = 0; i < 50_000; i++) tokens.push(Array.from({ length: 1 + Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
    for (const token of tokens) {
      // inside a text, as the scan meets it: a token ends before a character no number holds
      const text = `[${token}]`;
      expect([token, numberEnd(text, 1)]).toEqual([token, pattern.test(token) ? -1 : 1 + token.length]);
    }
  });

  it('leaves a text with a key given twice unmarked rather than mark what JSON.parse dropped', () => {
    expect(roundTrip('{"a": {"x": 1.0}, "a": {"x": 1}, "b": 2.0}')).toBe('{"a":{"x":1},"b":2}');
  });

  it('follows a key named __proto__ as the field it is', () => {
    expect(roundTrip('{"__proto__": {"x": 2.0}, "y": [3.0]}')).toBe('{"__proto__":{"x":2.0},"y":[3.0]}');
  });
});
