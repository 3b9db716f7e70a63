/**
 * The facet data of an index, as stored in its LMDB environment, and the reads over it.
 *
 * Layout (written only by the facet updater, inside the batch's write transaction):
 * - `facetDocids` (binary keys, DocSet values): key = field id (u16 BE) · kind (u8) · payload,
 *   payload = 8 order-preserving bytes of the f64 for `number`, the normalised UTF-8 string for
 *   `string`, nothing for `null` / `empty` / `exists`. So one field's numbers, then its strings,
 *   are contiguous and sorted: ranges, prefixes and ordered walks are cursor scans.
 * - `geoPoints` (docid → 16 bytes: lat, lng as f64 LE) for documents with a `_geo` point while
 *   geo is enabled; readers take them from the columns geo-column.ts keeps of them.
 * - main key `facet-fields`: field id → path (array index = id). Ids are never reused or removed,
 *   like Meilisearch's fields-ids map, so an id seen by a reader stays valid.
 * - main key `documents-ids`: the DocSet of every document (the universe of `NOT`, `!=`), and
 *   `documents-ids-version`, a fresh random id with each write of it (what cached copies are keyed on).
 *
 * Readers (`FacetReader`) work on any snapshot: create one per query; its field map is decoded
 * once per commit that adds a field (`facetFieldIds`). A filter's reader is metered (`ReadMeter`)
 * and may have its ranges answered by the value columns (`RangeSource`).
 */
import { randomUUID } from 'node:crypto';
import { decode, EMPTY, encode, fromUnsorted, unionAll, type DocSet } from '../docset.js';
import { grownUint8 } from '../grown.js';
import { EntryCache } from '../entry-cache.js';
import type { IndexEnv } from '../index-env.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import { FacetKind } from './extract.js';
import type { LatLng } from './geo.js';
import { geoColumn, type GeoColumn } from './geo-column.js';
import { MAX_FACET_VALUE_BYTES, orderedF64, readOrderedF64 } from './values.js';
import { leadingUnits } from '../../types/utf16.js';

/** Field ids are u16, as in Meilisearch (65,535 fields at most). */
export const MAX_FIELD_ID = 0xffff;

const F64_SCRATCH = Buffer.alloc(8);
const ASCII = /^[\x00-\x7f]*$/;

/** `facetKey` as a latin1 string (one char per byte): a byte-exact, hashable form of the key. */
export function facetKeyString(fid: number, kind: FacetKind, payload?: string | number): string {
  const head = String.fromCharCode(fid >>> 8, fid & 0xff, kind);
  if (payload === undefined) return head;
  if (typeof payload === 'number') return head + orderedF64(payload, F64_SCRATCH).toString('latin1');
  // an ASCII string is its own UTF-8 bytes: skip encoding the common case
  return head + (ASCII.test(payload) ? payload : Buffer.from(payload).toString('latin1'));
}

export function facetKey(fid: number, kind: FacetKind, payload?: string | number): Buffer {
  return Buffer.from(facetKeyString(fid, kind, payload), 'latin1');
}

/** The field id and kind a facet key (as bytes or as `facetKeyString`) belongs to. */
export function facetKeyField(key: Uint8Array | string): { fid: number; kind: FacetKind } {
  const at = (i: number) => (typeof key === 'string' ? key.charCodeAt(i) : key[i]!);
  return { fid: (at(0) << 8) | at(1), kind: at(2) as FacetKind };
}

/** The value a `number` or `string` facet key holds. */
export function facetKeyValue(key: Buffer): number | string {
  return key[2] === FacetKind.number ? readOrderedF64(key, 3) : key.subarray(3).toString();
}

/** Whether the normalised string `value` is longer than any stored one (cut to MAX_FACET_VALUE_BYTES when extracted). */
function longerThanStored(value: string): boolean {
  // a UTF-16 unit is at least one UTF-8 byte, at most three
  return value.length > MAX_FACET_VALUE_BYTES || (value.length * 3 > MAX_FACET_VALUE_BYTES && Buffer.byteLength(value) > MAX_FACET_VALUE_BYTES);
}

/**
 * The scan key of the string bound `value`. A filter's string may be far longer than a key LMDB
 * takes (an 8 KB one threw), but every stored value has at most MAX_FACET_VALUE_BYTES: the bound's
 * first MAX_FACET_VALUE_BYTES + 1 bytes then order against each stored key as the whole bound does
 * (they differ at a byte the stored key has, or the stored key is a prefix of both), and no stored
 * key equals either, so the bound's inclusiveness changes nothing.
 */
function stringBoundKey(fid: number, value: string): Buffer {
  if (!longerThanStored(value)) return facetKey(fid, FacetKind.string, value);
  // as many UTF-16 units hold at least as many bytes
  return facetKey(fid, FacetKind.string, leadingUnits(value, MAX_FACET_VALUE_BYTES + 2)).subarray(0, 3 + MAX_FACET_VALUE_BYTES + 1);
}

/** The paths documents had while they were faceted, by field id: a fresh array (the writer appends to it). */
export function readFacetFields(env: IndexReadEnv): string[] {
  return (env.main.get(INDEX_MAIN_KEYS.facetFields) as string[] | undefined) ?? [];
}

// path → field id, decoded once per commit that adds a path rather than per search (~20 µs each)
const facetFieldIds = new EntryCache(
  (env) => env.main,
  INDEX_MAIN_KEYS.facetFields,
  (env): ReadonlyMap<string, number> => new Map(readFacetFields(env).map((name, id) => [name, id])),
);

export function encodePoint(point: LatLng): Buffer {
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeDoubleLE(point[0], 0);
  bytes.writeDoubleLE(point[1], 8);
  return bytes;
}

/** A range bound: the value and whether it is part of the range; null = unbounded. */
export type Bound<T> = { value: T; inclusive: boolean } | null;

export interface FacetValue<T> {
  value: T;
  docids: DocSet;
}

// keyed on the small version entry: comparing the whole set's bytes per search would cost more than its decode saves
const documentsIds = new EntryCache(
  (env) => env.main,
  INDEX_MAIN_KEYS.documentsIdsVersion,
  (env) => decode(env.main.get(INDEX_MAIN_KEYS.documentsIds) as Uint8Array | undefined),
);

/**
 * Stores the set of every document (inside the batch's write transaction) with a fresh version:
 * random rather than counted, so a version seen inside a transaction that was then rolled back
 * can never come back with other contents.
 */
export function writeDocumentsIds(env: IndexEnv, docids: DocSet): void {
  env.main.putSync(INDEX_MAIN_KEYS.documentsIds, encode(docids));
  env.main.putSync(INDEX_MAIN_KEYS.documentsIdsVersion, randomUUID());
}

/** Bytes of a facet key that `stringContains` meters as one more entry read. */
const CONTAINS_KEY_BYTES = 64;

/** Told of the facet entries (or `_geo` points, `_geojson` keys) a filter reads and of the docids it yields: what its work bound counts. */
export interface ReadMeter {
  read(entries: number, docids: number): void;
}

/**
 * Another source for the key ranges a reader would scan (the value columns, value-columns.ts
 * `columnRanges`): `range` answers one, or null to let the reader scan it, after which `scanned`
 * says how many entries that read.
 */
export interface RangeSource {
  range(start: Buffer, exclusiveStart: boolean, end: Buffer, inclusiveEnd: boolean): DocSet | null;
  scanned(start: Buffer, entries: number): void;
}

/**
 * Stored sets appended one after another into one growing buffer: no object per entry (a set
 * decoded per entry, or even a Buffer view of it, and their union cost 2.8 µs an entry, mostly in
 * allocation and garbage collection; 0.4 µs this way).
 */
class SetRuns {
  private bytes = new Uint8Array(4096);
  private used = 0;

  /** Appends a stored set (its bytes: a whole number of u32). */
  add(value: Uint8Array): void {
    if (this.used + value.length > this.bytes.length) this.bytes = grownUint8(this.bytes.subarray(0, this.used), Math.max(2 * this.bytes.length, this.used + value.length));
    this.bytes.set(value, this.used);
    this.used += value.length;
  }

  /** How many docids were appended. */
  get count(): number {
    return this.used >>> 2;
  }

  /** The docids appended, a view over the buffer (valid until the next `add`). */
  docids(): Uint32Array {
    return new Uint32Array(this.bytes.buffer, 0, this.used >>> 2);
  }
}

/** A field's values of one kind in stored order, with their documents in one array: value k's are docids[starts[k] .. starts[k + 1]). */
export interface ValueRuns<T> {
  readonly values: T[];
  readonly docids: Uint32Array;
  readonly starts: Uint32Array;
}

export class FacetReader {
  private fields: ReadonlyMap<string, number> | undefined;
  private geo: GeoColumn | undefined;

  constructor(
    readonly env: IndexReadEnv,
    private readonly meter?: ReadMeter,
    private readonly ranges?: RangeSource,
  ) {}

  /** The set stored under `key`, metered. */
  private read(key: Buffer): DocSet {
    const set = decode(this.env.facetDocids.get(key));
    this.meter?.read(1, set.length);
    return set;
  }

  /** The id of a path some document had while it was faceted; undefined = never seen. */
  fieldId(field: string): number | undefined {
    return this.fieldIds().get(field);
  }

  /** Every path's id (`fieldId`): one map per commit that adds a field, shared (read-only). */
  fieldIds(): ReadonlyMap<string, number> {
    return (this.fields ??= facetFieldIds.get(this.env));
  }

  /** Every document (shared until a commit changes it: read-only). */
  allDocids(): DocSet {
    return documentsIds.get(this.env);
  }

  /** Documents with the field at all / with a `null` / with an empty value. */
  flagged(fid: number, kind: typeof FacetKind.exists | typeof FacetKind.null | typeof FacetKind.empty): DocSet {
    return this.read(facetKey(fid, kind));
  }

  /** `f = v`: the string facet `normalized`, and the number facet `number` when v is a number. */
  equal(fid: number, normalized: string, number: number | null): DocSet {
    const strings = longerThanStored(normalized) ? EMPTY : this.read(facetKey(fid, FacetKind.string, normalized));
    if (number === null) return strings;
    return unionAll([strings, this.read(facetKey(fid, FacetKind.number, number))]);
  }

  numberRange(fid: number, low: Bound<number>, high: Bound<number>): DocSet {
    if (low !== null && high !== null && (low.value > high.value || (low.value === high.value && !(low.inclusive && high.inclusive)))) {
      return EMPTY;
    }
    return this.scan(
      low === null ? facetKey(fid, FacetKind.number) : facetKey(fid, FacetKind.number, low.value),
      low !== null && !low.inclusive,
      high === null ? facetKey(fid, FacetKind.string) : facetKey(fid, FacetKind.number, high.value),
      high !== null && high.inclusive,
    );
  }

  /** Normalised strings between the bounds, compared bytewise. */
  stringRange(fid: number, low: Bound<string>, high: Bound<string>): DocSet {
    const start = low === null ? facetKey(fid, FacetKind.string) : stringBoundKey(fid, low.value);
    const end = high === null ? facetKey(fid, FacetKind.null) : stringBoundKey(fid, high.value);
    const lowInclusive = low === null || low.inclusive;
    const highInclusive = high === null || high.inclusive;
    const order = Buffer.compare(start, end);
    if (order > 0 || (order === 0 && !(lowInclusive && highInclusive))) return EMPTY;
    // An unbounded end stops before the next kind's keys, exclusively.
    return this.scan(start, !lowInclusive, end, high !== null && highInclusive);
  }

  /** Strings starting with `prefix` (a normalised, non-empty value). */
  stringPrefix(fid: number, prefix: string): DocSet {
    // no stored value is long enough to start with it
    if (longerThanStored(prefix)) return EMPTY;
    const start = facetKey(fid, FacetKind.string, prefix);
    const end = Buffer.from(start);
    // The smallest key above every extension of the prefix: its last byte plus one (never 0xff in UTF-8).
    end[end.length - 1] = end[end.length - 1]! + 1;
    return this.scan(start, false, end, false);
  }

  /**
   * Strings containing `needle` (normalised): every string value of the field is looked at, a
   * key metered as one entry read per CONTAINS_KEY_BYTES of it besides the first (copying and
   * searching a 470-byte key cost ~2.8 µs, seven entry reads, not one).
   */
  stringContains(fid: number, needle: string): DocSet {
    const bytes = Buffer.from(needle);
    const found: DocSet[] = [];
    for (const { key, value } of this.env.facetDocids.getRange({ start: facetKey(fid, FacetKind.string), end: facetKey(fid, FacetKind.null) })) {
      this.meter?.read(1 + Math.floor(key.length / CONTAINS_KEY_BYTES), 0);
      if (key.indexOf(bytes, 3) !== -1) found.push(decode(value));
    }
    this.meter?.read(0, found.reduce((sum, set) => sum + set.length, 0));
    return unionAll(found);
  }

  /**
   * The field's values of one kind with their documents, ascending (or descending); those `keep`
   * refuses, when given, are skipped before their documents are decoded.
   */
  *values<K extends typeof FacetKind.number | typeof FacetKind.string>(
    fid: number,
    kind: K,
    descending = false,
    keep?: (value: K extends typeof FacetKind.number ? number : string) => boolean,
  ): Generator<FacetValue<K extends typeof FacetKind.number ? number : string>> {
    const first = facetKey(fid, kind);
    const after = facetKey(fid, (kind + 1) as FacetKind);
    // `after` is itself a key when the next kind has a payload-less entry (`null`, `empty`): a
    // reverse scan starts there, so it must leave it out
    const range = descending ? { start: after, end: first, reverse: true, exclusiveStart: true } : { start: first, end: after };
    for (const { key, value } of this.env.facetDocids.getRange(range)) {
      const stored = facetKeyValue(key) as K extends typeof FacetKind.number ? number : string;
      if (keep === undefined || keep(stored)) yield { value: stored, docids: decode(value) };
    }
  }

  /**
   * The field's values of one kind, ascending, and their documents in one array (what a value
   * column is built from); null as soon as `fits`, asked after each value with the documents read
   * so far, answers false.
   */
  valueRuns<K extends typeof FacetKind.number | typeof FacetKind.string>(
    fid: number,
    kind: K,
    fits: (value: K extends typeof FacetKind.number ? number : string, docids: number) => boolean,
  ): ValueRuns<K extends typeof FacetKind.number ? number : string> | null {
    const values: (K extends typeof FacetKind.number ? number : string)[] = [];
    const starts: number[] = [0];
    const runs = new SetRuns();
    for (const { key, value } of this.env.facetDocids.getRange({ start: facetKey(fid, kind), end: facetKey(fid, (kind + 1) as FacetKind) })) {
      const stored = facetKeyValue(key) as K extends typeof FacetKind.number ? number : string;
      values.push(stored);
      runs.add(value);
      starts.push(runs.count);
      if (!fits(stored, runs.count)) return null;
    }
    return { values, docids: runs.docids(), starts: Uint32Array.from(starts) };
  }

  /** Every document's `_geo` point, by docid (NaN: none); unmetered: a sort reads them all. */
  points(): GeoColumn {
    return (this.geo ??= geoColumn(this.env));
  }

  point(docid: number): LatLng | undefined {
    this.meter?.read(1, 0);
    const { lat, lng } = this.points();
    return docid < lat.length && !Number.isNaN(lat[docid]!) ? [lat[docid]!, lng[docid]!] : undefined;
  }

  /**
   * The union of the sets of a key range, from the range source when it answers, else read from
   * the facet data: the sets gathered into one buffer (`SetRuns`), then sorted once (a range over
   * movies' 36,000 titles took ~100 ms with a decoded set per entry and a union; 15–45 this way).
   */
  private scan(start: Buffer, exclusiveStart: boolean, end: Buffer, inclusiveEnd: boolean): DocSet {
    const answered = this.ranges?.range(start, exclusiveStart, end, inclusiveEnd);
    if (answered !== undefined && answered !== null) return answered;
    const runs = new SetRuns();
    let entries = 0;
    for (const { value } of this.env.facetDocids.getRange({ start, end, exclusiveStart, inclusiveEnd })) {
      this.meter?.read(1, value.length >>> 2);
      runs.add(value);
      entries++;
    }
    this.ranges?.scanned(start, entries);
    if (runs.count === 0) return EMPTY;
    // one set is already ascending and distinct
    return entries === 1 ? runs.docids().slice() : fromUnsorted(runs.docids());
  }
}
