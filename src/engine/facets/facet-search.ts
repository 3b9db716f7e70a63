/**
 * Facet value search (search.md §11, Meilisearch `SearchForFacetValues`): the string values of
 * one facet held by the candidates of a search, optionally those a `facetQuery` matches as a
 * prefix with typos. Reads the field's value column (value-columns.ts), or walks its string facet
 * keys in order (store.ts), never documents, except one per hit for the value's original spelling.
 * Pure reads on a snapshot; callers: the facet-search route.
 */
import { ApiError } from '../../errors/api-error.js';
import { displayedList, facetOrder, type FilterableEntry, type IndexSettings } from '../../types/settings.js';
import { intersect, type DocSet } from '../docset.js';
import { DocumentStore } from '../documents/store.js';
import { featuresOf, localesOfField, matchingRule } from '../../types/attribute-patterns.js';
import { normalizeFacetString } from '../../kernels/facet-normalize.js';
import { leadingUnits } from '../../types/utf16.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { originalSpelling } from './distribution.js';
import { FacetKind } from './extract.js';
import { FacetReader, type FacetValue } from './store.js';
import { MAX_FACET_VALUE_BYTES } from './values.js';
import { heldValues, valueColumn, valuesAmong, type ValueColumn } from './value-columns.js';
import { compareBytes } from '../../types/bytes.js';
import { facetHitCollector, type FacetHit } from './facet-hits.js';

/** The patterns of the rules enabling facet search, sorted and deduplicated. */
function facetSearchablePatterns(rules: readonly FilterableEntry[]): string[] {
  const patterns = new Set<string>();
  for (const rule of rules) {
    if (!featuresOf(rule).facetSearch) continue;
    if (typeof rule === 'string') patterns.add(rule);
    else for (const pattern of rule.attributePatterns) patterns.add(pattern);
  }
  return [...patterns].sort();
}

/** `facetName` must be matched first by a rule enabling facet search; Meilisearch's messages otherwise. */
export function checkFacetSearchable(settings: IndexSettings, facetName: string): void {
  const rule = matchingRule(facetName, settings.filterableAttributes);
  if (rule !== null && rule.features.facetSearch) return;
  let message = `Attribute \`${facetName}\` is not facet-searchable. `;
  if (rule !== null) {
    const n = rule.index;
    message +=
      `Note: this attribute matches rule #${n} in filterableAttributes, but this rule does not enable facetSearch.\n` +
      `Hint: enable facetSearch in rule #${n} by adding \`"facetSearch": true\` to the rule.\n` +
      `Hint: prepend another rule matching ${facetName} with facetSearch: true before rule #${n}`;
  } else {
    const patterns = displayedList(facetSearchablePatterns(settings.filterableAttributes), settings.displayedAttributes);
    message +=
      (patterns.visible === 0
        ? 'This index does not have configured facet-searchable attributes.'
        : `Available facet-searchable attributes patterns are: \`${patterns.text}\`.`) +
      ' To make it facet-searchable add it to the `filterableAttributes` index settings.';
  }
  throw new ApiError('invalid_facet_search_facet_name', message);
}

/**
 * The locales a facet search normalises with (v1.50 `perform_facet_search`): the field's
 * `localizedAttributes` rule's for its stored values, and for the query those narrowed to the
 * request's `locales` (which count only on a field a rule localizes: its values have no locale
 * otherwise); null where no rule matches the field.
 */
interface FacetSearchLocales {
  readonly values: readonly string[] | null;
  readonly query: readonly string[] | null;
}

function facetSearchLocales(settings: IndexSettings, facetName: string, requested: readonly string[] | null): FacetSearchLocales {
  const values = localesOfField(settings.localizedAttributes, facetName) ?? null;
  const query = values === null || requested === null ? values : values.filter((locale) => requested.includes(locale));
  return { values, query };
}

/**
 * Smallest edit distance (insertions, deletions, substitutions, adjacent transpositions) between
 * `query` and any prefix of `value`, or `max + 1` once it must exceed `max`: what Meilisearch's
 * prefix Levenshtein automaton accepts. Only the cells within `max` of the diagonal can stay
 * within `max`, so each row computes that band alone: O(max · length), whatever the query's length.
 */
function prefixDistance(query: readonly string[], value: readonly string[], max: number): number {
  const m = query.length;
  const over = max + 1;
  // even the whole value leaves too many query characters unmatched
  if (m - value.length > max) return over;
  // rows j - 2, j - 1 and j (value characters) over query positions; a cell off the band reads `over`
  let before = new Int32Array(m + 1);
  let previous = new Int32Array(m + 1);
  let row = new Int32Array(m + 1);
  const cell = (r: Int32Array, j: number, i: number): number => (i < 0 || Math.abs(i - j) > max ? over : r[i]!);
  for (let i = 0; i <= Math.min(m, max); i++) previous[i] = i;
  let best = m <= max ? m : over;
  let previousMin = 0;
  for (let j = 1; j <= value.length && j - max <= m; j++) {
    let rowMin = over;
    for (let i = Math.max(0, j - max); i <= Math.min(m, j + max); i++) {
      let d = j;
      if (i > 0) {
        const cost = query[i - 1] === value[j - 1] ? 0 : 1;
        d = Math.min(cell(previous, j - 1, i) + 1, cell(row, j, i - 1) + 1, cell(previous, j - 1, i - 1) + cost);
        if (i > 1 && j > 1 && query[i - 1] === value[j - 2] && query[i - 2] === value[j - 1]) d = Math.min(d, cell(before, j - 2, i - 2) + 1);
      }
      row[i] = Math.min(d, over);
      rowMin = Math.min(rowMin, row[i]!);
    }
    if (j + max >= m) best = Math.min(best, row[m]!);
    // Later rows build on this one and the one before (transpositions): both above `max`, nothing better follows.
    if (rowMin > max && previousMin > max) break;
    previousMin = rowMin;
    [before, previous, row] = [previous, row, before];
  }
  return best;
}

/** Typos the query may have (search.md §11): by its byte length. */
function typoBudget(settings: IndexSettings, query: string): number {
  const typo = settings.typoTolerance;
  const bytes = Buffer.byteLength(query);
  if (bytes < typo.minWordSizeForTypos.oneTypo) return 0;
  return bytes < typo.minWordSizeForTypos.twoTypos ? 1 : 2;
}

/**
 * UTF-16 units of a `facetQuery` read, Quarry's bound: a longer one is read as if it ended there
 * (its normalisation and typo matching were linear in it, but a 50 MB one held the thread
 * answering requests 9 s). A stored value has at most MAX_FACET_VALUE_BYTES, so a query of this
 * many letters already matches none, with or without its rest.
 */
const MAX_FACET_QUERY_UNITS = 4 * MAX_FACET_VALUE_BYTES;

/**
 * Which normalised forms a `facetQuery` matches, Meilisearch's order of cases: a plain prefix when
 * typos are off (index or attribute), only the exact form for a `disableOnWords` query, else a
 * prefix with the typos the query's byte length allows.
 */
function queryMatcher(settings: IndexSettings, facetName: string, facetQuery: string, locales: readonly string[] | null): (form: string) => boolean {
  const query = normalizeFacetString(leadingUnits(facetQuery, MAX_FACET_QUERY_UNITS), locales);
  const typo = settings.typoTolerance;
  if (!typo.enabled || typo.disableOnAttributes.includes(facetName)) return (form) => form.startsWith(query);
  if (typo.disableOnWords.includes(query)) return (form) => form === query;
  const budget = typoBudget(settings, query);
  if (budget === 0) return (form) => form.startsWith(query);
  const chars = [...query];
  // the distance reads no character of a form past this many (a description's hundreds were all spread)
  const reach = chars.length + budget;
  return (form) => prefixDistance(chars, leadingChars(form, reach), budget) <= budget;
}

/** The first `count` characters (code points) of `text`. */
function leadingChars(text: string, count: number): string[] {
  const chars: string[] = [];
  for (const ch of text) {
    if (chars.length === count) break;
    chars.push(ch);
  }
  return chars;
}

/** An entry a query matched, with its normalised form. */
interface Matched<E> {
  readonly entry: E;
  readonly form: string;
}

/** The matched entries in the order of their forms, then of their values. */
function inQueryOrder<E>(matched: Matched<E>[], valueOf: (entry: E) => string): E[] {
  return matched.sort((a, b) => compareBytes(a.form, b.form) || compareBytes(valueOf(a.entry), valueOf(b.entry))).map(({ entry }) => entry);
}

/** The field's string values whose normalised form `matches`, in query order, walked once. */
function matchedValues(reader: FacetReader, fid: number, matches: (form: string) => boolean, locales: readonly string[] | null): FacetValue<string>[] {
  const matched: Matched<FacetValue<string>>[] = [];
  // the form of the value `keep` was last asked about: the one the walk yields next, if any
  let form = '';
  const keep = (value: string) => matches((form = normalizeFacetString(value, locales)));
  for (const entry of reader.values(fid, FacetKind.string, false, keep)) matched.push({ entry, form });
  return inQueryOrder(matched, ({ value }) => value);
}

/**
 * The normalised forms of a value column's strings, per locales, computed as queries need them and
 * kept with the column (writes only append to its values, so an index keeps its value): a search
 * box sends a facet search per keystroke, each over every value of the field, and a value
 * detected as Swedish or Japanese costs ~15 µs to normalise.
 */
const columnForms = new WeakMap<ValueColumn<string>, Map<string, (string | undefined)[]>>();

function columnForm(column: ValueColumn<string>, locales: readonly string[] | null): (index: number) => string {
  let byLocales = columnForms.get(column);
  if (byLocales === undefined) columnForms.set(column, (byLocales = new Map()));
  const key = locales === null ? '' : `[${locales.join(',')}]`;
  let forms = byLocales.get(key);
  if (forms === undefined) byLocales.set(key, (forms = []));
  return (index) => (forms[index] ??= normalizeFacetString(column.values[index]!, locales));
}

export interface FacetSearchOptions {
  /** turns the candidates holding a value into its count (distinct counts one per group) */
  readonly count?: (held: DocSet) => number;
  /** the request's `locales`, as stored ISO 639-3 codes (`[]` given is not null: it narrows to none) */
  readonly locales?: readonly string[] | null;
}

/**
 * The hits of a facet search over `candidates`, at most `maxValuesPerFacet`. Without a query the
 * field's values are taken in normalised order; with one, in the order of their forms as
 * normalised for facet search (../../kernels/facet-normalize.ts; Meilisearch walks an FST of
 * those), each form standing for every value that normalises to it.
 * The values the candidates hold come from the field's value column (value-columns.ts), read by
 * candidate; `count` needs those candidates, so with it (or without a column) the values are walked.
 */
export function searchFacetValues(
  env: IndexReadEnv,
  settings: IndexSettings,
  candidates: DocSet,
  facetName: string,
  facetQuery: string | null,
  { count, locales = null }: FacetSearchOptions = {},
): FacetHit[] {
  const normalised = facetSearchLocales(settings, facetName, locales);
  const reader = new FacetReader(env);
  const fid = reader.fieldId(facetName);
  if (fid === undefined) return [];
  const store = new DocumentStore(env);
  // Meilisearch shows the spelling of the value's first document, candidate or not.
  const hits = facetHitCollector(settings.faceting.maxValuesPerFacet, facetOrder(settings, facetName) === 'count', (value, first) => originalSpelling(store, first, facetName, value));
  const column = count === undefined ? valueColumn(env, reader, fid, FacetKind.string) : null;
  const matches = facetQuery === null ? null : queryMatcher(settings, facetName, facetQuery, normalised.query);
  if (column !== null) {
    if (matches === null) {
      for (const found of valuesAmong(column, candidates)) if (!hits.insert(found.value, column.firsts[found.index]!, found.count)) break;
      return hits.result();
    }
    // with a query, the held values are matched by index and only the matches sorted
    const { touched, counts } = heldValues(column, candidates);
    const formAt = columnForm(column, normalised.values);
    const matched: Matched<number>[] = [];
    for (const k of touched) {
      const form = formAt(k);
      if (matches(form)) matched.push({ entry: k, form });
    }
    for (const k of inQueryOrder(matched, (k) => column.values[k]!)) {
      if (!hits.insert(column.values[k]!, column.firsts[k]!, counts[k]!)) break;
    }
    return hits.result();
  }
  // without a query the walk is in the values' order, so alpha order stops it once `max` are kept;
  // with one, only a matching value's documents are decoded (decoding all of debdocs' 250,000
  // descriptions took a third of a walk)
  const values = matches === null ? reader.values(fid, FacetKind.string) : matchedValues(reader, fid, matches, normalised.values);
  for (const { value, docids } of values) {
    const held = intersect(docids, candidates);
    if (held.length === 0) continue;
    if (!hits.insert(value, docids[0]!, count?.(held) ?? held.length)) break;
  }
  return hits.result();
}
