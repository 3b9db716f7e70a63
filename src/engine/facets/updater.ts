/**
 * The facet IndexUpdater: keeps the facet data of store.ts in step with the documents.
 * Runs inside the batch's index write transaction (the ../updater.ts contract).
 *
 * `apply` is incremental: each changed document's entries before and after are diffed, and
 * only the keys that gained or lost a document are read and rewritten, once per batch. A new
 * document from a payload takes the entries the extraction workers extracted ahead
 * (ahead-facets.ts), when they did: stored as sent, or reordered once its part's fields all
 * have their ids.
 * `rebuild` clears the facet data and re-derives it from every document; it runs when the
 * settings of fields.ts change (`facetShape`) or when documents are cleared.
 * Both paths derive entries with the same `extractFacets`, so they always agree.
 * While `_geojson` is filterable, both also keep each document's `_geojson` shape
 * (geojson-shape.ts) in `geojsonShapes`, which `_geoPolygon`, `_geoBoundingBox` and `_geoRadius`
 * filters read; a flag in `main` says the shapes are complete.
 * `checkIndexedGeo` answers the same `_geo`/`_geojson` errors for one document, so that a batch
 * fails only the addition that holds it (indexer/document-batch.ts) before the updater meets it.
 */
import { ApiError } from '../../errors/api-error.js';
import { decode, difference, encode, fromUnsorted, union } from '../docset.js';
import type { JsonObject } from '../document-id.js';
import type { IndexEnv } from '../index-env.js';
import { noteFacets, noteRebuild } from '../index-changes.js';
import { INDEX_MAIN_KEYS } from '../index-read-env.js';
import { DocumentStore } from '../documents/store.js';
import type { DocumentChange, IndexUpdater } from '../updater.js';
import type { IndexSettings } from '../../types/settings.js';
import type { AheadFacets, FacetsAhead } from './ahead-facets.js';
import { extractFacets, type FacetKind, type FacetSink } from './extract.js';
import { facetedFieldMatcher, facetShape, geoEnabled, geojsonFilterable } from './fields.js';
import { encodeShape, GeojsonError, parseGeojson } from './geojson-shape.js';
import { checkGeo, geoPointOf, type LatLng } from './geo.js';
import { encodePoint, facetKeyString, MAX_FIELD_ID, readFacetFields, writeDocumentsIds } from './store.js';

/** Field ids of the batch, assigning new ones to paths seen for the first time. */
class FieldIds {
  private readonly names: string[];
  private readonly ids: Map<string, number>;
  private added = false;

  constructor(private readonly env: IndexEnv) {
    this.names = readFacetFields(env);
    this.ids = new Map(this.names.map((name, id) => [name, id]));
  }

  /** Whether every one of `fields` has its id already. */
  knows(fields: readonly string[]): boolean {
    for (const field of fields) if (!this.ids.has(field)) return false;
    return true;
  }

  idOf(field: string): number {
    let id = this.ids.get(field);
    if (id === undefined) {
      id = this.names.length;
      if (id > MAX_FIELD_ID) throw new Error(`An index cannot have more than ${MAX_FIELD_ID + 1} faceted fields.`);
      this.names.push(field);
      this.ids.set(field, id);
      this.added = true;
    }
    return id;
  }

  save(): void {
    if (this.added) this.env.main.putSync(INDEX_MAIN_KEYS.facetFields, this.names);
  }
}

/** The facet keys of a document, as latin1 strings (a byte-exact, hashable form of the keys). */
function keysOf(doc: JsonObject, extract: (doc: JsonObject, sink: FacetSink) => void, ids: FieldIds): Set<string> {
  const keys = new Set<string>();
  extract(doc, (field, kind, value) => keys.add(facetKeyString(ids.idOf(field), kind, value ?? undefined)));
  return keys;
}

function extractorFor(settings: IndexSettings) {
  const match = facetedFieldMatcher(settings);
  const geo = geoEnabled(settings);
  return {
    geo,
    extract: (doc: JsonObject, sink: FacetSink) => extractFacets(doc, match, geo, sink),
  };
}

function writeSet(env: IndexEnv, key: Buffer, docids: Uint32Array): void {
  if (docids.length === 0) env.facetDocids.removeSync(key);
  else env.facetDocids.putSync(key, encode(docids));
}

function point(doc: JsonObject | undefined, geo: boolean) {
  return doc === undefined || !geo ? null : geoPointOf(doc._geo);
}

/** The external id of `docid`: a scan, as only an error message needs it. */
function externalIdOf(env: IndexEnv, docid: number): string {
  for (const { key, value } of env.externalIds.getRange({})) if (value === docid) return key;
  return String(docid);
}

/**
 * The point of a document being indexed while geo is enabled. An invalid `_geo` fails the
 * whole write with Meilisearch's error (documents.md §4.5), rolling the transaction back.
 */
function indexedPoint(env: IndexEnv, docid: number, doc: JsonObject | undefined, geo: boolean): LatLng | null {
  if (doc === undefined || !geo || !Object.hasOwn(doc, '_geo')) return null;
  return checkedPoint(doc._geo, () => externalIdOf(env, docid));
}

/** The point of a `_geo` value; an invalid one throws v1.50's error, naming the document `id()`. */
function checkedPoint(geo: unknown, id: () => string): LatLng | null {
  const check = checkGeo(geo);
  if ('problem' in check) throw new ApiError('invalid_document_geo_field', check.problem(id()));
  return check.point;
}

/** `doc`'s `_geojson` shape; an invalid one throws v1.50's error. */
function parsedShape(doc: JsonObject): ReturnType<typeof parseGeojson> {
  try {
    return parseGeojson(doc._geojson);
  } catch (err) {
    // v1.50's new indexer maps the geojson crate's errors to UserError::GeoJsonError: invalid_document_geo_field
    if (err instanceof GeojsonError) throw new ApiError('invalid_document_geo_field', err.message);
    throw err;
  }
}

/**
 * The encoded `_geojson` shape of a document being indexed while `_geojson` is filterable, or
 * null. An invalid one fails the whole write (rolled back), as in v1.50.
 */
function indexedShape(doc: JsonObject | undefined): Buffer | null {
  if (doc === undefined || !Object.hasOwn(doc, '_geojson')) return null;
  return encodeShape(parsedShape(doc));
}

/**
 * Throws the error `apply` would fail a write with for document `doc` (external id `id`): an
 * invalid `_geo` while geo is enabled, an invalid `_geojson` while it is filterable. The batch
 * checks an addition's documents with it as it reads them, so that only their task fails.
 */
export function checkIndexedGeo(doc: JsonObject, id: string, settings: IndexSettings): void {
  // the document's own fields first: most have neither, and the settings' are matched by pattern
  if (Object.hasOwn(doc, '_geo') && geoEnabled(settings)) checkedPoint(doc._geo, () => id);
  if (Object.hasOwn(doc, '_geojson') && geojsonFilterable(settings)) parsedShape(doc);
}

/**
 * Keeps the shapes in step with `changes` while `_geojson` is filterable. An index whose shapes
 * were never written (filterable before shapes were indexed) gets them all first, from the
 * store, which already holds the changes.
 */
function applyShapes(env: IndexEnv, changes: readonly DocumentChange[]): void {
  if (env.main.get(INDEX_MAIN_KEYS.geojsonShapes) !== true) {
    env.geojsonShapes.clearSync();
    for (const { docid, doc } of new DocumentStore(env).entries()) {
      const shape = indexedShape(doc);
      if (shape !== null) env.geojsonShapes.putSync(docid, shape);
    }
    env.main.putSync(INDEX_MAIN_KEYS.geojsonShapes, true);
    return;
  }
  for (const { docid, before, after } of changes) {
    const shape = indexedShape(after);
    if (shape !== null) env.geojsonShapes.putSync(docid, shape);
    else if (before !== undefined && Object.hasOwn(before, '_geojson')) env.geojsonShapes.removeSync(docid);
  }
}

type Delta = { add: number[]; remove: number[] };

export const facetUpdater: IndexUpdater<FacetsAhead> = {
  name: 'facets',
  step: 'extracting facets',

  apply(env: IndexEnv, settings: IndexSettings, changes: readonly DocumentChange[], _checkpoint, ahead): void {
    if (changes.length === 0) return;
    if (geojsonFilterable(settings)) applyShapes(env, changes);
    const ids = new FieldIds(env);
    const { geo, extract } = extractorFor(settings);
    const deltas = new Map<string, Delta>();
    const delta = (key: string) => {
      let entry = deltas.get(key);
      if (entry === undefined) deltas.set(key, (entry = { add: [], remove: [] }));
      return entry;
    };
    // per part extracted ahead: its entries' deltas, found once per part
    const partDeltas = new Map<AheadFacets, (Delta | undefined)[]>();
    // parts whose every field has its id: taken for their reordered documents too
    const knownParts = new Set<AheadFacets>();
    const known = (facets: AheadFacets) => {
      if (knownParts.has(facets)) return true;
      if (!ids.knows(facets.fields)) return false;
      knownParts.add(facets);
      return true;
    };
    const created: number[] = [];
    const deleted: number[] = [];

    for (const { docid, before, after, source } of changes) {
      // a new document yields what its payload document yielded ahead, stored as sent or
      // reordered: the order fields are met in only decides the ids of fields new to the index,
      // so a reordered one takes them once every field of its part has its id
      const taken = before === undefined && after !== undefined && source !== undefined ? ahead?.facetsOf(source) : undefined;
      if (taken !== undefined && (after === source || known(taken.facets))) {
        const { facets, index } = taken;
        let found = partDeltas.get(facets);
        if (found === undefined) partDeltas.set(facets, (found = []));
        for (let at = facets.docStarts[index]!; at < facets.docStarts[index + 1]!; at++) {
          const key = facets.entries[at]!;
          const entry = (found[key] ??= delta(facetKeyString(ids.idOf(facets.fields[facets.keyFields[key]!]!), facets.keyKinds[key]! as FacetKind, facets.keyValues[key] ?? undefined)));
          entry.add.push(docid);
        }
        created.push(docid);
        const lat = facets.points?.[2 * index] ?? Number.NaN;
        if (!Number.isNaN(lat)) env.geoPoints.putSync(docid, encodePoint([lat, facets.points![2 * index + 1]!]));
        continue;
      }
      if (before === undefined && after !== undefined) {
        // a new document only adds: its keys go straight to their deltas, a repeated key (array
        // elements) seen by the docid it just pushed, without a set of keys per document
        extract(after, (field, kind, value) => {
          const { add } = delta(facetKeyString(ids.idOf(field), kind, value ?? undefined));
          if (add[add.length - 1] !== docid) add.push(docid);
        });
        created.push(docid);
      } else {
        const old = before === undefined ? new Set<string>() : keysOf(before, extract, ids);
        const now = after === undefined ? new Set<string>() : keysOf(after, extract, ids);
        for (const key of old) if (!now.has(key)) delta(key).remove.push(docid);
        for (const key of now) if (!old.has(key)) delta(key).add.push(docid);
      }
      if (before !== undefined && after === undefined) deleted.push(docid);

      const where = indexedPoint(env, docid, after, geo);
      if (where !== null) env.geoPoints.putSync(docid, encodePoint(where));
      else if (point(before, geo) !== null) env.geoPoints.removeSync(docid);
    }

    for (const [latin1, { add, remove }] of deltas) {
      const key = Buffer.from(latin1, 'latin1');
      const current = decode(env.facetDocids.get(key));
      writeSet(env, key, union(difference(current, fromUnsorted(remove)), fromUnsorted(add)));
    }
    if (created.length > 0 || deleted.length > 0) {
      const all = decode(env.main.get(INDEX_MAIN_KEYS.documentsIds) as Uint8Array | undefined);
      writeDocumentsIds(env, union(difference(all, fromUnsorted(deleted)), fromUnsorted(created)));
    }
    ids.save();
    // the keys whose documents changed: searches patch the facet columns they keep with them
    noteFacets(env, [...deltas.keys()]);
  },

  shape: facetShape,

  rebuild(env: IndexEnv, settings: IndexSettings, documents: Iterable<{ docid: number; doc: JsonObject }>): void {
    env.facetDocids.clearSync();
    env.geoPoints.clearSync();
    env.geojsonShapes.clearSync();
    const geojson = geojsonFilterable(settings);
    if (geojson) env.main.putSync(INDEX_MAIN_KEYS.geojsonShapes, true);
    else env.main.removeSync(INDEX_MAIN_KEYS.geojsonShapes);
    const ids = new FieldIds(env);
    const { geo, extract } = extractorFor(settings);
    const sets = new Map<string, number[]>();
    const all: number[] = [];
    for (const { docid, doc } of documents) {
      all.push(docid);
      for (const key of keysOf(doc, extract, ids)) {
        let docids = sets.get(key);
        if (docids === undefined) sets.set(key, (docids = []));
        docids.push(docid);
      }
      // A rebuild re-validates stored documents after a settings change, as milli's reindexing does.
      const where = indexedPoint(env, docid, doc, geo);
      if (where !== null) env.geoPoints.putSync(docid, encodePoint(where));
      const shape = geojson ? indexedShape(doc) : null;
      if (shape !== null) env.geojsonShapes.putSync(docid, shape);
    }
    for (const [latin1, docids] of sets) writeSet(env, Buffer.from(latin1, 'latin1'), fromUnsorted(docids));
    writeDocumentsIds(env, fromUnsorted(all));
    ids.save();
    noteRebuild(env);
  },
};
