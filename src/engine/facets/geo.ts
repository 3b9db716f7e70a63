/**
 * `_geo` points: reading a document's coordinates (numbers or numeric strings, documents.md §4.5)
 * and the haversine distance used by `_geoRadius`, `_geoPoint` sorting and `_geoDistance`.
 * Pure. Validation errors belong to the document processor; here an unusable `_geo` is no point.
 */
import { parseFiniteFloat } from './values.js';

export type LatLng = readonly [lat: number, lng: number];

/** Meilisearch's Earth radius, in metres. */
export const EARTH_RADIUS = 6_371_000;

function coordinate(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' ? parseFiniteFloat(value) : null;
}

/** The point of a `_geo` value, or null when it has none (absent, null, malformed). */
export function geoPointOf(geo: unknown): LatLng | null {
  if (geo === null || typeof geo !== 'object' || Array.isArray(geo)) return null;
  const { lat, lng } = geo as { lat?: unknown; lng?: unknown };
  const latitude = coordinate(lat);
  const longitude = coordinate(lng);
  return latitude === null || longitude === null ? null : [latitude, longitude];
}

const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function haversine(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b[0] - a[0]);
  const dLng = toRadians(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a[0])) * Math.cos(toRadians(b[0])) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}
