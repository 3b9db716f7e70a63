import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/engine/document-id.js';
import { FacetKind } from '../../../../src/engine/facets/extract.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { TestIndex } from './fixture.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const SETTINGS = {
  filterableAttributes: ['color', 'price', 'doggos', '_geo', '_geojson'],
  sortableAttributes: ['rank'],
};

/** Deterministic random document edits over a small id space. */
function* randomBatches(seed: number, batches: number): Generator<(JsonObject | { delete: number })[]> {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const colors = ['Red', 'red ', 'BLUE', 'vert', '', null];
  for (let b = 0; b < batches; b++) {
    const batch: (JsonObject | { delete: number })[] = [];
    for (let i = 0; i < 8; i++) {
      const id = next(20);
      if (next(5) === 0) {
        batch.push({ delete: id });
        continue;
      }
      const doc: JsonObject = { id };
      if (next(3) > 0) doc.color = next(4) === 0 ? [colors[next(6)], colors[next(6)]] : colors[next(6)];
      if (next(2) === 0) doc.price = next(4) === 0 ? String(next(50)) : next(50) - 10;
      if (next(3) === 0) doc.doggos = [{ name: `dog${next(3)}`, age: next(5) }];
      if (next(4) === 0) doc.rank = next(3);
      if (next(3) === 0) doc._geo = { lat: next(90), lng: next(180) };
      // from the id and batch, not the stream: the other fields' draws stay as they were
      if ((id + b) % 3 === 0) doc._geojson = (id + b) % 2 === 0 ? { type: 'Point', coordinates: [id, b] } : { type: 'LineString', coordinates: [[0, 0], [id, b]] };
      batch.push(doc);
    }
    yield batch;
  }
}

describe('facet updater', () => {
  it('keeps the same facet data incrementally as a rebuild from scratch derives', () => {
    index = TestIndex.create(SETTINGS);
    for (const batch of randomBatches(42, 30)) {
      index.write(batch);
      const incremental = index.dump();
      index.rebuild();
      expect(index.dump()).toEqual(incremental);
    }
    expect(Object.keys(index.dump()).length).toBeGreaterThan(30);
    expect(Object.keys(index.dump()).filter((key) => key.startsWith('s:')).length).toBeGreaterThan(1);
  });

  it('removes every trace of deleted documents', () => {
    index = TestIndex.create(SETTINGS);
    index.write([
      { id: 1, color: 'red', _geo: { lat: 1, lng: 2 } },
      { id: 2, color: 'blue' },
    ]);
    index.write([{ delete: 1 }, { delete: 2 }]);
    expect(index.dump()).toEqual({ universe: '' });
  });

  it('tracks every document in the universe and rebuilds it from the stored documents', () => {
    index = TestIndex.create();
    index.write([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
    index.write([{ delete: 'b' }]);
    const reader = new FacetReader(index.env);
    expect(index.idsOf(reader.allDocids())).toEqual(['a', 'c']);
    index.write([{ id: 'd' }]); // reuses the freed docid 1
    expect([...new FacetReader(index.env).allDocids()]).toEqual([0, 1, 2]);
  });

  it('re-derives facets for new settings on rebuild', () => {
    index = TestIndex.create({ filterableAttributes: ['color'] });
    index.write([{ id: 1, color: 'red', size: 3 }]);
    const before = new FacetReader(index.env);
    expect(before.fieldId('size')).toBeUndefined();
    index.configure({ filterableAttributes: ['size'] });
    const reader = new FacetReader(index.env);
    expect([...reader.flagged(reader.fieldId('size')!, FacetKind.exists)]).toEqual([0]);
    expect([...reader.flagged(reader.fieldId('color')!, FacetKind.exists)]).toEqual([]);
  });

  it('walks a field’s values in order, numbers and strings apart', () => {
    index = TestIndex.create({ filterableAttributes: ['v'] });
    index.write([
      { id: 1, v: [10, 'b'] },
      { id: 2, v: [-3.5, 'a'] },
      { id: 3, v: 10 },
    ]);
    const reader = new FacetReader(index.env);
    const fid = reader.fieldId('v')!;
    const numbers = [...reader.values(fid, FacetKind.number)].map(({ value, docids }) => [value, [...docids]]);
    expect(numbers).toEqual([
      [-3.5, [1]],
      [10, [0, 2]],
    ]);
    const strings = [...reader.values(fid, FacetKind.string, true)].map(({ value, docids }) => [value, [...docids]]);
    expect(strings).toEqual([
      ['b', [0]],
      ['a', [1]],
    ]);
  });

  it('refuses an invalid `_geo` while geo is enabled, naming the document’s external id, on apply and on rebuild', async () => {
    index = TestIndex.create({ sortableAttributes: ['_geo'] });
    index.write([{ id: 'a', _geo: { lat: 1, lng: 2 } }]);
    expect(() => index!.write([{ id: 'b-7', _geo: { lat: 1 } }])).toThrow(
      expect.objectContaining({ code: 'invalid_document_geo_field', message: 'Could not find longitude in the document with the id: `"b-7"`. Was expecting a `_geo.lng` field.' }),
    );
    // The failed write left nothing behind.
    expect(index.env.documents.getCount()).toBe(1);

    const later = TestIndex.create({}, 'later');
    try {
      later.write([{ id: 'c', _geo: 'here' }]);
      expect(() => later.configure({ filterableAttributes: ['_geo'] })).toThrow('The `_geo` field in the document with the id: `"c"` is not an object.');
    } finally {
      await later.close();
    }
  });
});

describe('geo re-validation when a settings change enables geo', () => {
  it('reports both stored coordinates when both are unparsable, as a document added is reported (v1.50 geo extractor)', async () => {
    index = TestIndex.create({}, 'geo-later');
    index.write([{ id: '11', _geo: { lat: null, lng: null } }]);
    expect(() => index!.configure({ sortableAttributes: ['_geo'] })).toThrow(
      expect.objectContaining({
        code: 'invalid_document_geo_field',
        message: 'Could not parse latitude nor longitude in the document with the id: `"11"`. Was expecting finite numbers but instead got `null` and `null`.',
      }),
    );
  });
});
