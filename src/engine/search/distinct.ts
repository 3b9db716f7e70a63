/**
 * Distinct (ranking.md §9): which ranked documents stay hits when each value of an attribute may
 * be held by one hit only, and how many of a set distinct keeps (exhaustive facet counts).
 *
 * A document's values for the attribute are read from the field's value columns
 * (../facets/value-columns.ts) when they are kept: a few nanoseconds per document, where parsing
 * the document cost about 5 µs (a `distinct` search for 1,000 hits over 30,000 candidates sharing
 * 124 values spent 80 % of its 190 ms parsing them). The attribute is always faceted (a
 * `distinctAttribute`, or a filterable one for the search parameter), so the columns hold what
 * the documents hold; a field whose columns are too big to keep reads the documents.
 * Main thread, read snapshot.
 */
import type { JsonObject } from '../document-id.js';
import { difference, fromSorted, fromUnsorted, unionAll, type DocSet } from '../docset.js';
import { extractFacets, FacetKind } from '../facets/extract.js';
import type { FacetReader } from '../facets/store.js';
import { docidEnd, valueColumn, valueIndicesOf } from '../facets/value-columns.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { matchLegacy } from '../../types/attribute-patterns.js';

type DistinctValue = [FacetKind, number | string];

/** A document's values for a distinct attribute: numbers and normalised strings, any array element. */
export function distinctValues(doc: JsonObject, attribute: string): DistinctValue[] {
  const values: DistinctValue[] = [];
  extractFacets(doc, (field) => matchLegacy(attribute, field), false, (field, kind, value) => {
    if (field === attribute && (kind === FacetKind.number || kind === FacetKind.string)) values.push([kind, value!]);
  });
  return values;
}

/** A document's values as keys that are equal when the values are: small integers from the columns, else text. */
type ValueKey = number | string;

interface ValueKeys {
  /** the keys of the values `docid` holds; null for a document that is gone */
  of(docid: number): ValueKey[] | null;
  /** the value a key stands for */
  value(key: ValueKey): DistinctValue;
  /**
   * The documents holding any of `keys`, by one pass over the columns' documents, when `keys` are
   * many enough for it to cost less than reading each value's documents; null otherwise.
   */
  holders(keys: readonly ValueKey[]): DocSet | null;
}

/**
 * Documents per value key from which one pass over every document's values costs less than
 * reading each key's documents from the facet data (an LMDB range each: a `distinct: id` search
 * whose last bucket held 30,000 documents read 30,000 ranges, 60–300 ms a search).
 */
const DOCUMENTS_PER_KEY_READ = 128;

/** Reads the documents' values for `attribute` from its value columns, else from the documents. */
function valueKeys(env: IndexReadEnv, facets: FacetReader, attribute: string): ValueKeys {
  const fid = facets.fieldId(attribute);
  // a field no document ever held: every document holds no value
  if (fid === undefined) return { of: () => [], value: () => [FacetKind.number, 0], holders: () => null };
  const numbers = valueColumn(env, facets, fid, FacetKind.number);
  const strings = numbers === null ? null : valueColumn(env, facets, fid, FacetKind.string);
  if (numbers !== null && strings !== null) {
    // a number's key is twice its index in its column, a string's twice its index plus one
    const of = (docid: number): number[] => {
      const keys: number[] = [];
      const held = valueIndicesOf(numbers, docid);
      for (let j = 0; j < held.length; j++) keys.push(2 * held[j]!);
      const heldStrings = valueIndicesOf(strings, docid);
      for (let j = 0; j < heldStrings.length; j++) keys.push(2 * heldStrings[j]! + 1);
      return keys;
    };
    return {
      of,
      value(key) {
        const k = key as number;
        return k % 2 === 0 ? [FacetKind.number, numbers.values[k / 2]!] : [FacetKind.string, strings.values[(k - 1) / 2]!];
      },
      holders(keys) {
        const documents = Math.max(docidEnd(numbers), docidEnd(strings));
        if (keys.length * DOCUMENTS_PER_KEY_READ < documents) return null;
        const wanted = new Uint8Array(2 * Math.max(numbers.values.length, strings.values.length) + 2);
        for (const key of keys) wanted[key as number] = 1;
        const found: number[] = [];
        for (let d = 0; d < documents; d++) if (of(d).some((key) => wanted[key] === 1)) found.push(d);
        return fromSorted(found);
      },
    };
  }
  const named = new Map<string, DistinctValue>();
  return {
    of(docid) {
      const doc = env.documents.get(docid);
      if (doc === undefined) return null;
      return distinctValues(doc, attribute).map((value) => {
        const key = `${value[0]}:${value[1]}`;
        named.set(key, value);
        return key;
      });
    },
    value: (key) => named.get(key as string)!,
    holders: () => null,
  };
}

/**
 * The distinct filter of a ranking: a document is a hit only if none of its values for `attribute`
 * (numbers, normalised strings, any array element) was held by a better-ranked hit; documents
 * without the attribute are always kept. Each kept document takes every other document sharing one
 * of its values out of the hit count, even those the ranking never reached (Meilisearch's
 * `estimatedTotalHits` with offset/limit: 14 documents in 6 groups, 2 kept → 14 − 3 excluded).
 */
export function distinctFilter(
  env: IndexReadEnv,
  facets: FacetReader,
  attribute: string,
): { accept: (docid: number) => boolean; excluded: (everyRanked: boolean) => DocSet; remaining: (docids: DocSet) => DocSet } {
  const keys = valueKeys(env, facets, attribute);
  const seen = new Set<ValueKey>();
  const kept: number[] = [];
  const rejected: number[] = [];
  const keptKeys: ValueKey[] = [];
  return {
    accept(docid) {
      const held = keys.of(docid);
      if (held === null) return false;
      if (held.some((key) => seen.has(key))) {
        rejected.push(docid);
        return false;
      }
      kept.push(docid);
      for (const key of held) {
        if (seen.has(key)) continue;
        seen.add(key);
        keptKeys.push(key);
      }
      return true;
    },
    // when every candidate went through `accept`, the rejected ones are all there is to exclude
    excluded(everyRanked) {
      if (everyRanked) return fromUnsorted(rejected);
      const fid = facets.fieldId(attribute);
      if (fid === undefined) return fromSorted([]);
      const holders = keys.holders(keptKeys);
      if (holders !== null) return difference(holders, fromUnsorted(kept));
      const sharing = keptKeys.map((key) => {
        const [kind, value] = keys.value(key);
        return kind === FacetKind.number ? facets.numberRange(fid, { value: value as number, inclusive: true }, { value: value as number, inclusive: true }) : facets.equal(fid, value as string, null);
      });
      return difference(unionAll(sharing), fromUnsorted(kept));
    },
    // milli's `apply_distinct_rule`, which v1.50 runs over a page-mode search's candidates for its exact count
    remaining(docids) {
      const out: number[] = [];
      keepInOrder(docids, (docid) => keys.of(docid), (docid) => out.push(docid));
      return fromSorted(out);
    },
  };
}

/** Reports to `keep` each of `docids` distinct keeps, taken in docid order. */
function keepInOrder(docids: DocSet, held: (docid: number) => ValueKey[] | null, keep: (docid: number) => void): void {
  const seen = new Set<ValueKey>();
  for (const docid of docids) {
    const values = held(docid);
    if (values === null || values.some((value) => seen.has(value))) continue;
    for (const value of values) seen.add(value);
    keep(docid);
  }
}

/**
 * How many of a set of docids distinct keeps, taken in docid order (Meilisearch's exhaustive facet
 * counts). The counter is called once per facet value: each document's values are read once for all.
 */
export function distinctCounter(env: IndexReadEnv, facets: FacetReader, attribute: string): (docids: DocSet) => number {
  const keys = valueKeys(env, facets, attribute);
  // docid → its value keys, null for a document that is gone
  const keysOf = new Map<number, ValueKey[] | null>();
  const held = (docid: number): ValueKey[] | null => {
    let found = keysOf.get(docid);
    if (found === undefined) {
      found = keys.of(docid);
      keysOf.set(docid, found);
    }
    return found;
  };
  return (docids) => {
    let kept = 0;
    keepInOrder(docids, held, () => kept++);
    return kept;
  };
}
