// The LMDB value codec keeps keys named `__proto__` (msgpackr's decoder renames them
// `__proto_`), without changing the bytes of any other value.
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
});
