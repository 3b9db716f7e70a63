import { describe, expect, it } from 'vitest';
import { debugFloat, formatFloat, fromJson, toJson, toDebug } from '../../../src/rhai/values.js';
import { edited, typed, value } from './run.js';

describe('JSON → Rhai', () => {
  it('maps integers to INT, other numbers to FLOAT, null to (), objects to maps', () => {
    const doc = { i: 3, big: 1e20, f: 1.5, s: 'x', b: true, n: null, a: [1, 'a'], o: { k: 1 } };
    expect(edited('doc.types = [type_of(doc.i), type_of(doc.big), type_of(doc.f), type_of(doc.s), type_of(doc.b), type_of(doc.n), type_of(doc.a), type_of(doc.o)];', doc).types).toEqual([
      'i64', 'f64', 'f64', 'string', 'bool', '()', 'array', 'map',
    ]);
  });

  it('gives context the same mapping', () => {
    expect(edited('doc.t = type_of(context.n) + " " + type_of(context.list);', {}, { n: 1, list: [] }).t).toBe('i64 array');
  });
});

describe('Rhai → JSON', () => {
  it('stores (), NaN and infinities as null, chars as strings, function pointers by name', () => {
    expect(edited('doc.u = (); doc.nan = 0.0 / 0.0; doc.c = \'x\'; doc.f = Fn("abs"); doc.r = [(), \'y\'];')).toEqual({ u: null, nan: null, c: 'x', f: 'abs', r: [null, 'y'] });
  });

  it('keeps a field named `__proto__`, read, written or untouched (an assignment would set the prototype)', () => {
    const doc = JSON.parse('{"id": 1, "__proto__": 7, "a": {"__proto__": {"k": 1}}}') as Record<string, unknown>;
    const untouched = edited('doc.b = 1;', doc);
    expect(Object.getOwnPropertyDescriptor(untouched, '__proto__')?.value).toBe(7);
    expect(Object.getOwnPropertyDescriptor(untouched.a, '__proto__')?.value).toEqual({ k: 1 });
    const written = edited('doc.__proto__ = doc.__proto__ + 1; doc.copy = doc.a.__proto__.k;', doc);
    expect(Object.getOwnPropertyDescriptor(written, '__proto__')?.value).toBe(8);
    expect(written.copy).toBe(1);
  });

  it('leaves an untouched document equal to the stored one', () => {
    const doc = { id: 'a-1', n: -0.5, big: 12345678901, list: [1, [2, { x: null }]], nested: { deep: { s: 'é' } } };
    expect(edited('', doc)).toEqual(doc);
  });

  it('writes map keys in sorted order, as Rhai maps are B-trees', () => {
    expect(Object.keys(edited('doc.b = 1; doc.a = 2;', { z: 0 }))).toEqual(['a', 'b', 'z']);
  });

  it('converts directly through fromJson / toJson', () => {
    const v = fromJson({ a: [1, 2.5, 'x', null, true] });
    expect(toDebug(v)).toBe('#{"a": [1, 2.5, "x", (), true]}');
    expect(toJson(v)).toEqual({ a: [1, 2.5, 'x', null, true] });
  });

  it('keeps an i64 beyond 2^53 exact through an edit, as a BigInt', () => {
    expect(toJson(fromJson({ id: -9223372036854775807n, n: 2 ** 53 - 1 }))).toEqual({ id: -9223372036854775807n, n: 2 ** 53 - 1 });
  });
});

describe('printing', () => {
  it('prints floats as Rhai does: .0 on whole numbers, exponent beyond 1e13', () => {
    expect([1, 0, -2, 0.1 + 0.2, 1e-7, 123456789012345, 1e20, 1.5e-14, NaN, Infinity, -Infinity].map(formatFloat)).toEqual([
      '1.0', '0.0', '-2.0', '0.30000000000000004', '0.0000001', '1.23456789012345e14', '1e20', '1.5e-14', 'NaN', 'inf', '-inf',
    ]);
  });

  it("switches to exponents at Rhai's f32 bounds: past 9,999,999,827,968 and below 1e-13 as an f32", () => {
    expect([1e13, 9999999900000, 9999999827968, 1e-13, 9.99999e-14].map(formatFloat)).toEqual(['1e13', '9.9999999e12', '9999999827968.0', '0.0000000000001', '9.99999e-14']);
  });

  it('debug-prints floats as Rust does, with exponent below 1e-4 and from 1e16', () => {
    expect([1, 0.0001, 0.00001, 1e15, 1e16].map(debugFloat)).toEqual(['1.0', '0.0001', '1e-5', '1000000000000000.0', '1e16']);
  });

  it('prints arrays and maps in debug form, strings quoted', () => {
    expect(typed('[1, 2.0, "a\\"b", \'c\', (), true, #{ z: 1, a: [] }]')).toEqual(['array', '[1, 2.0, "a\\"b", \'c\', (), true, #{"a": [], "z": 1}]']);
    expect(value('`${#{ b: "x", a: 1 }}`')).toBe('#{"a": 1, "b": "x"}');
  });
});
