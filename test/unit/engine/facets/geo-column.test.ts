// The `_geo` point columns a search reads: the stored points, followed through writes (the same
// columns patched) and laid out again after a rebuild.
import { afterEach, describe, expect, it } from 'vitest';
import { geoColumn, type GeoColumn } from '../../../../src/engine/facets/geo-column.js';
import { TestIndex } from './fixture.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

/** docid → point, from the columns and from the stored points. */
function fromColumn(column: GeoColumn): Record<number, [number, number]> {
  const out: Record<number, [number, number]> = {};
  column.lat.forEach((lat, docid) => {
    if (!Number.isNaN(lat)) out[docid] = [lat, column.lng[docid]!];
  });
  return out;
}
function stored(test: TestIndex): Record<number, [number, number]> {
  const out: Record<number, [number, number]> = {};
  for (const { key, value } of test.env.geoPoints.getRange()) out[key] = [value.readDoubleLE(0), value.readDoubleLE(8)];
  return out;
}

describe('geoColumn', () => {
  it('holds the stored points and follows writes in place: a point moved, one removed, documents added past its length', () => {
    index = TestIndex.create({ filterableAttributes: ['_geo'] });
    index.write([
      { id: 1, _geo: { lat: 1, lng: 2 } },
      { id: 2, _geo: { lat: 3, lng: 4 } },
      { id: 3, title: 'no point' },
    ]);
    const first = geoColumn(index.env);
    expect(fromColumn(first)).toEqual(stored(index));
    expect(Object.keys(fromColumn(first))).toHaveLength(2);

    index.write([{ id: 1, _geo: { lat: -5, lng: 6 } }, { id: 2, _geo: null }, ...Array.from({ length: 50 }, (_, i) => ({ id: 100 + i, _geo: { lat: i, lng: -i } }))]);
    const followed = geoColumn(index.env);
    expect(followed).toBe(first);
    expect(fromColumn(followed)).toEqual(stored(index));
    expect(Object.keys(fromColumn(followed))).toHaveLength(51);

    index.write([{ delete: 1 }]);
    expect(fromColumn(geoColumn(index.env))).toEqual(stored(index));
  });

  it('is laid out again after a rebuild that drops the points', () => {
    index = TestIndex.create({ filterableAttributes: ['_geo'] });
    index.write([{ id: 1, _geo: { lat: 1, lng: 2 } }]);
    expect(Object.keys(fromColumn(geoColumn(index.env)))).toHaveLength(1);
    index.configure({ filterableAttributes: [] });
    expect(fromColumn(geoColumn(index.env))).toEqual({});
  });
});
