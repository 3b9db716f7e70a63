/**
 * `facetDistribution` and `facetStats` of a search (search.md §9), Meilisearch's
 * `FacetDistribution`: value counts over the search's candidate documents, read from the facet
 * databases (store.ts) one value at a time, never by scanning documents. The only document reads
 * are for the original spelling of each displayed string value (one document per value), as
 * Meilisearch reads `field_id_docid_facet_strings` for the value's first candidate.
 * Pure reads on a snapshot; callers: the search routes.
 */
import { ApiError } from '../../errors/api-error.js';
import type { IndexSettings } from '../../types/settings.js';
import { intersect, intersectionSize, type DocSet } from '../docset.js';
import type { JsonObject } from '../document-id.js';
import { DocumentStore } from '../documents/store.js';
import { featuresOf, matchingRule, matchLegacy, matchRule, matchWildcard } from '../../types/attribute-patterns.js';
import { filterablePatterns, isFilterable } from './filterable.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { FacetKind } from './extract.js';
import { FacetReader, readFacetFields } from './store.js';
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
 * One field's values among the candidates: numbers take the budget first, then strings; `alpha`
 * stops at the budget while walking in order, `count` keeps each kind's most frequent values.
 * Either way numbers come before strings, as Meilisearch appends the strings' walk to the numbers'.
 */
function fieldDistribution(reader: FacetReader, store: DocumentStore<IndexReadEnv>, fid: number, field: string, candidates: DocSet, settings: IndexSettings): Record<string, number> {
  let budget = settings.faceting.maxValuesPerFacet;
  const byCount = facetOrder(settings, field) === 'count';
  const out: Counted[] = [];
  const collect = (kind: typeof FacetKind.number | typeof FacetKind.string): void => {
    const found: { value: string | number; docids: DocSet }[] = [];
    for (const { value, docids } of reader.values(fid, kind)) {
      if (!byCount && found.length >= budget) break;
      const matching = intersect(docids, candidates);
      if (matching.length > 0) found.push({ value, docids: matching });
    }
    // Equal counts: the greater value first, as Meilisearch's max-heap on (count, value) yields them
    // (its multi-search snapshot: `red: 3, blue: 3, yellow: 2, green: 2`). `found` is in value order.
    if (byCount) found.reverse().sort((a, b) => b.docids.length - a.docids.length);
    for (const { value, docids } of found.slice(0, budget)) {
      const key = typeof value === 'number' ? rustFloat(value) : originalSpelling(store, docids[0]!, field, value);
      out.push({ key, count: docids.length });
    }
    budget -= Math.min(found.length, budget);
  };
  collect(FacetKind.number);
  collect(FacetKind.string);
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
 * checked by `checkFacets`), keys sorted by field name.
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
  const distribution = ownRecord<Record<string, number>>();
  const stats = ownRecord<FacetStats>();
  for (const field of fields) {
    const fid = reader.fieldId(field)!;
    distribution[field] = fieldDistribution(reader, store, fid, field, candidates, settings);
    const range = fieldStats(reader, fid, candidates);
    if (range !== null) stats[field] = range;
  }
  return { distribution, stats };
}
