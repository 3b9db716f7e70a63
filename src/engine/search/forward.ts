/**
 * Reads documents' forward records (`docid-words`, format in ../words/postings.ts) for search.
 * Proximity and phrase matching read thousands of records per query, mostly of the same popular
 * documents from one query to the next: each record is laid once into aligned memory and kept,
 * per index, until a write changes its document or rebuilds the words (index-changes.ts), so a
 * repeated read costs an array lookup instead of an LMDB lookup and a copy, within one memory
 * budget for all indexes (cache-budget.ts).
 *
 * Layout for the scans of big candidate groups (proximity, wordPosition), which look every word
 * of thousands of records up: a record is kept as its distinct word ids, where each word's places
 * start, then its places, so a scan visits each word once, without a data-dependent branch per
 * token; and records are laid one after the other in the order first read (ascending docids, as
 * candidates come), so a scan streams through dense memory, in one WebAssembly memory for every
 * index (../../kernels/record-arena.ts), where a layout kernel lays them (a big group's first
 * read lays thousands) and the proximity step's gather kernel reads them. The budget empties
 * every index's records at once, and the next records are laid in the arena emptied the time
 * before (`shared` and `spare`).
 * A search empties the caches at most once, and only when they serve it less than the records it
 * meets past the budget, and less than half of what other searches left there. Otherwise a record
 * the budget has no room for is laid in a scratch arena that is cleared, not cached. A scan
 * bigger than the budget (a frequent word and a one-letter prefix over a big index) used to empty
 * them at every search and lay every record again in fresh memory; now it keeps the part the
 * cache holds, and a group's gather takes the rest in pieces (`openGroup`, proximity-terms.ts).
 * Main thread, read snapshot.
 */
import { CacheBudget } from '../cache-budget.js';
import { EntryCache } from '../entry-cache.js';
import { followChanges, followWordsVersion } from '../index-changes.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import { laidRoom, RecordArena } from '../../kernels/record-arena.js';

/**
 * Memory of the forward records kept, all indexes together: their bytes in the arena and each
 * record's object. Debdocs' 166,490 records holding `the` take 102 MiB: within this budget, an
 * as-you-type `the b` over them takes ~58 ms, where the 44 MiB before left it at ~110 ms (most of
 * its records laid again at every search), for ~22 MiB more peak RSS. The memory it bounds may be
 * held twice over for a while (the spare arena, below), besides the scratch arena's.
 */
export const FORWARD_BUDGET = new CacheBudget(128 * 1024 * 1024);
/** What a record's `ForwardTokens` object and its slot take besides its bytes in the arena. */
const RECORD_OBJECT_BYTES = 96;

/**
 * A record in its arena's memory (`words`, shared with other records: read-only, and read again
 * after anything that may grow the arena: another `read`, a gather): its header at `head`
 * (nFields, then field << 16 | word count per field, then nTokens, then nIds); its distinct word
 * ids, ascending, at words[idsAt .. idsAt + nIds); then nIds + 1 run starts at `runsAt`; the places
 * (field << 16 | position) of word ids[j] being words[runs[j] .. runs[j + 1]), all of them
 * words[placesAt .. placesEnd), in text order per word.
 */
export class ForwardTokens {
  constructor(
    readonly arena: RecordArena,
    readonly head: number,
    readonly idsAt: number,
    readonly nIds: number,
    readonly runsAt: number,
    readonly placesAt: number,
    readonly placesEnd: number,
  ) {}

  get words(): Uint32Array {
    return this.arena.u32;
  }
}

/**
 * The arena of the records laid since the budget last emptied the caches, every index's (the
 * budget empties them all at once). Emptied, it becomes the spare, and the spare of the emptying
 * before is cleared to take the next records: a search that empties the caches may still read
 * the records it had before, never those of an emptying before. A workload that keeps emptying
 * them (scans bigger than the budget taking turns) so lays records in memory the process has
 * touched already, not in fresh pages; a spare that SPARE_SEARCHES searches did not take is
 * dropped, its memory given back whole.
 */
let shared: RecordArena | undefined;
let spare: RecordArena | undefined;
let searchesSinceEmptied = 0;
const SPARE_SEARCHES = 100;
const arena = (): RecordArena => (shared ??= new RecordArena());

/** Records the caches hold, every index's (null ones too). */
let cachedRecords = 0;

/** Empties every index's records: the arena becomes the spare, and the spare the arena. */
function emptyCaches(): void {
  FORWARD_BUDGET.empty();
  const emptied = shared;
  shared = spare;
  shared?.clear();
  spare = emptied;
  searchesSinceEmptied = 0;
}

interface Records {
  /** the words version the records were read under: a settings change rebuilds them with new ids */
  wordsVersion: number;
  /** docid → its tokens (null: no record), in an array indexed by docid: docids are dense, and a
   * lookup there costs a fraction of a Map's, which thousands of reads per query add up */
  readonly byDocid: (ForwardTokens | null | undefined)[];
  /** what the memory budget empties (every index's at once; `emptyCaches` turns the arena over) */
  readonly cache: { clear(): void };
}

// kept through writes, but for the records of the documents they changed (word ids are never
// reused: the records of other documents still hold); a rebuild of the words starts over
const cached = new EntryCache<Records>(
  (env) => env.main,
  INDEX_MAIN_KEYS.documentsVersion,
  () => {
    const byDocid: (ForwardTokens | null | undefined)[] = [];
    return {
      wordsVersion: -1,
      byDocid,
      cache: {
        clear: () => {
          byDocid.length = 0;
          cachedRecords = 0;
        },
      },
    };
  },
  followChanges((records, changes) => {
    if (changes.docids === null || !followWordsVersion(records, changes)) return false;
    // dropped records stay in the arena until the budget empties it
    for (const docid of changes.docids) if (docid < records.byDocid.length) records.byDocid[docid] = undefined;
    return true;
  }),
);

/** Bytes of records past the cache a group may hold in the scratch arena before it is gathered. */
export const SCRATCH_GROUP_BYTES = 8 * 1024 * 1024;
/** A scratch arena grown past this (by one huge record) is dropped at its next clearing. */
const SCRATCH_KEEP_BYTES = 64 * 1024 * 1024;

/**
 * Where the records read past the cache are laid: cleared, not cached, so a scan bigger than
 * the budget takes warm memory instead of fresh pages, and leaves the cache as it was.
 */
let scratch: RecordArena | undefined;

function clearedScratch(): RecordArena {
  if (scratch === undefined || scratch.memoryBytes > SCRATCH_KEEP_BYTES) scratch = new RecordArena();
  else scratch.clear();
  return scratch;
}

export class ForwardReader {
  private readonly records: Records;
  /** this search's reads answered from the cache, records it cached, and records it laid past it */
  private hits = 0;
  private cachedHere = 0;
  private past = 0;
  /** this search emptied the caches already */
  private emptied = false;
  /** a group is open (`openGroup`): records past the cache stay until it is gathered */
  private grouping = false;
  private scratchBytes = 0;

  /** `wordsVersion`: the index's words version, which the search's dictionary already read. */
  constructor(
    private readonly env: IndexReadEnv,
    wordsVersion: number,
  ) {
    if (++searchesSinceEmptied > SPARE_SEARCHES) spare = undefined;
    this.records = cached.get(env);
    if (this.records.wordsVersion !== wordsVersion) {
      // the records stay in the arena (other indexes' share it) until the budget empties it
      this.records.wordsVersion = wordsVersion;
      this.records.byDocid.length = 0;
    }
  }

  /**
   * The tokens of `docid`'s record (shared: read-only); null without a record. A record the cache
   * has no room for lies in the scratch arena: valid until the next such read outside a group, or
   * read in an open group, until the group is opened again (closing it keeps its records until the
   * next such read).
   */
  read(docid: number): ForwardTokens | null {
    const { byDocid } = this.records;
    const known = byDocid[docid];
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    const fast = this.env.docWords.getBinaryFast(docid);
    const room = fast === undefined ? 0 : RECORD_OBJECT_BYTES + 4 * laidRoom(fast.length >>> 2);
    if (!FORWARD_BUDGET.fits(room)) {
      // Emptied once at most, when this search has met more records the cache had no room for
      // than it found there, and found fewer than half of those other searches left there: a
      // scan bigger than the budget (a frequent word and a one-letter prefix over a big index)
      // would otherwise empty it at every search and lay every record again, keeping none for
      // the next search; and a search that finds most of its records there keeps them.
      this.past++;
      if (!this.emptied && this.past > this.hits && this.hits < (cachedRecords - this.cachedHere) / 2) {
        this.emptied = true;
        emptyCaches();
      }
      // (a record bigger than the whole budget is never cached)
      if (!FORWARD_BUDGET.fits(room)) return this.layPast(fast!);
    }
    const tokens = fast === undefined ? null : layRecord(fast, arena());
    const bytes = tokens === null ? 0 : RECORD_OBJECT_BYTES + 4 * (tokens.placesEnd - tokens.head);
    FORWARD_BUDGET.charge(this.records.cache, bytes);
    cachedRecords++;
    this.cachedHere++;
    // grown first: a first write far past the end would turn the array into a slow dictionary
    if (docid >= byDocid.length) byDocid.length = docid + 1;
    byDocid[docid] = tokens;
    return tokens;
  }

  /**
   * Opens a group (again): the records read past the cache from now on stay valid together, for a
   * gather that reads them at once; those of the group before are dropped.
   */
  openGroup(): void {
    this.grouping = true;
    this.scratchBytes = 0;
    clearedScratch();
  }

  /** Closes the group: its records stay valid until the next read past the cache. */
  closeGroup(): void {
    this.grouping = false;
  }

  /** Bytes of the open group's records read past the cache: a gather takes them by SCRATCH_GROUP_BYTES. */
  get groupScratchBytes(): number {
    return this.scratchBytes;
  }

  private layPast(fast: Uint8Array): ForwardTokens {
    const arena = this.grouping ? (scratch ??= new RecordArena()) : clearedScratch();
    const tokens = layRecord(fast, arena);
    this.scratchBytes += 4 * (tokens.placesEnd - tokens.head);
    return tokens;
  }
}

/**
 * Lays a stored record (`fast`: the header, then (word id, place) pairs grouped by id) in
 * `arena`, by its layout kernel (assembly/record-layout.ts), and reads the laid header back.
 */
export function layRecord(fast: Uint8Array, arena: RecordArena): ForwardTokens {
  // lmdb-js sets `length` to the value's size on a Buffer over its whole shared buffer, so the
  // record's bytes are passed by offset and length, never as the typed array itself
  const head = arena.lay(fast.buffer, fast.byteOffset, fast.length);
  const words = arena.u32;
  const headerEnd = 2 + words[head]!;
  const tokens = words[head + headerEnd - 1]!;
  const nIds = words[head + headerEnd]!;
  const idsAt = head + headerEnd + 1;
  const runsAt = idsAt + nIds;
  const placesAt = runsAt + nIds + 1;
  return new ForwardTokens(arena, head, idsAt, nIds, runsAt, placesAt, placesAt + tokens);
}

/**
 * Where word `id` is among a record's word ids (binary search), or -1: its places, in text order,
 * are `words[words[runsAt + j] .. words[runsAt + j + 1])`, read there without a copy.
 */
export function wordIndex(tokens: ForwardTokens, id: number): number {
  const { words, idsAt, nIds } = tokens;
  let lo = 0;
  let hi = nIds;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[idsAt + mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo === nIds || words[idsAt + lo] !== id ? -1 : lo;
}

/**
 * The places of word `id` in a record, in text order (empty when the record lacks it): a view of
 * the record where it lies, not a copy, valid until the next record is laid (growing the arena's
 * memory may detach it).
 */
export function placesOfWord(tokens: ForwardTokens, id: number): Uint32Array {
  const j = wordIndex(tokens, id);
  const { words, runsAt } = tokens;
  return j < 0 ? words.subarray(0, 0) : words.subarray(words[runsAt + j]!, words[runsAt + j + 1]!);
}

/** (search field id, word count) of each field of the record's document, in stored order. */
export function fieldWordCounts(tokens: ForwardTokens): [number, number][] {
  const out: [number, number][] = [];
  const { words, head } = tokens;
  for (let k = head + 1; k < head + 1 + words[head]!; k++) out.push([words[k]! >>> 16, words[k]! & 0xffff]);
  return out;
}
