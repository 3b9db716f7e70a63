import { describe, expect, it } from 'vitest';
import { isJsonObject, parseJson, stringifyJson } from '../../../src/types/json-text.js';

describe('parseJson', () => {
  it('reads text whose numbers are all within 2^53 exactly as JSON.parse does', () => {
    const text = '{"id":9007199254740991,"f":1.5,"e":1e300,"s":"x","a":[true,null,{"n":-0}]}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('keeps integers beyond 2^53 that fit 64 bits exact, as BigInt', () => {
    const doc = parseJson('{"u":14630868576586246730,"max":18446744073709551615,"min":-9223372036854775808,"edge":9007199254740993}') as Record<string, unknown>;
    expect(doc).toEqual({ u: 14630868576586246730n, max: 18446744073709551615n, min: -9223372036854775808n, edge: 9007199254740993n });
  });

  it('reads every other number as a double, even beside a long integer', () => {
    const doc = parseJson('{"big":18446744073709551616,"tiny":-9223372036854775809,"f":0.12345678901234567,"e":12345678901234567e2,"safe":1234567890123456,"u":14630868576586246730}') as Record<string, unknown>;
    expect(doc).toEqual({ big: 18446744073709551616, tiny: -9223372036854775809, f: 0.12345678901234567, e: 12345678901234567e2, safe: 1234567890123456, u: 14630868576586246730n });
  });

  it('leaves long digit runs inside strings as they are', () => {
    expect(parseJson('{"phone":"12345678901234567890","n":1}')).toEqual({ phone: '12345678901234567890', n: 1 });
  });

  it('keeps the last of duplicate keys at the first one\'s place and __proto__ as an own key, as JSON.parse does', () => {
    const text = '{"a":1,"b":12345678901234567890,"a":2,"__proto__":{"x":1}}';
    const doc = parseJson(text) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(Object.keys(JSON.parse(text)));
    expect(doc.a).toBe(2);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.hasOwn(doc, '__proto__')).toBe(true);
  });
});

describe('stringifyJson', () => {
  it('prints BigInt values as their digits, anywhere in the value', () => {
    expect(stringifyJson({ id: 14630868576586246730n, list: [-9223372036854775808n, 1], nested: { s: 'a"b' } })).toBe(
      '{"id":14630868576586246730,"list":[-9223372036854775808,1],"nested":{"s":"a\\"b"}}',
    );
  });

  it('prints what JSON.stringify prints for values without BigInt', () => {
    const value = { a: [1, 'x', null, undefined], b: undefined, c: new Date(0), d: '\ud800' };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it('round-trips parseJson', () => {
    const text = '{"primary":14630868576586246730,"content":"foo","n":-9223372036854775807}';
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('still refuses a circular value', () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    expect(() => stringifyJson(value)).toThrow(TypeError);
  });
});

describe('isJsonObject', () => {
  it('is true of objects only: not of null, arrays or scalars', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject({ a: [1] })).toBe(true);
    for (const value of [null, [], [{}], 'x', 1, 1n, true, undefined]) expect(isJsonObject(value)).toBe(false);
  });
});
