/**
 * A faceted field's values of one kind (numbers or strings) as columns: the values and their
 * stored order (numbers ascending, strings bytewise), each value's first document, and, per
 * document, the indices of the values it holds. The facet distribution needs every value its
 * candidates hold whenever it orders them by count, or by their printed form up to 3,000
 * candidates, and above that when a walk would visit too many values (distribution.ts), the
 * facet search the strings they hold (facet-search.ts), a sort each document's first value
 * in its order (sort.ts), and a filter's ranges the documents holding a value between two ranks
 * (`columnRanges`); walking the facet data for that costs an
 * LMDB entry and a decoded set per value (about 2 µs each: 130 ms for a field of 63,000 values),
 * a column a few nanoseconds per value a candidate holds. Built from one such walk and kept per
 * index until its settings change, within one memory budget for all indexes; a write is patched
 * in (index-changes.ts): its changed documents' values are kept apart, in `rewritten`, until
 * enough have been to lay the column out again. A field whose column would take more than a
 * quarter of the budget is not kept (it would empty the others every time), and is walked
 * instead; the walk building it stops as soon as it has read that much. Main thread, read snapshot.
 */
import { CacheBudget } from '../cache-budget.js';
import { decode, fromUnsorted, intersect, type DocSet } from '../docset.js';
import { EntryCache } from '../entry-cache.js';
import { followChanges } from '../index-changes.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import { searchSettings } from '../index-settings.js';
import type { IndexSettings } from '../../types/settings.js';
import { FacetKind } from './extract.js';
import { facetKey, facetKeyField, facetKeyValue, FacetReader, type RangeSource, type ReadMeter, type ValueRuns } from './store.js';

export type ValueKind = typeof FacetKind.number | typeof FacetKind.string;
export type ValueOf<K extends ValueKind> = K extends typeof FacetKind.number ? number : string;

export interface ValueColumn<T> {
  /** the field's values of the kind: in stored order as laid out, then those writes added since */
  readonly values: readonly T[];
  /** the value indices in stored order (numbers ascending, strings bytewise) */
  readonly order: Uint32Array;
  /** per value index: its place in `order` */
  readonly rank: Uint32Array;
  /** per value: its first document, candidate or not (the facet search names a value by it) */
  readonly firsts: Uint32Array;
  /** as laid out, per docid up to the greatest + 1: the indices of its values are byDoc[docStarts[d] .. docStarts[d + 1]) */
  readonly docStarts: Uint32Array;
  readonly byDoc: Uint32Array;
  /** the documents writes changed since the layout: their value indices, in place of the laid-out ones */
  readonly rewritten: ReadonlyMap<number, Uint32Array>;
  /** 1 at the docids `rewritten` holds */
  readonly rewrittenMask: Uint8Array;
  /**
   * per value index: its original spelling in its first document (`firsts`), once a facet
   * distribution asked for it (`speller`); dropped for the values a write touches and those its
   * changed documents held (a cache, emptied in place: the only part of a column that changes)
   */
  readonly spellings: (string | undefined)[];
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

/** The most a column kept may take: more would empty the others every time. */
const COLUMN_LIMIT = budget.limit / 4;

/** What a value takes in a column, besides its index in the pairs. */
const valueBytes = (value: number | string) => (typeof value === 'number' ? 8 : STRING_BYTES + 2 * value.length);

interface Columns {
  /** the settings the columns were built under: others may facet other fields */
  settings: Readonly<IndexSettings> | null;
  /** per field id and kind: its column, or null when it is too big to keep */
  readonly byField: Map<string, ValueColumn<number | string> | null>;
  readonly cache: { clear(): void };
  /** per field id and kind without a column: how many long ranges were read from the facet data (`columnRanges`) */
  readonly longScans: Map<string, number>;
}

// kept through writes: a write's changed facet keys are patched into their fields' columns
const cached = new EntryCache<Columns>(
  (env) => env.main,
  INDEX_MAIN_KEYS.documentsVersion,
  () => {
    const byField = new Map<string, ValueColumn<number | string> | null>();
    return { settings: null, byField, cache: { clear: () => byField.clear() }, longScans: new Map() };
  },
  followChanges((columns, changes, env) => {
    if (changes.facetKeys === null) return false;
    const { docids } = changes;
    const touched = new Map<string, Buffer[]>();
    // a key written by several steps of one write is listed once per step
    for (const latin1 of new Set(changes.facetKeys)) {
      const { fid, kind } = facetKeyField(latin1);
      if (kind !== FacetKind.number && kind !== FacetKind.string) continue;
      const key = `${fid}:${kind}`;
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
    // a changed document may spell the values it holds otherwise, the same once normalised (no key touched)
    if (docids !== null) {
      for (const [key, column] of columns.byField) if (column !== null && !touched.has(key)) forgetSpellings(column, docids);
    }
    return true;
  }),
);

/** Drops the spellings `column` keeps of the values the documents `docids` hold. */
function forgetSpellings(column: ValueColumn<number | string>, docids: readonly number[]): void {
  const { spellings, docStarts, byDoc, rewritten } = column;
  if (spellings.length === 0) return;
  const top = docStarts.length - 1;
  for (const docid of docids) {
    const held = rewritten.get(docid) ?? (docid < top ? byDoc.subarray(docStarts[docid]!, docStarts[docid + 1]!) : null);
    if (held !== null) for (const index of held) spellings[index] = undefined;
  }
}

/** Documents a column holds rewritten before it is laid out again (a pass over all its pairs). */
const rewrittenLimit = (documents: number) => Math.max(16, documents >>> 5);

/**
 * `column` after a write that changed the documents `changed` and the facet keys `keys` (full keys
 * of its field and kind): each key's value takes its first document from the facet data again,
 * a value new to the column is added (after the others, placed in `order`), and each changed
 * document gets its value indices anew, in `rewritten`: those of the values the write did not
 * touch, and the touched values holding it now; a document the write did not change holds what it
 * held. Work in the changed documents and touched values, where building the column walks the
 * field's facet data (190 ms for debdocs' 63,667 packages); laid out again after many writes.
 */
function patched(env: IndexReadEnv, columns: Columns, column: ValueColumn<number | string>, keys: readonly Buffer[], changed: readonly number[]): ValueColumn<number | string> | null {
  const { values, order, docStarts, byDoc, rewritten, rewrittenMask } = column;
  const top = docStarts.length - 1;
  const { fid, kind } = facetKeyField(keys[0]!);
  // the facet key of the value at place `at` in stored order, which orders values as the facet data does
  const keyAt = (at: number) => facetKey(fid, kind, values[order[at]!]!);
  // each touched value: its place in stored order (found there, or going there) and its documents now
  const place = (key: Buffer) => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Buffer.compare(keyAt(mid), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const touched = new Map<number, DocSet>();
  const added: (number | string)[] = [];
  const inserts: { at: number; key: Buffer; index: number }[] = [];
  for (const key of keys) {
    const at = place(key);
    const set = decode(env.facetDocids.get(key));
    if (at < order.length && Buffer.compare(keyAt(at), key) === 0) touched.set(order[at]!, set);
    else if (set.length > 0) {
      const index = values.length + added.length;
      added.push(facetKeyValue(key));
      inserts.push({ at, key, index });
      touched.set(index, set);
    }
  }
  const n = values.length + added.length;
  let nextOrder = order;
  let nextRank = column.rank;
  if (inserts.length > 0) {
    // values going to one place in their key order
    inserts.sort((a, b) => a.at - b.at || Buffer.compare(a.key, b.key));
    nextOrder = new Uint32Array(n);
    let from = 0;
    let to = 0;
    for (const { at, index } of inserts) {
      nextOrder.set(order.subarray(from, at), to);
      to += at - from;
      from = at;
      nextOrder[to++] = index;
    }
    nextOrder.set(order.subarray(from), to);
    nextRank = new Uint32Array(n);
    for (let r = 0; r < n; r++) nextRank[nextOrder[r]!] = r;
  }
  const firsts = new Uint32Array(n);
  firsts.set(column.firsts);
  for (const [index, set] of touched) if (set.length > 0) firsts[index] = set[0]!;
  const nextRewritten = new Map(rewritten);
  let maskLength = rewrittenMask.length;
  for (const docid of changed) maskLength = Math.max(maskLength, docid + 1);
  const mask = new Uint8Array(maskLength);
  mask.set(rewrittenMask);
  // the touched values each changed document holds now: each value's documents met with the
  // changed ones (galloping), not every value asked about every document
  const changedSet = fromUnsorted(changed);
  const gained = new Map<number, number[]>();
  for (const [index, set] of touched) {
    for (const docid of intersect(set, changedSet)) {
      const list = gained.get(docid);
      if (list === undefined) gained.set(docid, [index]);
      else list.push(index);
    }
  }
  let bytes = 0;
  // the touched values' first documents may change, and a changed document may spell its values otherwise
  const spellings = column.spellings.slice();
  for (const index of touched.keys()) spellings[index] = undefined;
  for (const docid of changedSet) {
    const held = rewritten.get(docid) ?? (docid < top ? byDoc.subarray(docStarts[docid]!, docStarts[docid + 1]!) : new Uint32Array(0));
    for (const index of held) spellings[index] = undefined;
    const now: number[] = [];
    for (const index of held) if (!touched.has(index)) now.push(index);
    for (const index of gained.get(docid) ?? []) now.push(index);
    nextRewritten.set(docid, Uint32Array.from(now));
    mask[docid] = 1;
    bytes += 64 + 4 * now.length;
  }
  for (const value of added) bytes += typeof value === 'number' ? 16 : STRING_BYTES + 8 + 2 * value.length;
  budget.charge(columns.cache, bytes);
  const next = { values: added.length > 0 ? values.concat(added) : values, order: nextOrder, rank: nextRank, firsts, docStarts, byDoc, rewritten: nextRewritten, rewrittenMask: mask, spellings };
  return nextRewritten.size > rewrittenLimit(top) ? laidOut(columns, next) : next;
}

/** `column` laid out again: its values in stored order but those no document holds, its pairs by document, nothing rewritten. */
function laidOut(columns: Columns, column: ValueColumn<number | string>): ValueColumn<number | string> | null {
  const { values, order, rank, docStarts, byDoc, rewritten, rewrittenMask } = column;
  const top = docStarts.length - 1;
  const documents = docidEnd(column);
  const held = (d: number) => (d < rewrittenMask.length && rewrittenMask[d] === 1 ? rewritten.get(d)! : d < top ? byDoc.subarray(docStarts[d]!, docStarts[d + 1]!) : null);
  // each value's documents, counted then filled, by rank
  const counts = new Uint32Array(values.length + 1);
  for (let d = 0; d < documents; d++) {
    const own = held(d);
    if (own !== null) for (let j = 0; j < own.length; j++) counts[rank[own[j]!]! + 1]!++;
  }
  for (let r = 0; r < values.length; r++) counts[r + 1]! += counts[r]!;
  const docids = new Uint32Array(counts[values.length]!);
  const filled = counts.slice(0, values.length);
  for (let d = 0; d < documents; d++) {
    const own = held(d);
    if (own !== null) for (let j = 0; j < own.length; j++) docids[filled[rank[own[j]!]!]!++] = d;
  }
  // the values no document holds are left out: their runs are empty, so the others stay contiguous
  const kept: (number | string)[] = [];
  const starts = [0];
  for (let r = 0; r < values.length; r++) {
    if (counts[r + 1] === counts[r]) continue;
    kept.push(values[order[r]!]!);
    starts.push(counts[r + 1]!);
  }
  return fromRuns(columns, { values: kept, docids, starts: Uint32Array.from(starts) });
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
  const columns = kept(env);
  const key = `${fid}:${kind}`;
  const known = columns.byField.get(key) as ValueColumn<ValueOf<K>> | null | undefined;
  if (known !== undefined) return known;
  // what the values and pairs read so far take, short of the per-document starts: once past the
  // bound, the whole column is too (debdocs' 250,000 descriptions: a 0.5 s walk, now a twelfth of it)
  let read = 0;
  const runs = reader.valueRuns(fid, kind, (value, pairs) => (read += 4 + valueBytes(value)) + 4 * pairs <= COLUMN_LIMIT) as ValueRuns<ValueOf<K>> | null;
  const column = runs === null ? null : fromRuns(columns, runs);
  columns.byField.set(key, column);
  return column;
}

/** What a column of `values` over docids below `top`, with `pairs` (document, value) pairs, holds. */
function columnBytes(values: readonly (number | string)[], top: number, pairs: number): number {
  let bytes = 4 * (values.length + top + 1 + pairs);
  for (const value of values) bytes += valueBytes(value);
  return bytes;
}

/**
 * The column of `runs` (each value's documents ascending, in one array), charged to the budget;
 * null when too big to keep.
 */
function fromRuns<T extends number | string>(columns: Columns, runs: ValueRuns<T>): ValueColumn<T> | null {
  const { values, docids, starts } = runs;
  const total = docids.length;
  let top = 0;
  for (let k = 0; k < values.length; k++) if (starts[k + 1]! > starts[k]!) top = Math.max(top, docids[starts[k + 1]! - 1]! + 1);
  const bytes = columnBytes(values, top, total);
  if (bytes > COLUMN_LIMIT) return null;
  // the (document, value) pairs by document: counted, summed into starts, then filled value by value
  const docStarts = new Uint32Array(top + 1);
  for (let j = 0; j < total; j++) docStarts[docids[j]! + 1]!++;
  for (let d = 0; d < top; d++) docStarts[d + 1]! += docStarts[d]!;
  const byDoc = new Uint32Array(total);
  const filled = docStarts.slice(0, top);
  for (let k = 0; k < values.length; k++) {
    for (let j = starts[k]!; j < starts[k + 1]!; j++) byDoc[filled[docids[j]!]!++] = k;
  }
  const firsts = new Uint32Array(values.length);
  for (let k = 0; k < values.length; k++) firsts[k] = starts[k + 1]! > starts[k]! ? docids[starts[k]!]! : 0;
  const order = new Uint32Array(values.length);
  for (let k = 0; k < values.length; k++) order[k] = k;
  budget.charge(columns.cache, bytes);
  return { values, order, rank: order, firsts, docStarts, byDoc, rewritten: new Map(), rewrittenMask: new Uint8Array(0), spellings: [] };
}

/**
 * The original spellings of the string values the candidates hold (`found`, from `valuesAmong`
 * over `column`): `spell()` reads one from `found.first`, a document parsed for it (a
 * distribution of 36,000 titles parsed 36,000 documents per request, more than the shared
 * documents cache holds); kept in the column when that document is the value's first, as in
 * every distribution over all documents.
 */
export function speller(env: IndexReadEnv, column: ValueColumn<string>): (found: ColumnFound<string>, spell: () => string) => string {
  // the cache the spellings are charged to, as the column's own strings are
  const { cache } = kept(env);
  return (found, spell) => {
    if (found.first !== column.firsts[found.index]) return spell();
    let known = column.spellings[found.index];
    if (known === undefined) {
      column.spellings[found.index] = known = spell();
      budget.charge(cache, STRING_BYTES + 2 * known.length);
    }
    return known;
  };
}

const NO_VALUES = new Uint32Array(0);

/** One past the greatest docid `column` holds values for, as laid out or rewritten since. */
export function docidEnd<T>(column: ValueColumn<T>): number {
  return Math.max(column.docStarts.length - 1, column.rewrittenMask.length);
}

/** The indices of the values `docid` holds in `column`, as a write left them. */
export function valueIndicesOf<T>(column: ValueColumn<T>, docid: number): Uint32Array {
  const { docStarts, byDoc, rewritten, rewrittenMask } = column;
  if (docid < rewrittenMask.length && rewrittenMask[docid] === 1) return rewritten.get(docid)!;
  if (docid + 1 < docStarts.length) return byDoc.subarray(docStarts[docid]!, docStarts[docid + 1]!);
  return NO_VALUES;
}

/** What the candidates hold of a column: per value index its count and first holder; `touched`, the values held, as first met. */
export interface HeldValues {
  readonly touched: number[];
  readonly counts: Uint32Array;
  readonly firsts: Uint32Array;
}

/** The values the candidates hold, read by candidate, unordered. */
export function heldValues<T>(column: ValueColumn<T>, candidates: DocSet): HeldValues {
  const { values, docStarts, byDoc, rewritten, rewrittenMask } = column;
  const top = docStarts.length - 1;
  const end = docidEnd(column);
  const counts = new Uint32Array(values.length);
  const firsts = new Uint32Array(values.length);
  const touched: number[] = [];
  for (let c = 0; c < candidates.length && candidates[c]! < end; c++) {
    const d = candidates[c]!;
    if (d < rewrittenMask.length && rewrittenMask[d] === 1) {
      const own = rewritten.get(d)!;
      for (let j = 0; j < own.length; j++) {
        const k = own[j]!;
        if (counts[k]++ === 0) {
          firsts[k] = d;
          touched.push(k);
        }
      }
    } else if (d < top) {
      for (let j = docStarts[d]!; j < docStarts[d + 1]!; j++) {
        const k = byDoc[j]!;
        if (counts[k]++ === 0) {
          firsts[k] = d;
          touched.push(k);
        }
      }
    }
  }
  return { touched, counts, firsts };
}

/**
 * The values the candidates hold, in stored order, with their counts, read by candidate. When
 * they hold a good share of the column's values, a pass over the stored order puts them in order
 * (a distribution of 33,000 titles sorted them in ~6 ms); otherwise they are sorted by rank.
 */
export function valuesAmong<T>(column: ValueColumn<T>, candidates: DocSet): ColumnFound<T>[] {
  const { values, rank, order } = column;
  const { touched, counts, firsts } = heldValues(column, candidates);
  let ordered: ArrayLike<number>;
  if (touched.length * 8 >= values.length) {
    const inOrder: number[] = [];
    for (let r = 0; r < order.length; r++) if (counts[order[r]!]! > 0) inOrder.push(order[r]!);
    ordered = inOrder;
  } else {
    ordered = touched.sort((a, b) => rank[a]! - rank[b]!);
  }
  const out: ColumnFound<T>[] = new Array(ordered.length);
  for (let i = 0; i < ordered.length; i++) {
    const k = ordered[i]!;
    out[i] = { value: values[k]!, count: counts[k]!, first: firsts[k]!, index: k };
  }
  return out;
}

/** The fewest values a range must span for a column to answer it: below, reading their entries costs less than a pass over the column. */
const COLUMN_RANGE_VALUES = 1_024;

/**
 * The ranks (places in stored order) of the column's values whose facet keys lie in the range
 * (`start`, `end`: full facet keys of its field and kind, or bounds before or after them), as
 * a half-open interval: the values a scan of that key range would read.
 */
export function rankRange<T extends number | string>(column: ValueColumn<T>, fid: number, kind: ValueKind, start: Buffer, exclusiveStart: boolean, end: Buffer, inclusiveEnd: boolean): [number, number] {
  const { values, order } = column;
  // the first rank whose key is above `key` (`above`), or at or above it
  const bound = (key: Buffer, above: boolean) => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const compared = Buffer.compare(facetKey(fid, kind, values[order[mid]!]!), key);
      if (compared < 0 || (above && compared === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const lo = bound(start, exclusiveStart);
  return [lo, Math.max(lo, bound(end, inclusiveEnd))];
}

/** The documents holding a value of rank in [lo, hi), ascending: one pass over the column's pairs. */
export function documentsInRanks<T>(column: ValueColumn<T>, lo: number, hi: number): DocSet {
  const { rank, docStarts, byDoc, rewritten, rewrittenMask } = column;
  const top = docStarts.length - 1;
  const end = docidEnd(column);
  const found = new Uint32Array(end);
  let count = 0;
  for (let d = 0; d < end; d++) {
    const own = d < rewrittenMask.length && rewrittenMask[d] === 1 ? rewritten.get(d)! : null;
    const from = own === null ? (d < top ? docStarts[d]! : 0) : 0;
    const to = own === null ? (d < top ? docStarts[d + 1]! : 0) : own.length;
    const indices = own ?? byDoc;
    for (let j = from; j < to; j++) {
      const r = rank[indices[j]!]!;
      if (r >= lo && r < hi) {
        found[count++] = d;
        break;
      }
    }
  }
  return found.slice(0, count);
}

/**
 * The key ranges of a filter's ranges and prefixes answered from the value columns of a read
 * snapshot: a range spanning at least COLUMN_RANGE_VALUES values of a kept column is one pass
 * over its pairs (~0.3 ms for movies' 36,000 titles, against 15–45 ms reading their entries); a
 * field whose scans read that many entries twice gets its column built for the next ones (one
 * walk of the field, a few times a scan's cost: not paid for a range asked once). `meter` is
 * charged with the passes and builds as with the entries they replace.
 */
export function columnRanges(env: IndexReadEnv, meter: ReadMeter): RangeSource {
  const kindOf = (start: Buffer): { fid: number; kind: ValueKind } | null => {
    const { fid, kind } = facetKeyField(start);
    return kind === FacetKind.number || kind === FacetKind.string ? { fid, kind } : null;
  };
  return {
    range(start, exclusiveStart, end, inclusiveEnd) {
      const field = kindOf(start);
      const column = field === null ? null : keptColumn(env, field.fid, field.kind);
      if (field === null || column === null || column === undefined) return null;
      const [lo, hi] = rankRange(column, field.fid, field.kind, start, exclusiveStart, end, inclusiveEnd);
      if (hi - lo < COLUMN_RANGE_VALUES) return null;
      meter.read(0, column.byDoc.length + column.docStarts.length);
      return documentsInRanks(column, lo, hi);
    },
    scanned(start, entries) {
      const field = kindOf(start);
      if (field === null || entries < COLUMN_RANGE_VALUES || keptColumn(env, field.fid, field.kind) !== undefined) return;
      const { longScans } = kept(env);
      const key = `${field.fid}:${field.kind}`;
      const scans = (longScans.get(key) ?? 0) + 1;
      longScans.set(key, scans);
      if (scans < 2) return;
      const column = valueColumn(env, new FacetReader(env), field.fid, field.kind);
      if (column !== null) meter.read(column.values.length, column.byDoc.length);
    },
  };
}
