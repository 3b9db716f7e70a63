/**
 * Every `_geo` point of an index as two columns by docid (NaN: no point), kept per index and
 * patched by writes (index-changes.ts lists the documents a write changed; a rebuild or a write of
 * more than it lists lays the columns out again). A `_geoPoint` sort and a `_geoRadius` filter
 * read the point of every candidate: an LMDB read each was most of their cost (a sort over
 * 100,000 points took 100–160 ms, half of it in lmdb's reads; audit). 16 bytes a docid, on the
 * thread answering requests, read snapshot.
 */
import { EntryCache } from '../entry-cache.js';
import { followChanges } from '../index-changes.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';

export interface GeoColumn {
  /** per docid up to the greatest with a point + 1 (and room after it): its latitude, NaN without */
  lat: Float64Array;
  lng: Float64Array;
}

/** The columns, `length` docids long at least (NaN-filled), keeping what `column` holds. */
function withRoom(column: GeoColumn | null, length: number): GeoColumn {
  if (column !== null && column.lat.length >= length) return column;
  const size = Math.max(length, Math.ceil((column?.lat.length ?? 0) * 1.5));
  const grown = { lat: new Float64Array(size).fill(Number.NaN), lng: new Float64Array(size).fill(Number.NaN) };
  if (column !== null) {
    grown.lat.set(column.lat);
    grown.lng.set(column.lng);
  }
  return grown;
}

function setPoint(column: GeoColumn, docid: number, bytes: Buffer | undefined): void {
  column.lat[docid] = bytes === undefined ? Number.NaN : bytes.readDoubleLE(0);
  column.lng[docid] = bytes === undefined ? Number.NaN : bytes.readDoubleLE(8);
}

function derive(env: IndexReadEnv): GeoColumn {
  let column = withRoom(null, 0);
  for (const { key, value } of env.geoPoints.getRange({})) {
    column = withRoom(column, key + 1);
    setPoint(column, key, value);
  }
  return column;
}

const cached = new EntryCache<GeoColumn>(
  (env) => env.main,
  INDEX_MAIN_KEYS.documentsVersion,
  derive,
  followChanges((column, changes, env) => {
    if (changes.docids === null) return false;
    let patched = column;
    for (const docid of changes.docids) {
      const bytes = env.geoPoints.getBinaryFast(docid);
      if (bytes === undefined && docid >= patched.lat.length) continue;
      patched = withRoom(patched, docid + 1);
      setPoint(patched, docid, bytes);
    }
    // the cache keeps the object it holds: a grown column is moved into it
    column.lat = patched.lat;
    column.lng = patched.lng;
    return true;
  }),
);

/** The index's points as of the reader's snapshot (shared: read-only). */
export function geoColumn(env: IndexReadEnv): GeoColumn {
  return cached.get(env);
}
