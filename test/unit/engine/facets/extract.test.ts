import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/engine/document-id.js';
import { extractFacets, FacetKind } from '../../../../src/engine/facets/extract.js';
import { facetedFieldMatcher, type FacetSettings } from '../../../../src/engine/facets/fields.js';
import { defaultSettings } from '../../../../src/types/settings.js';

const KIND_NAMES = Object.fromEntries(Object.entries(FacetKind).map(([name, kind]) => [kind, name]));

function settings(partial: Partial<FacetSettings>): FacetSettings {
  return { ...defaultSettings(), ...partial };
}

/** Entries as sorted `field kind value` lines, deduplicated. */
function entries(doc: JsonObject, partial: Partial<FacetSettings>, geo = false): string[] {
  const lines = new Set<string>();
  extractFacets(doc, facetedFieldMatcher(settings(partial)), geo, (field, kind, value) =>
    lines.add(`${field} ${KIND_NAMES[kind]}${value === null ? '' : ` ${JSON.stringify(value)}`}`),
  );
  return [...lines].sort();
}

describe('facetedFieldMatcher', () => {
  it('matches legacy rules with their nested paths, and reports parents of dotted rules', () => {
    const match = facetedFieldMatcher(settings({ filterableAttributes: ['doggos', 'cat.name'] }));
    expect(['doggos', 'doggos.age', 'doggosx', 'cat', 'cat.name', 'cat.age'].map(match)).toEqual([
      'match',
      'match',
      'none',
      'parent',
      'match',
      'none',
    ]);
  });

  it('matches wildcard patterns of object rules; `a.*` is only the parent of `a`', () => {
    const rule = { attributePatterns: ['price_*', '*_date', '*tag*', 'doggos.*'], features: { facetSearch: false, filter: { equality: true, comparison: false } } };
    const match = facetedFieldMatcher(settings({ filterableAttributes: [rule] }));
    expect(['price_eur', 'release_date', 'hashtags', 'doggos', 'doggos.name', 'other'].map(match)).toEqual([
      'match',
      'match',
      'match',
      'parent',
      'match',
      'none',
    ]);
  });

  it('lets the first matching rule decide: a rule without filter or facet search shadows later ones', () => {
    const off = { attributePatterns: ['secret'], features: { facetSearch: false, filter: { equality: false, comparison: false } } };
    const match = facetedFieldMatcher(settings({ filterableAttributes: [off, '*', 'secret'] }));
    expect(match('secret')).toBe('none');
    const facetOnly = { attributePatterns: ['genre'], features: { facetSearch: true, filter: { equality: false, comparison: false } } };
    expect(facetedFieldMatcher(settings({ filterableAttributes: [facetOnly] }))('genre')).toBe('match');
  });

  it('facets sortable attributes, the distinct attribute and asc/desc ranking rule fields', () => {
    const match = facetedFieldMatcher(
      settings({ sortableAttributes: ['price'], distinctAttribute: 'sku.code', rankingRules: ['words', 'year:desc', 'a:b:asc'] }),
    );
    expect(['price', 'price.eur', 'sku', 'sku.code', 'sku.code.x', 'year', 'a:b', 'words'].map(match)).toEqual([
      'match',
      'match',
      'parent',
      'match',
      'none',
      'match',
      'match',
      'none',
    ]);
  });
});

describe('extractFacets', () => {
  it('indexes numbers, normalised strings and booleans, each array element on its own', () => {
    expect(entries({ id: 1, price: 12.5, title: ' The CAT ', tags: ['A', 2, true], flag: false }, { filterableAttributes: ['price', 'title', 'tags', 'flag'] })).toEqual([
      'flag exists',
      'flag string "false"',
      'price exists',
      'price number 12.5',
      'tags exists',
      'tags number 2',
      'tags string "a"',
      'tags string "true"',
      'title exists',
      'title string "the cat"',
    ]);
  });

  it('flattens nested objects and arrays of objects to dotted paths', () => {
    const doc = { doggos: [{ name: 'Bobby', age: 2 }, { name: 'Buddy', age: 4, toys: [{ kind: 'ball' }] }], 'doggos.name': 'Flat' };
    expect(entries(doc, { filterableAttributes: ['doggos'] })).toEqual([
      'doggos exists',
      'doggos.age exists',
      'doggos.age number 2',
      'doggos.age number 4',
      'doggos.name exists',
      'doggos.name string "bobby"',
      'doggos.name string "buddy"',
      'doggos.name string "flat"',
      'doggos.toys exists',
      'doggos.toys.kind exists',
      'doggos.toys.kind string "ball"',
    ]);
  });

  it('only walks into parents of faceted paths', () => {
    expect(entries({ doggos: { name: 'Bobby', age: 2 } }, { filterableAttributes: ['doggos.age'] })).toEqual(['doggos.age exists', 'doggos.age number 2']);
  });

  it('records null and empty only as the value of a key, never inside an array', () => {
    const doc = { a: null, b: '', c: [], d: {}, e: [null, '', [], {}], f: [{ g: null, h: '' }], i: '  ' };
    expect(entries(doc, { filterableAttributes: ['a', 'b', 'c', 'd', 'e', 'f', 'i'] })).toEqual([
      'a exists',
      'a null',
      'b empty',
      'b exists',
      'c empty',
      'c exists',
      'd empty',
      'd exists',
      'e exists',
      'f exists',
      'f.g exists',
      'f.g null',
      'f.h empty',
      'f.h exists',
      'i exists',
      'i string ""',
    ]);
  });

  it('skips _vectors, and gives _geo only `exists` and _geo.lat/_geo.lng numbers when geo is on', () => {
    const doc = { _geo: { lat: '45.5', lng: 3 }, _vectors: { default: [1, 2] } };
    expect(entries(doc, { filterableAttributes: ['*' as string, { attributePatterns: ['*'], features: { facetSearch: false, filter: { equality: true, comparison: false } } }] }, false)).toEqual([]);
    expect(entries(doc, { filterableAttributes: ['_geo'] }, true)).toEqual([
      '_geo exists',
      '_geo.lat exists',
      '_geo.lat number 45.5',
      '_geo.lng exists',
      '_geo.lng number 3',
    ]);
    expect(entries({ _geo: { lat: 'north', lng: 3 } }, { filterableAttributes: ['_geo'] }, true)).toEqual(['_geo exists']);
    expect(entries({ _geo: null }, { filterableAttributes: ['_geo'] }, true)).toEqual(['_geo exists']);
  });
});
