/**
 * Document → facet entries (Meilisearch `extract_document_facets` + `facet_fn_with_options`).
 * Pure: no storage; runs anywhere (inline today, in indexing workers later).
 *
 * For every faceted path (see fields.ts), walking nested objects as dotted paths
 * (`doggos: [{name}]` → `doggos.name`; a flat key `"doggos.name"` lands on the same path):
 * - `exists` for any value at all (`null`, `""`, `[]`, `{}` included);
 * - numbers → `number`; non-empty strings → `string` (normalised, capped); booleans → the
 *   strings `true` / `false`; array elements each count;
 * - `null` → `null`, and `""`, `[]`, `{}` → `empty`, only as the value of the key itself, never
 *   inside an array (`tags: [null]` is not "tags IS NULL"); a key of an object inside an array is
 *   a key again (`doggos: [{name: null}]` makes `doggos.name IS NULL` true).
 * `_geo`, `_geojson` and `_vectors` are reserved: when geo is enabled, `_geo` yields the numbers
 * `_geo.lat` / `_geo.lng` instead, and `_geo` itself only `exists`, which makes it a facet field
 * as v1.50's field map holds it (`facets: ["_geo"]` lists `_geo: {}` with its coordinates; no
 * filter reads it, `_geo` being reserved there); `_geojson` shapes are kept apart (updater.ts).
 */
import type { JsonObject } from '../document-id.js';
import type { PatternMatch } from '../../types/attribute-patterns.js';
import { isJsonObject } from '../../types/json-text.js';
import { geoPointOf } from './geo.js';
import { facetKey } from './values.js';

export const FacetKind = { number: 0, string: 1, null: 2, empty: 3, exists: 4 } as const;
export type FacetKind = (typeof FacetKind)[keyof typeof FacetKind];

/**
 * Receives every entry (duplicates possible). `value` is the number for `number`, the
 * normalised string for `string`, null otherwise.
 */
export type FacetSink = (field: string, kind: FacetKind, value: number | string | null) => void;

type Depth = 'key' | 'inArray';

export function extractFacets(doc: JsonObject, match: (field: string) => PatternMatch, geo: boolean, sink: FacetSink): void {
  /** One value of a faceted path. */
  const facet = (field: string, depth: Depth, value: unknown): void => {
    sink(field, FacetKind.exists, null);
    if (typeof value === 'number') {
      if (Number.isFinite(value)) sink(field, FacetKind.number, value === 0 ? 0 : value);
    } else if (typeof value === 'bigint') {
      // a 64-bit integer beyond 2^53 facets as the double Meilisearch makes of it
      sink(field, FacetKind.number, Number(value));
    } else if (typeof value === 'string') {
      if (value !== '') sink(field, FacetKind.string, facetKey(value));
      else if (depth === 'key') sink(field, FacetKind.empty, null);
    } else if (typeof value === 'boolean') {
      sink(field, FacetKind.string, value ? 'true' : 'false');
    } else if (depth === 'key') {
      if (value === null) sink(field, FacetKind.null, null);
      else if (Array.isArray(value) ? value.length === 0 : Object.keys(value as object).length === 0) sink(field, FacetKind.empty, null);
    }
  };
  const visit = (field: string, depth: Depth, value: unknown): PatternMatch => {
    const selection = match(field);
    if (selection === 'match') facet(field, depth, value);
    return selection;
  };
  const inObject = (object: JsonObject, base: string, depth: Depth): void => {
    const keys = Object.keys(object);
    if (keys.length === 0) visit(base, depth, object);
    for (const key of keys) {
      const path = `${base}.${key}`;
      const value = object[key];
      if (visit(path, 'key', value) === 'none') continue;
      if (isJsonObject(value)) inObject(value, path, 'key');
      else if (Array.isArray(value)) inArray(value, path, 'key');
    }
  };
  const inArray = (array: readonly unknown[], base: string, depth: Depth): void => {
    if (array.length === 0) visit(base, depth, array);
    for (const value of array) {
      if (isJsonObject(value)) inObject(value, base, 'inArray');
      else if (Array.isArray(value)) inArray(value, base, 'inArray');
      else visit(base, 'inArray', value);
    }
  };

  for (const [name, value] of Object.entries(doc)) {
    if (name === '_geo' || name === '_vectors' || name === '_geojson') continue;
    const selection = match(name);
    if (selection === 'none') continue;
    if (isJsonObject(value)) inObject(value, name, 'key');
    else if (Array.isArray(value)) inArray(value, name, 'key');
    if (selection === 'match') facet(name, 'key', value);
  }

  if (geo && Object.hasOwn(doc, '_geo')) sink('_geo', FacetKind.exists, null);
  const point = geo ? geoPointOf(doc._geo) : null;
  if (point !== null) {
    for (const [field, coordinate] of [['_geo.lat', point[0]], ['_geo.lng', point[1]]] as const) {
      sink(field, FacetKind.exists, null);
      sink(field, FacetKind.number, coordinate === 0 ? 0 : coordinate);
    }
  }
}
