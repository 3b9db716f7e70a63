import { describe, expect, it } from 'vitest';

import { inFieldOrder } from '../../../../src/engine/documents/field-order.js';

/** inFieldOrder of `text` with the field ids `ids` gives each key, as the store would. */
function reorder(text: string, ids: Record<string, number>): string | null {
  const keys = Object.keys(JSON.parse(text) as object);
  const bytes = inFieldOrder(Buffer.from(text), keys, keys.map((key) => ids[key]!));
  return bytes === null ? null : Buffer.from(bytes).toString();
}

/** The object of `text` with its keys in field-id order, as the store built it before. */
function orderedObject(text: string, ids: Record<string, number>): Record<string, unknown> {
  const doc = JSON.parse(text) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(doc).sort((a, b) => ids[a]! - ids[b]!)) Object.defineProperty(out, key, { value: doc[key], enumerable: true, writable: true, configurable: true });
  return out;
}

describe('inFieldOrder', () => {
  it('lays the members of a line in field-id order, their texts as sent', () => {
    expect(reorder('{"id":1,"heading":"h","title":"t","price":1.0}', { id: 0, title: 1, heading: 2, price: 3 })).toBe('{"id":1,"title":"t","heading":"h","price":1.0}');
  });

  it('reads spaces, escapes, and braces, brackets, commas and colons inside strings and nested values', () => {
    const text = ' { "b" : { "x": "}\\"]," , "y": [1, {"z": "{"}] } ,\n"a\\"q":"\\\\" , "c": [ ] , "d" : null, "e": -1.5e3,"f":true } ';
    const ids = { 'a"q': 0, b: 1, c: 2, d: 3, e: 4, f: 5 };
    const out = reorder(text, ids)!;
    expect(out).toBe('{"a\\"q":"\\\\","b" : { "x": "}\\"]," , "y": [1, {"z": "{"}] },"c": [ ],"d" : null,"e": -1.5e3,"f":true}');
    expect(Object.keys(JSON.parse(out) as object)).toEqual(['a"q', 'b', 'c', 'd', 'e', 'f']);
    expect(JSON.parse(out)).toEqual(JSON.parse(text));
  });

  it('keeps a `__proto__` member as a field, and multi-byte text as it is', () => {
    const out = reorder('{"__proto__":{"x":1},"名前":"東京","id":7}', Object.fromEntries([['id', 0], ['名前', 1], ['__proto__', 2]]))!;
    expect(out).toBe('{"id":7,"名前":"東京","__proto__":{"x":1}}');
    const parsed = JSON.parse(out) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('lays a line of tens of thousands of members, in reverse field order, as a sort of n log n does', () => {
    for (const n of [33, 40_000]) {
      const names = Array.from({ length: n }, (_, i) => `f${i}`);
      const text = `{${names.map((name, i) => `"${name}":${i}`).join(',')}}`;
      // the last member has field id 0
      const ids = Object.fromEntries(names.map((name, i) => [name, n - 1 - i]));
      const out = JSON.parse(reorder(text, ids)!) as Record<string, number>;
      expect(Object.keys(out)).toEqual([...names].reverse());
      expect(out[`f${n - 1}`]).toBe(n - 1);
    }
  });

  it('answers null for a repeated key or an integer-like key, whose members JSON.parse lists in another order', () => {
    expect(reorder('{"b":1,"a":2,"b":3}', { a: 0, b: 1 })).toBeNull();
    expect(reorder('{"b":1,"2":2}', { 2: 0, b: 1 })).toBeNull();
  });

  it('answers null for a text that is not an object', () => {
    expect(inFieldOrder(Buffer.from('[1,2]'), [], [])).toBeNull();
    expect(inFieldOrder(Buffer.from('{"a":1'), ['a'], [0])).toBeNull();
  });

  it('gives the object the store built before, key order included, for random documents in random layouts', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const space = () => [' ', '', '\n', '\t ', ''][random(5)]!;
    const strings = ['', 'plain', 'with "quotes"', 'back\\slash', '{[,:]}', 'é東', '\u0001'];
    const value = (depth: number): unknown => {
      switch (random(depth > 2 ? 4 : 6)) {
        case 0: return strings[random(strings.length)];
        case 1: return random(2) === 0 ? random(1000) - 500 : (random(100000) - 50000) / 7;
        case 2: return [true, false, null][random(3)];
        case 3: return '';
        case 4: return Array.from({ length: random(4) }, () => value(depth + 1));
        default: return Object.fromEntries(Array.from({ length: random(4) }, (_, i) => [`k${i}`, value(depth + 1)]));
      }
    };
    // JSON text with spaces anywhere JSON allows them
    const write = (v: unknown): string => {
      if (Array.isArray(v)) return `[${space()}${v.map((x) => write(x)).join(`${space()},${space()}`)}${space()}]`;
      if (typeof v === 'object' && v !== null) return `{${space()}${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}${space()}:${space()}${write(x)}`).join(`${space()},${space()}`)}${space()}}`;
      return JSON.stringify(v);
    };
    const names = ['id', 'title', 'a b', 'x"y', 'é', '__proto__', 'z'];
    for (let round = 0; round < 500; round++) {
      const chosen = names.filter(() => random(3) > 0);
      const entries = chosen.map((name) => [name, value(0)] as const).sort(() => random(3) - 1);
      const text = `${space()}{${space()}${entries.map(([k, v]) => `${JSON.stringify(k)}${space()}:${space()}${write(v)}`).join(`${space()},${space()}`)}${space()}}${space()}`;
      const ids = Object.fromEntries([...names].sort(() => random(3) - 1).map((name, i) => [name, i]));
      const out = reorder(text, ids);
      expect(out).not.toBeNull();
      const parsed = JSON.parse(out!) as Record<string, unknown>;
      const expected = orderedObject(text, ids);
      expect(Object.keys(parsed)).toEqual(Object.keys(expected));
      expect(parsed).toEqual(expected);
    }
  });
});
