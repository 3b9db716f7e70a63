/**
 * Reads documents' forward records (`docid-words`, format in ../words/postings.ts) for search.
 * Proximity and phrase matching read thousands of records per query, mostly of the same popular documents
 * from one query to the next: each record is copied once into aligned memory and kept, per
 * index, until the documents or the words change, so a repeated read costs an array lookup instead of
 * an LMDB lookup and a copy, within one memory budget for all indexes (cache-budget.ts).
 *
 * Layout for the scans of big candidate groups (proximity, wordPosition), which look every word
 * of thousands of records up: a kept record also carries its word runs (each distinct word id
 * once, and where its tokens start), so a scan visits each word once, without a data-dependent
 * branch per token; and the records are laid one after the other in big shared slabs, in the
 * order they are first read (ascending docids, as candidates are), the runs right after the
 * tokens, so a scan streams through dense memory: on those groups, waiting for scattered
 * records cost more than the lookups themselves.
 * Main thread, read snapshot.
 */
import { CacheBudget } from '../cache-budget.js';
import { EntryCache } from '../entry-cache.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';

/** Stored bytes of the forward records kept, all indexes together. */
const budget = new CacheBudget(32 * 1024 * 1024);

/**
 * A record in `words` (a slab shared with other records: read-only): its header at `head`
 * (nFields, then field << 16 | word count per field, then nTokens), its tokens (word id,
 * field << 16 | position) pairs in words[start .. end), grouped by word id ascending; its
 * distinct word ids at words[idsAt .. idsAt + nIds), and at words[runsAt .. runsAt + nIds]
 * where the tokens of each start in `words` (the last entry is `end`).
 */
export interface ForwardTokens {
  readonly words: Uint32Array;
  readonly head: number;
  readonly start: number;
  readonly end: number;
  readonly idsAt: number;
  readonly nIds: number;
  readonly runsAt: number;
}

interface Records {
  /** the words version the records were read under: a settings change rebuilds them with new ids */
  wordsVersion: number;
  /** docid → its tokens (null: no record), in an array indexed by docid: docids are dense, and a
   * lookup there costs a fraction of a Map's, which thousands of reads per query add up */
  readonly byDocid: (ForwardTokens | null | undefined)[];
  /** where the records are laid */
  readonly slabs: Slabs;
  /** what the memory budget empties */
  readonly cache: { clear(): void };
}

// the documents version changes with every write of documents, hence of their forward records
const cached = new EntryCache<Records>((env) => env.main, INDEX_MAIN_KEYS.documentsVersion, () => {
  const byDocid: (ForwardTokens | null | undefined)[] = [];
  const slabs = new Slabs();
  return {
    wordsVersion: -1,
    byDocid,
    slabs,
    cache: {
      clear: () => {
        byDocid.length = 0;
        slabs.clear();
      },
    },
  };
});

export class ForwardReader {
  private readonly records: Records;

  /** `wordsVersion`: the index's words version, which the search's dictionary already read. */
  constructor(
    private readonly env: IndexReadEnv,
    wordsVersion: number,
  ) {
    this.records = cached.get(env);
    if (this.records.wordsVersion !== wordsVersion) {
      this.records.wordsVersion = wordsVersion;
      this.records.cache.clear();
    }
  }

  /** The tokens of `docid`'s record (shared: read-only); null without a record. */
  read(docid: number): ForwardTokens | null {
    const { byDocid } = this.records;
    const known = byDocid[docid];
    if (known !== undefined) return known;
    const fast = this.env.docWords.getBinaryFast(docid);
    const tokens = fast === undefined ? null : layRecord(fast, this.records.slabs);
    budget.charge(this.records.cache, tokens === null ? 0 : 4 * (tokens.runsAt + tokens.nIds + 1 - tokens.head));
    // grown first: a first write far past the end would turn the array into a slow dictionary
    if (docid >= byDocid.length) byDocid.length = docid + 1;
    byDocid[docid] = tokens;
    return tokens;
  }
}

/** u32 slots of one slab (a record needing more gets a slab of its own size). */
const SLAB_U32 = 1 << 18;

/** Bump allocation of records in big arrays, in reading order. */
export class Slabs {
  private slab = new Uint32Array(0);
  private used = 0;

  /** Room for up to `n` u32: the slab and where they start; `settle` then says how many were used. */
  take(n: number): [Uint32Array, number] {
    if (this.used + n > this.slab.length) {
      this.slab = new Uint32Array(Math.max(SLAB_U32, n));
      this.used = 0;
    }
    return [this.slab, this.used];
  }

  /** Ends the last `take` at `end` (exclusive). */
  settle(end: number): void {
    this.used = end;
  }

  /** Starts a new slab (the records of the old ones are dropped with them). */
  clear(): void {
    this.slab = new Uint32Array(0);
    this.used = 0;
  }
}

/** Lays a stored record (`fast`, unaligned bytes) in `slabs` with its word runs. */
export function layRecord(fast: Uint8Array, slabs: Slabs): ForwardTokens {
  const stored = fast.length >>> 2;
  // at most as many distinct ids as tokens: room for the ids and runs of every token, then settled
  const [words, head] = slabs.take(stored + stored + 1);
  new Uint8Array(words.buffer, words.byteOffset + 4 * head, 4 * stored).set(fast.subarray(0, 4 * stored));
  const start = head + 2 + words[head]!;
  const end = start + 2 * words[start - 1]!;
  const idsAt = end;
  let nIds = 0;
  for (let k = start; k < end; k += 2) if (k === start || words[k] !== words[k - 2]) words[idsAt + nIds++] = words[k]!;
  const runsAt = idsAt + nIds;
  let j = 0;
  for (let k = start; k < end; k += 2) if (k === start || words[k] !== words[k - 2]) words[runsAt + j++] = k;
  words[runsAt + nIds] = end;
  slabs.settle(runsAt + nIds + 1);
  return { words, head, start, end, idsAt, nIds, runsAt };
}

/** The places of word `id` in a record's tokens, in text order (binary search over the word ids). */
export function placesOfWord(tokens: ForwardTokens, id: number): number[] {
  const { words, idsAt, nIds, runsAt } = tokens;
  let lo = 0;
  let hi = nIds;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[idsAt + mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  if (lo < nIds && words[idsAt + lo] === id) for (let k = words[runsAt + lo]!; k < words[runsAt + lo + 1]!; k += 2) out.push(words[k + 1]!);
  return out;
}

/** (search field id, word count) of each field of the record's document, in stored order. */
export function fieldWordCounts(tokens: ForwardTokens): [number, number][] {
  const out: [number, number][] = [];
  const { words, head } = tokens;
  for (let k = head + 1; k < tokens.start - 1; k++) out.push([words[k]! >>> 16, words[k]! & 0xffff]);
  return out;
}
