/**
 * Word and prefix postings kept from one search to the next: a query reads the postings of its
 * words, their typo words, split parts, phrase and n-gram words, and of its last word as a prefix;
 * the next query (the same one refined, a prefix typed further) reads most of them again, and
 * each read is an LMDB lookup and a copy of every entry. Kept per index until its documents or words change, within one memory budget for all
 * indexes (cache-budget.ts), as the forward records (forward.ts). Postings are copies (never
 * lmdb's reused buffer) and are shared: read-only. Main thread, read snapshot.
 */
import { CacheBudget } from '../cache-budget.js';
import { EntryCache } from '../entry-cache.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import type { Posting } from '../words/postings.js';

/** Bytes of the postings kept, all indexes together. */
const budget = new CacheBudget(32 * 1024 * 1024);

/** What a search keeps the postings it read in, by word or prefix (a plain Map for a search of its own). */
export interface PostingStore {
  get(word: string): Posting | undefined;
  set(word: string, posting: Posting): void;
}

class CachedPostings implements PostingStore {
  private readonly byWord = new Map<string, Posting>();

  get(word: string): Posting | undefined {
    return this.byWord.get(word);
  }

  set(word: string, posting: Posting): void {
    budget.charge(this.byWord, 64 + 12 * posting.docids.length);
    this.byWord.set(word, posting);
  }

  clear(): void {
    this.byWord.clear();
  }
}

interface Cached {
  /** the words version the postings were read under (a settings change re-indexes every word) */
  wordsVersion: number;
  readonly words: CachedPostings;
  readonly prefixes: CachedPostings;
}

// the documents version changes with every write of documents, hence of their postings
const cached = new EntryCache<Cached>((env) => env.main, INDEX_MAIN_KEYS.documentsVersion, () => ({
  wordsVersion: -1,
  words: new CachedPostings(),
  prefixes: new CachedPostings(),
}));

/**
 * The word postings (`word-docids`) and prefix postings (`word-prefix-docids`) kept for `env` as
 * of its current snapshot; `wordsVersion` as the search read it.
 */
export function cachedPostings(env: IndexReadEnv, wordsVersion: number): { words: PostingStore; prefixes: PostingStore } {
  const postings = cached.get(env);
  if (postings.wordsVersion !== wordsVersion) {
    postings.wordsVersion = wordsVersion;
    postings.words.clear();
    postings.prefixes.clear();
  }
  return postings;
}
