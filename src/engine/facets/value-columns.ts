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
import { decode, has, type DocSet } from '../docset.js';
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
    const { docids } = changes;
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
      // a column too big to keep stays so; one never built has nothing to patch; after a write of
      // more documents than it lists, one is built again when needed
      if (column === undefined || column === null) continue;
      if (docids === null) columns.byField.delete(key);
      else columns.byField.set(key, patched(env, columns, column, keys, docids));
    }
    return true;
  }),
);

/** A value's facet key, to order values as the facet data does (numbers numerically, strings bytewise). */
function keyOf(value: number | string): Buffer {
  return typeof value === 'number' ? orderedF64(value) : Buffer.from(value);
}

/**
 * `column` after a write that changed the documents `changed` and the facet keys `keys` (full keys
 * of its field and kind): each key's value takes its documents from the facet data again (added
 * when new, dropped when no document holds it any more); a document the write did not change keeps
 * its pairs, a changed one those of the values the write did not touch, plus the touched values
 * holding it now. Passes over the column's pairs, where building it walks the field's facet data
 * (190 ms for debdocs' 63,667 packages).
 */
function patched(env: IndexReadEnv, columns: Columns, column: ValueColumn<number | string>, keys: readonly Buffer[], changed: readonly number[]): ValueColumn<number | string> | null {
  const { values, firsts, docStarts, byDoc } = column;
  const top = docStarts.length - 1;
  // each touched value: its place among the column's values (found there, or going there) and its documents now
  const place = (payload: Buffer) => {
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
      const at = place(payload);
      const found = at < values.length && Buffer.compare(keyOf(values[at]!), payload) === 0;
      return { at, payload, found, value: key[2] === FacetKind.number ? readOrderedF64(key, 3) : payload.toString(), set: decode(env.facetDocids.get(key)) };
    })
    // in key order: values going to one place among the column's, before the one found there
    .sort((a, b) => a.at - b.at || Buffer.compare(a.payload, b.payload));
  // the values after the write, the untouched ones copied in runs; remap: old index → new (-1: dropped)
  let count = values.length;
  for (const one of touched) count += (one.set.length > 0 ? 1 : 0) - (one.found ? 1 : 0);
  const remap = new Int32Array(values.length);
  const pieces: (number | string)[][] = [];
  const nextFirsts = new Uint32Array(count);
  const held: { index: number; set: DocSet }[] = [];
  const touchedOld = new Uint8Array(values.length);
  let i = 0;
  let k = 0;
  const copyTo = (end: number) => {
    if (end <= i) return;
    pieces.push(values.slice(i, end));
    nextFirsts.set(firsts.subarray(i, end), k);
    for (; i < end; i++) remap[i] = k++;
  };
  for (const one of touched) {
    copyTo(one.at);
    if (one.found) {
      touchedOld[i] = 1;
      remap[i++] = one.set.length > 0 ? k : -1;
    }
    if (one.set.length === 0) continue;
    pieces.push([one.value]);
    nextFirsts[k] = one.set[0]!;
    held.push({ index: k++, set: one.set });
  }
  copyTo(values.length);
  // the pairs by document
  let nextTop = top;
  for (const { set } of held) nextTop = Math.max(nextTop, set[set.length - 1]! + 1);
  const isChanged = new Uint8Array(nextTop);
  const gained = new Map<number, number[]>();
  for (const docid of changed) {
    if (docid >= nextTop) continue;
    isChanged[docid] = 1;
    for (const { index, set } of held) if (has(set, docid)) gained.set(docid, [...(gained.get(docid) ?? []), index]);
  }
  // plain loops (no call per pair): this runs once per write, in code that stays cold
  const nextStarts = new Uint32Array(nextTop + 1);
  for (let d = 0; d < nextTop; d++) {
    const start = d < top ? docStarts[d]! : 0;
    const end = d < top ? docStarts[d + 1]! : 0;
    let pairs = end - start;
    if (isChanged[d] === 1) {
      for (let j = start; j < end; j++) pairs -= touchedOld[byDoc[j]!]!;
      pairs += gained.get(d)?.length ?? 0;
    }
    nextStarts[d + 1] = nextStarts[d]! + pairs;
  }
  const nextByDoc = new Uint32Array(nextStarts[nextTop]!);
  for (let d = 0, at = 0; d < nextTop; d++) {
    const start = d < top ? docStarts[d]! : 0;
    const end = d < top ? docStarts[d + 1]! : 0;
    if (isChanged[d] === 0) for (let j = start; j < end; j++) nextByDoc[at++] = remap[byDoc[j]!]!;
    else {
      for (let j = start; j < end; j++) if (touchedOld[byDoc[j]!] === 0) nextByDoc[at++] = remap[byDoc[j]!]!;
      for (const index of gained.get(d) ?? []) nextByDoc[at++] = index;
    }
  }
  const nextValues = pieces.flat();
  const bytes = columnBytes(nextValues, nextTop, nextByDoc.length);
  if (bytes > budget.limit / 4) return null;
  budget.charge(columns.cache, bytes);
  return { values: nextValues, firsts: nextFirsts, docStarts: nextStarts, byDoc: nextByDoc };
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

/** What a column of `values` over docids below `top`, with `pairs` (document, value) pairs, holds. */
function columnBytes(values: readonly (number | string)[], top: number, pairs: number): number {
  let bytes = 4 * (values.length + top + 1 + pairs);
  for (const value of values) bytes += typeof value === 'number' ? 8 : STRING_BYTES + 2 * value.length;
  return bytes;
}

/** The column of `values` held by the documents `sets`, charged to the budget; null when too big to keep. */
function fromSets<T extends number | string>(columns: Columns, values: T[], sets: readonly DocSet[]): ValueColumn<T> | null {
  let total = 0;
  let top = 0;
  for (const docids of sets) {
    total += docids.length;
    if (docids.length > 0) top = Math.max(top, docids[docids.length - 1]! + 1);
  }
  const bytes = columnBytes(values, top, total);
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
