import { describe, expect, it } from 'vitest';
import { badLongitudeMessage, checkGeo, geoDistanceOf, geoDistanceOrigin, geoPointOf, geoSortBuckets, haversine, type LatLng } from '../../../../src/engine/facets/geo.js';

/** The message `checkGeo` gives for document id `id`, or the point. */
function check(geo: unknown, id = '11'): string | LatLng | null {
  const result = checkGeo(geo);
  return 'problem' in result ? result.problem(id) : result.point;
}

describe('haversine', () => {
  it('gives the distances Meilisearch reports, to the metre', () => {
    // Figures from Meilisearch's own responses (a test snapshot and a bug report).
    expect(Math.round(haversine([50.629973371633746, 3.0569447399419567], [1, 1]))).toBe(5522018);
    const origin: LatLng = [48.2342154, 16.4205687];
    expect([[48.2187834, 16.392127], [48.26579, 16.4281601], [48.19431, 16.4071101]].map((p) => Math.round(haversine(origin, p as unknown as LatLng)))).toEqual([2717, 3556, 4548]);
  });

  it('is rounded to the millimetre, symmetric, and zero for one point', () => {
    const d = haversine([48.8566, 2.3522], [45.764, 4.8357]);
    expect(Math.round(d * 1000)).toBe(d * 1000);
    expect(haversine([45.764, 4.8357], [48.8566, 2.3522])).toBe(d);
    expect(haversine([10, 20], [10, 20])).toBe(0);
  });
});

describe('checkGeo', () => {
  it('accepts null, numbers and numeric strings', () => {
    expect(check(null)).toBeNull();
    expect(check({ lat: 1.5, lng: -2 })).toEqual([1.5, -2]);
    expect(check({ lng: '2', lat: '-1.25e1' })).toEqual([-12.5, 2]);
  });

  it('refuses a value that is not an object', () => {
    expect(check('foobar')).toBe(
      'The `_geo` field in the document with the id: `"11"` is not an object. Was expecting an object with the `_geo.lat` and `_geo.lng` fields but instead got `"foobar"`.',
    );
    expect(check([1, 2])).toBe(
      'The `_geo` field in the document with the id: `"11"` is not an object. Was expecting an object with the `_geo.lat` and `_geo.lng` fields but instead got `[1,2]`.',
    );
  });

  it('reports missing keys before extra keys and bad values', () => {
    expect(check({})).toBe('Could not find latitude nor longitude in the document with the id: `"11"`. Was expecting `_geo.lat` and `_geo.lng` fields.');
    expect(check({ doggos: 'are good' })).toBe('Could not find latitude nor longitude in the document with the id: `"11"`. Was expecting `_geo.lat` and `_geo.lng` fields.');
    expect(check({ lat: true })).toBe('Could not find longitude in the document with the id: `"11"`. Was expecting a `_geo.lng` field.');
    expect(check({ lng: 'doggo' })).toBe('Could not find latitude in the document with the id: `"11"`. Was expecting a `_geo.lat` field.');
    expect(check({ lat: 1, lng: 2, doggo: 'are the best' })).toBe(
      'The `_geo` field in the document with the id: `"11"` contains the following unexpected fields: `{"doggo":"are the best"}`.',
    );
  });

  it('reports unparsable coordinates, one or both', () => {
    expect(check({ lng: null, lat: 67 }, '12')).toBe('Could not parse longitude in the document with the id: `"12"`. Was expecting a finite number but instead got `null`.');
    expect(check({ lng: 35, lat: null }, '12')).toBe('Could not parse latitude in the document with the id: `"12"`. Was expecting a finite number but instead got `null`.');
    expect(check({ lat: false, lng: true })).toBe(
      'Could not parse latitude nor longitude in the document with the id: `"11"`. Was expecting finite numbers but instead got `false` and `true`.',
    );
    expect(check({ lat: 'doggo', lng: 'inf' })).toBe(
      'Could not parse latitude nor longitude in the document with the id: `"11"`. Was expecting finite numbers but instead got `"doggo"` and `"inf"`.',
    );
    expect(check({ lat: ' 1', lng: 1 })).toBe('Could not parse latitude in the document with the id: `"11"`. Was expecting a finite number but instead got `" 1"`.');
  });

  it('gives no point for an invalid value', () => {
    expect(geoPointOf({ lat: 1 })).toBeNull();
    expect(geoPointOf(undefined)).toBeNull();
    expect(geoPointOf({ lat: '3', lng: 4 })).toEqual([3, 4]);
  });
});

describe('geoSortBuckets', () => {
  const origin: LatLng = [0, 0];
  // One degree of longitude on the equator is ~111,195 m; 1e-5 degree is ~1.1 m.
  const at = (docid: number, lng: number) => ({ docid, point: [0, lng] as LatLng });
  /** geoSortBuckets over located documents, their points laid out in columns by docid. */
  const sortBuckets = (located: readonly { docid: number; point: LatLng }[], from: LatLng, descending: boolean) => {
    const size = Math.max(...located.map((l) => l.docid)) + 1;
    const columns = { lat: new Float64Array(size).fill(Number.NaN), lng: new Float64Array(size).fill(Number.NaN) };
    for (const { docid, point } of located) [columns.lat[docid], columns.lng[docid]] = point;
    const docids = located.map((l) => l.docid).sort((a, b) => a - b);
    return [...geoSortBuckets(docids, columns, from, descending)];
  };

  it('orders nearest first, or farthest first for desc, each bucket ranked by its first point', () => {
    const located = [at(0, 3), at(1, 1), at(2, 2)];
    expect(sortBuckets(located, origin, false).map((b) => b.docids)).toEqual([[1], [2], [0]]);
    const desc = sortBuckets(located, origin, true);
    expect(desc.map((b) => b.docids)).toEqual([[0], [2], [1]]);
    expect(desc[0]!.point).toEqual([0, 3]);
    expect(desc[0]!.distance).toBe(haversine(origin, [0, 3]));
  });

  it('gathers documents within one metre of the bucket’s first distance, in docid order', () => {
    const located = [at(0, 1.000005), at(1, 1), at(2, 1.00002), at(3, 1)];
    const buckets = sortBuckets(located, origin, false);
    // 0.56 m from the first point joins its bucket; 2.2 m does not.
    expect(buckets.map((b) => b.docids)).toEqual([[0, 1, 3], [2]]);
    expect(buckets[0]!.point).toEqual([0, 1]);
  });

  it('walks equal whole metres backwards for desc, so the last docid ranks the bucket', () => {
    const located = [at(4, 1), at(7, 1)];
    const [bucket] = sortBuckets(located, [0, 0], true);
    expect(bucket!.docids).toEqual([4, 7]);
    expect(bucket!.point).toEqual(located[1]!.point);
  });

  it('orders by whole metres under 1000 points and by exact distance from 1000 on', () => {
    // ~10.9 m and ~10.1 m east of the origin: the same whole metre, 0.8 m apart.
    const pair = [at(0, 0.000098), at(1, 0.0000909)];
    const [few] = sortBuckets(pair, origin, false);
    expect(few!.docids).toEqual([0, 1]);
    expect(few!.point).toEqual([0, 0.000098]);
    const far = Array.from({ length: 998 }, (_, i) => at(i + 2, 10 + i / 100));
    const [many] = sortBuckets([...pair, ...far], origin, false);
    expect(many!.docids).toEqual([0, 1]);
    expect(many!.point).toEqual([0, 0.0000909]);
  });

  it('yields every document once, in distance order, both ways', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const located = Array.from({ length: 3000 }, (_, docid) => ({ docid, point: [random() * 180 - 90, random() * 360 - 180] as LatLng }));
    const from: LatLng = [48.85, 2.35];
    for (const descending of [false, true]) {
      const buckets = sortBuckets(located, from, descending);
      const order = buckets.flatMap((b) => b.docids);
      expect([...order].sort((a, b) => a - b)).toEqual(located.map((l) => l.docid));
      const distances = buckets.map((b) => b.distance);
      expect(distances).toEqual([...distances].sort((a, b) => (descending ? b - a : a - b)));
    }
  });

  it('closes a bucket at 1000 documents', () => {
    const located = Array.from({ length: 1001 }, (_, docid) => at(docid, 1));
    expect(sortBuckets(located, origin, false).map((b) => b.docids.length)).toEqual([1000, 1]);
  });
});

describe('_geoDistance', () => {
  it('takes its origin from the first sort entry naming _geoPoint, as Meilisearch’s pattern reads it', () => {
    expect(geoDistanceOrigin(['title:asc', '_geoPoint(48.8, 2.35):desc', '_geoPoint(1, 1):asc'])).toEqual([48.8, 2.35]);
    expect(geoDistanceOrigin(['_geoPoint( -1.5 ,.5 ):asc'])).toEqual([-1.5, 0.5]);
    // A sign or an exponent is valid sort syntax, but not in the pattern: no distance.
    expect(geoDistanceOrigin(['_geoPoint(+1, 2):asc'])).toBeNull();
    expect(geoDistanceOrigin(['_geoPoint(1e1, 2):asc'])).toBeNull();
    expect(geoDistanceOrigin([])).toBeNull();
  });

  it('is the rounded distance to the retrieved point, absent without one', () => {
    const origin: LatLng = [48.2342154, 16.4205687];
    expect(geoDistanceOf(origin, { _geo: { lat: '48.2187834', lng: 16.392127 } })).toBe(2717);
    expect(geoDistanceOf(origin, { _geo: { lat: 48.2187834 } })).toBeUndefined();
    expect(geoDistanceOf(origin, { _geo: null })).toBeUndefined();
    expect(geoDistanceOf(origin, { id: 1 })).toBeUndefined();
  });
});

describe('badLongitudeMessage', () => {
  it('hints (lng + 180).rem_euclid(360) - 180, as milli computes it in f64', () => {
    const hint = (lng: number) => /try using `([^`]+)`/.exec(badLongitudeMessage(lng))![1];
    // milli's own test figures
    expect([250, 180.000001, -180.000001].map(hint)).toEqual(['-110', '-179.999999', '179.999999']);
    // the remainder just under 0 plus 360 rounds to 360: Rust hints 180, not -180
    expect(hint(-180.00000000000003)).toBe('180');
    expect(hint(-2021)).toBe('139');
    expect(hint(Number.NEGATIVE_INFINITY)).toBe('NaN');
  });
});
