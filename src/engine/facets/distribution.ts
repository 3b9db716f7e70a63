/**
 * `facetDistribution` and `facetStats` of a search (search.md §9), Meilisearch's
 * `FacetDistribution`: value counts over the search's candidate documents, from the facet
 * databases (store.ts). Which values are kept follows v1.50: up to 3,000 candidates an
 * alphabetical distribution orders numbers by their printed form (it builds it from the
 * candidates' own values), above that numerically (it walks its facet levels), and a `count`
 * distribution takes the most frequent. Where every value among the candidates is needed, they
 * come from the field's value columns (value-columns.ts), else from walking its values in order
 * until the budget is filled, unless the field's kept column is cheaper to read by candidate; a
 * walk (or a facet stats' walk) that costs too much without filling it (the candidates hold few of
 * a field's many values: packages, sizes) reads the column instead. Strings are named by the
 * original spelling in their first candidate, as Meilisearch reads `field_id_docid_facet_strings`.
 * Pure reads on a snapshot; callers: the search routes.
 */
import { ApiError } from '../../errors/api-error.js';
import { facetOrder, type IndexSettings } from '../../types/settings.js';
import { intersect, intersectionSize, type DocSet } from '../docset.js';
import type { JsonObject } from '../document-id.js';
import { DocumentStore } from '../documents/store.js';
import { featuresOf, matchingRule, matchLegacy, matchRule, matchWildcard } from '../../types/attribute-patterns.js';
import { filterablePatterns, isFilterable } from './filterable.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { FacetKind } from './extract.js';
import { keptColumn, speller, valueColumn, valuesAmong, type ColumnFound, type Found, type ValueColumn, type ValueKind, type ValueOf } from './value-columns.js';
import { FacetReader, readFacetFields, type FacetValue } from './store.js';
import { facetKey, rustFloat } from './values.js';
import { ownRecord } from '../../types/own-record.js';
import { orderedCounts } from '../../types/ordered-counts.js';

export interface FacetStats {
  min: number;
  max: number;
}

export interface FacetsOutcome {
  distribution: Record<string, Record<string, number>>;
  stats: Record<string, FacetStats>;
}

/**
 * The fields a distribution covers, as v1.50 picks them: first the fields the requested patterns
 * match (`*`, `prefix*`, `*suffix`, or the name) and whose own rule makes them filterable, then
 * every filterable field that is one of those or nested below it. A name whose rule only reaches
 * its children (`n` for a rule `n.*`) selects nothing.
 */
function selectedFields(fields: readonly string[], settings: IndexSettings, patterns: readonly string[]): string[] {
  const filterable = (field: string) => {
    const rule = matchingRule(field, settings.filterableAttributes);
    return rule !== null && isFilterable(rule.features);
  };
  const roots = fields.filter((field) => patterns.some((pattern) => matchWildcard(pattern, field) === 'match') && filterable(field));
  return fields.filter((field) => roots.some((root) => matchLegacy(root, field) === 'match') && filterable(field)).sort();
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
 * Rejects the first pattern, in request order, that cannot name a filterable attribute, with
 * Meilisearch's messages: the rule that shadows it when one does, else the filterable patterns.
 * A `*` anywhere selects every filterable attribute, and Meilisearch then checks nothing.
 */
export function checkFacets(settings: IndexSettings, patterns: readonly string[]): void {
  if (patterns.includes('*')) return;
  for (const pattern of patterns) {
    const rule = matchingRule(pattern, settings.filterableAttributes);
    if (rule !== null ? isFilterable(rule.features) : reachesFilterable(pattern, settings)) continue;
    if (rule !== null) {
      const n = rule.index;
      throw new ApiError(
        'invalid_search_facets',
        `Invalid facet distribution: Attribute \`${pattern}\` matched rule #${n} in filterableAttributes, but this rule does not enable filtering.\n` +
          `Hint: enable filtering in rule #${n} by modifying the features.filter object\n` +
          `Hint: prepend another rule matching \`${pattern}\` with appropriate filter features before rule #${n}`,
      );
    }
    const available = filterablePatterns(settings.filterableAttributes);
    const tail = available.length === 0 ? 'This index does not have configured filterable attributes.' : `Available filterable attributes patterns are: \`${available.join(', ')}\`.`;
    throw new ApiError('invalid_search_facets', `Invalid facet distribution: Pattern \`${pattern}\` is not filterable. ${tail}`);
  }
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
  return values.find((value) => facetKey(value) === normalized) ?? normalized;
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

/** A field's numbers and strings among the candidates, each in stored order (numbers ascending, strings bytewise). */
interface FieldValues {
  numbers: Found<number>[];
  strings: Found<string>[];
}

/**
 * A value's documents are looked up one by one in the candidates' bits, unless they outnumber the
 * candidates this many times: then intersecting (galloping over them) visits fewer.
 */
const LOOKUPS_PER_CANDIDATE = 2;

/**
 * What reading values costs, measured on debdocs (ns): a walked value (an LMDB entry and its
 * decoded set) and each of its documents, and a (candidate, value) pair read from a column.
 * v1.50 skips whole groups of values without a candidate in its facet levels; without them, a
 * walk over a field whose values the candidates hold few of visits nearly all of them (80–110 ms
 * for debdocs' 63,667 packages), where the field's column answers in well under a millisecond.
 */
const WALKED_VALUE_NS = 1300;
const WALKED_DOC_NS = 5;
const COLUMN_PAIR_NS = 10;
/** What a walk may spend before it gives up for the field's column (built then, and kept). */
const WALK_LIMIT_NS = 2_500_000;

/** Whether reading `column` by candidate costs less than the least a walk for `budget` values would. */
function columnCheaper(column: ValueColumn<unknown>, candidates: number, budget: number): boolean {
  const documents = Math.max(1, column.docStarts.length - 1);
  const values = Math.max(1, column.values.length);
  const byColumn = candidates * (column.byDoc.length / documents) * COLUMN_PAIR_NS;
  const byWalk = Math.min(budget, values) * (WALKED_VALUE_NS + (column.byDoc.length / values) * WALKED_DOC_NS);
  return byColumn < byWalk;
}

/**
 * What one request's facet walks may still spend, in the walk's estimated ns (search/format.ts
 * `MarkupBudget` carries it): a field too big for a value column is walked value by value for
 * each distribution asking for it, and a multi-search of 50 such distributions over debdocs'
 * contents took a minute of CPU (Quarry's bound; v1.50 reads its facet levels instead).
 */
export interface FacetWalkBudget {
  facetWalkNs: number;
}

/** About 770,000 values walked (3–4 s over debdocs' contents). */
export const MAX_FACET_WALK_NS = 1_000_000_000;

function facetWalkSpent(): ApiError {
  return new ApiError(
    'invalid_search_facets',
    `The facet distributions of this request walk too many facet values: more than ${Math.floor(MAX_FACET_WALK_NS / WALKED_VALUE_NS)} values of fields too large to be kept in memory. Ask for fewer facets, or split the queries into several requests.`,
  );
}

/**
 * The candidates' values walking the field's stored values in order, until `budget` are found;
 * null when that would cost more than `limitNs`. Each value walked is charged to `request`.
 */
function walkValues<T extends number | string>(values: Iterable<FacetValue<T>>, candidates: DocSet, member: Uint8Array, budget: number, limitNs: number, request: FacetWalkBudget | undefined): Found<T>[] | null {
  const found: Found<T>[] = [];
  let spent = 0;
  for (const { value, docids } of values) {
    if (found.length >= budget) break;
    const cost = WALKED_VALUE_NS + WALKED_DOC_NS * docids.length;
    spent += cost;
    if (spent > limitNs) return null;
    if (request !== undefined && (request.facetWalkNs -= cost) < 0) throw facetWalkSpent();
    if (docids.length > LOOKUPS_PER_CANDIDATE * candidates.length) {
      const matching = intersect(docids, candidates);
      if (matching.length > 0) found.push({ value, count: matching.length, first: matching[0]! });
    } else {
      const count = membersIn(docids, member);
      if (count > 0) found.push({ value, count, first: firstMember });
    }
  }
  return found;
}

/** The first docid `membersIn` counted (module scope: it answers two numbers without an allocation). */
let firstMember = 0;

/** How many of `docids` have their bit set in `member`; sets `firstMember` to the first. */
function membersIn(docids: DocSet, member: Uint8Array): number {
  const limit = 8 * member.length;
  let count = 0;
  for (let j = 0; j < docids.length; j++) {
    const d = docids[j]!;
    if (d < limit && ((member[d >>> 3]! >>> (d & 7)) & 1) === 1 && count++ === 0) firstMember = d;
  }
  return count;
}

/** A bit per candidate docid. */
function membership(candidates: DocSet): Uint8Array {
  const member = new Uint8Array(candidates.length === 0 ? 0 : (candidates[candidates.length - 1]! >>> 3) + 1);
  for (let k = 0; k < candidates.length; k++) member[candidates[k]! >>> 3]! |= 1 << (candidates[k]! & 7);
  return member;
}

/**
 * One field's values among the candidates: numbers take the budget first, then strings; `alpha`
 * keeps each kind's first values (numbers by their printed form up to LINEAR_SCAN_CANDIDATES
 * candidates, numerically above), `count` each kind's most frequent values. Either way numbers
 * come before strings, as Meilisearch appends the strings' walk to the numbers'.
 */
function fieldDistribution(spell: (found: Found<string>) => string, values: FieldValues, byCount: boolean, linear: boolean, maxValues: number): Record<string, number> {
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
  take(values.strings, spell);
  // A number and a string may print alike (`2` and "2"): as in Meilisearch's map, the string's
  // count replaces the number's, at the number's place.
  return orderedCounts(out.map(({ key, count }) => [key, count] as const));
}

/**
 * Smallest and largest number of the field held by a candidate; null when none is, undefined when
 * the walks would cost more than `limitNs`.
 */
function fieldStats(reader: FacetReader, fid: number, candidates: DocSet, limitNs = Number.POSITIVE_INFINITY): FacetStats | null | undefined {
  let spent = 0;
  const first = (descending: boolean): number | null | undefined => {
    for (const { value, docids } of reader.values(fid, FacetKind.number, descending)) {
      spent += WALKED_VALUE_NS + WALKED_DOC_NS * docids.length;
      if (spent > limitNs) return undefined;
      if (intersectionSize(docids, candidates) > 0) return value;
    }
    return null;
  };
  const min = first(false);
  if (min === null || min === undefined) return min;
  const max = first(true);
  return max === undefined ? undefined : { min, max: max! };
}

/**
 * Distribution and stats for every faceted, filterable field selected by `patterns` (already
 * checked by `checkFacets`), keys sorted by field name.
 */
export function computeFacets(env: IndexReadEnv, settings: IndexSettings, candidates: DocSet, patterns: readonly string[], request?: FacetWalkBudget): FacetsOutcome {
  const reader = new FacetReader(env);
  const store = new DocumentStore(env);
  const fields = selectedFields(readFacetFields(env), settings, patterns);
  const linear = candidates.length <= LINEAR_SCAN_CANDIDATES;
  const maxValues = settings.faceting.maxValuesPerFacet;
  // a bit per candidate, made when a walk first needs it
  let member: Uint8Array | undefined;
  const distribution = ownRecord<Record<string, number>>();
  const stats = ownRecord<FacetStats>();
  for (const field of fields) {
    const fid = reader.fieldId(field)!;
    const byCount = facetOrder(settings, field) === 'count';
    // every value among the candidates is needed when they are ordered by count, or by their
    // printed form: from the field's columns; else the ordered walk stops at the budget, or gives
    // up for the column when the candidates hold too few of the values it visits
    const whole = byCount || linear;
    // every number among the candidates, when the column gave them (the stats are theirs)
    let allNumbers: Found<number>[] | null = null;
    // the spellings kept by the strings' column, when it gave them
    let spellKept: ReturnType<typeof speller> | null = null;
    const among = <K extends ValueKind>(kind: K, budget: number): Found<ValueOf<K>>[] => {
      const kept = keptColumn(env, fid, kind);
      const walk = !whole && (kept === undefined || kept === null || !columnCheaper(kept, candidates.length, budget));
      const walked = walk ? walkValues(reader.values(fid, kind), candidates, (member ??= membership(candidates)), budget, WALK_LIMIT_NS, request) : null;
      if (walked !== null) return walked;
      const column = kept ?? valueColumn(env, reader, fid, kind);
      if (column === null) return walkValues(reader.values(fid, kind), candidates, (member ??= membership(candidates)), whole ? Number.POSITIVE_INFINITY : budget, Number.POSITIVE_INFINITY, request)!;
      const found = valuesAmong(column, candidates);
      if (kind === FacetKind.number) allNumbers = found as Found<number>[];
      else spellKept = speller(env, column as ValueColumn<string>);
      return whole ? found : found.slice(0, budget);
    };
    const numbers = among(FacetKind.number, maxValues);
    const values: FieldValues = { numbers, strings: among(FacetKind.string, maxValues - numbers.length) };
    const spell = (found: Found<string>): string => {
      const read = () => originalSpelling(store, found.first, field, found.value);
      return spellKept !== null && 'index' in found ? spellKept(found as ColumnFound<string>, read) : read();
    };
    distribution[field] = fieldDistribution(spell, values, byCount, linear, maxValues);
    let range = allNumbers !== null ? rangeOf(allNumbers) : whole ? rangeOf(values.numbers) : fieldStats(reader, fid, candidates, WALK_LIMIT_NS);
    if (range === undefined) {
      const column = valueColumn(env, reader, fid, FacetKind.number);
      range = column === null ? fieldStats(reader, fid, candidates)! : rangeOf(valuesAmong(column, candidates));
    }
    if (range !== null) stats[field] = range;
  }
  return { distribution, stats };
}

/** Smallest and largest of numbers in ascending order; null when there are none. */
function rangeOf(numbers: readonly Found<number>[]): FacetStats | null {
  return numbers.length === 0 ? null : { min: numbers[0]!.value, max: numbers.at(-1)!.value };
}
