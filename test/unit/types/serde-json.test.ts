import { describe, expect, it } from 'vitest';
import { anyValue, enumVariant, fromSlice, i64, option, seq, string, struct, type Read } from '../../../src/types/serde-json.js';
import { ryu } from '../../../src/types/ryu.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const errorOf = <T>(text: string, read: Read<T>): string => {
  try {
    fromSlice(bytes(text), read);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a serde error');
};

const point = struct('Point', [
  { name: 'x', read: i64 },
  { name: 'label', read: option(string()), optional: true },
]);

describe('struct', () => {
  it('reads fields in any order, skips unknown ones and leaves optional ones out', () => {
    expect(fromSlice(bytes('{"other":[1,{"a":null}],"x":-3}'), point)).toEqual({ x: -3n });
    expect(fromSlice(bytes(' {"label":"a","x":1} '), point)).toEqual({ x: 1n, label: 'a' });
  });

  it('positions a missing field after the closing brace', () => {
    expect(errorOf('{"tamo":"kefir"}', point)).toBe('missing field `x` at line 1 column 16');
  });

  it('positions a duplicate field where the reader stopped, before its colon', () => {
    expect(errorOf('{"x":1,"x" :2}', point)).toBe('duplicate field `x` at line 1 column 12');
  });

  it('reads the array form field by field', () => {
    expect(fromSlice(bytes('[1,null]'), point)).toEqual({ x: 1n, label: undefined });
    expect(errorOf('[1]', point)).toBe('invalid length 1, expected struct Point with 2 elements at line 1 column 3');
  });

  it('names the unexpected value and the expected type', () => {
    expect(errorOf('{"x":"12"}', point)).toBe('invalid type: string "12", expected i64 at line 1 column 10');
    expect(errorOf('{"x":1.5}', point)).toBe('invalid type: floating point `1.5`, expected i64 at line 1 column 9');
    expect(errorOf('{"x":9223372036854775808}', point)).toBe(
      'invalid value: integer `9223372036854775808`, expected i64 at line 1 column 25',
    );
    expect(errorOf('{"x":[1]}', point)).toBe('invalid type: sequence, expected i64 at line 1 column 6');
    expect(errorOf('{"x":null}', point)).toBe('invalid type: null, expected i64 at line 1 column 10');
    expect(errorOf('"x"', point)).toBe('invalid type: string "x", expected struct Point at line 1 column 3');
  });

  it('reports syntax errors where serde_json meets them', () => {
    expect(errorOf('', point)).toBe('EOF while parsing a value at line 1 column 0');
    expect(errorOf('{"x":1', point)).toBe('EOF while parsing an object at line 1 column 6');
    expect(errorOf('{"x":1,}', point)).toBe('trailing comma at line 1 column 8');
    expect(errorOf('{"x" 1}', point)).toBe('expected `:` at line 1 column 6');
    expect(errorOf('{x:1}', point)).toBe('key must be a string at line 1 column 2');
    expect(errorOf('{"x":1} x', point)).toBe('trailing characters at line 1 column 9');
    expect(errorOf('{\n"x":01}', point)).toBe('invalid number at line 2 column 6');
  });
});

describe('scalars', () => {
  it('refuses unknown enum variants with the list of variants', () => {
    expect(errorOf('"none"', enumVariant(['HS256', 'HS384', 'HS512']))).toBe(
      'unknown variant `none`, expected one of `HS256`, `HS384`, `HS512` at line 1 column 6',
    );
  });

  it('stamps a string check failure after the string', () => {
    const uuid = string('a UUID string', (v) => (v === 'ok' ? undefined : 'UUID parsing failed: nope'));
    expect(errorOf('"bad"', uuid)).toBe('UUID parsing failed: nope at line 1 column 5');
    expect(errorOf('12', uuid)).toBe('invalid type: integer `12`, expected a UUID string at line 1 column 2');
  });

  it('buffers any value', () => {
    expect(fromSlice(bytes('[true,"\\u00e9\\ud83d\\ude00",{"a":-1.5e3}]'), anyValue)).toEqual({
      kind: 'seq',
      items: [
        { kind: 'bool', value: true },
        { kind: 'string', value: 'é😀' },
        { kind: 'map', entries: [['a', { kind: 'f64', value: -1500, text: '-1.5e3' }]] },
      ],
    });
    expect(fromSlice(bytes('["a"]'), seq(string()))).toEqual(['a']);
  });
});

describe('ryu', () => {
  it('prints floats like the ryu crate', () => {
    expect(ryu(1.5)).toBe('1.5');
    expect(ryu(100)).toBe('100.0');
    expect(ryu(1e16)).toBe('1e16');
    expect(ryu(1.2e17)).toBe('1.2e17');
    expect(ryu(0.001)).toBe('0.001');
    expect(ryu(1e-7)).toBe('1e-7');
    expect(ryu(-2.5e-10)).toBe('-2.5e-10');
    expect(ryu(18446744073709552000)).toBe('1.8446744073709552e19');
  });
});

describe('recursion limit', () => {
  it('reads 127 open arrays and objects and refuses the 128th where it opens, as serde_json', () => {
    expect(fromSlice(bytes('['.repeat(127) + ']'.repeat(127)), anyValue)).toMatchObject({ kind: 'seq' });
    expect(errorOf('['.repeat(128) + ']'.repeat(128), anyValue)).toBe('recursion limit exceeded at line 1 column 128');
    expect(errorOf('{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000), anyValue)).toBe('recursion limit exceeded at line 1 column 636');
  });

  it('counts structs and sequences too', () => {
    const deep = `{"x":1,"other":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(errorOf(deep, point)).toBe('recursion limit exceeded at line 1 column 142');
    expect(errorOf('['.repeat(20_000), seq(anyValue))).toBe('recursion limit exceeded at line 1 column 128');
  });
});

describe('strings', () => {
  it('reads escapes between raw runs, and every JSON.stringify output the same as JSON.parse', () => {
    const samples = ['', 'plain', 'a"b\\c/d\b\f\n\r\t', 'é\u0000\u001f', '😀 and \ud83d\ude00', 'x'.repeat(100_000) + '\n' + 'é'.repeat(50_000)];
    for (const sample of samples) expect(fromSlice(bytes(JSON.stringify(sample)), string())).toBe(sample);
    expect(fromSlice(bytes('"\\u00e9t\\u00e9 \\/ \\ud83d\\ude00"'), string())).toBe('été / 😀');
  });

  it('refuses invalid UTF-8 inside a string at its start, and a control character where it stands', () => {
    const invalid = Buffer.concat([bytes('"ok '), Buffer.from([0xc3]), bytes('"')]);
    expect(() => fromSlice(invalid, string())).toThrow('invalid unicode code point at line 1 column 1');
    expect(errorOf('"ab\ncd"', string())).toBe('control character (\\u0000-\\u001F) found while parsing a string at line 2 column 0');
  });
});
