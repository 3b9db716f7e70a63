/**
 * Typed wrapper of the proximity kernel (assembly/proximity.ts): the proximity costs of a batch
 * of candidate documents in ONE WASM call, with the pair records of
 * src/engine/search/proximity-terms.ts. A group whose records lie in one arena is priced by the
 * arena's own instance instead (record-arena.ts `proximity`); this batch holds a group gathered
 * from several arenas (the cache budget dropped one while the group was read).
 *
 * `ProximityBuilder` packs the documents' place lists struct-of-arrays (one places column, one
 * offsets column) into growable arrays reused between calls, appended a run of documents at a
 * time as the gather kernel leaves them (record-arena.ts), so building a batch allocates nothing
 * per document.
 * reference/proximity.ts computes the same costs in TS (the tests' oracle).
 */
import { getKernels, KernelStatus, type Kernels } from './module.js';

/**
 * u32 fields of a pair record (assembly PAIR_RECORD_U32): left list, right list, flags, and a
 * cost offset added to the record's cost (n − 1 when the right term is an n-gram of n words).
 */
export const PAIR_RECORD_U32 = 4;
/** Record flag (assembly PAIR_FORWARD_ONLY): only right occurrences after the left one count. */
export const PAIR_FORWARD_ONLY = 1;
/** Record flag (assembly PAIR_JOIN): the record prices the same term pair as the one before it. */
export const PAIR_JOIN = 2;
/** proximityPrecision `byAttribute` flag (assembly FLAG_BY_ATTRIBUTE). */
export const FLAG_BY_ATTRIBUTE = 1;

/** The kernel's input: `docs` × `lists` place lists of field << 16 | position. */
export interface ProximityBatch {
  readonly docs: number;
  readonly lists: number;
  /** places of document d, list l: places[offsets[d * lists + l] .. offsets[d * lists + l + 1]) */
  readonly places: Uint32Array;
  /** docs * lists + 1 ascending indices into `places` */
  readonly offsets: Uint32Array;
  /** PAIR_RECORD_U32 per record; a query term pair is a record and the PAIR_JOIN ones after it */
  readonly pairs: Uint32Array;
  /** proximityPrecision `byAttribute`: any two occurrences in one field cost 0 */
  readonly byAttribute: boolean;
}

interface ProximityExports {
  proximityCosts(places: number, nPlaces: number, offsets: number, nDocs: number, nLists: number, pairs: number, nPairs: number, flags: number, out: number): number;
}

/** Computes one batch's costs (one per document) in one kernel call. */
export function proximityCosts(batch: ProximityBatch, kernels: Kernels = getKernels()): Uint32Array {
  const { arena, exports } = kernels;
  const nPlaces = batch.offsets[batch.docs * batch.lists]!;
  arena.reset();
  const places = arena.alloc(nPlaces * 4);
  const offsets = arena.alloc(batch.offsets.byteLength);
  const pairs = arena.alloc(batch.pairs.byteLength);
  const out = arena.alloc(batch.docs * 4);
  const u32 = arena.u32;
  u32.set(batch.places.subarray(0, nPlaces), places >>> 2);
  u32.set(batch.offsets, offsets >>> 2);
  u32.set(batch.pairs, pairs >>> 2);
  const flags = batch.byAttribute ? FLAG_BY_ATTRIBUTE : 0;
  const status = (exports as unknown as ProximityExports).proximityCosts(
    places,
    nPlaces,
    offsets,
    batch.docs,
    batch.lists,
    pairs,
    batch.pairs.length / PAIR_RECORD_U32,
    flags,
    out,
  );
  if (status === KernelStatus.BadSpan) throw new RangeError('proximity batch offsets or pairs point outside its places');
  if (status !== batch.docs) throw new Error(`proximity kernel returned unknown status ${status}`);
  return arena.u32.slice(out >>> 2, (out >>> 2) + batch.docs);
}

/** Growable struct-of-arrays columns for one batch at a time. */
export class ProximityBuilder {
  #places = new Uint32Array(1024);
  #offsets = new Uint32Array(1024);
  #placeCount = 0;
  #lists = 0;
  #perDoc = 0;

  /** Starts a batch of documents with `lists` place lists each. */
  begin(lists: number): void {
    this.#perDoc = lists;
    this.#placeCount = 0;
    this.#lists = 0;
    this.#offsets[0] = 0;
  }

  /**
   * Appends `docs` documents' place lists, from document `from` of a gather's output: `offsets`
   * (its documents × lists + 1, from 0) into `places`, as the gather kernel leaves them
   * (record-arena.ts).
   */
  add(offsets: Uint32Array, places: Uint32Array, docs: number, from = 0): void {
    const first = from * this.#perDoc;
    const entries = docs * this.#perDoc;
    const start = offsets[first]!;
    const end = offsets[first + entries]!;
    const need = this.#placeCount + end - start;
    if (need > this.#places.length) this.#places = grow(this.#places, need);
    if (this.#lists + entries + 1 > this.#offsets.length) this.#offsets = grow(this.#offsets, this.#lists + entries + 1);
    this.#places.set(places.subarray(start, end), this.#placeCount);
    const out = this.#offsets;
    const at = this.#lists;
    const base = this.#placeCount - start;
    for (let k = 1; k <= entries; k++) out[at + k] = base + offsets[first + k]!;
    this.#lists += entries;
    this.#placeCount = need;
  }

  /** Appends `docs` documents without places (no forward record). */
  addEmpty(docs: number): void {
    const entries = docs * this.#perDoc;
    if (this.#lists + entries + 1 > this.#offsets.length) this.#offsets = grow(this.#offsets, this.#lists + entries + 1);
    this.#offsets.fill(this.#placeCount, this.#lists + 1, this.#lists + entries + 1);
    this.#lists += entries;
  }

  /** The batch added since `begin`; views valid until the next `begin`. */
  batch(pairs: Uint32Array, byAttribute: boolean): ProximityBatch {
    return {
      docs: this.#perDoc === 0 ? 0 : this.#lists / this.#perDoc,
      lists: this.#perDoc,
      places: this.#places.subarray(0, this.#placeCount),
      offsets: this.#offsets.subarray(0, this.#lists + 1),
      pairs,
      byAttribute,
    };
  }
}

function grow(array: Uint32Array, need: number): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(Math.max(need, array.length * 2));
  grown.set(array);
  return grown;
}
