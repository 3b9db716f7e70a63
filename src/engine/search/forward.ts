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
 * index (../../kernels/record-arena.ts), where the proximity step's gather kernel reads them.
 * The budget empties every index's records at once, and the arena goes with them: its memory,
 * which never shrinks, is given back whole.
 * Main thread, read snapshot.
 */
import { CacheBudget } from '../cache-budget.js';
import { EntryCache } from '../entry-cache.js';
import { followChanges, followWordsVersion } from '../index-changes.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import { RecordArena } from '../../kernels/record-arena.js';

/**
 * Memory of the forward records kept, all indexes together: their bytes in the arena and each
 * record's object (45,000 debdocs records hold about 33 MiB).
 */
const budget = new CacheBudget(44 * 1024 * 1024);
/** What a record's `ForwardTokens` object and its slot take besides its bytes in the arena. */
const RECORD_OBJECT_BYTES = 96;

/**
 * A record in its arena's memory (`words`, shared with other records: read-only, and read again
 * after anything that may grow the arena: another `read`, a gather): its header at `head`
 * (nFields, then field << 16 | word count per field, then nTokens); its distinct word ids,
 * ascending, at words[idsAt .. idsAt + nIds); then nIds + 1 run starts at `runsAt`; the places
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
 * budget empties them all at once): dropped then, with its memory.
 */
let shared: RecordArena | undefined;
const arena = (): RecordArena => (shared ??= new RecordArena());

interface Records {
  /** the words version the records were read under: a settings change rebuilds them with new ids */
  wordsVersion: number;
  /** docid → its tokens (null: no record), in an array indexed by docid: docids are dense, and a
   * lookup there costs a fraction of a Map's, which thousands of reads per query add up */
  readonly byDocid: (ForwardTokens | null | undefined)[];
  /** what the memory budget empties (every index's at once: the arena goes with them) */
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
          shared = undefined;
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

export class ForwardReader {
  private readonly records: Records;

  /** `wordsVersion`: the index's words version, which the search's dictionary already read. */
  constructor(
    private readonly env: IndexReadEnv,
    wordsVersion: number,
  ) {
    this.records = cached.get(env);
    if (this.records.wordsVersion !== wordsVersion) {
      // the records stay in the arena (other indexes' share it) until the budget empties it
      this.records.wordsVersion = wordsVersion;
      this.records.byDocid.length = 0;
    }
  }

  /** The tokens of `docid`'s record (shared: read-only); null without a record. */
  read(docid: number): ForwardTokens | null {
    const { byDocid } = this.records;
    const known = byDocid[docid];
    if (known !== undefined) return known;
    const fast = this.env.docWords.getBinaryFast(docid);
    const laidIn = arena();
    let tokens = fast === undefined ? null : layRecord(fast, laidIn);
    budget.charge(this.records.cache, tokens === null ? 0 : RECORD_OBJECT_BYTES + 4 * (tokens.placesEnd - tokens.head));
    // the budget emptied the caches and dropped that arena: laid again in the new one
    if (tokens !== null && laidIn !== arena()) tokens = layRecord(fast!, arena());
    // grown first: a first write far past the end would turn the array into a slow dictionary
    if (docid >= byDocid.length) byDocid.length = docid + 1;
    byDocid[docid] = tokens;
    return tokens;
  }
}

/** The last buffer stored records came in (lmdb-js hands values out in one shared buffer), as u32. */
let sourceBuffer: ArrayBufferLike | undefined;
let sourceWords: Uint32Array<ArrayBufferLike> = new Uint32Array(0);

/**
 * Lays a stored record (`fast`: the header, then (word id, place) pairs grouped by id) in
 * `arena`. An aligned record is read where lmdb left it, through a u32 view of its buffer kept
 * from one record to the next (a view made per record, and lmdb's Buffer sliced to its value,
 * cost three quarters of the laying); an unaligned one is first copied aligned past the room.
 */
export function layRecord(fast: Uint8Array, arena: RecordArena): ForwardTokens {
  // lmdb-js sets `length` to the value's size on a Buffer over its whole shared buffer, so the
  // record's bytes are read by offset, never by the typed array's own extent
  const stored = fast.length >>> 2;
  // room for the laid record at its largest (every token a distinct word: header + 3 per token
  // + 1; a header of 2 even for a truncated record)
  const room = stored + (stored >>> 1) + 3;
  const aligned = fast.byteOffset % 4 === 0;
  const head = arena.take(aligned ? room : room + stored);
  const words = arena.u32;
  let from: Uint32Array<ArrayBufferLike>;
  let copy: number;
  if (aligned) {
    if (fast.buffer !== sourceBuffer) {
      sourceBuffer = fast.buffer;
      sourceWords = new Uint32Array(sourceBuffer, 0, sourceBuffer.byteLength >>> 2);
    }
    from = sourceWords;
    copy = fast.byteOffset >>> 2;
  } else {
    copy = head + room;
    arena.u8.set(new Uint8Array(fast.buffer, fast.byteOffset, 4 * stored), 4 * copy);
    from = words;
  }
  // counts read from the record never take a loop past its bytes (a truncated record lays as empty)
  const nFields = stored >= 2 ? Math.min(from[copy]!, stored - 2) : 0;
  const headerEnd = 2 + nFields;
  const tokens = stored >= 2 ? Math.min(from[copy + headerEnd - 1]!, (stored - headerEnd) >>> 1) : 0;
  words[head] = nFields;
  for (let k = 1; k <= nFields; k++) words[head + k] = from[copy + k]!;
  words[head + headerEnd - 1] = tokens;
  const start = copy + headerEnd;
  const end = start + 2 * tokens;
  let nIds = 0;
  for (let k = start; k < end; k += 2) if (k === start || from[k] !== from[k - 2]) nIds++;
  const idsAt = head + headerEnd;
  const runsAt = idsAt + nIds;
  const placesAt = runsAt + nIds + 1;
  let j = 0;
  for (let k = start, at = placesAt; k < end; k += 2, at++) {
    if (k === start || from[k] !== from[k - 2]) {
      words[idsAt + j] = from[k]!;
      words[runsAt + j++] = at;
    }
    words[at] = from[k + 1]!;
  }
  const placesEnd = placesAt + tokens;
  words[runsAt + nIds] = placesEnd;
  arena.settle(placesEnd);
  return new ForwardTokens(arena, head, idsAt, nIds, runsAt, placesAt, placesEnd);
}

/** The places of word `id` in a record, in text order (binary search over its word ids). */
export function placesOfWord(tokens: ForwardTokens, id: number): number[] {
  const { words, idsAt, nIds, runsAt } = tokens;
  let lo = 0;
  let hi = nIds;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[idsAt + mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  if (lo === nIds || words[idsAt + lo] !== id) return [];
  return Array.from(words.subarray(words[runsAt + lo]!, words[runsAt + lo + 1]!));
}

/** (search field id, word count) of each field of the record's document, in stored order. */
export function fieldWordCounts(tokens: ForwardTokens): [number, number][] {
  const out: [number, number][] = [];
  const { words, head } = tokens;
  for (let k = head + 1; k < head + 1 + words[head]!; k++) out.push([words[k]! >>> 16, words[k]! & 0xffff]);
  return out;
}
