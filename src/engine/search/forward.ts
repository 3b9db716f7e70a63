/**
 * Reads documents' forward records (`docid-words`, format in ../words/postings.ts) for search.
 * Proximity and phrase matching read thousands of records per query, mostly of the same popular documents
 * from one query to the next: each record is copied once into an aligned array and kept, per
 * index, until the documents or the words change, so a repeated read costs a map lookup instead of
 * an LMDB lookup and a copy, within one memory budget for all indexes (cache-budget.ts).
 * Main thread, read snapshot.
 */
import { CacheBudget } from '../cache-budget.js';
import { EntryCache } from '../entry-cache.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';

/** Stored bytes of the forward records kept, all indexes together. */
const budget = new CacheBudget(32 * 1024 * 1024);

/** A record's tokens: (word id, field << 16 | position) pairs in words[start .. end), grouped by word id ascending. */
export interface ForwardTokens {
  readonly words: Uint32Array;
  readonly start: number;
  readonly end: number;
}

interface Records {
  /** the words version the records were read under: a settings change rebuilds them with new ids */
  wordsVersion: number;
  /** docid → its tokens (null: no record), in an array indexed by docid: docids are dense, and a
   * lookup there costs a fraction of a Map's, which thousands of reads per query add up */
  readonly byDocid: (ForwardTokens | null | undefined)[];
  /** what the memory budget empties */
  readonly cache: { clear(): void };
}

// the documents version changes with every write of documents, hence of their forward records
const cached = new EntryCache<Records>((env) => env.main, INDEX_MAIN_KEYS.documentsVersion, () => {
  const byDocid: (ForwardTokens | null | undefined)[] = [];
  return { wordsVersion: -1, byDocid, cache: { clear: () => void (byDocid.length = 0) } };
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
    let tokens: ForwardTokens | null = null;
    if (fast !== undefined) {
      // LMDB values are not 4-byte aligned: one copy into an aligned array
      const words = new Uint32Array(fast.length >>> 2);
      new Uint8Array(words.buffer).set(fast.subarray(0, words.byteLength));
      const start = 2 + words[0]!;
      tokens = { words, start, end: start + 2 * words[start - 1]! };
    }
    budget.charge(this.records.cache, fast?.length ?? 0);
    // grown first: a first write far past the end would turn the array into a slow dictionary
    if (docid >= byDocid.length) byDocid.length = docid + 1;
    byDocid[docid] = tokens;
    return tokens;
  }
}

/** The places of word `id` in a record's tokens, in text order (binary search over the word ids). */
export function placesOfWord(tokens: ForwardTokens, id: number): number[] {
  const { words } = tokens;
  let lo = 0;
  let hi = (tokens.end - tokens.start) >>> 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[tokens.start + 2 * mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let k = tokens.start + 2 * lo; k < tokens.end && words[k] === id; k += 2) out.push(words[k + 1]!);
  return out;
}

/** (search field id, word count) of each field of the record's document, in stored order. */
export function fieldWordCounts(tokens: ForwardTokens): [number, number][] {
  const out: [number, number][] = [];
  // the header before the tokens: nFields, then field << 16 | word count per field, then nTokens
  for (let k = 1; k < tokens.start - 1; k++) out.push([tokens.words[k]! >>> 16, tokens.words[k]! & 0xffff]);
  return out;
}
