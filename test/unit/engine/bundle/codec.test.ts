// The bundle's compact value forms decode to exactly the bytes LMDB stores (postings in the
// columns layout and word records of any u32 values, and values of other shapes kept as they
// are), packed postings to the same entries in the columns layout, and bytes they did not write
// are refused without reading past them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { DamagedValueError, decodeValue, encodeValue } from '../../../../src/engine/bundle/codec.js';
import { decodePosting, PACKED, PackedWriter } from '../../../../src/engine/words/postings.js';

const bytesOf = (words: number[]) => new Uint8Array(Uint32Array.from(words).buffer);

/** A posting in words/postings.ts's columns layout: id (without PACKED), n, ascending docids, masks, infos. */
const posting = fc
  .tuple(fc.nat({ max: 0xffffffff }), fc.uniqueArray(fc.nat({ max: 0xffffffff }), { maxLength: 40 }), fc.array(fc.nat({ max: 0xffffffff }), { minLength: 80, maxLength: 80 }))
  .map(([id, docids, rest]) => {
    const sorted = docids.sort((a, b) => a - b);
    const n = sorted.length;
    return bytesOf([(id & ~PACKED) >>> 0, n, ...sorted, ...rest.slice(0, n), ...rest.slice(40, 40 + n)]);
  });

describe('the bundle value codec', () => {
  it('gives back the stored bytes of any posting', () => {
    fc.assert(
      fc.property(posting, (stored) => {
        expect(new Uint8Array(decodeValue('posting', encodeValue('posting', stored)))).toEqual(stored);
      }),
    );
  });

  it('gives back a packed posting as the same entries in the columns layout', () => {
    const packer = new PackedWriter();
    fc.assert(
      fc.property(posting, (columns) => {
        const { id, docids, masks, infos } = decodePosting(columns);
        const n = docids.length;
        const all = Uint32Array.from([...docids, ...masks, ...infos]);
        const packed = new Uint8Array(packer.pack(id, all, 0, n, 2 * n, 0, n));
        expect(new Uint8Array(decodeValue('posting', encodeValue('posting', packed)))).toEqual(columns);
      }),
    );
  });

  it('gives back the stored bytes of any u32 array', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 50 }), (words) => {
        const stored = bytesOf(words);
        expect(new Uint8Array(decodeValue('u32-varint', encodeValue('u32-varint', stored)))).toEqual(stored);
      }),
    );
  });

  it('keeps values of another shape as they are', () => {
    for (const stored of [new Uint8Array([1, 2, 3]), bytesOf([0, 2, 9, 3, 0, 0, 0, 0]), bytesOf([0, 5, 1])]) {
      const encoded = encodeValue('posting', stored);
      expect(encoded.length).toBe(stored.length + 1);
      expect(new Uint8Array(decodeValue('posting', encoded))).toEqual(stored);
    }
  });

  it('refuses truncated or overlong values', () => {
    const encoded = encodeValue('posting', bytesOf([7, 3, 1, 500, 90_000, 1, 2, 3, 4, 5, 6]));
    for (let cut = 2; cut < encoded.length; cut++) expect(() => decodeValue('posting', encoded.subarray(0, cut))).toThrow(DamagedValueError);
    expect(() => decodeValue('u32-varint', Uint8Array.of(1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toThrow(DamagedValueError);
    expect(() => decodeValue('posting', Uint8Array.of(1, 0, 0xff, 0xff, 0xff, 0xff, 0x0f))).toThrow(DamagedValueError);
  });
});
