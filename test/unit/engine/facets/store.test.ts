// Facet keys are an on-disk layout: indexes written by earlier versions must still be read, so
// the bytes are pinned here rather than only round-tripped.
import { describe, expect, it } from 'vitest';
import { FacetKind } from '../../../../src/engine/facets/extract.js';
import { facetKey, facetKeyString } from '../../../../src/engine/facets/store.js';

describe('facet keys', () => {
  it('lay out field id (u16 BE), kind, then the payload bytes', () => {
    expect([...facetKey(0x0102, FacetKind.exists)]).toEqual([1, 2, FacetKind.exists]);
    expect([...facetKey(3, FacetKind.string, 'ab')]).toEqual([0, 3, FacetKind.string, 0x61, 0x62]);
    expect([...facetKey(3, FacetKind.string, 'é€')]).toEqual([0, 3, FacetKind.string, 0xc3, 0xa9, 0xe2, 0x82, 0xac]);
    expect([...facetKey(3, FacetKind.number, 1)]).toEqual([0, 3, FacetKind.number, 0xbf, 0xf0, 0, 0, 0, 0, 0, 0]);
    expect([...facetKey(3, FacetKind.number, -1)]).toEqual([0, 3, FacetKind.number, 0x40, 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  });

  it('hold string payloads as their UTF-8 bytes, whatever the characters', () => {
    for (const payload of ['plain', 'pe\u0301sti', '\u007f\u0080', '\ud83d\ude00', '\ud800']) {
      expect(facetKey(300, FacetKind.string, payload)).toEqual(Buffer.concat([Buffer.from([1, 44, FacetKind.string]), Buffer.from(payload)]));
    }
  });

  it('have a latin1 string form with one character per key byte', () => {
    expect(facetKeyString(300, FacetKind.string, 'é')).toBe('\u0001\u002c\u0001\u00c3\u00a9');
    expect(Buffer.from(facetKeyString(300, FacetKind.number, -2.5), 'latin1')).toEqual(facetKey(300, FacetKind.number, -2.5));
  });
});
