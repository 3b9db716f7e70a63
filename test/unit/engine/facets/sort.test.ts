import { afterEach, describe, expect, it } from 'vitest';
import { assertSortable, fieldValueBuckets, parseSortCriterion, sortBuckets, sortedPage, type SortCriterion } from '../../../../src/engine/facets/sort.js';
import { FacetKind } from '../../../../src/engine/facets/extract.js';
import type { JsonObject } from '../../../../src/engine/document-id.js';
import { keptColumn } from '../../../../src/engine/facets/value-columns.js';
import { mulberry32 } from '../../../helpers/random.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { TestIndex } from './fixture.js';

const CODE = 'invalid_document_sort';

function sortError(text: string): string {
  try {
    parseSortCriterion(text, CODE);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`no error for ${text}`);
}

describe('parseSortCriterion', () => {
  it('reads field:asc|desc, splitting at the last colon, and _geoPoint(lat, lng)', () => {
    expect(parseSortCriterion('price:asc', CODE)).toEqual({ kind: 'field', field: 'price', descending: false });
    expect(parseSortCriterion('a:b:desc', CODE)).toEqual({ kind: 'field', field: 'a:b', descending: true });
    expect(parseSortCriterion('truc(12, 13):desc', CODE)).toEqual({ kind: 'field', field: 'truc(12, 13)', descending: true });
    expect(parseSortCriterion('_geoPoint(42.5, -3):asc', CODE)).toEqual({ kind: 'geo', point: [42.5, -3], descending: false });
  });

  it('gives Meilisearch’s messages for malformed and reserved criteria', () => {
    expect(sortError('title')).toBe('Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `title`.');
    expect(sortError('truc:deesc')).toBe('Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `truc:deesc`.');
    expect(sortError('_geo:asc')).toBe(
      '`_geo` is a reserved keyword and thus can\'t be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.',
    );
    expect(sortError('_geoDistance:asc')).toBe("`_geoDistance` is a reserved keyword and thus can't be used as a sort expression.");
    expect(sortError('_geoPolygon:asc')).toBe("`_geoPolygon` is a reserved keyword and thus can't be used as a sort expression.");
    expect(sortError('_geojson:desc')).toBe("`_geojson` is a reserved keyword and thus can't be used as a sort expression.");
    expect(sortError('_geoRadius(1, 2, 3):asc')).toBe(
      "`_geoRadius` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.",
    );
    expect(sortError('_geoPoint(35, 85, 75):asc')).toBe(
      'Invalid syntax for the geo parameter: expected expression formated like `_geoPoint(latitude, longitude)` and ending by `:asc` or `:desc`, found `_geoPoint(35, 85, 75)`.',
    );
    expect(sortError('_geoPoint:asc')).toContain('found `_geoPoint`.');
    expect(sortError('_geoPoint(200, 0):asc')).toBe('Bad latitude `200`. Latitude must be contained between -90 and 90 degrees.');
    expect(sortError('_geoPoint(12, -2021):desc')).toBe(
      'Bad longitude `-2021`. Longitude must be contained between -180 and 180 degrees. Hint: try using `139` instead.',
    );
    // Rust's f64 parse takes inf and NaN, which the range checks then refuse
    expect(sortError('_geoPoint(inf, 0):asc')).toBe('Bad latitude `inf`. Latitude must be contained between -90 and 90 degrees.');
    expect(sortError('_geoPoint(NaN, 0):asc')).toBe('Bad latitude `NaN`. Latitude must be contained between -90 and 90 degrees.');
    expect(sortError('_geoPoint(0, -infinity):asc')).toBe(
      'Bad longitude `-inf`. Longitude must be contained between -180 and 180 degrees. Hint: try using `NaN` instead.',
    );
  });
});

describe('assertSortable', () => {
  const check = (criteria: SortCriterion[], sortableAttributes: string[], displayed = ['*']) => () => assertSortable(criteria, sortableAttributes, CODE, displayed);

  it('accepts sortable attributes and their nested paths', () => {
    expect(check([{ kind: 'field', field: 'doggos.age', descending: false }], ['doggos'])).not.toThrow();
    expect(check([{ kind: 'geo', point: [0, 0], descending: false }], ['_geo'])).not.toThrow();
  });

  it('names the attribute and the sortable ones', () => {
    expect(check([{ kind: 'field', field: 'title', descending: false }], [])).toThrow(
      'Attribute `title` is not sortable. This index does not have configured sortable attributes.',
    );
    expect(check([{ kind: 'field', field: 'title', descending: false }], ['year', 'id'])).toThrow(
      'Attribute `title` is not sortable. Available sortable attributes are: `id, year`.',
    );
    expect(check([{ kind: 'geo', point: [0, 0], descending: false }], ['id'])).toThrow('Attribute `_geo` is not sortable.');
  });

  it('lists only the displayed sortable attributes, marking the others hidden', () => {
    expect(check([{ kind: 'field', field: 'title', descending: false }], ['year', 'id'], ['id'])).toThrow(
      'Attribute `title` is not sortable. Available sortable attributes are: `id, <..hidden-attributes>`.',
    );
  });
});

describe('sortBuckets', () => {
  let index: TestIndex | undefined;
  afterEach(async () => {
    await index?.close();
    index = undefined;
  });

  /** Every document's id in sort order. */
  const order = (criteria: SortCriterion[]) => {
    const reader = new FacetReader(index!.env);
    return sortedPage(reader, criteria, reader.allDocids(), 0, 100).map((docid) => index!.env.documents.get(docid)!.id);
  };

  it('puts numbers, then strings, then missing values; desc reverses each group', () => {
    index = TestIndex.create({ sortableAttributes: ['v'] });
    index.write([
      { id: 'none' },
      { id: 'b', v: 'B' },
      { id: 'ten', v: 10 },
      { id: 'a', v: 'a' },
      { id: 'two', v: 2 },
      { id: 'mixed', v: [5, 'z'] },
    ]);
    expect(order([{ kind: 'field', field: 'v', descending: false }])).toEqual(['two', 'mixed', 'ten', 'a', 'b', 'none']);
    expect(order([{ kind: 'field', field: 'v', descending: true }])).toEqual(['ten', 'mixed', 'two', 'b', 'a', 'none']);
  });

  it('sorts a null value with the missing ones, last in both directions, whatever other kinds the field holds', () => {
    index = TestIndex.create({ sortableAttributes: ['v'], filterableAttributes: ['v'] });
    index.write([{ id: 'null', v: null }, { id: 'a', v: 'a' }, { id: 'two', v: 2 }, { id: 'none' }, { id: 'empty', v: '' }, { id: 'list', v: [] }]);
    expect(order([{ kind: 'field', field: 'v', descending: false }]).slice(0, 2)).toEqual(['two', 'a']);
    expect(order([{ kind: 'field', field: 'v', descending: true }]).slice(0, 2)).toEqual(['two', 'a']);
    expect(order([{ kind: 'field', field: 'v', descending: true }]).slice(2).sort()).toEqual(['empty', 'list', 'none', 'null']);
  });

  it('breaks ties with the next criterion, then by docid; ignores unknown fields', () => {
    index = TestIndex.create({ sortableAttributes: ['g', 'n', 'ghost'] });
    index.write([
      { id: 1, g: 'x', n: 1 },
      { id: 2, g: 'y', n: 5 },
      { id: 3, g: 'x', n: 3 },
      { id: 4, g: 'x' },
      { id: 5, g: 'y', n: 5 },
    ]);
    const criteria: SortCriterion[] = [
      { kind: 'field', field: 'ghost', descending: false },
      { kind: 'field', field: 'g', descending: false },
      { kind: 'field', field: 'n', descending: true },
    ];
    expect(order(criteria)).toEqual([3, 1, 4, 2, 5]);
    const reader = new FacetReader(index.env);
    expect([...sortBuckets(reader, criteria, reader.allDocids())].map((bucket) => bucket.length)).toEqual([1, 1, 1, 2]);
  });

  it('orders by distance to a point, documents without _geo last', () => {
    index = TestIndex.create({ sortableAttributes: ['_geo'] });
    index.write([
      { id: 'paris', _geo: { lat: 48.8566, lng: 2.3522 } },
      { id: 'nowhere' },
      { id: 'lyon', _geo: { lat: '45.764', lng: '4.8357' } },
      { id: 'lille', _geo: { lat: 50.6292, lng: 3.0573 } },
    ]);
    const fromLyon = { kind: 'geo', point: [45.75, 4.85], descending: false } as const;
    expect(order([fromLyon])).toEqual(['lyon', 'paris', 'lille', 'nowhere']);
    expect(order([{ ...fromLyon, descending: true }])).toEqual(['lille', 'paris', 'lyon', 'nowhere']);
  });

  it('pages with offset and limit', () => {
    index = TestIndex.create({ sortableAttributes: ['n'] });
    index.write([0, 1, 2, 3, 4, 5].map((n) => ({ id: n, n: 10 - n })));
    const reader = new FacetReader(index.env);
    const criteria: SortCriterion[] = [{ kind: 'field', field: 'n', descending: false }];
    expect(sortedPage(reader, criteria, reader.allDocids(), 1, 2)).toEqual([4, 3]);
    expect(sortedPage(reader, criteria, reader.allDocids(), 5, 10)).toEqual([0]);
    expect(sortedPage(reader, criteria, reader.allDocids(), 0, 0)).toEqual([]);
  });
});

describe('fieldValueBuckets', () => {
  let index: TestIndex | undefined;
  afterEach(async () => {
    await index?.close();
    index = undefined;
  });

  /** The plain walk: each value in the criterion's order met with the documents left. */
  function walked(reader: FacetReader, field: string, descending: boolean, set: readonly number[]): { value: number | string | null; docids: number[] }[] {
    const fid = reader.fieldId(field);
    let rest = [...set];
    const out: { value: number | string | null; docids: number[] }[] = [];
    for (const kind of fid === undefined ? [] : ([FacetKind.number, FacetKind.string] as const)) {
      for (const { value, docids } of reader.values(fid!, kind, descending)) {
        const holders = new Set(docids);
        const bucket = rest.filter((docid) => holders.has(docid));
        if (bucket.length === 0) continue;
        out.push({ value, docids: bucket });
        rest = rest.filter((docid) => !holders.has(docid));
      }
    }
    if (rest.length > 0) out.push({ value: null, docids: rest });
    return out;
  }

  const bucketed = (reader: FacetReader, field: string, descending: boolean, set: Uint32Array) =>
    [...fieldValueBuckets(reader, field, descending, set)].map(({ value, docids }) => ({ value, docids: [...docids] }));

  function randomValue(random: () => number): unknown {
    const one = (): unknown => {
      const r = random();
      if (r < 0.35) return Math.floor(random() * 40) - 10 + (random() < 0.2 ? 0.5 : 0);
      if (r < 0.7) return ['a', 'B', 'b', 'é', 'zz', 'Zed', '10', ''][Math.floor(random() * 8)];
      return r < 0.8 ? null : r < 0.9 ? true : [];
    };
    return random() < 0.3 ? Array.from({ length: 1 + Math.floor(random() * 3) }, one) : one();
  }

  // the columns are built at the first sort, then patched by each write (index-changes.ts): small
  // writes, so that their documents stay rewritten apart from the laid-out ones for a while
  it('buckets as the walk of the values does, through writes that patch the columns', () => {
    index = TestIndex.create({ sortableAttributes: ['v'], filterableAttributes: ['v'] });
    const random = mulberry32(7);
    for (let round = 0; round < 30; round++) {
      const docs: (JsonObject | { delete: number })[] = [];
      for (let k = 0; k < (round === 0 ? 150 : 1 + Math.floor(random() * 6)); k++) {
        const id = Math.floor(random() * 150);
        if (round > 0 && random() < 0.15) docs.push({ delete: id });
        else docs.push(random() < 0.1 ? { id } : ({ id, v: randomValue(random) } as JsonObject));
      }
      index.write(docs);
      const reader = new FacetReader(index.env);
      const all = reader.allDocids();
      const subset = Uint32Array.from([...all].filter(() => random() < 0.3));
      // the larger sets walk the values, the smaller ones are keyed from the columns
      for (const set of [all, subset, all.subarray(0, 10), subset.subarray(0, 5), all.subarray(0, 1)]) {
        for (const descending of [false, true]) {
          expect(bucketed(reader, 'v', descending, set), `round ${round}`).toEqual(walked(reader, 'v', descending, [...set]));
        }
      }
      expect(keptColumn(index.env, reader.fieldId('v')!, FacetKind.string), `round ${round}`).toBeTruthy();
    }
    const reader = new FacetReader(index.env);
    expect(bucketed(reader, 'ghost', false, reader.allDocids())).toEqual([{ value: null, docids: [...reader.allDocids()] }]);
  });

  it('walks the values of a field too big for a column, alike', () => {
    index = TestIndex.create({ sortableAttributes: ['v'] });
    const random = mulberry32(3);
    // 12,000 distinct strings of 400 characters: ~10 MB as a column, over its bound
    const pad = 'x'.repeat(392);
    index.write(Array.from({ length: 12_000 }, (_, id) => ({ id, v: random() < 0.1 ? id : `${pad}${String(Math.floor(random() * 1e8)).padStart(8, '0')}` })));
    const reader = new FacetReader(index.env);
    // the first set of a reader is walked, the next ones are split by the ranks of one walk
    const sets = Array.from({ length: 4 }, () => Uint32Array.from([...reader.allDocids()].filter(() => random() < 0.01)));
    for (const set of sets) for (const descending of [false, true]) expect(bucketed(reader, 'v', descending, set)).toEqual(walked(reader, 'v', descending, [...set]));
    expect(keptColumn(index.env, reader.fieldId('v')!, FacetKind.string)).toBeNull();
  });
});
