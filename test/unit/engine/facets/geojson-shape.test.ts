import { describe, expect, it } from 'vitest';
import {
  boxPolygon,
  circlePolygon,
  decodeShape,
  densified,
  encodedBox,
  encodeShape,
  GeojsonError,
  parseGeojson,
  queryPolygon,
  relates,
  type QueryPolygon,
  type Shape,
} from '../../../../src/engine/facets/geojson-shape.js';
import { mulberry32 } from '../../../helpers/random.js';

/** A shape as plain arrays, to compare. */
const plain = (shape: Shape) => ({
  points: Array.from(shape.points),
  lines: shape.lines.map((line) => Array.from(line)),
  polygons: shape.polygons.map((rings) => rings.map((ring) => Array.from(ring))),
});

const polygon = (...positions: [number, number][]): QueryPolygon => queryPolygon(Float64Array.from(positions.flat()));
const square = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const UNIT = polygon(...square(0, 0, 1, 1));

const point = (x: number, y: number) => parseGeojson({ type: 'Point', coordinates: [x, y] });
const line = (...positions: [number, number][]) => parseGeojson({ type: 'LineString', coordinates: positions });
const area = (...rings: [number, number][][]) => parseGeojson({ type: 'Polygon', coordinates: rings });

describe('parseGeojson', () => {
  it('reads a Point and a MultiPoint, ignoring an altitude', () => {
    expect(plain(parseGeojson({ type: 'Point', coordinates: [4.35, 50.85, 120] }))).toEqual({ points: [4.35, 50.85], lines: [], polygons: [] });
    expect(plain(parseGeojson({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] })).points).toEqual([1, 2, 3, 4]);
  });

  it('reads a LineString and a MultiLineString', () => {
    expect(plain(parseGeojson({ type: 'LineString', coordinates: [[0, 0], [1, 1], [2, 0]] })).lines).toEqual([[0, 0, 1, 1, 2, 0]]);
    const multi = parseGeojson({ type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[5, 5], [6, 6]]] });
    expect(plain(multi).lines).toEqual([[0, 0, 1, 1], [5, 5, 6, 6]]);
  });

  it('reads a Polygon with its holes and a MultiPolygon', () => {
    const holed = parseGeojson({ type: 'Polygon', coordinates: [square(0, 0, 10, 10), square(2, 2, 4, 4)] });
    expect(plain(holed).polygons).toEqual([[square(0, 0, 10, 10).flat(), square(2, 2, 4, 4).flat()]]);
    const multi = parseGeojson({ type: 'MultiPolygon', coordinates: [[square(0, 0, 1, 1)], [square(5, 5, 6, 6)]] });
    expect(plain(multi).polygons).toEqual([[square(0, 0, 1, 1).flat()], [square(5, 5, 6, 6).flat()]]);
  });

  it('accepts a ring that is not closed, and an empty Polygon as nothing', () => {
    expect(plain(area([[0, 0], [1, 0], [1, 1], [0, 1]])).polygons).toEqual([[[0, 0, 1, 0, 1, 1, 0, 1]]]);
    expect(plain(area([[0, 0], [1, 0], [0, 1]])).polygons).toHaveLength(1);
    expect(plain(parseGeojson({ type: 'Polygon', coordinates: [] })).polygons).toEqual([]);
  });

  it('reads a GeometryCollection, nested ones included, in order', () => {
    const shape = parseGeojson({
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [1, 1] },
        { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [2, 2] }, { type: 'LineString', coordinates: [[0, 0], [1, 0]] }] },
        { type: 'Point', coordinates: [3, 3] },
      ],
    });
    expect(plain(shape)).toEqual({ points: [1, 1, 2, 2, 3, 3], lines: [[0, 0, 1, 0]], polygons: [] });
    expect(plain(parseGeojson({ type: 'GeometryCollection', geometries: [] }))).toEqual({ points: [], lines: [], polygons: [] });
  });

  it("reads a Feature's geometry and all the geometries of a FeatureCollection", () => {
    const feature = { type: 'Feature', properties: { name: 'x' }, geometry: { type: 'Point', coordinates: [1, 2] } };
    expect(plain(parseGeojson(feature)).points).toEqual([1, 2]);
    const collection = {
      type: 'FeatureCollection',
      features: [feature, { type: 'Feature', properties: null, geometry: { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] } }],
    };
    expect(plain(parseGeojson(collection))).toEqual({ points: [1, 2], lines: [], polygons: [[square(0, 0, 1, 1).flat()]] });
  });

  it('takes integers kept as BigInt, and does not check latitude and longitude ranges', () => {
    expect(plain(parseGeojson({ type: 'Point', coordinates: [2n ** 60n, -300] })).points).toEqual([2 ** 60, -300]);
    expect(plain(point(500, -100)).points).toEqual([500, -100]);
  });

  it('refuses a value that is not an object', () => {
    for (const value of [null, 12, 'Point', [1, 2], true]) {
      expect(() => parseGeojson(value)).toThrow(GeojsonError);
    }
    expect(() => parseGeojson([1, 2])).toThrow('non-object type for GeoJSON: `[1,2]`');
  });

  it('refuses a missing or non-string type', () => {
    expect(() => parseGeojson({ coordinates: [1, 2] })).toThrow('Expected a GeoJSON property for `type`, but got None');
    expect(() => parseGeojson({ type: 3, coordinates: [1, 2] })).toThrow('Expected a GeoJSON property for `type`');
  });

  it('refuses an unknown type, and a Feature where a geometry is expected', () => {
    expect(() => parseGeojson({ type: 'Circle', coordinates: [1, 2] })).toThrow("unknown 'geometry' object type: `Circle`");
    expect(() => parseGeojson({ type: 'point', coordinates: [1, 2] })).toThrow(GeojsonError);
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] } };
    expect(() => parseGeojson({ type: 'GeometryCollection', geometries: [feature] })).toThrow('`Feature`');
    expect(() => parseGeojson({ type: 'Feature', geometry: feature })).toThrow('`Feature`');
    expect(() => parseGeojson({ type: 'Feature', geometry: { type: 'FeatureCollection', features: [] } })).toThrow(GeojsonError);
  });

  it('refuses missing coordinates or coordinates not of the nesting of their type', () => {
    expect(() => parseGeojson({ type: 'Point' })).toThrow('Expected a GeoJSON property for `coordinates`');
    const wrong: [string, unknown][] = [
      ['Point', [[1, 2]]],
      ['Point', 'here'],
      ['MultiPoint', [1, 2]],
      ['LineString', [1, 2]],
      ['MultiLineString', [[1, 2], [3, 4]]],
      ['Polygon', [[1, 2], [3, 4], [5, 6], [1, 2]]],
      ['MultiPolygon', [square(0, 0, 1, 1)]],
      ['Polygon', null],
    ];
    for (const [type, coordinates] of wrong) {
      expect(() => parseGeojson({ type, coordinates }), `${type} ${JSON.stringify(coordinates)}`).toThrow(GeojsonError);
    }
    expect(() => parseGeojson({ type: 'LineString', coordinates: [1, 2] })).toThrow('Expected a position');
  });

  it('refuses a position of fewer than two numbers or of anything but finite numbers', () => {
    expect(() => parseGeojson({ type: 'Point', coordinates: [1] })).toThrow('A position must contain two or more elements, but got `1`');
    expect(() => parseGeojson({ type: 'Point', coordinates: [] })).toThrow(GeojsonError);
    expect(() => parseGeojson({ type: 'Point', coordinates: ['1', 2] })).toThrow('finite numbers');
    expect(() => parseGeojson({ type: 'Point', coordinates: [1, 2, null] })).toThrow(GeojsonError);
    expect(() => parseGeojson({ type: 'Point', coordinates: [Infinity, 2] })).toThrow(GeojsonError);
    expect(() => parseGeojson({ type: 'MultiPoint', coordinates: [[1, 2], [NaN, 2]] })).toThrow(GeojsonError);
  });

  it('refuses a LineString of fewer than two positions', () => {
    expect(() => line([0, 0])).toThrow('A LineString must contain two or more positions, but got `1`');
    expect(() => parseGeojson({ type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], []] })).toThrow(GeojsonError);
  });

  it('refuses a polygon ring without three distinct positions', () => {
    expect(() => area([[0, 0], [1, 1]])).toThrow('polygon ring');
    expect(() => area([[0, 0], [1, 1], [0, 0], [0, 0]])).toThrow(GeojsonError);
    expect(() => area([[0, 0], [1, 1], [1, 1], [0, 0]])).toThrow(GeojsonError);
    expect(() => area(square(0, 0, 10, 10), [[1, 1], [1, 1], [1, 1], [1, 1]])).toThrow(GeojsonError);
    expect(() => area([])).toThrow(GeojsonError);
  });

  it('refuses a Feature without a geometry, and a FeatureCollection of anything but Features', () => {
    expect(() => parseGeojson({ type: 'Feature', properties: {}, geometry: null })).toThrow(
      'Attempted to a convert a feature without a geometry into a geo_types::Geometry: `{"type":"Feature","geometry":null,"properties":{}}`',
    );
    expect(() => parseGeojson({ type: 'Feature', properties: {} })).toThrow('Expected a GeoJSON property for `geometry`');
    expect(() => parseGeojson({ type: 'Feature', geometry: [1, 2] })).toThrow("'geometry' field on 'feature' object");
    expect(() => parseGeojson({ type: 'FeatureCollection' })).toThrow('Expected a GeoJSON property for `features`');
    expect(() => parseGeojson({ type: 'FeatureCollection', features: {} })).toThrow(GeojsonError);
    const pointFeature = { type: 'FeatureCollection', features: [{ type: 'Point', coordinates: [1, 2] }] };
    expect(() => parseGeojson(pointFeature)).toThrow('Expected a Feature mapping, but got a `Point`');
    expect(() => parseGeojson({ type: 'FeatureCollection', features: [7] })).toThrow(GeojsonError);
    expect(() => parseGeojson({ type: 'FeatureCollection', features: [{ type: 'FeatureCollection', features: [] }] })).toThrow(GeojsonError);
  });

  it('refuses a GeometryCollection without an array of geometry objects', () => {
    expect(() => parseGeojson({ type: 'GeometryCollection' })).toThrow('Expected a GeoJSON property for `geometries`');
    expect(() => parseGeojson({ type: 'GeometryCollection', geometries: { type: 'Point', coordinates: [1, 2] } })).toThrow(GeojsonError);
    expect(() => parseGeojson({ type: 'GeometryCollection', geometries: [[1, 2]] })).toThrow(GeojsonError);
  });

  it('refuses more than a million positions in all, before reading them', () => {
    const many = (count: number) => ({ type: 'MultiPoint', coordinates: new Array<number[]>(count).fill([1, 2]) });
    expect(parseGeojson(many(1_000_000)).points.length).toBe(2_000_000);
    expect(() => parseGeojson(many(1_000_001))).toThrow(GeojsonError);
    // refused on its count: the (invalid) positions are never read
    expect(() => parseGeojson({ type: 'MultiPoint', coordinates: new Array(1_000_001).fill('x') })).toThrow('at most 1000000 positions');
    const split = { type: 'GeometryCollection', geometries: [many(600_000), { type: 'Feature', geometry: many(1) }, many(400_000)] };
    expect(() => parseGeojson(split)).toThrow(GeojsonError);
  });

  it('refuses nesting deeper than 64 levels, however deep, without recursing', () => {
    const nested = (levels: number): unknown => {
      let value: unknown = { type: 'Point', coordinates: [1, 2] };
      for (let i = 1; i < levels; i++) value = { type: 'GeometryCollection', geometries: [value] };
      return value;
    };
    expect(plain(parseGeojson(nested(64))).points).toEqual([1, 2]);
    expect(() => parseGeojson(nested(65))).toThrow('at most 64 levels');
    expect(() => parseGeojson(nested(200_000))).toThrow(GeojsonError);
    const deepArray = (levels: number): unknown => {
      let value: unknown = [];
      for (let i = 0; i < levels; i++) value = [value];
      return value;
    };
    expect(() => parseGeojson(deepArray(200_000))).toThrow(GeojsonError);
    expect(() => parseGeojson({ type: 'Polygon', coordinates: deepArray(200_000) })).toThrow(GeojsonError);
  });
});

describe('encodeShape / decodeShape', () => {
  const mixed = parseGeojson({
    type: 'GeometryCollection',
    geometries: [
      { type: 'MultiPoint', coordinates: [[1.5, -2], [3, 4]] },
      { type: 'MultiLineString', coordinates: [[[0, 0], [10, 1]], [[-5, 3], [2, 2], [0, 9]]] },
      { type: 'MultiPolygon', coordinates: [[square(0, 0, 10, 10), square(2, 2, 4, 4)], [square(20, -7, 21, -6)]] },
    ],
  });

  it('round-trips every primitive', () => {
    expect(plain(decodeShape(encodeShape(mixed)))).toEqual(plain(mixed));
    const empty = parseGeojson({ type: 'GeometryCollection', geometries: [] });
    expect(plain(decodeShape(encodeShape(empty)))).toEqual(plain(empty));
  });

  it('starts with the bounding box, which encodedBox reads alone', () => {
    const bytes = encodeShape(mixed);
    expect(encodedBox(bytes)).toEqual([-5, -7, 21, 10]);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect([0, 8, 16, 24].map((at) => view.getFloat64(at, true))).toEqual([-5, -7, 21, 10]);
    expect(encodedBox(encodeShape(point(3, 4)))).toEqual([3, 4, 3, 4]);
  });

  it('gives an empty shape a NaN box', () => {
    expect(encodedBox(encodeShape(parseGeojson({ type: 'MultiPoint', coordinates: [] })))).toEqual([NaN, NaN, NaN, NaN]);
  });

  it('reads bytes that sit at any offset of a larger buffer', () => {
    const bytes = encodeShape(mixed);
    const larger = new Uint8Array(bytes.length + 5);
    larger.set(bytes, 3);
    const slice = larger.subarray(3, 3 + bytes.length);
    expect(plain(decodeShape(slice))).toEqual(plain(mixed));
    expect(encodedBox(slice)).toEqual([-5, -7, 21, 10]);
  });
});

describe('relates', () => {
  it('finds a point inside, on an edge or on a vertex, and not outside', () => {
    expect(relates(point(0.5, 0.5), UNIT)).toBe(true);
    expect(relates(point(1, 0.5), UNIT)).toBe(true);
    expect(relates(point(0.5, 0), UNIT)).toBe(true);
    expect(relates(point(1, 1), UNIT)).toBe(true);
    expect(relates(point(0, 0), UNIT)).toBe(true);
    expect(relates(point(1.5, 0.5), UNIT)).toBe(false);
    expect(relates(point(-1e-300, 0.5), UNIT)).toBe(false);
    expect(relates(point(1.5, 1), UNIT)).toBe(false);
  });

  it('decides a point against a slanted edge exactly', () => {
    const triangle = polygon([0, 0], [3, 0], [0, 3]);
    expect(relates(point(1, 2), triangle)).toBe(true);
    expect(relates(point(1, 2 + 2 ** -51), triangle)).toBe(false);
    expect(relates(point(1, 2 - 2 ** -51), triangle)).toBe(true);
    // y = x bounds this one; one ulp of 0.5 off it, the differences to (-12, -12) round it away,
    // so a floating-point determinant finds these points on the edge
    const below = polygon([-12, -12], [24, 24], [24, -12]);
    expect(relates(point(0.5, 0.5), below)).toBe(true);
    expect(relates(point(0.5, 0.5 + 2 ** -53), below)).toBe(false);
    expect(relates(point(0.5 + 2 ** -53, 0.5), below)).toBe(true);
    expect(relates(line([0.5, 0.5 + 2 ** -53], [-11, -11 + 2 ** -49]), below)).toBe(false);
  });

  it('works with a query ring that is closed or not, in either direction', () => {
    for (const ring of [square(0, 0, 1, 1), square(0, 0, 1, 1).slice(0, 4), square(0, 0, 1, 1).reverse()]) {
      const query = polygon(...ring);
      expect(relates(point(0.5, 0.5), query)).toBe(true);
      expect(relates(point(1, 0.25), query)).toBe(true);
      expect(relates(point(2, 0.5), query)).toBe(false);
    }
  });

  it('finds a MultiPoint when any of its points relates', () => {
    expect(relates(parseGeojson({ type: 'MultiPoint', coordinates: [[5, 5], [0.5, 0.5]] }), UNIT)).toBe(true);
    expect(relates(parseGeojson({ type: 'MultiPoint', coordinates: [[5, 5], [-1, 0.5]] }), UNIT)).toBe(false);
  });

  it('finds a line crossing the polygon with no vertex inside', () => {
    expect(relates(line([-1, 0.5], [2, 0.5]), UNIT)).toBe(true);
    expect(relates(line([-1, -0.5], [2, 2.5]), UNIT)).toBe(true);
    expect(relates(line([5, 5], [6, 6], [-1, 0.5], [2, 0.4]), UNIT)).toBe(true);
  });

  it('finds a line wholly inside, or touching the boundary, or along an edge', () => {
    expect(relates(line([0.2, 0.2], [0.8, 0.3], [0.5, 0.9]), UNIT)).toBe(true);
    expect(relates(line([-1, -1], [0, 0]), UNIT)).toBe(true);
    expect(relates(line([-1, 0.5], [0, 0.5]), UNIT)).toBe(true);
    expect(relates(line([-1, 0], [3, 0]), UNIT)).toBe(true);
    expect(relates(line([0.25, 1], [0.75, 1]), UNIT)).toBe(true);
  });

  it('does not find a line outside, even when the boxes overlap', () => {
    expect(relates(line([2, 0], [3, 0]), UNIT)).toBe(false);
    expect(relates(line([-1, 0.5], [0.4, 2]), UNIT)).toBe(false);
    expect(relates(line([1.5, -1], [1.5, 2], [-1, 2]), UNIT)).toBe(false);
  });

  it('finds a polygon that contains the query, none of its vertices inside the query', () => {
    expect(relates(area(square(-10, -10, 10, 10)), UNIT)).toBe(true);
  });

  it('finds a polygon lying inside the query', () => {
    expect(relates(area(square(0.25, 0.25, 0.75, 0.75)), UNIT)).toBe(true);
  });

  it('finds polygons overlapping or touching by an edge or a corner', () => {
    expect(relates(area(square(0.5, 0.5, 2, 2)), UNIT)).toBe(true);
    expect(relates(area(square(1, 0, 2, 1)), UNIT)).toBe(true);
    expect(relates(area(square(1, 1, 2, 2)), UNIT)).toBe(true);
    // a cross: each crosses the other, no vertex of either inside the other
    expect(relates(area(square(-1, 0.25, 2, 0.75)), polygon(...square(0.25, -1, 0.75, 2)))).toBe(true);
  });

  it('does not find a polygon apart from an L-shaped query whose box holds it', () => {
    const ell = polygon([0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]);
    expect(relates(area(square(2, 2, 3, 3)), ell)).toBe(false);
    expect(relates(area(square(1.5, 1.5, 2.5, 2.5)), ell)).toBe(false);
    expect(relates(point(2, 2), ell)).toBe(false);
    expect(relates(area(square(1, 1, 2, 2)), ell)).toBe(true);
    expect(relates(area(square(2, 0.5, 2.5, 2)), ell)).toBe(true);
  });

  it("counts a polygon's holes: a query inside a hole does not relate, one crossing or touching the hole's ring does", () => {
    const holed = area(square(0, 0, 10, 10), square(3, 3, 7, 7));
    expect(relates(holed, polygon(...square(4, 4, 6, 6)))).toBe(false);
    expect(relates(point(5, 5), polygon(...square(4, 4, 6, 6)))).toBe(true);
    expect(relates(holed, polygon(...square(2, 2, 5, 5)))).toBe(true);
    expect(relates(holed, polygon(...square(3, 3, 7, 7)))).toBe(true);
    expect(relates(holed, polygon(...square(4, 4, 7, 6)))).toBe(true);
    expect(relates(holed, polygon(...square(1, 1, 2, 2)))).toBe(true);
    expect(relates(holed, polygon(...square(-1, -1, 11, 11)))).toBe(true);
    expect(relates(holed, polygon(...square(2, 2, 8, 8)))).toBe(true);
    // points of a Polygon shape in its hole are not in it: a point shape and a hole differ
    expect(relates(holed, polygon([5, 5], [5.1, 5], [5, 5.1]))).toBe(false);
  });

  it('finds a MultiPolygon when any of its polygons relates', () => {
    const two = parseGeojson({ type: 'MultiPolygon', coordinates: [[square(0, 0, 1, 1)], [square(10, 10, 11, 11)]] });
    expect(relates(two, polygon(...square(10.2, 10.2, 10.4, 10.4)))).toBe(true);
    expect(relates(two, polygon(...square(9, 9, 12, 12)))).toBe(true);
    expect(relates(two, polygon(...square(4, 4, 6, 6)))).toBe(false);
  });

  it('finds a collection when any member relates, and never an empty shape', () => {
    const collection = parseGeojson({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [50, 50] } },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [[-1, 0.5], [2, 0.5]] } },
      ],
    });
    expect(relates(collection, UNIT)).toBe(true);
    expect(relates(collection, polygon(...square(5, 5, 6, 6)))).toBe(false);
    expect(relates(parseGeojson({ type: 'GeometryCollection', geometries: [] }), polygon(...square(-1e9, -1e9, 1e9, 1e9)))).toBe(false);
  });

  it('agrees with a winding-number reference for random points and convex polygons', () => {
    const random = mulberry32(20_240_917);
    let inside = 0;
    for (let round = 0; round < 400; round++) {
      const cx = (random() - 0.5) * 360;
      const cy = (random() - 0.5) * 180;
      const r = 0.001 + random() * 20;
      const count = 3 + Math.floor(random() * 12);
      const angles = Array.from({ length: count }, () => random() * 2 * Math.PI).sort((a, b) => a - b);
      if (random() < 0.5) angles.reverse();
      const ring = angles.map((a): [number, number] => [cx + r * Math.cos(a), cy + r * Math.sin(a)]);
      const query = polygon(...ring);
      for (let k = 0; k < 10; k++) {
        const x = cx + (random() * 2 - 1) * r * 1.2;
        const y = cy + (random() * 2 - 1) * r * 1.2;
        const expected = windingNumber(ring, x, y) !== 0;
        if (expected) inside++;
        expect(relates(point(x, y), query), `round ${round}, point ${x}, ${y}`).toBe(expected);
      }
      const [vx, vy] = ring[Math.floor(random() * count)];
      expect(relates(point(vx, vy), query)).toBe(true);
    }
    // both outcomes well represented, so neither answer alone could pass
    expect(inside).toBeGreaterThan(800);
    expect(inside).toBeLessThan(3200);
  });
});

describe('relates over rings of many edges (read by band)', () => {
  it('agrees with the winding-number reference for random star polygons of up to 2,000 edges, points and lines alike', () => {
    const random = mulberry32(7_771);
    let inside = 0;
    for (let round = 0; round < 60; round++) {
      const [cx, cy] = [(random() - 0.5) * 300, (random() - 0.5) * 150];
      const count = 50 + Math.floor(random() * 1950);
      // a star: radii vary, so the ring is not convex and many bands hold several crossings
      const ring = Array.from({ length: count }, (_, i): [number, number] => {
        const angle = (2 * Math.PI * i) / count;
        const radius = 1 + random() * 9;
        return [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)];
      });
      const query = polygon(...ring);
      for (let k = 0; k < 40; k++) {
        const x = cx + (random() * 2 - 1) * 11;
        const y = cy + (random() * 2 - 1) * 11;
        const expected = windingNumber(ring, x, y) !== 0;
        if (expected) inside++;
        expect(relates(point(x, y), query), `round ${round}, point ${x}, ${y}`).toBe(expected);
      }
      // a vertex and the midpoint of an edge lie on the boundary
      const at = Math.floor(random() * count);
      const [ax, ay] = ring[at]!;
      const [bx, by] = ring[(at + 1) % count]!;
      expect(relates(point(ax, ay), query)).toBe(true);
      // a short line across that edge meets it, one far outside does not
      const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
      expect(relates(line([mx - (by - ay), my + (bx - ax)], [mx + (by - ay), my - (bx - ax)]), query)).toBe(true);
      expect(relates(line([cx + 20, cy + 20], [cx + 30, cy + 25]), query)).toBe(false);
    }
    expect(inside).toBeGreaterThan(400);
    expect(inside).toBeLessThan(2000);
  });

  it('spends its budget on the positions it reads and the edges it tests, and stops once it is spent', () => {
    const ring = Array.from({ length: 1000 }, (_, i): [number, number] => [Math.cos((2 * Math.PI * i) / 1000), Math.sin((2 * Math.PI * i) / 1000)]);
    const query = polygon(...ring);
    const budget = { remaining: 1_000_000 };
    expect(relates(area(square(-0.5, -0.5, 0.5, 0.5)), query, budget)).toBe(true);
    const spent = 1_000_000 - budget.remaining;
    // the square's positions and a few bands' edges, far from the 4,000 tests of every edge against each side
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(1_500);
    // a line of 10,000 positions crossing the ring only at its end, against a budget that cannot read it: false, and spent
    const long = line(...Array.from({ length: 10_000 }, (_, i): [number, number] => [-100 + (100 * i) / 9_999, 0]));
    const short = { remaining: 1_000 };
    expect(relates(long, query, short)).toBe(false);
    expect(short.remaining).toBeLessThan(0);
    expect(relates(long, query, { remaining: 1_000_000 })).toBe(true);
  });
});

describe('the bands of a ring of long edges', () => {
  it('hold at most 2^21 edge entries (a zig-zag of 200,000 edges across every height), and relations read over them stay exact', () => {
    const count = 200_000;
    const ring = Array.from({ length: count }, (_, i): [number, number] => [Math.cos(i) * 170, Math.sin(i) * 80]);
    const query = queryPolygon(Float64Array.from(ring.flat()));
    // 4,096 bands would have filed each edge in most of them: ~400 million entries
    expect(query.bands.edges.length).toBeLessThanOrEqual(2 ** 21);
    expect(query.bands.count).toBeGreaterThanOrEqual(1);
    // the ring crosses itself: a point is inside when a ray from it crosses the ring an odd number of times
    const crossings = (x: number, y: number) => ring.filter(([ax, ay], i) => {
      const [bx, by] = ring[(i + 1) % count]!;
      return ay > y !== by > y && x < ax + ((y - ay) * (bx - ax)) / (by - ay);
    }).length;
    const random = mulberry32(20_261_205);
    for (let k = 0; k < 20; k++) {
      const [x, y] = [(random() * 2 - 1) * 170, (random() * 2 - 1) * 80];
      expect(relates(point(x, y), query), `point ${x}, ${y}`).toBe(crossings(x, y) % 2 === 1);
    }
  });
});

describe('densified', () => {
  it('bends a long edge along its great circle, at most 1 km a step, keeping the corners', () => {
    // the top edge of a box at latitude 50 from longitude 0.5 to 21.4 (~1,480 km)
    const box = densified(boxPolygon(50, 21.4, 44, 0.5));
    expect(box.ring.length / 2).toBeGreaterThan(1_400 * 2);
    expect(Array.from(box.ring.subarray(0, 4))).toEqual([21.4, 50, expect.closeTo(21.4 - 21.4 / 1_500, 1), expect.any(Number)]);
    // the great circle between two points of latitude 50 passes north of it, most in the middle (50.47)
    expect(box.box[3]).toBeGreaterThan(50.4);
    expect(box.box[3]).toBeLessThan(50.5);
    // a point north of the plane's edge, in the middle, is inside the bent one; near a corner it is not
    expect(relates(point(10.95, 50.4), box)).toBe(true);
    expect(relates(point(10.95, 50.4), boxPolygon(50, 21.4, 44, 0.5))).toBe(false);
    expect(relates(point(1, 50.4), box)).toBe(false);
  });

  it('leaves edges under 1 km as they are, and spaces the points of a very long ring wider than 1 km', () => {
    const small = polygon(...square(0, 0, 0.001, 0.001));
    expect(densified(small).ring.length).toBe(small.ring.length);
    // a zigzag of 36 edges from pole to pole, ~17,800 km each: over the 100,000-point bound at 1 km
    const zigzag = Array.from({ length: 36 }, (_, i): [number, number] => [-175 + 10 * i, i % 2 === 0 ? 80 : -80]);
    const dense = densified(polygon(...zigzag));
    expect(dense.ring.length / 2).toBeLessThanOrEqual(100_000 + 36);
    expect(dense.ring.length / 2).toBeGreaterThan(95_000);
  });

  it('keeps straight an edge that would cross the antimeridian on the globe', () => {
    // the top and bottom edges span 358° in the plane: kept; the sides (160° of latitude) bent into ~17,800 points each
    const world = densified(boxPolygon(80, 179, -80, -179));
    expect(world.ring.length / 2).toBeGreaterThan(35_000);
    expect(world.ring.length / 2).toBeLessThan(36_000);
    expect(world.box[0]).toBe(-179);
    expect(world.box[2]).toBe(179);
    expect(relates(point(0, 0), world)).toBe(true);
  });
});

/** Sunday's winding number of a ring around (x, y), the reference for the randomized test. */
function windingNumber(ring: readonly [number, number][], x: number, y: number): number {
  let winding = 0;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i];
    const [bx, by] = ring[(i + 1) % ring.length];
    const side = (bx - ax) * (y - ay) - (x - ax) * (by - ay);
    if (ay <= y && by > y && side > 0) winding++;
    else if (ay > y && by <= y && side < 0) winding--;
  }
  return winding;
}

describe('boxPolygon', () => {
  it('builds the ring (right, top), (left, top), (left, bottom), (right, bottom)', () => {
    const box = boxPolygon(50, 5, 40, -3);
    expect(Array.from(box.ring)).toEqual([5, 50, -3, 50, -3, 40, 5, 40]);
    expect(box.box).toEqual([-3, 40, 5, 50]);
  });

  it('relates the shapes inside, on and across it', () => {
    const box = boxPolygon(50, 5, 40, -3);
    expect(relates(point(0, 45), box)).toBe(true);
    expect(relates(point(5, 50), box)).toBe(true);
    expect(relates(point(6, 45), box)).toBe(false);
    expect(relates(line([-10, 45], [10, 45]), box)).toBe(true);
    expect(relates(area(square(-20, 30, 20, 60)), box)).toBe(true);
  });
});

describe('circlePolygon', () => {
  const R = 6_371_008.8;
  const toDegrees = (radians: number) => (radians * 180) / Math.PI;
  const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
  /** Great-circle distance in metres on the geo crate's sphere. */
  const distance = (lat1: number, lng1: number, lat2: number, lng2: number) => {
    const h = Math.sin(toRadians(lat2 - lat1) / 2) ** 2 + Math.cos(toRadians(lat1)) * Math.cos(toRadians(lat2)) * Math.sin(toRadians(lng2 - lng1) / 2) ** 2;
    return 2 * R * Math.asin(Math.sqrt(h));
  };

  it('puts `resolution` points at the radius, the first due north, then clockwise', () => {
    const circle = circlePolygon(48.85, 2.35, 5000, 125);
    expect(circle.ring.length).toBe(250);
    for (let i = 0; i < 125; i++) expect(distance(48.85, 2.35, circle.ring[2 * i + 1], circle.ring[2 * i])).toBeCloseTo(5000, 3);
    expect(circle.ring[0]).toBeCloseTo(2.35, 12);
    expect(circle.ring[1]).toBeCloseTo(48.85 + toDegrees(5000 / R), 12);
    // bearing 90° (i = 125 / 4 is not whole; take resolution 4): due east
    const four = circlePolygon(0, 0, 1000, 4);
    expect(four.ring[2]).toBeCloseTo(toDegrees(1000 / R), 12);
    expect(four.ring[3]).toBeCloseTo(0, 12);
    expect(four.box[0]).toBeCloseTo(-toDegrees(1000 / R), 12);
  });

  it('holds a point 4.9 km from the centre and not one 5.1 km away, in every direction', () => {
    const [lat, lng] = [45.76, 4.83];
    const circle = circlePolygon(lat, lng, 5000, 125);
    const toward = (bearing: number, metres: number) => {
      const angle = metres / R;
      const [phi, lambda, theta] = [toRadians(lat), toRadians(lng), toRadians(bearing)];
      const phi2 = Math.asin(Math.sin(phi) * Math.cos(angle) + Math.cos(phi) * Math.sin(angle) * Math.cos(theta));
      const lambda2 = lambda + Math.atan2(Math.sin(theta) * Math.sin(angle) * Math.cos(phi), Math.cos(angle) - Math.sin(phi) * Math.sin(phi2));
      return point(toDegrees(lambda2), toDegrees(phi2));
    };
    for (let bearing = 0; bearing < 360; bearing += 7.3) {
      expect(relates(toward(bearing, 4900), circle), `bearing ${bearing}`).toBe(true);
      expect(relates(toward(bearing, 5100), circle), `bearing ${bearing}`).toBe(false);
    }
    expect(relates(point(lng, lat), circle)).toBe(true);
  });

  it("relates instant-meilisearch's example point in Brussels", () => {
    expect(relates(point(4.35, 50.8467), circlePolygon(50.8466, 4.35, 5000, 125))).toBe(true);
    expect(relates(point(4.35, 50.9), circlePolygon(50.8466, 4.35, 5000, 125))).toBe(false);
  });
});
