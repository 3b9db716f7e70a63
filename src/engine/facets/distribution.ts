/**
 * `facetDistribution` and `facetStats` of a search (search.md §9), Meilisearch's
 * `FacetDistribution`: value counts over the search's candidate documents. A field's values
 * among the candidates are found by walking its values in the facet databases (store.ts), each
 * value's documents looked up among the candidates, or, when a few candidates face many more
 * values, by reading those candidates' own values from their documents with the extraction that
 * indexed them: the same counts either way. Which values are kept follows v1.50: up to 3,000
 * candidates an alphabetical distribution orders numbers by their printed form (it builds it
 * from the documents), above that numerically (it walks its facet levels). Strings are named by
 * the original spelling in their first candidate, as Meilisearch reads
 * `field_id_docid_facet_strings`.
 * Pure reads on a snapshot; callers: the search routes.
 */
import { ApiError } from '../../errors/api-error.js';
import type { IndexSettings } from '../../types/settings.js';
import { intersectionSize, type DocSet } from '../docset.js';
import type { JsonObject } from '../document-id.js';
import { DocumentStore } from '../documents/store.js';
import { featuresOf, matchingRule, matchLegacy, matchRule, matchWildcard } from '../../types/attribute-patterns.js';
import { filterablePatterns, isFilterable } from './filterable.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { extractFacets, FacetKind } from './extract.js';
import { facetedFieldMatcher, geoEnabled } from './fields.js';
import { FacetReader, readFacetFields, type FacetValue } from './store.js';
import { normalizeFacet, rustFloat, truncateFacet } from './values.js';
import { ownRecord } from '../../types/own-record.js';

export interface FacetStats {
  min: number;
  max: number;
}

export interface FacetsOutcome {
  distribution: Record<string, Record<string, number>>;
  stats: Record<string, FacetStats>;
}

/** A requested pattern selects a field: wildcard patterns, or a name and everything below it. */
function selects(pattern: string, field: string): boolean {
  return matchWildcard(pattern, field) === 'match' || matchLegacy(pattern, field) === 'match';
}

/** Whether the pattern can select something some filterable rule makes filterable. */
function reachesFilterable(pattern: string, settings: IndexSettings): boolean {
  return settings.filterableAttributes.some((rule) => {
    if (!isFilterable(featuresOf(rule))) return false;
    if (matchRule(rule, pattern) !== 'none') return true;
    // `*`, `genre*`…: the pattern reaches the rule when it matches one of the rule's own patterns.
    const patterns = typeof rule === 'string' ? [rule] : rule.attributePatterns;
    return pattern.includes('*') && patterns.some((p) => matchWildcard(pattern, p) !== 'none');
  });
}

/**
 * Rejects patterns that cannot name a filterable attribute, with Meilisearch's messages: every
 * invalid pattern is named; the rule that shadows it is only explained when it is the only one.
 * A `*` anywhere selects every filterable attribute, and Meilisearch then checks nothing.
 */
export function checkFacets(settings: IndexSettings, patterns: readonly string[]): void {
  if (patterns.includes('*')) return;
  const invalid = new Set<string>();
  const shadowedBy = new Map<string, number>();
  for (const pattern of patterns) {
    const rule = matchingRule(pattern, settings.filterableAttributes);
    if (rule !== null ? isFilterable(rule.features) : reachesFilterable(pattern, settings)) continue;
    invalid.add(pattern);
    if (rule !== null) shadowedBy.set(pattern, rule.index);
  }
  if (invalid.size === 0) return;
  const names = [...invalid].sort();
  const n = names.length === 1 ? shadowedBy.get(names[0]!) : undefined;
  if (n !== undefined) {
    throw new ApiError(
      'invalid_search_facets',
      `Invalid facet distribution: Attribute \`${names[0]}\` matched rule #${n} in filterableAttributes, but this rule does not enable filtering.\n` +
        `Hint: enable filtering in rule #${n} by modifying the features.filter object\n` +
        `Hint: prepend another rule matching \`${names[0]}\` with appropriate filter features before rule #${n}`,
    );
  }
  const head = names.length === 1 ? `Pattern \`${names[0]}\` is not filterable.` : `Patterns \`${names.join(', ')}\` are not filterable.`;
  const available = filterablePatterns(settings.filterableAttributes);
  const tail = available.length === 0 ? 'This index does not have configured filterable attributes.' : `Available filterable attributes patterns are: \`${available.join(', ')}\`.`;
  throw new ApiError('invalid_search_facets', `Invalid facet distribution: ${head} ${tail}`);
}

/** The string values (booleans as `true`/`false`) a document holds at a dotted path. */
function stringsAt(value: unknown, path: string, out: string[]): void {
  if (path === '') {
    if (typeof value === 'string') out.push(value);
    else if (typeof value === 'boolean') out.push(String(value));
    else if (Array.isArray(value)) for (const item of value) stringsAt(item, '', out);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) stringsAt(item, path, out);
  } else if (typeof value === 'object' && value !== null) {
    // Flat keys (`"doggos.name"`) and nested objects land on the same path, as in extract.ts.
    for (const [key, inner] of Object.entries(value as JsonObject)) {
      if (path === key) stringsAt(inner, '', out);
      else if (path.startsWith(`${key}.`)) stringsAt(inner, path.slice(key.length + 1), out);
    }
  }
}

/** The spelling of `normalized` in the document, or the normalised form if it has none. */
export function originalSpelling(store: DocumentStore<IndexReadEnv>, docid: number, field: string, normalized: string): string {
  // decoded once per documents version (facet searches and distributions ask for the same few documents)
  const doc = store.sharedByDocid(docid);
  if (doc === undefined) return normalized;
  const values: string[] = [];
  stringsAt(doc, field, values);
  return values.find((value) => truncateFacet(normalizeFacet(value)) === normalized) ?? normalized;
}

/** `sortFacetValuesBy` for one attribute: its own entry, else `*`, else alpha. */
export function facetOrder(settings: IndexSettings, field: string): 'alpha' | 'count' {
  const by = settings.faceting.sortFacetValuesBy;
  return by[field] ?? by['*'] ?? 'alpha';
}

interface Counted {
  key: string;
  count: number;
}

/**
 * Meilisearch's LINEAR_SCAN_CANDIDATES_THRESHOLD: up to this many candidates, an alphabetical
 * distribution is built from the candidates' own values (`facet_distribution_from_documents`),
 * where numbers are ordered as the strings they print as (a BTreeMap of `f64::to_string`:
 * "10" before "9"); above it, from the facet values in order (numbers numerically).
 */
const LINEAR_SCAN_CANDIDATES = 3000;
/**
 * A field's values are walked until they outnumber the candidates this many times; past that,
 * reading the few candidates' own values costs less (both give the same counts). Measured over
 * every query of the bench sets (facets on every filterable field): a document's values cost
 * 0.4 µs (movies) to 15 µs (debdocs, long documents) against 0.1–2 µs per value walked; 4 gave
 * the lowest totals on both (16 and 64: 4–5 % more on movies, 40–70 % more on debdocs).
 */
const VALUES_PER_CANDIDATE = 4;

/** A value among the candidates: how many hold it, and the first of them (for its original spelling). */
interface Found<T> {
  value: T;
  count: number;
  first: number;
}

/** A field's numbers and strings among the candidates, each in stored order (numbers ascending, strings bytewise). */
interface FieldValues {
  numbers: Found<number>[];
  strings: Found<string>[];
}

/**
 * The candidates' values of one kind by walking the field's stored values, in stored order:
 * null once more than `visits` values were looked at. The walk stops once `budget` were found.
 * `member` holds a bit per candidate docid: a value's few documents are looked up there, without
 * building their intersection with the candidates.
 */
function walkValues<T extends number | string>(values: Iterable<FacetValue<T>>, member: Uint8Array, budget: number, visits: number): Found<T>[] | null {
  const found: Found<T>[] = [];
  const limit = 8 * member.length;
  let visited = 0;
  for (const { value, docids } of values) {
    if (found.length >= budget) break;
    if (++visited > visits) return null;
    let count = 0;
    let first = -1;
    for (let k = 0; k < docids.length; k++) {
      const docid = docids[k]!;
      if (docid < limit && ((member[docid >>> 3]! >>> (docid & 7)) & 1) === 1) {
        if (count++ === 0) first = docid;
      }
    }
    if (count > 0) found.push({ value, count, first });
  }
  return found;
}

/** A bit per candidate docid. */
function membership(candidates: DocSet): Uint8Array {
  const member = new Uint8Array(candidates.length === 0 ? 0 : (candidates[candidates.length - 1]! >>> 3) + 1);
  for (let k = 0; k < candidates.length; k++) member[candidates[k]! >>> 3]! |= 1 << (candidates[k]! & 7);
  return member;
}

/** Per value: its tally, and the last document counted (a document holding a value twice counts once, as the facet data holds it once). */
type Tally<T> = Map<T, Found<T> & { last: number }>;

function tally<T>(map: Tally<T>, value: T, docid: number): void {
  const found = map.get(value);
  if (found === undefined) map.set(value, { value, count: 1, first: docid, last: docid });
  else if (found.last !== docid) {
    found.count++;
    found.last = docid;
  }
}

/**
 * The candidates' values of every field in `fields`, read from their documents (shared decoded
 * copies) with the extraction that indexed them, so they are the values the facet data holds.
 */
function documentValues(store: DocumentStore<IndexReadEnv>, settings: IndexSettings, candidates: DocSet, fields: readonly string[]): Map<string, FieldValues> {
  const match = facetedFieldMatcher(settings);
  const geo = geoEnabled(settings);
  const tallies = new Map(fields.map((field) => [field, { numbers: new Map() as Tally<number>, strings: new Map() as Tally<string> }]));
  for (let k = 0; k < candidates.length; k++) {
    const docid = candidates[k]!;
    const doc = store.sharedByDocid(docid);
    if (doc === undefined) continue;
    extractFacets(doc as JsonObject, match, geo, (field, kind, value) => {
      const maps = tallies.get(field);
      if (maps === undefined) return;
      if (kind === FacetKind.number) tally(maps.numbers, value as number, docid);
      else if (kind === FacetKind.string) tally(maps.strings, value as string, docid);
    });
  }
  const out = new Map<string, FieldValues>();
  for (const [field, { numbers, strings }] of tallies) {
    out.set(field, {
      numbers: [...numbers.values()].sort((a, b) => a.value - b.value),
      strings: [...strings.values()].sort((a, b) => Buffer.compare(Buffer.from(a.value), Buffer.from(b.value))),
    });
  }
  return out;
}

/**
 * One field's values among the candidates: numbers take the budget first, then strings; `alpha`
 * keeps each kind's first values (numbers by their printed form up to LINEAR_SCAN_CANDIDATES
 * candidates, numerically above), `count` each kind's most frequent values. Either way numbers
 * come before strings, as Meilisearch appends the strings' walk to the numbers'.
 */
function fieldDistribution(store: DocumentStore<IndexReadEnv>, field: string, values: FieldValues, byCount: boolean, linear: boolean, maxValues: number): Record<string, number> {
  let budget = maxValues;
  const out: Counted[] = [];
  const take = <T extends number | string>(found: Found<T>[], key: (found: Found<T>) => string): void => {
    let chosen = found;
    // Equal counts: the greater value first, as Meilisearch's max-heap on (count, value) yields them
    // (its multi-search snapshot: `red: 3, blue: 3, yellow: 2, green: 2`). `found` is in value order.
    if (byCount) chosen = [...found].reverse().sort((a, b) => b.count - a.count);
    for (const one of chosen.slice(0, budget)) out.push({ key: key(one), count: one.count });
    budget -= Math.min(chosen.length, budget);
  };
  const numbers = byCount || !linear ? values.numbers : values.numbers.map((found) => ({ found, key: rustFloat(found.value) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ found }) => found);
  take(numbers, (found) => rustFloat(found.value));
  take(values.strings, (found) => originalSpelling(store, found.first, field, found.value));
  const distribution = ownRecord<number>();
  // A number and a string may print alike (`2` and "2"): as in Meilisearch's map, the string's
  // count replaces the number's, at the number's place.
  for (const { key, count } of out) distribution[key] = count;
  return distribution;
}

/** Smallest and largest number of the field held by a candidate; null when none is. */
function fieldStats(reader: FacetReader, fid: number, candidates: DocSet): FacetStats | null {
  const first = (descending: boolean): number | null => {
    for (const { value, docids } of reader.values(fid, FacetKind.number, descending)) {
      if (intersectionSize(docids, candidates) > 0) return value;
    }
    return null;
  };
  const min = first(false);
  return min === null ? null : { min, max: first(true)! };
}

/**
 * Distribution and stats for every faceted, filterable field selected by `patterns` (already
 * checked by `checkFacets`), keys sorted by field name. A field's values among the candidates
 * come from walking its stored values, or, for few candidates and many values, from the
 * candidates' documents (the same values, found for less).
 */
export function computeFacets(env: IndexReadEnv, settings: IndexSettings, candidates: DocSet, patterns: readonly string[]): FacetsOutcome {
  const reader = new FacetReader(env);
  const store = new DocumentStore(env);
  const fields = readFacetFields(env)
    .filter((field) => patterns.some((pattern) => selects(pattern, field)))
    .filter((field) => {
      const rule = matchingRule(field, settings.filterableAttributes);
      return rule !== null && isFilterable(rule.features);
    })
    .sort();
  const linear = candidates.length <= LINEAR_SCAN_CANDIDATES;
  const maxValues = settings.faceting.maxValuesPerFacet;
  const visits = linear ? VALUES_PER_CANDIDATE * candidates.length : Number.POSITIVE_INFINITY;
  const member = membership(candidates);
  let fromDocuments: Map<string, FieldValues> | undefined;
  const distribution = ownRecord<Record<string, number>>();
  const stats = ownRecord<FacetStats>();
  for (const field of fields) {
    const fid = reader.fieldId(field)!;
    const byCount = facetOrder(settings, field) === 'count';
    // every number is needed when they are ordered by count or by their printed form
    const wholeNumbers = byCount || linear;
    const numbers = walkValues(reader.values(fid, FacetKind.number), member, wholeNumbers ? Number.POSITIVE_INFINITY : maxValues, visits);
    const strings = numbers === null ? null : walkValues(reader.values(fid, FacetKind.string), member, byCount ? Number.POSITIVE_INFINITY : Math.max(0, maxValues - numbers.length), visits);
    let values: FieldValues;
    if (numbers !== null && strings !== null) values = { numbers, strings };
    else {
      fromDocuments ??= documentValues(store, settings, candidates, fields);
      values = fromDocuments.get(field)!;
    }
    distribution[field] = fieldDistribution(store, field, values, byCount, linear, maxValues);
    // the walk saw every number among the candidates, or stopped early over many candidates
    const range = wholeNumbers || numbers === null ? rangeOf(values.numbers) : fieldStats(reader, fid, candidates);
    if (range !== null) stats[field] = range;
  }
  return { distribution, stats };
}

/** Smallest and largest of numbers in ascending order; null when there are none. */
function rangeOf(numbers: readonly Found<number>[]): FacetStats | null {
  return numbers.length === 0 ? null : { min: numbers[0]!.value, max: numbers.at(-1)!.value };
}
