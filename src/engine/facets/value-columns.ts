/**
 * A faceted field's values of one kind (numbers or strings) as columns: the values in stored
 * order (numbers ascending, strings bytewise), each value's first document, and, per document,
 * the indices of the values it holds. The facet distribution needs every value its candidates
 * hold whenever it orders them by count, or by their printed form up to 3,000 candidates
 * (distribution.ts), and the facet search the strings they hold (facet-search.ts); walking the
 * facet data for that costs an LMDB entry and a decoded set per value (about 2 µs each: 130 ms
 * for a field of 63,000 values), a column a few nanoseconds per value a candidate holds. Built
 * from one such walk and kept per index until its settings change or a write changes the field's
 * facet data (index-changes.ts), within one memory budget for all indexes; a field whose column
 * would take more than a quarter of it is not kept (it would empty the others every time), and is
 * walked instead. Main thread, read snapshot.
 */
import { CacheBudget } from '../cache-budget.js';
import type { DocSet } from '../docset.js';
import { EntryCache } from '../entry-cache.js';
import { followChanges } from '../index-changes.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import { searchSettings } from '../index-settings.js';
import type { IndexSettings } from '../../types/settings.js';
import { FacetKind } from './extract.js';
import type { FacetReader } from './store.js';

export type ValueKind = typeof FacetKind.number | typeof FacetKind.string;
export type ValueOf<K extends ValueKind> = K extends typeof FacetKind.number ? number : string;

export interface ValueColumn<T> {
  /** the field's values of the kind, in stored order */
  readonly values: readonly T[];
  /** per value: its first document, candidate or not (the facet search names a value by it) */
  readonly firsts: Uint32Array;
  /** per docid up to the greatest + 1: the indices of its values are byDoc[docStarts[d] .. docStarts[d + 1]) */
  readonly docStarts: Uint32Array;
  readonly byDoc: Uint32Array;
}

/** A value among the candidates: how many hold it, and the first of them (for its original spelling). */
export interface Found<T> {
  value: T;
  count: number;
  first: number;
}

/** A value of a column among the candidates, with its index in the column. */
export interface ColumnFound<T> extends Found<T> {
  index: number;
}

const budget = new CacheBudget(32 * 1024 * 1024);
/** What a string value takes besides its characters (its object and its slot). */
const STRING_BYTES = 40;

interface Columns {
  /** the settings the columns were built under: others may facet other fields */
  settings: Readonly<IndexSettings> | null;
  /** per field id and kind: its column, or null when it is too big to keep */
  readonly byField: Map<string, ValueColumn<number | string> | null>;
  readonly cache: { clear(): void };
}

// kept through writes but for the fields whose facet data they changed
const cached = new EntryCache<Columns>(
  (env) => env.main,
  INDEX_MAIN_KEYS.documentsVersion,
  () => {
    const byField = new Map<string, ValueColumn<number | string> | null>();
    return { settings: null, byField, cache: { clear: () => byField.clear() } };
  },
  followChanges((columns, changes) => {
    if (changes.facets === null) return false;
    for (const facet of changes.facets) columns.byField.delete(`${facet >>> 8}:${facet & 0xff}`);
    return true;
  }),
);

/** The columns kept for `env` under its current settings. */
function kept(env: IndexReadEnv): Columns {
  const columns = cached.get(env);
  // the index's settings as shared until a commit changes them: a caller's own copy would empty the cache each time
  const settings = searchSettings(env);
  if (columns.settings !== settings) {
    columns.settings = settings;
    columns.byField.clear();
  }
  return columns;
}

/** The column of `fid`'s values of kind `kind` when it is kept: null when too big to keep, undefined when not built. */
export function keptColumn<K extends ValueKind>(env: IndexReadEnv, fid: number, kind: K): ValueColumn<ValueOf<K>> | null | undefined {
  return kept(env).byField.get(`${fid}:${kind}`) as ValueColumn<ValueOf<K>> | null | undefined;
}

/**
 * The values of kind `kind` of field `fid`, from the cache or one walk of `reader`; null when the
 * field's column is too big to keep.
 */
export function valueColumn<K extends ValueKind>(env: IndexReadEnv, reader: FacetReader, fid: number, kind: K): ValueColumn<ValueOf<K>> | null {
  const known = keptColumn(env, fid, kind);
  if (known !== undefined) return known;
  const columns = kept(env);
  const key = `${fid}:${kind}`;
  const values: ValueOf<K>[] = [];
  const sets: DocSet[] = [];
  let total = 0;
  let top = 0;
  let bytes = 0;
  for (const { value, docids } of reader.values(fid, kind)) {
    values.push(value as ValueOf<K>);
    sets.push(docids);
    total += docids.length;
    if (docids.length > 0) top = Math.max(top, docids[docids.length - 1]! + 1);
    bytes += typeof value === 'number' ? 8 : STRING_BYTES + 2 * value.length;
  }
  bytes += 4 * (values.length + top + 1 + total);
  if (bytes > budget.limit / 4) {
    columns.byField.set(key, null);
    return null;
  }
  // the (document, value) pairs by document: counted, summed into starts, then filled value by value
  const docStarts = new Uint32Array(top + 1);
  for (const set of sets) for (let j = 0; j < set.length; j++) docStarts[set[j]! + 1]!++;
  for (let d = 0; d < top; d++) docStarts[d + 1]! += docStarts[d]!;
  const byDoc = new Uint32Array(total);
  const filled = docStarts.slice(0, top);
  sets.forEach((set, k) => {
    for (let j = 0; j < set.length; j++) byDoc[filled[set[j]!]!++] = k;
  });
  const firsts = new Uint32Array(values.length);
  for (let k = 0; k < values.length; k++) firsts[k] = sets[k]![0] ?? 0;
  const column: ValueColumn<ValueOf<K>> = { values, firsts, docStarts, byDoc };
  budget.charge(columns.cache, bytes);
  columns.byField.set(key, column);
  return column;
}

/** The values the candidates hold, in stored order, with their counts, read by candidate. */
export function valuesAmong<T>(column: ValueColumn<T>, candidates: DocSet): ColumnFound<T>[] {
  const { values, docStarts, byDoc } = column;
  const top = docStarts.length - 1;
  const counts = new Uint32Array(values.length);
  const firsts = new Uint32Array(values.length);
  const touched: number[] = [];
  for (let c = 0; c < candidates.length && candidates[c]! < top; c++) {
    const d = candidates[c]!;
    for (let j = docStarts[d]!; j < docStarts[d + 1]!; j++) {
      const k = byDoc[j]!;
      if (counts[k]++ === 0) {
        firsts[k] = d;
        touched.push(k);
      }
    }
  }
  touched.sort((a, b) => a - b);
  return touched.map((k) => ({ value: values[k]!, count: counts[k]!, first: firsts[k]!, index: k }));
}
