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
 * Reads only the facet data; callers: the document list routes, search's sort rule.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { displayedList } from '../../types/settings.js';
import { difference, fromSorted, intersect, type DocSet } from '../docset.js';
import { isFacetedBy } from '../../types/attribute-patterns.js';
import { FacetKind } from './extract.js';
import { geoSortBuckets, type LatLng } from './geo.js';
import type { FacetReader } from './store.js';
import { parseFiniteFloat, rustFloat } from './values.js';

export type SortCriterion =
  | { readonly kind: 'field'; readonly field: string; readonly descending: boolean }
  | { readonly kind: 'geo'; readonly point: LatLng; readonly descending: boolean };

const RESERVED = new Set(['_geo', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox']);
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
    const lat = comma === -1 ? null : parseFiniteFloat(inner.slice(0, comma).trim());
    const lng = comma === -1 ? null : parseFiniteFloat(inner.slice(comma + 1).trim());
    if (lat === null || lng === null) throw badGeoPoint(member, code);
    if (!(lat >= -90 && lat <= 90)) throw new ApiError(code, `Bad latitude \`${rustFloat(lat)}\`. Latitude must be contained between -90 and 90 degrees.`);
    if (!(lng >= -180 && lng <= 180)) {
      const hint = ((((lng + 180) % 360) + 360) % 360) - 180;
      throw new ApiError(
        code,
        `Bad longitude \`${rustFloat(lng)}\`. Longitude must be contained between -180 and 180 degrees. Hint: try using \`${rustFloat(hint)}\` instead.`,
      );
    }
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
 * passes `['*']`, as Meilisearch lists every one there).
 */
export function assertSortable(criteria: readonly SortCriterion[], sortable: readonly string[], code: ErrorCode, displayed: readonly string[]): void {
  for (const criterion of criteria) {
    const field = criterion.kind === 'geo' ? '_geo' : criterion.field;
    const ok = criterion.kind === 'geo' ? sortable.includes('_geo') : sortable.some((pattern) => isFacetedBy(field, pattern));
    if (ok) continue;
    const available =
      sortable.length === 0
        ? 'This index does not have configured sortable attributes.'
        : `Available sortable attributes are: \`${displayedList(sortable, displayed)}\`.`;
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
  const fid = reader.fieldId(field);
  let rest = set;
  if (fid !== undefined) {
    for (const kind of [FacetKind.number, FacetKind.string] as const) {
      for (const { docids } of reader.values(fid, kind, descending)) {
        const bucket = intersect(docids, rest);
        if (bucket.length === 0) continue;
        yield bucket;
        rest = difference(rest, bucket);
        if (rest.length === 0) return;
      }
    }
  }
  if (rest.length > 0) yield rest;
}

/**
 * `set` in `_geoPoint` order (geo.ts), each bucket with the point and distance it is ranked by,
 * then the documents without a point in one last bucket (point and distance null).
 */
export function* geoBuckets(reader: FacetReader, origin: LatLng, descending: boolean, set: DocSet): Generator<{ docids: DocSet; point: LatLng | null; distance: number | null }> {
  const located: { docid: number; point: LatLng }[] = [];
  const unlocated: number[] = [];
  for (const docid of set) {
    const point = reader.point(docid);
    if (point === undefined) unlocated.push(docid);
    else located.push({ docid, point });
  }
  for (const { docids, point, distance } of geoSortBuckets(located, origin, descending)) yield { docids: fromSorted(docids), point, distance };
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
