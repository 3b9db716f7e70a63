// The numbers a JSON text wrote as floats, marked on its parsed value so that they are written
// back as v1.50's serde_json writes an f64 (`9.0`, `1000.0`, `-0.0`), and nothing else.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/types/json-text.js';
import { stringifyReply } from '../../../src/types/reply-text.js';
import { markWrittenFloats } from '../../../src/types/written-floats.js';

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

  it('leaves a text with a key given twice unmarked rather than mark what JSON.parse dropped', () => {
    expect(roundTrip('{"a": {"x": 1.0}, "a": {"x": 1}, "b": 2.0}')).toBe('{"a":{"x":1},"b":2}');
  });

  it('follows a key named __proto__ as the field it is', () => {
    expect(roundTrip('{"__proto__": {"x": 2.0}, "y": [3.0]}')).toBe('{"__proto__":{"x":2.0},"y":[3.0]}');
  });
});
