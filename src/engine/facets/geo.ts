/**
 * `_geo` points as Meilisearch handles them: the indexing-time check of a document's `_geo`
 * (documents.md §4.5, milli's `extract_geo_coordinates` and its `GeoError` messages), the
 * distance (milli's `distance_between_two_points`, i.e. the `geoutils` haversine), the buckets
 * of a `_geoPoint(lat, lng)` sort (milli's `GeoSort` rule) and the `_geoDistance` of a hit
 * (search.md §8.1). Pure: callers read and write the stored points.
 */
import { stringifyJson } from '../../types/json-text.js';
import { parseFiniteFloat, rustFloat } from './values.js';

export type LatLng = readonly [lat: number, lng: number];

/** The Earth radius of `geoutils`, in metres. */
export const EARTH_RADIUS = 6_371_000;

/** Rust's `f64::to_radians` (one multiplication by a rounded constant, not `* PI / 180`). */
const toRadians = (degrees: number): number => degrees * (Math.PI / 180);
const hav = (theta: number): number => (1 - Math.cos(theta)) / 2;

/**
 * Great-circle distance in metres, computed exactly as `geoutils` does (haversine on a
 * 6,371 km sphere, rounded to the millimetre), so distances, radius filters and `_geoDistance`
 * agree with Meilisearch to the last digit.
 */
export function haversine(a: LatLng, b: LatLng): number {
  const phi1 = toRadians(a[0]);
  const phi2 = toRadians(b[0]);
  const total = hav(phi2 - phi1) + Math.cos(phi1) * Math.cos(phi2) * hav(toRadians(b[1]) - toRadians(a[1]));
  return Math.round(2 * EARTH_RADIUS * Math.asin(Math.sqrt(total)) * 1000) / 1000;
}

/** milli's `BadGeoError::Lat` of a filter's or a sort's point. */
export function badLatitudeMessage(lat: number): string {
  return `Bad latitude \`${rustFloat(lat)}\`. Latitude must be contained between -90 and 90 degrees.`;
}

/** milli's `BadGeoError::Lng`, its hint `(lng + 180).rem_euclid(360) - 180` (Rust's remainder, made positive by adding 360 once). */
export function badLongitudeMessage(lng: number): string {
  const remainder = (lng + 180) % 360;
  const hint = (remainder < 0 ? remainder + 360 : remainder) - 180;
  return `Bad longitude \`${rustFloat(lng)}\`. Longitude must be contained between -180 and 180 degrees. Hint: try using \`${rustFloat(hint)}\` instead.`;
}

/** How a `_geo` value reads at indexing: its point (null: no location), or Meilisearch's refusal. */
export type GeoCheck = { readonly point: LatLng | null } | { readonly problem: (documentId: string) => string };

/** serde_json's compact printing of a value, as the messages echo it. */
const json = stringifyJson;

/** A finite coordinate: a JSON number, or a string Rust parses as a finite f64. */
function coordinate(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' ? parseFiniteFloat(value) : null;
}

/**
 * Checks a document's `_geo` value: `null`, or an object with exactly `lat` and `lng`, each a
 * finite number or numeric string. Missing keys are reported before extra keys and bad values;
 * two bad coordinates together, whether a document is added or a settings change re-validates
 * stored ones (v1.50's geo extractor runs for both).
 */
export function checkGeo(geo: unknown): GeoCheck {
  if (geo === null) return { point: null };
  const id = (documentId: string) => json(documentId);
  if (typeof geo !== 'object' || Array.isArray(geo)) {
    return {
      problem: (documentId) =>
        `The \`_geo\` field in the document with the id: \`${id(documentId)}\` is not an object. Was expecting an object with the \`_geo.lat\` and \`_geo.lng\` fields but instead got \`${json(geo)}\`.`,
    };
  }
  const { lat, lng, ...extra } = geo as Record<string, unknown>;
  const hasLat = Object.hasOwn(geo, 'lat');
  const hasLng = Object.hasOwn(geo, 'lng');
  if (!hasLat && !hasLng) {
    return { problem: (documentId) => `Could not find latitude nor longitude in the document with the id: \`${id(documentId)}\`. Was expecting \`_geo.lat\` and \`_geo.lng\` fields.` };
  }
  if (!hasLng) return { problem: (documentId) => `Could not find longitude in the document with the id: \`${id(documentId)}\`. Was expecting a \`_geo.lng\` field.` };
  if (!hasLat) return { problem: (documentId) => `Could not find latitude in the document with the id: \`${id(documentId)}\`. Was expecting a \`_geo.lat\` field.` };
  if (Object.keys(extra).length > 0) {
    return { problem: (documentId) => `The \`_geo\` field in the document with the id: \`${id(documentId)}\` contains the following unexpected fields: \`${json(extra)}\`.` };
  }
  const latitude = coordinate(lat);
  const longitude = coordinate(lng);
  if (latitude !== null && longitude !== null) return { point: [latitude, longitude] };
  if (latitude === null && longitude === null) {
    return {
      problem: (documentId) =>
        `Could not parse latitude nor longitude in the document with the id: \`${id(documentId)}\`. Was expecting finite numbers but instead got \`${json(lat)}\` and \`${json(lng)}\`.`,
    };
  }
  const [name, value] = latitude === null ? ['latitude', lat] : ['longitude', lng];
  return { problem: (documentId) => `Could not parse ${name} in the document with the id: \`${id(documentId)}\`. Was expecting a finite number but instead got \`${json(value)}\`.` };
}

/** The point of a `_geo` value that passes `checkGeo`, else null. */
export function geoPointOf(geo: unknown): LatLng | null {
  const check = checkGeo(geo);
  return 'point' in check ? check.point : null;
}

/** One bucket of a geo sort: its documents (ascending docids) and the point and distance it is ranked by. */
export interface GeoBucket {
  readonly docids: number[];
  readonly point: LatLng;
  readonly distance: number;
}

/** Points closer than this (in metres) to a bucket's first point rank equal (GPS error margin). */
const DISTANCE_MARGIN = 1;
/** A bucket never holds more documents than this. */
const MAX_BUCKET = 1000;
/** From this many points on, milli walks its R-tree (exact distances) instead of sorting whole metres. */
const RTREE_FROM = 1000;

/**
 * Indices `0..n-1` in `before` order, lazily: a binary heap, so taking the first k costs
 * O(n + k log n) — a search needs a page, not the whole order.
 */
function* heapOrder(n: number, before: (i: number, j: number) => boolean): Generator<number> {
  const heap = new Uint32Array(n);
  for (let i = 0; i < n; i++) heap[i] = i;
  let size = n;
  const siftDown = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) return;
      const right = left + 1;
      const child = right < size && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, heap[at]!)) return;
      [heap[at], heap[child]] = [heap[child]!, heap[at]!];
      at = child;
    }
  };
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(i);
  while (size > 0) {
    const top = heap[0]!;
    heap[0] = heap[--size]!;
    siftDown(0);
    yield top;
  }
}

/** Points by docid, NaN where a document has none (geo-column.ts keeps an index's so). */
export interface PointColumns {
  readonly lat: ArrayLike<number>;
  readonly lng: ArrayLike<number>;
}

/**
 * Located documents (ascending docids, each with a point in `points`) in `_geoPoint` order, as
 * milli's `GeoSort` buckets them: nearest first (`asc`) or farthest first (`desc`); a bucket
 * gathers the documents within 1 m of its first document's distance (at most 1000), and is
 * ranked by that first point. Under 1000 points milli orders by whole metres (ties by docid,
 * walked backwards for `desc`); from 1000 on its R-tree orders by exact distance.
 */
export function* geoSortBuckets(located: ArrayLike<number>, points: PointColumns, origin: LatLng, descending: boolean): Generator<GeoBucket> {
  const n = located.length;
  const exact = n >= RTREE_FROM;
  const distances = new Float64Array(n);
  const keys = new Float64Array(n);
  const at: [number, number] = [0, 0];
  for (let i = 0; i < n; i++) {
    at[0] = points.lat[located[i]!]!;
    at[1] = points.lng[located[i]!]!;
    distances[i] = haversine(origin, at);
    keys[i] = exact ? distances[i]! : Math.trunc(distances[i]!);
  }
  // Equal keys keep the docid order, reversed for `desc` (milli pops its cache from the back).
  const before = (i: number, j: number) => (keys[i] !== keys[j] ? keys[i]! < keys[j]! : i < j) !== descending;
  let bucket: number[] = [];
  let first = 0;
  const close = (): GeoBucket => {
    const docid = located[first]!;
    return { docids: bucket.sort((a, b) => a - b), point: [points.lat[docid]!, points.lng[docid]!], distance: distances[first]! };
  };
  for (const i of heapOrder(n, before)) {
    if (bucket.length > 0 && (Math.abs(distances[first]! - distances[i]!) > DISTANCE_MARGIN || bucket.length === MAX_BUCKET)) {
      yield close();
      bucket = [];
    }
    if (bucket.length === 0) first = i;
    bucket.push(located[i]!);
  }
  if (bucket.length > 0) yield close();
}

// Meilisearch finds the origin of `_geoDistance` with this pattern on the raw `sort` strings.
const GEO_POINT_SORT = /_geoPoint\(\s*([0-9.-]+)\s*,\s*([0-9.-]+)\s*\)/;

/** The point `_geoDistance` is measured from: the first `sort` entry naming `_geoPoint(lat, lng)`, or null. */
export function geoDistanceOrigin(sort: readonly string[]): LatLng | null {
  for (const entry of sort) {
    const match = GEO_POINT_SORT.exec(entry);
    if (match !== null) return [Number(match[1]), Number(match[2])];
  }
  return null;
}

/**
 * `_geoDistance` of a retrieved document (whole metres, rounded), or undefined when its
 * retrieved `_geo` has no point (null, or `lat`/`lng` not retrieved or not displayed).
 */
export function geoDistanceOf(origin: LatLng, retrieved: Record<string, unknown>): number | undefined {
  // Indexing validated every `_geo` (sorting by `_geoPoint` needs geo enabled), so only a
  // projection can have dropped a coordinate.
  const point = geoPointOf(retrieved._geo);
  return point === null ? undefined : Math.round(haversine(origin, point));
}
