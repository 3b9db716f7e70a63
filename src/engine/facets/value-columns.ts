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
import { decode, type DocSet } from '../docset.js';
import { EntryCache } from '../entry-cache.js';
import { followChanges } from '../index-changes.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import { searchSettings } from '../index-settings.js';
import type { IndexSettings } from '../../types/settings.js';
import { FacetKind } from './extract.js';
import type { FacetReader } from './store.js';
import { orderedF64, readOrderedF64 } from './values.js';

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

// kept through writes: a write's changed facet keys are patched into their fields' columns
const cached = new EntryCache<Columns>(
  (env) => env.main,
  INDEX_MAIN_KEYS.documentsVersion,
  () => {
    const byField = new Map<string, ValueColumn<number | string> | null>();
    return { settings: null, byField, cache: { clear: () => byField.clear() } };
  },
  followChanges((columns, changes, env) => {
    if (changes.facetKeys === null) return false;
    const touched = new Map<string, Buffer[]>();
    // a key written by several steps of one write is listed once per step
    for (const latin1 of new Set(changes.facetKeys)) {
      const kind = latin1.charCodeAt(2);
      if (kind !== FacetKind.number && kind !== FacetKind.string) continue;
      const key = `${(latin1.charCodeAt(0) << 8) | latin1.charCodeAt(1)}:${kind}`;
      const keys = touched.get(key) ?? [];
      keys.push(Buffer.from(latin1, 'latin1'));
      touched.set(key, keys);
    }
    for (const [key, keys] of touched) {
      const column = columns.byField.get(key);
      // a column too big to keep stays so; one never built has nothing to patch
      if (column === undefined || column === null) continue;
      columns.byField.set(key, patched(env, columns, column, keys));
    }
    return true;
  }),
);

/** A value's facet key, to order values as the facet data does (numbers numerically, strings bytewise). */
function keyOf(value: number | string): Buffer {
  return typeof value === 'number' ? orderedF64(value) : Buffer.from(value);
}

/**
 * `column` with the documents of each of `keys` (full facet keys of its field and kind) read again
 * from the facet data: values added, dropped when no document holds them any more. The other
 * values' documents come from the column itself, so a write costs passes over the column's pairs
 * rather than a walk of the field's facet data (190 ms for debdocs' packages).
 */
function patched(env: IndexReadEnv, columns: Columns, column: ValueColumn<number | string>, keys: readonly Buffer[]): ValueColumn<number | string> | null {
  const { values, docStarts, byDoc } = column;
  const top = docStarts.length - 1;
  // each value's documents, from the pairs by document
  const counts = new Uint32Array(values.length + 1);
  for (let j = 0; j < byDoc.length; j++) counts[byDoc[j]! + 1]!++;
  for (let k = 0; k < values.length; k++) counts[k + 1]! += counts[k]!;
  const docids = new Uint32Array(byDoc.length);
  const filled = counts.slice(0, values.length);
  for (let d = 0; d < top; d++) for (let j = docStarts[d]!; j < docStarts[d + 1]!; j++) docids[filled[byDoc[j]!]!++] = d;
  // each touched value: its place among the column's values (found, or where it goes) and its documents now
  const byKey = (payload: Buffer) => {
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Buffer.compare(keyOf(values[mid]!), payload) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const touched = keys
    .map((key) => {
      const payload = key.subarray(3);
      const value = key[2] === FacetKind.number ? readOrderedF64(key, 3) : payload.toString();
      const at = byKey(payload);
      return { at, payload, found: at < values.length && Buffer.compare(keyOf(values[at]!), payload) === 0, value, set: decode(env.facetDocids.get(key)) };
    })
    // in key order: values going to one place among the column's, before the one found there
    .sort((a, b) => a.at - b.at || Buffer.compare(a.payload, b.payload));
  const nextValues: (number | string)[] = [];
  const nextSets: DocSet[] = [];
  const add = (value: number | string, set: DocSet) => {
    if (set.length === 0) return;
    nextValues.push(value);
    nextSets.push(set);
  };
  let t = 0;
  for (let k = 0; k <= values.length; k++) {
    // the values the column lacked go before the first of its values above them
    while (t < touched.length && touched[t]!.at === k && !touched[t]!.found) add(touched[t]!.value, touched[t++]!.set);
    if (k === values.length) break;
    if (t < touched.length && touched[t]!.at === k) add(touched[t]!.value, touched[t++]!.set);
    else add(values[k]!, docids.subarray(counts[k]!, counts[k + 1]!));
  }
  return fromSets(columns, nextValues, nextSets);
}

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
  for (const { value, docids } of reader.values(fid, kind)) {
    values.push(value as ValueOf<K>);
    sets.push(docids);
  }
  const column = fromSets(columns, values, sets);
  columns.byField.set(key, column);
  return column;
}

/** The column of `values` held by the documents `sets`, charged to the budget; null when too big to keep. */
function fromSets<T extends number | string>(columns: Columns, values: T[], sets: readonly DocSet[]): ValueColumn<T> | null {
  let total = 0;
  let top = 0;
  let bytes = 0;
  values.forEach((value, k) => {
    const docids = sets[k]!;
    total += docids.length;
    if (docids.length > 0) top = Math.max(top, docids[docids.length - 1]! + 1);
    bytes += typeof value === 'number' ? 8 : STRING_BYTES + 2 * value.length;
  });
  bytes += 4 * (values.length + top + 1 + total);
  if (bytes > budget.limit / 4) return null;
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
  budget.charge(columns.cache, bytes);
  return { values, firsts, docStarts, byDoc };
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
