/**
 * Sorting documents by facet values (documents.md §2.3, ranking.md §8): the `sort` criteria
 * syntax (Meilisearch `AscDesc::from_str` and its `SortError` messages), the sortable check, and
 * the bucket sort itself.
 *
 * Order of one criterion: documents with a number first (ascending for `asc`, descending for
 * `desc`), then documents with a string (normalised, bytewise, reversed for `desc`), then
 * documents without the field. A document with several values takes the first one it meets in
 * that walk (its smallest for `asc`, largest for `desc`). `_geoPoint(lat, lng)` orders by
 * distance as milli's geo sort buckets it (geo.ts), documents without a point last. Ties go to
 * the next criterion, then to docids.
 * A field's buckets over a set small against the field's count of values come from its value
 * columns (value-columns.ts: each document's values, by rank), keyed and sorted once: walking
 * the values for them looked at every value for each small bucket an earlier criterion made (1.5 s
 * for movies sorted by title, date and id). A larger set, or one whose field is too big for a
 * column, walks the values in order, each met with the set, the documents taken marked in a
 * bitmap (taking them out of those left cost a pass over those per bucket); a field walked once
 * for a reader (a request) is split the next times by the ranks of one walk over every document,
 * not walked again for each bucket.
 * Reads only the facet data; callers: the document list routes, search's sort rule.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { displayedList } from '../../types/settings.js';
import { fromSorted, intersect, type DocSet } from '../docset.js';
import { isFacetedBy } from '../../types/attribute-patterns.js';
import { FacetKind } from './extract.js';
import { badLatitudeMessage, badLongitudeMessage, geoSortBuckets, type LatLng } from './geo.js';
import type { FacetReader } from './store.js';
import { valueColumn, valueIndicesOf, type ValueColumn } from './value-columns.js';
import { parseRustF64 } from '../../types/rust-float.js';

export type SortCriterion =
  | { readonly kind: 'field'; readonly field: string; readonly descending: boolean }
  | { readonly kind: 'geo'; readonly point: LatLng; readonly descending: boolean };

// milli's `is_reserved_keyword`
const RESERVED = new Set(['_geo', '_geojson', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox', '_geoPolygon']);
const GEO_HINT = 'Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.';

function badGeoPoint(name: string, code: ErrorCode): ApiError {
  return new ApiError(
    code,
    `Invalid syntax for the geo parameter: expected expression formated like \`_geoPoint(latitude, longitude)\` and ending by \`:asc\` or \`:desc\`, found \`${name}\`.`,
  );
}

function reserved(name: string, code: ErrorCode): ApiError {
  if (name.startsWith('_geoPoint')) return badGeoPoint(name, code);
  if (name === '_geo') return new ApiError(code, `\`_geo\` is a reserved keyword and thus can't be used as a sort expression. ${GEO_HINT}`);
  for (const filter of ['_geoRadius', '_geoBoundingBox']) {
    if (name.startsWith(filter)) return new ApiError(code, `\`${filter}\` is a reserved keyword and thus can't be used as a sort expression. ${GEO_HINT}`);
  }
  return new ApiError(code, `\`${name}\` is a reserved keyword and thus can't be used as a sort expression.`);
}

/** One `sort` entry, `field:asc`, `field:desc` or `_geoPoint(lat, lng):asc|desc`. */
export function parseSortCriterion(text: string, code: ErrorCode): SortCriterion {
  const colon = text.lastIndexOf(':');
  const order = colon === -1 ? '' : text.slice(colon + 1);
  if (order !== 'asc' && order !== 'desc') {
    throw new ApiError(code, `Invalid syntax for the sort parameter: expected expression ending by \`:asc\` or \`:desc\`, found \`${text}\`.`);
  }
  const member = text.slice(0, colon);
  const descending = order === 'desc';
  if (member.startsWith('_geoPoint(') && member.endsWith(')')) {
    const inner = member.slice('_geoPoint('.length, -1);
    const comma = inner.indexOf(',');
    // Rust's f64 parse, `inf` and `NaN` included: the range checks refuse them with their own words
    const lat = comma === -1 ? null : parseRustF64(inner.slice(0, comma).trim());
    const lng = comma === -1 ? null : parseRustF64(inner.slice(comma + 1).trim());
    if (lat === null || lng === null) throw badGeoPoint(member, code);
    if (!(lat >= -90 && lat <= 90)) throw new ApiError(code, badLatitudeMessage(lat));
    if (!(lng >= -180 && lng <= 180)) throw new ApiError(code, badLongitudeMessage(lng));
    return { kind: 'geo', point: [lat, lng], descending };
  }
  if (RESERVED.has(member) || ['_geoRadius(', '_geoBoundingBox(', '_geo(', '_geoDistance('].some((prefix) => member.startsWith(prefix))) {
    throw reserved(member, code);
  }
  return { kind: 'field', field: member, descending };
}

/**
 * Throws `ApiError(code)` for the first criterion whose attribute is not sortable. The message
 * lists the sortable attributes also in `displayed` (search hides the others; the documents route
 * passes `['*']`, as Meilisearch lists every one there). `geoIndexed: false` refuses a geo
 * criterion even with `_geo` sortable: the documents route's, on an index whose documents never
 * held a point (v1.50's `recursive_sort` finds no `_geo.lat` field).
 */
export function assertSortable(criteria: readonly SortCriterion[], sortable: readonly string[], code: ErrorCode, displayed: readonly string[], geoIndexed = true): void {
  for (const criterion of criteria) {
    const field = criterion.kind === 'geo' ? '_geo' : criterion.field;
    const ok = criterion.kind === 'geo' ? geoIndexed && sortable.includes('_geo') : sortable.some((pattern) => isFacetedBy(field, pattern));
    if (ok) continue;
    const listed = displayedList(sortable, displayed);
    const available =
      listed.visible === 0 ? 'This index does not have configured sortable attributes.' : `Available sortable attributes are: \`${listed.text}\`.`;
    throw new ApiError(code, `Attribute \`${field}\` is not sortable. ${available}`);
  }
}

/**
 * `candidates` in sort order, as consecutive buckets of equal rank (each ascending by docid).
 * Lazy: stop iterating once enough documents came out.
 */
export function* sortBuckets(reader: FacetReader, criteria: readonly SortCriterion[], candidates: DocSet): Generator<DocSet> {
  function* level(depth: number, set: DocSet): Generator<DocSet> {
    if (set.length === 0) return;
    if (depth === criteria.length || set.length === 1) {
      yield set;
      return;
    }
    const criterion = criteria[depth]!;
    if (criterion.kind === 'geo') {
      for (const bucket of geoBuckets(reader, criterion.point, criterion.descending, set)) yield* level(depth + 1, bucket.docids);
    } else {
      for (const bucket of fieldBuckets(reader, criterion.field, criterion.descending, set)) yield* level(depth + 1, bucket);
    }
  }
  yield* level(0, candidates);
}

function* fieldBuckets(reader: FacetReader, field: string, descending: boolean, set: DocSet): Generator<DocSet> {
  for (const { docids } of fieldValueBuckets(reader, field, descending, set)) yield docids;
}

/**
 * `set` (ascending docids) in a field criterion's order, as consecutive buckets of equal rank
 * (each ascending by docid), each with the value it is ranked by: null for the documents without
 * one, last.
 */
export function* fieldValueBuckets(reader: FacetReader, field: string, descending: boolean, set: DocSet): Generator<{ value: number | string | null; docids: DocSet }> {
  if (set.length === 0) return;
  const fid = reader.fieldId(field);
  if (fid === undefined) {
    yield { value: null, docids: set };
    return;
  }
  const numbers = valueColumn(reader.env, reader, fid, FacetKind.number);
  const strings = numbers === null ? null : valueColumn(reader.env, reader, fid, FacetKind.string);
  if (numbers !== null && strings !== null && set.length * COLUMN_RATIO <= numbers.values.length + strings.values.length) {
    yield* rankedBuckets(numbers, strings, descending, set);
    return;
  }
  // a sort's later criteria split every bucket of the earlier ones: walking every value of the
  // field again for each (thousands of buckets × 36,000 `overview` values held a documents page
  // 83 s) is replaced, from the second split of a field, by its ranks read in one walk
  const walks = walksOf(reader);
  const key = `${fid}${descending ? 'd' : 'a'}`;
  const seen = walks.get(key);
  if (seen === undefined) {
    walks.set(key, null);
    yield* walkedBuckets(reader, fid, descending, set);
    return;
  }
  const ranks = seen ?? walkRanks(reader, fid, descending);
  walks.set(key, ranks);
  yield* rankedByWalk(ranks, set);
}

/**
 * A field's walk over every document of the index, in a criterion's order: each document's rank
 * (the position of the first of its values the walk meets, + 1; 0: it has none) and the values in
 * that order.
 */
interface WalkRanks {
  readonly ranks: Uint32Array;
  readonly values: readonly (number | string)[];
}

/** Per reader (a request's), per field and direction: null once walked, its ranks once split again. */
const WALKS = new WeakMap<FacetReader, Map<string, WalkRanks | null>>();

function walksOf(reader: FacetReader): Map<string, WalkRanks | null> {
  let walks = WALKS.get(reader);
  if (walks === undefined) WALKS.set(reader, (walks = new Map()));
  return walks;
}

/** The ranks of every document for field `fid`, numbers then strings as `walkedBuckets` walks them. */
function walkRanks(reader: FacetReader, fid: number, descending: boolean): WalkRanks {
  const all = reader.allDocids();
  const ranks = new Uint32Array(all.length === 0 ? 0 : all[all.length - 1]! + 1);
  const values: (number | string)[] = [];
  for (const kind of [FacetKind.number, FacetKind.string] as const) {
    for (const { value, docids } of reader.values(fid, kind, descending)) {
      values.push(value);
      for (const docid of docids) if (docid < ranks.length && ranks[docid] === 0) ranks[docid] = values.length;
    }
  }
  return { ranks, values };
}

/** The rank of a document without a value: after every other. */
const NO_RANK = 2 ** 32;

/** The buckets of `set` by the ranks of a walk: the documents of each rank ascending, those without one last. */
function* rankedByWalk({ ranks, values }: WalkRanks, set: DocSet): Generator<{ value: number | string | null; docids: DocSet }> {
  const rankOf = (docid: number): number => (docid < ranks.length && ranks[docid] !== 0 ? ranks[docid]! : NO_RANK);
  // a stable sort of the ascending set: each bucket stays ascending
  const order = Array.from(set).sort((a, b) => rankOf(a) - rankOf(b));
  for (let start = 0; start < order.length; ) {
    const rank = rankOf(order[start]!);
    let end = start + 1;
    while (end < order.length && rankOf(order[end]!) === rank) end++;
    yield { value: rank === NO_RANK ? null : values[rank - 1]!, docids: Uint32Array.from(order.slice(start, end)) };
    start = end;
  }
}

/**
 * A set at most this many times smaller than its field's count of values is keyed from the
 * columns: a walk would read values by the thousand to find its few documents. A larger set is
 * walked: its first buckets are usually all that is asked for, where keying it whole costs a pass
 * and a sort of every document (6 ms against under 1 for the 20 newest of movies by date).
 */
const COLUMN_RATIO = 4;

/**
 * The buckets of `set` (ascending docids) by walking the field's values in the criterion's order,
 * each met with `set`; a document already taken (a value met earlier) is marked in a bitmap, so a
 * bucket costs its own documents, not a pass over those left.
 */
function* walkedBuckets(reader: FacetReader, fid: number, descending: boolean, set: DocSet): Generator<{ value: number | string | null; docids: DocSet }> {
  const taken = new Uint8Array((set[set.length - 1]! >>> 3) + 1);
  const isTaken = (docid: number) => (taken[docid >>> 3]! & (1 << (docid & 7))) !== 0;
  let left = set.length;
  for (const kind of [FacetKind.number, FacetKind.string] as const) {
    for (const { value, docids } of reader.values(fid, kind, descending)) {
      const met = intersect(docids, set);
      const bucket = new Uint32Array(met.length);
      let size = 0;
      for (let j = 0; j < met.length; j++) {
        const docid = met[j]!;
        if (isTaken(docid)) continue;
        taken[docid >>> 3]! |= 1 << (docid & 7);
        bucket[size++] = docid;
      }
      if (size === 0) continue;
      yield { value, docids: bucket.subarray(0, size) };
      left -= size;
      if (left === 0) return;
    }
  }
  const rest = new Uint32Array(left);
  let size = 0;
  for (let k = 0; k < set.length; k++) if (!isTaken(set[k]!)) rest[size++] = set[k]!;
  yield { value: null, docids: rest };
}

/** A docid and its sort key in one number: the key above 2^32, the docid below (keys stay under 2^21). */
const DOCID_SPAN = 2 ** 32;

/**
 * The buckets of `set` by the columns of a field's numbers and strings: each document keyed by
 * its first value in the criterion's walk (numbers, then strings, each in stored order or its
 * reverse), the documents without a value last; one sort of the keyed docids.
 */
function* rankedBuckets(numbers: ValueColumn<number>, strings: ValueColumn<string>, descending: boolean, set: DocSet): Generator<{ value: number | string | null; docids: DocSet }> {
  const numberCount = numbers.values.length;
  const stringCount = strings.values.length;
  const missing = numberCount + stringCount;
  const keyed = new Float64Array(set.length);
  for (let k = 0; k < set.length; k++) {
    const docid = set[k]!;
    const number = walkPlace(numbers, docid, descending);
    let key = number;
    if (number === -1) {
      const string = walkPlace(strings, docid, descending);
      key = string === -1 ? missing : numberCount + string;
    }
    keyed[k] = key * DOCID_SPAN + docid;
  }
  keyed.sort();
  for (let start = 0; start < keyed.length; ) {
    const key = Math.floor(keyed[start]! / DOCID_SPAN);
    let end = start + 1;
    while (end < keyed.length && Math.floor(keyed[end]! / DOCID_SPAN) === key) end++;
    const docids = new Uint32Array(end - start);
    for (let j = start; j < end; j++) docids[j - start] = keyed[j]! % DOCID_SPAN;
    const value = key < numberCount ? valueAtPlace(numbers, key, descending) : key < missing ? valueAtPlace(strings, key - numberCount, descending) : null;
    yield { value, docids };
    start = end;
  }
}

/**
 * The place, in the walk of `column`'s values (stored order, reversed when `descending`), of the
 * first value `docid` holds; -1 when it holds none.
 */
function walkPlace(column: ValueColumn<number | string>, docid: number, descending: boolean): number {
  const { rank } = column;
  const held = valueIndicesOf(column, docid);
  if (held.length === 0) return -1;
  // the first value in the walk: the lowest rank ascending, the highest descending
  let best = rank[held[0]!]!;
  for (let j = 1; j < held.length; j++) best = descending ? Math.max(best, rank[held[j]!]!) : Math.min(best, rank[held[j]!]!);
  return descending ? rank.length - 1 - best : best;
}

/** The value at `place` in the walk of `column`'s values (stored order, reversed when `descending`). */
function valueAtPlace<T>(column: ValueColumn<T>, place: number, descending: boolean): T {
  const { order, values } = column;
  return values[order[descending ? order.length - 1 - place : place]!]!;
}

/**
 * `set` in `_geoPoint` order (geo.ts), each bucket with the point and distance it is ranked by,
 * then the documents without a point in one last bucket (point and distance null).
 */
export function* geoBuckets(reader: FacetReader, origin: LatLng, descending: boolean, set: DocSet): Generator<{ docids: DocSet; point: LatLng | null; distance: number | null }> {
  const points = reader.points();
  const located: number[] = [];
  const unlocated: number[] = [];
  for (const docid of set) {
    if (docid < points.lat.length && !Number.isNaN(points.lat[docid]!)) located.push(docid);
    else unlocated.push(docid);
  }
  for (const { docids, point, distance } of geoSortBuckets(located, points, origin, descending)) yield { docids: fromSorted(docids), point, distance };
  if (unlocated.length > 0) yield { docids: fromSorted(unlocated), point: null, distance: null };
}

/** The page `[offset, offset + limit)` of `candidates` in sort order. */
export function sortedPage(reader: FacetReader, criteria: readonly SortCriterion[], candidates: DocSet, offset: number, limit: number): number[] {
  const page: number[] = [];
  if (limit === 0) return page;
  let toSkip = offset;
  for (const bucket of sortBuckets(reader, criteria, candidates)) {
    if (bucket.length <= toSkip) {
      toSkip -= bucket.length;
      continue;
    }
    for (let i = toSkip; i < bucket.length; i++) if (page.push(bucket[i]!) === limit) return page;
    toSkip = 0;
  }
  return page;
}
