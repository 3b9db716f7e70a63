/**
 * Facet entries extracted ahead of the write, by the extraction workers that extract a part's
 * words (words/extract-ahead.ts), in a form one thread can hand another: a table of the part's
 * distinct entries (field path, kind, value) and, per document, the entries it yields in the
 * order `extractFacets` yields them, each once. The facet updater takes a new document's
 * entries from here instead of walking the document on the writer's thread; both come from
 * the same `extractFacets`, so they agree.
 * A document whose `_geo` the write refuses (geo enabled) makes the part's facets null: the
 * write extracts those documents itself and fails with Meilisearch's message.
 */
import type { JsonObject } from '../document-id.js';
import type { IndexSettings } from '../../types/settings.js';
import { extractFacets, type FacetKind } from './extract.js';
import { facetedFieldMatcher, geoEnabled } from './fields.js';
import { checkGeo } from './geo.js';

export interface AheadFacets {
  /** field paths, by the part's field index */
  readonly fields: readonly string[];
  /** per distinct entry: its field index, kind and value (the number or normalised string, else null) */
  readonly keyFields: Int32Array;
  readonly keyKinds: Uint8Array;
  readonly keyValues: readonly (number | string | null)[];
  /** per document (count + 1 entries): where its entries start in `entries` */
  readonly docStarts: Int32Array;
  /** entry ids, each document's in the order extraction yields them, without repeats */
  readonly entries: Int32Array;
  /** per document, its `_geo` point as (lat, lng), NaN for none; null when geo is disabled */
  readonly points: Float64Array | null;
}

/** What the write asks for a document it stores as its payload holds it. */
export interface FacetsAhead {
  /** The facet entries extracted ahead for `doc` (a payload document), with its index in their part. */
  facetsOf(doc: JsonObject): { readonly facets: AheadFacets; readonly index: number } | undefined;
}

/** The facet entries of a part's documents, or null when one has a `_geo` the write refuses. */
export function extractAheadFacets(docs: readonly JsonObject[], settings: IndexSettings): AheadFacets | null {
  const match = facetedFieldMatcher(settings);
  const geo = geoEnabled(settings);
  const fields: string[] = [];
  // per field: its index, and per kind its values (number, normalised string or null) → entry id
  const fieldKeys = new Map<string, { index: number; kinds: Map<number | string | null, number>[] }>();
  const keyFields: number[] = [];
  const keyKinds: number[] = [];
  const keyValues: (number | string | null)[] = [];
  const docStarts = new Int32Array(docs.length + 1);
  const entries: number[] = [];
  // seen[key] === doc + 1: the key is among the current document's entries already
  const seen: number[] = [];
  const points = geo ? new Float64Array(2 * docs.length).fill(Number.NaN) : null;
  for (let doc = 0; doc < docs.length; doc++) {
    const value = docs[doc]!;
    if (points !== null && Object.hasOwn(value, '_geo')) {
      const check = checkGeo(value._geo);
      if ('problem' in check) return null;
      if (check.point !== null) points.set(check.point, 2 * doc);
    }
    extractFacets(value, match, geo, (field: string, kind: FacetKind, payload: number | string | null) => {
      let known = fieldKeys.get(field);
      if (known === undefined) {
        fieldKeys.set(field, (known = { index: fields.length, kinds: [] }));
        fields.push(field);
      }
      // a Map tells every finite double apart (extraction already made -0 into 0)
      const values = (known.kinds[kind] ??= new Map());
      let key = values.get(payload);
      if (key === undefined) {
        key = keyFields.length;
        values.set(payload, key);
        keyFields.push(known.index);
        keyKinds.push(kind);
        keyValues.push(payload);
      }
      if (seen[key] === doc + 1) return;
      seen[key] = doc + 1;
      entries.push(key);
    });
    docStarts[doc + 1] = entries.length;
  }
  return { fields, keyFields: Int32Array.from(keyFields), keyKinds: Uint8Array.from(keyKinds), keyValues, docStarts, entries: Int32Array.from(entries), points };
}

/** The buffers of a part's facet entries, to transfer rather than copy. */
export function aheadFacetBuffers(facets: AheadFacets): ArrayBuffer[] {
  const { keyFields, keyKinds, docStarts, entries, points } = facets;
  return [keyFields, keyKinds, docStarts, entries, ...(points === null ? [] : [points])].map((column) => column.buffer as ArrayBuffer);
}
