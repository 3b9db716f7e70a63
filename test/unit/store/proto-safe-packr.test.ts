// The LMDB value codec keeps keys named `__proto__` (msgpackr's decoder renames them
// `__proto_`), without changing the bytes of any other value; an object of many keys is a plain
// map, not a record.
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { ProtoSafePackr } from '../../../src/store/proto-safe-packr.js';
import { parseJson } from '../../../src/types/json-text.js';

const codec = new ProtoSafePackr({ copyBuffers: true });
const plain = new Packr({ copyBuffers: true });
const roundTrip = (value: unknown) => codec.decode(codec.encode(value));

describe('ProtoSafePackr', () => {
  it('packs values without such keys into the bytes of msgpackr as lmdb configures it', () => {
    for (const value of [{ id: 1, title: 'x', tags: ['a'], n: { deep: [1.5, null, true] } }, [1, 'two'], 'text', 12, { proto: 1, __protox__: 2 }]) {
      expect(Buffer.from(codec.encode(value))).toEqual(Buffer.from(plain.encode(value)));
    }
  });

  it('keeps `__proto__` and its neighbours as keys at any depth, with their values', () => {
    const text = '{"id":1,"__proto__":{"a":1},"n":{"__proto__":"x","__proto_":"y","__proto___":"z","__proto____":"w"},"l":[{"__proto__":[{"__proto__":2}]}],"big":18446744073709551615}';
    const value = parseJson(text);
    const back = roundTrip(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['id', '__proto__', 'n', 'l', 'big']);
    expect(JSON.stringify(back, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).toBe(text.replace('18446744073709551615', '"18446744073709551615"'));
  });

  it('reads values written before it as msgpackr does', () => {
    const older = plain.encode(parseJson('{"__proto_":1,"a":{"__proto_":2}}'));
    expect(JSON.stringify(codec.decode(older))).toBe('{"__proto_":1,"a":{"__proto_":2}}');
  });

  it('writes an object of more than 64 keys as a plain map, read back as an object', () => {
    for (const keys of [65, 1000, 70_000]) {
      const synonyms = Object.fromEntries(Array.from({ length: keys }, (_, i) => [`word${i}`, [`syn${i}`]]));
      const bytes = codec.encode(synonyms);
      // 0xde and 0xdf are msgpack's map 16 and map 32; a record starts with its structure's definition
      expect(bytes[0]).toBe(keys < 0x10000 ? 0xde : 0xdf);
      expect(roundTrip({ synonyms, n: 1 })).toEqual({ synonyms, n: 1 });
    }
    const sixtyFour = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, i]));
    expect(Buffer.from(codec.encode(sixtyFour))).toEqual(Buffer.from(plain.encode(sixtyFour)));
  });

  it('reads an object of many keys written before as a record', () => {
    const synonyms = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`word${i}`, [`syn${i}`]]));
    expect(codec.decode(plain.encode({ synonyms }))).toEqual({ synonyms });
  });
});
