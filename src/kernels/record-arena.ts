/**
 * Records kept in WebAssembly memory, and the place-gathering kernel over them
 * (assembly/gather.ts): the search's forward records (src/engine/search/forward.ts has them laid
 * here by the layout kernel, assembly/record-layout.ts: `lay`) are scanned for a query's words by
 * thousands per proximity step, in one kernel call per group instead of JS calls, entry chains
 * and run copies per document (the scan itself, bound by memory, runs about as fast in either),
 * and the kernel can only read its own memory.
 *
 * An arena is a kernels instance of its own: records are bump-allocated from the start of its
 * arena and stay until the arena is dropped (a memory that never shrinks is given back whole,
 * with its instance), or cleared to be filled again (forward.ts: the scratch arena of a search's
 * records past the cache, and the spare arena taken back after an emptying); a gather call lays
 * its scratch past the last record. Growing the memory
 * replaces its buffer, so `u32` is read again after every `take` and `gather`, never kept across.
 * The proximity kernel of the same instance prices a gather's lists where they lie (`proximity`):
 * copied out to JS and back into another instance, they cost a twentieth of a big group's step.
 * reference/gather.ts and reference/record-layout.ts compute the same in TS (the tests' oracles).
 */
import { RESULT_BLOCK_BYTES, RESULT_OUTPUT_BYTES, RESULT_RECORDS, type WasmMemory } from './arena.js';
import { compileKernelModule, defaultKernelVariant, instantiateKernels, KernelStatus, type KernelVariant } from './module.js';
import { FLAG_BY_ATTRIBUTE, PAIR_RECORD_U32 } from './proximity.js';

/** u32 fields of an entry (assembly GATHER_ENTRY_U32): list, typo level, phrase + 1, next entry + 1. */
export const GATHER_ENTRY_U32 = 4;
/** Slot hash multiplier (assembly GATHER_HASH). */
export const GATHER_HASH = 0x9e3779b1;
/** Place lists per query term (assembly GATHER_LISTS_PER_TERM). */
export const GATHER_LISTS_PER_TERM = 4;

const PAGE_BYTES = 65_536;
/** Pages a (32-bit) WebAssembly memory can hold. */
const MAX_PAGES = 65_536;
/** Places a gather reserves at most before the kernel says how many it needs (64 MiB). */
const FIRST_PLACE_ROOM = 1 << 24;

/**
 * The words a gather looks for: which list each of their entries fills, at which typo level,
 * under which phrase-like derivation (the query's side, built once per query).
 */
export interface GatherTable {
  readonly terms: number;
  readonly phrases: number;
  /** bit `id` set: word `id` has entries */
  readonly bits: Uint8Array;
  /** open addressing over word ids: (id + 1, last entry + 1) pairs, a power of two of them */
  readonly slots: Uint32Array;
  /** GATHER_ENTRY_U32 per entry */
  readonly entries: Uint32Array;
}

/**
 * The table of `terms` query terms' word entries: entry e puts word ids[e]'s places in list
 * list[e] at typo level level[e], under phrase-like derivation phrase[e] (-1 for none) of
 * `phrases`. A bitset of the words (most words of a record are none of the query's: one bit read
 * rejects them), open-addressing slots from a word to its last entry, each entry chained to the
 * word's entry before it.
 */
export function gatherTable(
  terms: number,
  phrases: number,
  ids: ArrayLike<number>,
  list: ArrayLike<number>,
  level: ArrayLike<number>,
  phrase: ArrayLike<number>,
): GatherTable {
  let top = 0;
  for (let e = 0; e < ids.length; e++) if (ids[e]! > top) top = ids[e]!;
  const bits = new Uint8Array((top >>> 3) + 1);
  let nSlots = 2;
  while (nSlots < 2 * ids.length) nSlots *= 2;
  const mask = nSlots - 1;
  const slots = new Uint32Array(2 * nSlots);
  const entries = new Uint32Array(GATHER_ENTRY_U32 * ids.length);
  for (let e = 0; e < ids.length; e++) {
    const id = ids[e]!;
    bits[id >>> 3] = bits[id >>> 3]! | (1 << (id & 7));
    let slot = Math.imul(id, GATHER_HASH) & mask;
    while (slots[2 * slot] !== 0 && slots[2 * slot] !== id + 1) slot = (slot + 1) & mask;
    slots[2 * slot] = id + 1;
    const at = GATHER_ENTRY_U32 * e;
    entries[at] = list[e]!;
    entries[at + 1] = level[e]!;
    entries[at + 2] = phrase[e]! + 1;
    entries[at + 3] = slots[2 * slot + 1]!;
    slots[2 * slot + 1] = e + 1;
  }
  return { terms, phrases, bits, slots, entries };
}

/** One run of documents to gather, their records in the arena. */
export interface GatherDocs {
  readonly count: number;
  /** per document (idsAt, nIds) of its record; (0, 0) without one */
  readonly records: Uint32Array;
  /** per document and term, the typo levels it allows (bit per level) */
  readonly allowed: Uint8Array;
  /** per document and phrase-like derivation, 1 when the document holds it */
  readonly present: Uint8Array;
  /** what the records' places add up to: the place room tried first */
  readonly tokens: number;
}

/**
 * The place lists of a gather, valid until the arena's next `take` or `gather`: `offsets` and
 * `places` are views of its memory as it was (a later growth, `proximity`'s own included, leaves
 * them empty), the addresses and counts stay right.
 */
export interface Gathered {
  /** count * terms * GATHER_LISTS_PER_TERM + 1 ascending indices into `places` */
  readonly offsets: Uint32Array;
  readonly places: Uint32Array;
  /** byte addresses of `offsets` and `places` in the arena, where `proximity` prices them */
  readonly offsetsAt: number;
  readonly placesAt: number;
  readonly placeCount: number;
  readonly docs: number;
  readonly lists: number;
  /** the arena's change count when gathered: `proximity` refuses lists a later take or gather overwrote */
  readonly serial: number;
}

interface ProximityExports {
  proximityCosts(places: number, nPlaces: number, offsets: number, nDocs: number, nLists: number, pairs: number, nPairs: number, flags: number, out: number): number;
}

interface LayoutExports {
  layRecord(src: number, stored: number, head: number): number;
}

/** The u32 a stored forward record of `stored` u32 may take once laid (assembly/record-layout.ts laidRoom). */
export function laidRoom(stored: number): number {
  return stored + (stored >>> 1) + 4;
}

interface GatherExports {
  gatherPlaces(
    docs: number,
    nDocs: number,
    allowed: number,
    nTerms: number,
    present: number,
    nPhrases: number,
    bits: number,
    nBitBytes: number,
    slots: number,
    nSlots: number,
    entries: number,
    nEntries: number,
    runs: number,
    runCap: number,
    offsets: number,
    places: number,
    placeCap: number,
  ): number;
}

export class RecordArena {
  readonly #memory: WasmMemory;
  readonly #exports: GatherExports & ProximityExports & LayoutExports;
  /** byte address of the result block */
  readonly #result: number;
  #u32: Uint32Array;
  #u8: Uint8Array;
  /** u32 index of the next record */
  #top: number;
  /** the most runs a document of the last gathers had: the run room tried first */
  #runRoom = 64;
  /** takes and gathers so far: what a gather's lists are checked against */
  #serial = 0;

  constructor(variant: KernelVariant = defaultKernelVariant()) {
    const kernels = instantiateKernels(compileKernelModule(variant), variant);
    this.#memory = kernels.exports.memory;
    this.#exports = kernels.exports as unknown as GatherExports & ProximityExports & LayoutExports;
    this.#result = kernels.arena.base;
    this.#top = (this.#result + RESULT_BLOCK_BYTES) >>> 2;
    this.#u32 = new Uint32Array(this.#memory.buffer);
    this.#u8 = new Uint8Array(this.#memory.buffer);
  }

  /** The arena's memory as bytes; read again after `take` or `gather`. */
  get u8(): Uint8Array {
    return this.#u8;
  }

  /** The arena's memory as u32 (index = byte address / 4); read again after `take` or `gather`. */
  get u32(): Uint32Array {
    return this.#u32;
  }

  /** u32 slots the records take. */
  get used(): number {
    return this.#top - ((this.#result + RESULT_BLOCK_BYTES) >>> 2);
  }

  /** Bytes of its memory, which never shrinks. */
  get memoryBytes(): number {
    return this.#memory.buffer.byteLength;
  }

  /** Drops every record (and a gather's lists): the next record is laid where the first was. */
  clear(): void {
    this.#serial++;
    this.#top = (this.#result + RESULT_BLOCK_BYTES) >>> 2;
  }

  /** Room for up to `n` u32 after the last record: where it starts; `settle` then ends it. */
  take(n: number): number {
    this.#serial++;
    this.#reserve(4 * (this.#top + n));
    return this.#top;
  }

  /** Ends the last `take` at `end` (a u32 index, exclusive). */
  settle(end: number): void {
    this.#top = end;
  }

  /**
   * Lays a stored forward record (`length` bytes of `buffer` from `byteOffset`; a trailing
   * partial u32 is left out) after the last record, by the layout kernel
   * (assembly/record-layout.ts gives both layouts); returns its head, a u32 index.
   */
  lay(buffer: ArrayBufferLike, byteOffset: number, length: number): number {
    const stored = length >>> 2;
    const room = laidRoom(stored);
    // the stored words are copied past the room, and the laid record ends before them
    const head = this.take(room + stored);
    this.#u8.set(new Uint8Array(buffer, byteOffset, 4 * stored), 4 * (head + room));
    const end = this.#exports.layRecord(head + room, stored, head);
    if (end < 0) throw new RangeError('layRecord: the stored record or its room lies outside the arena');
    this.#top = end;
    return head;
  }

  /** The place lists of `docs` for `table`, in one kernel call (two when the first room was short). */
  gather(table: GatherTable, docs: GatherDocs): Gathered {
    this.#serial++;
    const lists = table.terms * GATHER_LISTS_PER_TERM;
    let runCap = this.#runRoom;
    // places are copied runs of the records' tokens: all of them fit unless a word fills several
    // lists (the room is virtual until written), up to FIRST_PLACE_ROOM: past it, a group is let
    // say how many it needs (a few of its tokens, as a rule), so that the reservation of a group
    // of a big index never runs into the 4 GiB a WebAssembly memory can hold
    let placeCap = Math.max(1024, Math.min(docs.tokens, FIRST_PLACE_ROOM));
    for (let attempt = 0; ; attempt++) {
      let at = 16 * Math.ceil(this.#top / 4);
      const region = (bytes: number) => {
        const start = at;
        at += 16 * Math.ceil(bytes / 16);
        return start;
      };
      const recordsAt = region(4 * 2 * docs.count);
      const allowedAt = region(docs.count * table.terms);
      const presentAt = region(docs.count * table.phrases);
      const bitsAt = region(table.bits.length);
      const slotsAt = region(4 * table.slots.length);
      const entriesAt = region(4 * table.entries.length);
      const runsAt = region(12 * runCap);
      const offsetsAt = region(4 * (docs.count * lists + 1));
      const placesAt = region(4 * placeCap);
      this.#reserve(at);
      const u8 = this.#u8;
      const u32 = this.#u32;
      u32.set(docs.records.subarray(0, 2 * docs.count), recordsAt >>> 2);
      u8.set(docs.allowed.subarray(0, docs.count * table.terms), allowedAt);
      u8.set(docs.present.subarray(0, docs.count * table.phrases), presentAt);
      u8.set(table.bits, bitsAt);
      u32.set(table.slots, slotsAt >>> 2);
      u32.set(table.entries, entriesAt >>> 2);
      const status = this.#exports.gatherPlaces(
        recordsAt,
        docs.count,
        allowedAt,
        table.terms,
        presentAt,
        table.phrases,
        bitsAt,
        table.bits.length,
        slotsAt,
        table.slots.length / 2,
        entriesAt,
        table.entries.length / GATHER_ENTRY_U32,
        runsAt,
        runCap,
        offsetsAt,
        placesAt,
        placeCap,
      );
      if (status === docs.count) {
        const offsets = u32.subarray(offsetsAt >>> 2, (offsetsAt >>> 2) + docs.count * lists + 1);
        const places = u32.subarray(placesAt >>> 2, (placesAt >>> 2) + offsets[docs.count * lists]!);
        return { offsets, places, offsetsAt, placesAt, placeCount: places.length, docs: docs.count, lists, serial: this.#serial };
      }
      if (status === KernelStatus.OutOfCapacity && attempt === 0) {
        runCap = this.#runRoom = Math.max(runCap, u32[(this.#result + RESULT_RECORDS) >>> 2]!);
        placeCap = u32[(this.#result + RESULT_OUTPUT_BYTES) >>> 2]! >>> 2;
        continue;
      }
      if (status === KernelStatus.BadSpan) throw new RangeError('gather: a record, slot or entry points outside the arena or its tables');
      throw new Error(`gather kernel returned unknown status ${status}`);
    }
  }

  /**
   * The proximity costs of a gather's documents for `pairs` (kernels/proximity.ts's records), by
   * the proximity kernel of this arena's own instance over the lists where the gather left them:
   * no copy out and back in. Valid until the next `take` or `gather`, which may overwrite them;
   * `byAttribute`: proximityPrecision `byAttribute`.
   */
  proximity(gathered: Gathered, pairs: Uint32Array, byAttribute: boolean): Uint32Array {
    if (gathered.serial !== this.#serial) throw new Error('proximity: the gathered lists were overwritten by a later take or gather');
    const placesEnd = gathered.placesAt + 4 * gathered.placeCount;
    const pairsAt = 16 * Math.ceil(placesEnd / 16);
    const outAt = pairsAt + 16 * Math.ceil((4 * pairs.length) / 16);
    this.#reserve(outAt + 4 * gathered.docs);
    this.#u32.set(pairs, pairsAt >>> 2);
    const status = this.#exports.proximityCosts(
      gathered.placesAt,
      gathered.placeCount,
      gathered.offsetsAt,
      gathered.docs,
      gathered.lists,
      pairsAt,
      pairs.length / PAIR_RECORD_U32,
      byAttribute ? FLAG_BY_ATTRIBUTE : 0,
      outAt,
    );
    if (status === KernelStatus.BadSpan) throw new RangeError('proximity: the offsets or pairs point outside the gathered places');
    if (status !== gathered.docs) throw new Error(`proximity kernel returned unknown status ${status}`);
    return this.#u32.slice(outAt >>> 2, (outAt >>> 2) + gathered.docs);
  }

  /**
   * Grows the memory to hold `bytes`, renewing the view: by half its size at least, as records
   * come one by one (pages stay virtual until written), but never that half past the 4 GiB a
   * WebAssembly memory can hold when `bytes` itself fits.
   */
  #reserve(bytes: number): void {
    const have = this.#memory.buffer.byteLength;
    if (bytes <= have) return;
    const need = Math.ceil((bytes - have) / PAGE_BYTES);
    const haveUpTo = MAX_PAGES - have / PAGE_BYTES;
    this.#memory.grow(Math.max(need, Math.min(Math.ceil(have / 2 / PAGE_BYTES), haveUpTo)));
    this.#u32 = new Uint32Array(this.#memory.buffer);
    this.#u8 = new Uint8Array(this.#memory.buffer);
  }
}
