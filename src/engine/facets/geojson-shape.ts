/**
 * `_geojson` shapes as Meilisearch v1.50 filters them: the check of a document's value (modelled
 * on the `geojson` crate's parsing, bounded in size and depth since a document can hold anything),
 * a compact stored form that starts with the bounding box (a filter skips most shapes unread), and
 * the relation `_geoPolygon`, `_geoBoundingBox` and `_geoRadius` test: any contact between the
 * shape and the query polygon, in the plane of (lng, lat) degrees as the `geo` crate computes it,
 * with exact orientation tests so that touching and collinear cases decide as they do there.
 * Pure; callers store the bytes and build the query polygons from the filter.
 */
import { stringifyJson } from '../../types/json-text.js';

/** Why a `_geojson` value is refused; the message is shown to users as the task error. */
export class GeojsonError extends Error {}

/** A parsed shape: the primitives of the geometry, coordinates as [lng, lat] pairs. */
export interface Shape {
  readonly points: Float64Array;
  readonly lines: readonly Float64Array[];
  /** each polygon: exterior ring then holes (closed or not) */
  readonly polygons: readonly (readonly Float64Array[])[];
}

type Box = readonly [minLng: number, minLat: number, maxLng: number, maxLat: number];

/** A query polygon: one ring of lng,lat pairs (not necessarily closed; at least 3 positions), with its bounding box. */
export interface QueryPolygon {
  readonly ring: Float64Array;
  readonly box: Box;
  /** its edges by horizontal band, so a test reads only the edges at the heights it covers */
  readonly bands: Bands;
}

/**
 * A ring's edges by horizontal band: band b (of `count`, each `height` high from `minY`) lists, in
 * `edges[starts[b], starts[b + 1])`, the edges whose latitude range meets it (an edge is named by
 * the index of its end position; it starts at the position before, the last for the first).
 */
interface Bands {
  readonly minY: number;
  readonly height: number;
  readonly count: number;
  readonly starts: Int32Array;
  readonly edges: Int32Array;
}

/**
 * The work a query may still do (geojson-filter.ts bounds it): one unit per edge tested, and
 * POSITION_COST per position of the shape read (its box, its segments' boxes). A relation stops,
 * answering false, once it is spent; the caller then refuses the query.
 */
export interface WorkBudget {
  remaining: number;
}

/** A position read (copied out of storage, boxed, scanned) costs about this many edge tests. */
export const POSITION_COST = 8;

const MAX_POSITIONS = 1_000_000;
const MAX_DEPTH = 64;

// ---------------------------------------------------------------------------------------------
// Parsing

/** A value as a message quotes it: serde_json's compact printing, cut short (it can be of any size or depth). */
function quote(value: unknown): string {
  let text: string;
  try {
    text = stringifyJson(value);
  } catch {
    text = Array.isArray(value) ? '[…]' : '{…}';
  }
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function property(object: Record<string, unknown>, name: string): unknown {
  if (!Object.hasOwn(object, name)) throw new GeojsonError(`Expected a GeoJSON property for \`${name}\`, but got None`);
  return object[name];
}

function array(value: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new GeojsonError(`Expected ${what}, but got \`${quote(value)}\``);
  return value;
}

/** Whether a ring has three distinct positions, the fewest that enclose anything. */
function hasThreeDistinct(ring: Float64Array): boolean {
  const [x0, y0] = [ring[0], ring[1]];
  let second = -1;
  for (let i = 2; i < ring.length; i += 2) {
    const x = ring[i];
    const y = ring[i + 1];
    if (x === x0 && y === y0) continue;
    if (second < 0) second = i;
    else if (x !== ring[second] || y !== ring[second + 1]) return true;
  }
  return false;
}

/** Reads the geometries of one value into flat coordinate arrays, counting positions as it goes. */
class ShapeReader {
  readonly points: number[] = [];
  readonly lines: Float64Array[] = [];
  readonly polygons: Float64Array[][] = [];
  private positions = 0;

  /** Adds the primitives of a geometry other than a GeometryCollection. */
  geometry(type: string, coordinates: unknown): void {
    switch (type) {
      case 'Point':
        this.count(1);
        this.points.push(...this.position(coordinates, type));
        return;
      case 'MultiPoint':
        for (const position of this.list(coordinates, type, 'an array of positions')) this.points.push(...this.position(position, type));
        return;
      case 'LineString':
        this.lines.push(this.line(coordinates, type));
        return;
      case 'MultiLineString':
        for (const line of array(coordinates, `the \`coordinates\` of a ${type} to be an array of LineStrings`)) this.lines.push(this.line(line, type));
        return;
      case 'Polygon':
        this.polygon(coordinates, type);
        return;
      case 'MultiPolygon':
        for (const polygon of array(coordinates, `the \`coordinates\` of a ${type} to be an array of Polygons`)) this.polygon(polygon, type);
        return;
      default:
        throw new GeojsonError(`Encountered an unknown 'geometry' object type: \`${type}\``);
    }
  }

  private count(positions: number): void {
    this.positions += positions;
    if (this.positions > MAX_POSITIONS) throw new GeojsonError(`A GeoJSON value may hold at most ${MAX_POSITIONS} positions`);
  }

  /** An array of positions, counted before any is read. */
  private list(value: unknown, type: string, what: string): readonly unknown[] {
    const positions = array(value, `the \`coordinates\` of a ${type} to be ${what}`);
    this.count(positions.length);
    return positions;
  }

  /** A position's lng and lat: two or more finite numbers, any further one (an altitude) ignored. */
  private position(value: unknown, type: string): [number, number] {
    const numbers = array(value, `a position (an array of numbers) in the \`coordinates\` of a ${type}`);
    if (numbers.length < 2) throw new GeojsonError(`A position must contain two or more elements, but got \`${numbers.length}\``);
    const lnglat: [number, number] = [0, 0];
    for (let i = 0; i < numbers.length; i++) {
      const n = numbers[i];
      // parseJson keeps integers beyond 2^53 as BigInt
      const float = typeof n === 'bigint' ? Number(n) : n;
      if (typeof float !== 'number' || !Number.isFinite(float)) {
        throw new GeojsonError(`Expected a position of finite numbers in the \`coordinates\` of a ${type}, but got \`${quote(value)}\``);
      }
      if (i < 2) lnglat[i] = float;
    }
    return lnglat;
  }

  private positionsOf(value: unknown, type: string, what: string): Float64Array {
    const positions = this.list(value, type, what);
    const out = new Float64Array(positions.length * 2);
    positions.forEach((position, i) => out.set(this.position(position, type), 2 * i));
    return out;
  }

  private line(value: unknown, type: string): Float64Array {
    const line = this.positionsOf(value, type, 'an array of two or more positions');
    if (line.length < 4) throw new GeojsonError(`A LineString must contain two or more positions, but got \`${line.length / 2}\``);
    return line;
  }

  private polygon(value: unknown, type: string): void {
    const rings = array(value, `the \`coordinates\` of a ${type} to be an array of rings`).map((positions) => {
      const ring = this.positionsOf(positions, type, 'a ring (an array of four or more positions)');
      // an unclosed ring is accepted, as geo_types closes it; what it must have is an inside
      if (!hasThreeDistinct(ring)) {
        throw new GeojsonError(`A polygon ring must contain four or more positions, three of them distinct, but got \`${quote(positions)}\``);
      }
      return ring;
    });
    // an empty Polygon (no rings) has nothing to relate
    if (rings.length > 0) this.polygons.push(rings);
  }
}

type Expected = 'GeoJSON' | 'Feature' | 'Geometry';

/**
 * Parses a `_geojson` value (already JSON-parsed): a Geometry, a Feature (its geometry) or a
 * FeatureCollection (its features' geometries). Throws GeojsonError when it is not valid GeoJSON,
 * holds more than a million positions, or nests deeper than 64 levels.
 */
export function parseGeojson(value: unknown): Shape {
  const reader = new ShapeReader();
  // depth-first with a stack of its own, children pushed last first so they read in order
  const stack: [value: unknown, depth: number, expected: Expected][] = [[value, 1, 'GeoJSON']];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [object, depth, expected] = item;
    if (depth > MAX_DEPTH) throw new GeojsonError(`A GeoJSON value may nest at most ${MAX_DEPTH} levels deep`);
    if (!isObject(object)) {
      const message = expected === 'GeoJSON' ? 'Encountered a non-object type for GeoJSON:' : `Expected a ${expected} object, but got`;
      throw new GeojsonError(`${message} \`${quote(object)}\``);
    }
    const type = object.type;
    if (typeof type !== 'string') throw new GeojsonError('Expected a GeoJSON property for `type`, but got None');
    const push = (children: readonly unknown[], childExpected: Expected) => {
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], depth + 1, childExpected]);
    };
    if (expected === 'Feature' && type !== 'Feature') throw new GeojsonError(`Expected a Feature mapping, but got a \`${type}\``);
    if (type === 'Feature' && expected !== 'Geometry') {
      const geometry = property(object, 'geometry');
      if (geometry === null) {
        // the geojson crate's FeatureWithoutGeometry, the feature written back as it serializes one
        const feature = { type: 'Feature', geometry: null, properties: object.properties ?? null };
        throw new GeojsonError(`Attempted to a convert a feature without a geometry into a geo_types::Geometry: \`${JSON.stringify(feature)}\``);
      }
      if (!isObject(geometry)) {
        throw new GeojsonError(`Encountered neither object type nor null type for 'geometry' field on 'feature' object: \`${quote(geometry)}\``);
      }
      push([geometry], 'Geometry');
    } else if (type === 'FeatureCollection' && expected === 'GeoJSON') {
      push(array(property(object, 'features'), 'the `features` of a FeatureCollection to be an array of Features'), 'Feature');
    } else if (type === 'GeometryCollection') {
      push(array(property(object, 'geometries'), 'the `geometries` of a GeometryCollection to be an array of geometries'), 'Geometry');
    } else if (['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'].includes(type)) {
      reader.geometry(type, property(object, 'coordinates'));
    } else {
      throw new GeojsonError(`Encountered an unknown 'geometry' object type: \`${type}\``);
    }
  }
  return { points: Float64Array.from(reader.points), lines: reader.lines, polygons: reader.polygons };
}

// ---------------------------------------------------------------------------------------------
// Storage: the box (4 f64), then u32 counts (points, lines, polygons, each line's positions, each
// polygon's rings and each ring's positions), then every coordinate as f64, all little-endian.

/** The bytes of the stored form's leading bounding box. */
export const BOX_BYTES = 32;

function boxOf(coordinates: Iterable<Float64Array>): Box {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const flat of coordinates) {
    for (let i = 0; i < flat.length; i += 2) {
      const x = flat[i];
      const y = flat[i + 1];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return minX > maxX ? [NaN, NaN, NaN, NaN] : [minX, minY, maxX, maxY];
}

function* coordinatesOf(shape: Shape): Generator<Float64Array> {
  yield shape.points;
  yield* shape.lines;
  for (const polygon of shape.polygons) yield* polygon;
}

/** A Buffer (a Uint8Array), as the LMDB store takes its values. */
export function encodeShape(shape: Shape): Buffer {
  const counts = [shape.points.length / 2, shape.lines.length, shape.polygons.length, ...shape.lines.map((line) => line.length / 2)];
  for (const polygon of shape.polygons) counts.push(polygon.length, ...polygon.map((ring) => ring.length / 2));
  let floats = 0;
  for (const flat of coordinatesOf(shape)) floats += flat.length;
  const bytes = Buffer.alloc(BOX_BYTES + 4 * counts.length + 8 * floats);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  boxOf(coordinatesOf(shape)).forEach((bound, i) => view.setFloat64(8 * i, bound, true));
  let at = BOX_BYTES;
  for (const count of counts) {
    view.setUint32(at, count, true);
    at += 4;
  }
  for (const flat of coordinatesOf(shape)) {
    for (const coordinate of flat) {
      view.setFloat64(at, coordinate, true);
      at += 8;
    }
  }
  return bytes;
}

export function decodeShape(bytes: Uint8Array): Shape {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = BOX_BYTES;
  const u32 = () => {
    const value = view.getUint32(at, true);
    at += 4;
    return value;
  };
  const pointCount = u32();
  const lineCount = u32();
  const polygonCount = u32();
  const lineSizes = Array.from({ length: lineCount }, u32);
  const polygonSizes = Array.from({ length: polygonCount }, () => Array.from({ length: u32() }, u32));
  const positions = (count: number) => {
    const flat = new Float64Array(2 * count);
    for (let i = 0; i < flat.length; i++, at += 8) flat[i] = view.getFloat64(at, true);
    return flat;
  };
  return { points: positions(pointCount), lines: lineSizes.map(positions), polygons: polygonSizes.map((rings) => rings.map(positions)) };
}

/** The bounding box read from encoded bytes without decoding the rest: [minLng, minLat, maxLng, maxLat]. */
export function encodedBox(bytes: Uint8Array): Box {
  const view = new DataView(bytes.buffer, bytes.byteOffset, BOX_BYTES);
  return [view.getFloat64(0, true), view.getFloat64(8, true), view.getFloat64(16, true), view.getFloat64(24, true)];
}

// ---------------------------------------------------------------------------------------------
// Query polygons

export function queryPolygon(ring: Float64Array): QueryPolygon {
  const box = boxOf([ring]);
  return { ring, box, bands: bandsOf(ring, box) };
}

/** About this many edges per band. */
const EDGES_PER_BAND = 8;
const MAX_BANDS = 4096;
/**
 * Edge entries the bands may hold in all (an edge sits in every band its heights cross): a ring
 * of long edges spanning most heights (a zig-zag of 100,000 points) in 4,096 bands took seconds
 * and gigabytes to file; such a ring gets fewer bands, and a relation then tests more edges per
 * band, which the query's work budget bounds.
 */
const MAX_BAND_ENTRIES = 1 << 21;

/** The edge entries `count` bands of the ring's heights would hold: its edges' band spans summed. */
function bandEntries(ring: Float64Array, minY: number, span: number, count: number): number {
  const bands = { minY, height: span / count, count };
  const positions = ring.length / 2;
  let entries = 0;
  for (let k = 0; k < positions; k++) {
    const j = k === 0 ? positions - 1 : k - 1;
    const a = bandAt(bands, ring[2 * j + 1]!);
    const b = bandAt(bands, ring[2 * k + 1]!);
    entries += Math.abs(b - a) + 1;
  }
  return entries;
}

function bandsOf(ring: Float64Array, box: Box): Bands {
  const positions = ring.length / 2;
  const span = box[3] - box[1];
  let count = span > 0 ? Math.min(MAX_BANDS, Math.max(1, Math.ceil(positions / EDGES_PER_BAND))) : 1;
  for (let entries = count === 1 ? 0 : bandEntries(ring, box[1], span, count); entries > MAX_BAND_ENTRIES && count > 1; entries = bandEntries(ring, box[1], span, count)) {
    // entries shrink about as the count for long edges; halved again so that this converges in a few rounds
    count = Math.max(1, Math.floor((count * MAX_BAND_ENTRIES) / entries / 2));
  }
  const bands = { minY: box[1], height: span > 0 ? span / count : 1, count, starts: new Int32Array(count + 1), edges: new Int32Array(0) };
  const each = (visit: (band: number, edge: number) => void) => {
    for (let k = 0; k < positions; k++) {
      const j = k === 0 ? positions - 1 : k - 1;
      const [low, high] = ring[2 * j + 1]! <= ring[2 * k + 1]! ? [ring[2 * j + 1]!, ring[2 * k + 1]!] : [ring[2 * k + 1]!, ring[2 * j + 1]!];
      for (let band = bandAt(bands, low), last = bandAt(bands, high); band <= last; band++) visit(band, k);
    }
  };
  each((band) => bands.starts[band + 1]!++);
  for (let band = 0; band < count; band++) bands.starts[band + 1]! += bands.starts[band]!;
  bands.edges = new Int32Array(bands.starts[count]!);
  const fill = bands.starts.slice(0, count);
  each((band, edge) => (bands.edges[fill[band]!++] = edge));
  return bands;
}

/** The band of latitude `y`, clamped to the ring's: monotonic in `y`, so an edge is in the band of every height it covers. */
function bandAt(bands: Pick<Bands, 'minY' | 'height' | 'count'>, y: number): number {
  const band = Math.floor((y - bands.minY) / bands.height);
  return band < 0 ? 0 : band >= bands.count ? bands.count - 1 : band;
}

/** The spacing v1.50 densifies a query polygon's edges to (cellulite's `Haversine.densify(polygon, 1_000.0)`). */
const DENSIFY_METRES = 1_000;
/** Positions a densified ring may reach: past it, its points are spaced wider than DENSIFY_METRES. */
const MAX_DENSE_POSITIONS = 100_000;

/**
 * The polygon with points inserted along each edge's great circle (the closing edge too) so that
 * no step exceeds DENSIFY_METRES, as v1.50 does to a filter's polygon before comparing shapes
 * (the `geo` crate's haversine densification): the relations stay planar, but the polygon's edges
 * bend as they do on the globe (a box's top edge bulges towards the pole).
 */
export function densified(polygon: QueryPolygon): QueryPolygon {
  const { ring } = polygon;
  const count = ring.length / 2;
  const lengths = new Float64Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const j = (i + 1) % count;
    lengths[i] = haversineMetres(ring[2 * i + 1]!, ring[2 * i]!, ring[2 * j + 1]!, ring[2 * j]!);
    total += lengths[i]!;
  }
  const spacing = Math.max(DENSIFY_METRES, total / MAX_DENSE_POSITIONS);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const j = (i + 1) % count;
    out.push(ring[2 * i]!, ring[2 * i + 1]!);
    // an edge more than half the globe wide in the plane would cross the antimeridian on the globe:
    // kept straight, so the ring keeps its meaning in the plane (v1.50's cells wrap it instead)
    const steps = Math.abs(ring[2 * j]! - ring[2 * i]!) > 180 ? 1 : Math.ceil(lengths[i]! / spacing);
    const angle = lengths[i]! / MEAN_EARTH_RADIUS;
    for (let step = 1; step < steps; step++) out.push(...greatCirclePoint(ring[2 * i + 1]!, ring[2 * i]!, ring[2 * j + 1]!, ring[2 * j]!, angle, step / steps));
  }
  return queryPolygon(Float64Array.from(out));
}

/** The haversine distance between two points on the `geo` crate's sphere. */
function haversineMetres(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const [phi1, phi2] = [toRadians(lat1), toRadians(lat2)];
  const h = Math.sin((phi2 - phi1) / 2) ** 2 + Math.cos(phi1) * Math.cos(phi2) * Math.sin(toRadians(lng2 - lng1) / 2) ** 2;
  return 2 * MEAN_EARTH_RADIUS * Math.asin(Math.sqrt(Math.min(1, h)));
}

/**
 * The point a fraction `ratio` of the way along the great circle from the first point to the
 * second, `delta` radians apart, as [lng, lat].
 */
function greatCirclePoint(lat1: number, lng1: number, lat2: number, lng2: number, delta: number, ratio: number): [number, number] {
  const [phi1, lambda1, phi2, lambda2] = [toRadians(lat1), toRadians(lng1), toRadians(lat2), toRadians(lng2)];
  const a = Math.sin((1 - ratio) * delta) / Math.sin(delta);
  const b = Math.sin(ratio * delta) / Math.sin(delta);
  const x = a * Math.cos(phi1) * Math.cos(lambda1) + b * Math.cos(phi2) * Math.cos(lambda2);
  const y = a * Math.cos(phi1) * Math.sin(lambda1) + b * Math.cos(phi2) * Math.sin(lambda2);
  const z = a * Math.sin(phi1) + b * Math.sin(phi2);
  return [toDegrees(Math.atan2(y, x)), toDegrees(Math.atan2(z, Math.sqrt(x * x + y * y)))];
}

/** `_geoBoundingBox([top, right], [bottom, left])` as Meilisearch builds its polygon for `_geojson`. */
export function boxPolygon(top: number, right: number, bottom: number, left: number): QueryPolygon {
  return queryPolygon(Float64Array.of(right, top, left, top, left, bottom, right, bottom));
}

/** The `geo` crate's MEAN_EARTH_RADIUS, in metres (not the 6,371 km of `_geo` distances). */
const MEAN_EARTH_RADIUS = 6_371_008.8;
// Rust's f64::to_radians and to_degrees: one multiplication by a rounded constant
const toRadians = (degrees: number): number => degrees * (Math.PI / 180);
const toDegrees = (radians: number): number => radians * (180 / Math.PI);

/**
 * `_geoRadius(lat, lng, radius, resolution)` for `_geojson`: `resolution` points `radius` metres
 * from the centre at evenly spaced bearings, each by the `geo` crate's haversine destination.
 */
export function circlePolygon(lat: number, lng: number, radius: number, resolution: number): QueryPolygon {
  const centerLng = toRadians(lng);
  const centerLat = toRadians(lat);
  const angle = radius / MEAN_EARTH_RADIUS;
  const ring = new Float64Array(2 * resolution);
  const [sinLat, cosLat, sinAngle, cosAngle] = [Math.sin(centerLat), Math.cos(centerLat), Math.sin(angle), Math.cos(angle)];
  for (let i = 0; i < resolution; i++) {
    const bearing = toRadians((360 * i) / resolution);
    const pointLat = Math.asin(sinLat * cosAngle + cosLat * sinAngle * Math.cos(bearing));
    const pointLng = centerLng + Math.atan2(Math.sin(bearing) * sinAngle * cosLat, cosAngle - sinLat * Math.sin(pointLat));
    ring[2 * i] = toDegrees(pointLng);
    ring[2 * i + 1] = toDegrees(pointLat);
  }
  return queryPolygon(ring);
}

// ---------------------------------------------------------------------------------------------
// Exact predicates

const EPSILON = 2 ** -53;
/** Shewchuk's bound on the error of the floating-point determinant below (orient2d's ccwerrboundA). */
const ORIENT_BOUND = (3 + 16 * EPSILON) * EPSILON;
/** Below this, products may have underflowed and the relative bound no longer holds. */
const TINY = 1e-290;

const bits = new DataView(new ArrayBuffer(8));

/** x · 2^1074 as an exact integer: every finite double is a multiple of 2^-1074. */
function scaled(x: number): bigint {
  bits.setFloat64(0, x);
  const raw = bits.getBigUint64(0);
  const exponent = Number((raw >> 52n) & 0x7ffn);
  const mantissa = (raw & 0xfffffffffffffn) | (exponent === 0 ? 0n : 1n << 52n);
  const value = mantissa << BigInt(Math.max(exponent, 1) - 1);
  return raw >> 63n === 1n ? -value : value;
}

const sign = (x: number): number => (x > 0 ? 1 : x < 0 ? -1 : 0);

/**
 * The side of c relative to the line a → b: 1 left, -1 right, 0 on it; exact (as `geo`'s robust
 * predicates are), so a point on an edge is found on it and touching segments do touch.
 */
function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const ux = bx - ax;
  const uy = by - ay;
  const vx = cx - ax;
  const vy = cy - ay;
  // A difference of doubles rounds to zero only when exact, and never changes sign: the signs of
  // the two products are exact, which settles every case where they differ (axis-aligned edges).
  const leftSign = sign(ux) * sign(vy);
  const rightSign = sign(uy) * sign(vx);
  if (leftSign !== rightSign) return leftSign !== 0 ? leftSign : -rightSign;
  if (leftSign === 0) return 0;
  const left = ux * vy;
  const right = uy * vx;
  const det = left - right;
  const bound = ORIENT_BOUND * (Math.abs(left) + Math.abs(right));
  if (Math.abs(det) > bound && Math.abs(left) >= TINY && Math.abs(right) >= TINY && bound < Infinity) return sign(det);
  const [Ax, Ay] = [scaled(ax), scaled(ay)];
  const exact = (scaled(bx) - Ax) * (scaled(cy) - Ay) - (scaled(by) - Ay) * (scaled(cx) - Ax);
  return exact > 0n ? 1 : exact < 0n ? -1 : 0;
}

/** Whether segments ab and cd share a point (touching, crossing or overlapping; either may be a single point). */
function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  // collinear segments meet exactly when their boxes do, so the box test also settles that case
  if (Math.max(ax, bx) < Math.min(cx, dx) || Math.min(ax, bx) > Math.max(cx, dx)) return false;
  if (Math.max(ay, by) < Math.min(cy, dy) || Math.min(ay, by) > Math.max(cy, dy)) return false;
  if (orient(cx, cy, dx, dy, ax, ay) * orient(cx, cy, dx, dy, bx, by) > 0) return false;
  return orient(ax, ay, bx, by, cx, cy) * orient(ax, ay, bx, by, dx, dy) <= 0;
}

/** Where (x, y) lies against a ring (closed or not; even-odd rule): 1 inside, 0 on its boundary, -1 outside. */
function locate(ring: Float64Array, x: number, y: number): number {
  let inside = false;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const side = edgeSide(ring[j]!, ring[j + 1]!, ring[i]!, ring[i + 1]!, x, y);
    if (side === 0) return 0;
    if (side === 1) inside = !inside;
  }
  return inside ? 1 : -1;
}

/** The edge a → b against (x, y): 0 when the point is on it, 1 when it crosses the horizontal ray to the right of the point, -1 otherwise. */
function edgeSide(ax: number, ay: number, bx: number, by: number, x: number, y: number): number {
  if (ay > y !== by > y) {
    const side = orient(ax, ay, bx, by, x, y);
    if (side === 0) return 0;
    return side > 0 === by > ay ? 1 : -1;
  }
  return ay === y && (by === y ? x >= Math.min(ax, bx) && x <= Math.max(ax, bx) : x === ax) ? 0 : -1;
}

/** Where (x, y) lies against a polygon with holes: 1 inside, 0 on a ring, -1 outside (or in a hole). */
function locateInPolygon(polygon: readonly Float64Array[], x: number, y: number): number {
  const outer = locate(polygon[0], x, y);
  if (outer <= 0) return outer;
  for (let h = 1; h < polygon.length; h++) {
    const hole = locate(polygon[h], x, y);
    if (hole >= 0) return -hole;
  }
  return 1;
}

const boxesMeet = (a: Box, b: Box): boolean => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];

/** Whether a path (a line, or a ring when `closed`) meets an edge of the query polygon. */
function pathMeets(path: Float64Array, closed: boolean, polygon: QueryPolygon, budget: WorkBudget): boolean {
  const { ring, box, bands } = polygon;
  const last = ring.length / 2 - 1;
  budget.remaining -= (POSITION_COST * path.length) / 2;
  if (budget.remaining < 0) return false;
  for (let i = closed ? 0 : 2, j = closed ? path.length - 2 : 0; i < path.length; j = i, i += 2) {
    const ax = path[j];
    const ay = path[j + 1];
    const bx = path[i];
    const by = path[i + 1];
    if (Math.max(ax, bx) < box[0] || Math.min(ax, bx) > box[2] || Math.max(ay, by) < box[1] || Math.min(ay, by) > box[3]) continue;
    // only the edges of the bands the segment's heights cross can meet it (an edge in two of them is tested twice)
    for (let band = bandAt(bands, Math.min(ay, by)), end = bandAt(bands, Math.max(ay, by)); band <= end; band++) {
      const from = bands.starts[band]!;
      const to = bands.starts[band + 1]!;
      budget.remaining -= to - from;
      if (budget.remaining < 0) return false;
      for (let e = from; e < to; e++) {
        const k = bands.edges[e]!;
        const l = k === 0 ? last : k - 1;
        if (segmentsMeet(ax, ay, bx, by, ring[2 * l]!, ring[2 * l + 1]!, ring[2 * k]!, ring[2 * k + 1]!)) return true;
      }
    }
  }
  return false;
}

/** `locate` against the query polygon's ring, reading only the band of `y` (an edge whose heights miss `y` can neither hold the point nor cross its ray). */
function locateInQuery(polygon: QueryPolygon, x: number, y: number, budget: WorkBudget): number {
  const { ring, box, bands } = polygon;
  if (y < box[1] || y > box[3]) return -1;
  const last = ring.length / 2 - 1;
  const band = bandAt(bands, y);
  budget.remaining -= bands.starts[band + 1]! - bands.starts[band]!;
  let inside = false;
  for (let e = bands.starts[band]!; e < bands.starts[band + 1]!; e++) {
    const k = bands.edges[e]!;
    const j = k === 0 ? last : k - 1;
    const side = edgeSide(ring[2 * j]!, ring[2 * j + 1]!, ring[2 * k]!, ring[2 * k + 1]!, x, y);
    if (side === 0) return 0;
    if (side === 1) inside = !inside;
  }
  return inside ? 1 : -1;
}

/**
 * Whether the shape has any relation with the polygon: a point inside or on the boundary, a line
 * crossing, touching or inside it, a polygon overlapping, inside, containing or touching it (a
 * polygon lying wholly in one of the shape's holes does not relate).
 */
export function relates(shape: Shape, polygon: QueryPolygon, budget: WorkBudget = { remaining: Number.POSITIVE_INFINITY }): boolean {
  const { ring, box } = polygon;
  const { points } = shape;
  budget.remaining -= (POSITION_COST * points.length) / 2;
  for (let i = 0; i < points.length && budget.remaining >= 0; i += 2) {
    const x = points[i]!;
    const y = points[i + 1]!;
    if (x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3] && locateInQuery(polygon, x, y, budget) >= 0) return true;
  }
  for (const line of shape.lines) {
    budget.remaining -= (POSITION_COST * line.length) / 2;
    if (budget.remaining < 0) return false;
    if (!boxesMeet(boxOf([line]), box)) continue;
    // a line that meets no edge lies wholly inside or wholly outside: its first point tells which
    if (pathMeets(line, false, polygon, budget) || locateInQuery(polygon, line[0]!, line[1]!, budget) >= 0) return true;
  }
  for (const rings of shape.polygons) {
    const outer = rings[0];
    for (const shapeRing of rings) budget.remaining -= (POSITION_COST * shapeRing.length) / 2;
    if (budget.remaining < 0) return false;
    if (outer === undefined || !boxesMeet(boxOf([outer]), box)) continue;
    for (const shapeRing of rings) if (boxesMeet(boxOf([shapeRing]), box) && pathMeets(shapeRing, true, polygon, budget)) return true;
    // No boundaries meet: the query lies wholly inside the shape, or in one of its holes, or
    // outside it; else the shape lies wholly inside the query, or they are apart.
    budget.remaining -= outer.length / 2;
    if (locateInPolygon(rings, ring[0]!, ring[1]!) > 0 || locateInQuery(polygon, outer[0]!, outer[1]!, budget) >= 0) return true;
  }
  return false;
}
