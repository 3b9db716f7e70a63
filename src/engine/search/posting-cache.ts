/**
 * Word and prefix postings kept from one search to the next: a query reads the postings of its
 * words, their typo words, split parts, phrase and n-gram words, and of its last word as a prefix;
 * the next query (the same one refined, a prefix typed further) reads most of them again, and
 * each read is an LMDB lookup and a copy of every entry. Likewise the split words found for its
 * words and n-grams (dictionary look-ups at every cut, pair counts, a phrase check on records).
 * Kept per index within one memory budget for all indexes (cache-budget.ts), as the forward
 * records (forward.ts); a write drops what it changed (index-changes.ts): the postings of the
 * words it lists, the prefixes of those words, and the splits with one of them for a part.
 * Postings are copies (never lmdb's reused buffer) and are shared: read-only. Main thread, read
 * snapshot.
 * The phrases of multi-word synonyms are kept the same way (their phrase check reads the forward
 * record of every document holding all their words: a thousand phrases of common words took
 * seconds, each time the same synonyms were searched), dropped when one of their words changed.
 */
import { CacheBudget } from '../cache-budget.js';
import { EntryCache } from '../entry-cache.js';
import { followChanges, followWordsVersion } from '../index-changes.js';
import { compareCodePoints, lowerBound } from './dictionary.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import type { Posting } from '../words/postings.js';

/** Bytes of the postings and split words kept, all indexes together. */
const budget = new CacheBudget(32 * 1024 * 1024);

/** What a search keeps the postings it read in, by word or prefix (a plain Map for a search of its own). */
export interface PostingStore {
  get(word: string): Posting | undefined;
  set(word: string, posting: Posting): void;
}

/** A word's split-word derivation as terms.ts finds it (its two words, as a phrase), null for none. */
export type FoundSplit = { posting: Posting; words: string[] } | null;

/**
 * The key of words (a phrase's) under a proximity precision: what decides their posting besides
 * the index (words hold no NUL, which keeps the parts apart).
 */
export function phraseKey(precision: string, words: readonly string[]): string {
  return [precision, ...words].join('\u0000');
}

/** The words a `phraseKey` names. */
function keyWords(key: string): string[] {
  return key.split('\u0000').slice(1);
}

/** The key of a word's split (or an n-gram's, `own` its words): a `phraseKey` of the word then `own`. */
export function splitKey(precision: string, word: string, own: readonly string[] = []): string {
  return phraseKey(precision, [word, ...own]);
}

/** What a search keeps the split words it found in, by a `splitKey`. */
export interface SplitStore {
  get(key: string): FoundSplit | undefined;
  set(key: string, split: FoundSplit): void;
}

/**
 * Values charged to the budget by the heap they hold, measured (node 20, `heapUsed` over 200,000
 * entries): a Map entry and its key ~64 bytes plus the key's characters; a decoded posting ~430
 * bytes whatever its length (its object, its buffer and the buffer's three views) plus 12 bytes a
 * document; a split ~180 more (its object, its words). Charged 64 + 12 a document before, a kept
 * one-document posting held ~7× its charge, so the 32 MiB budget let the cache grow past 200 MiB.
 */
const ENTRY_BYTES = 64;
const POSTING_BYTES = 440;
const SPLIT_BYTES = 180;

/** Values charged to the budget by their size. */
class Kept<T> {
  private readonly byKey = new Map<string, T>();

  constructor(private readonly bytes: (value: T) => number) {}

  get(key: string): T | undefined {
    return this.byKey.get(key);
  }

  set(key: string, value: T): void {
    budget.charge(this.byKey, ENTRY_BYTES + 2 * key.length + this.bytes(value));
    this.byKey.set(key, value);
  }

  clear(): void {
    this.byKey.clear();
  }

  /** Drops the values whose key `stale` picks (they stay counted until the budget empties). */
  drop(stale: (key: string) => boolean): void {
    for (const key of this.byKey.keys()) if (stale(key)) this.byKey.delete(key);
  }
}

const postingBytes = (posting: Posting) => POSTING_BYTES + 12 * posting.docids.length;

interface Cached {
  /** the words version the postings were read under (a settings change re-indexes every word) */
  wordsVersion: number;
  readonly words: Kept<Posting>;
  readonly prefixes: Kept<Posting>;
  readonly splits: Kept<FoundSplit>;
  /** by `phraseKey` */
  readonly phrases: Kept<Posting>;
}

const cached = new EntryCache<Cached>(
  (env) => env.main,
  INDEX_MAIN_KEYS.documentsVersion,
  () => ({
    wordsVersion: -1,
    words: new Kept(postingBytes),
    prefixes: new Kept(postingBytes),
    splits: new Kept<FoundSplit>((split) => (split === null ? 0 : SPLIT_BYTES + postingBytes(split.posting))),
    phrases: new Kept(postingBytes),
  }),
  followChanges((postings, changes) => {
    if (changes.words === null || !followWordsVersion(postings, changes)) return false;
    const changed = new Set(changes.words);
    postings.words.drop((word) => changed.has(word));
    // a prefix's posting is its words' postings: gone when a word starting with it changed
    const sorted = [...changed].sort(compareCodePoints);
    postings.prefixes.drop((prefix) => sorted[lowerBound(sorted, prefix)]?.startsWith(prefix) === true);
    // a split depends on the postings of the parts of every cut of its word
    postings.splits.drop((key) => {
      const chars = [...keyWords(key)[0]!];
      for (let i = 1; i < chars.length; i++) if (changed.has(chars.slice(0, i).join('')) || changed.has(chars.slice(i).join(''))) return true;
      return false;
    });
    postings.phrases.drop((key) => keyWords(key).some((word) => changed.has(word)));
    return true;
  }),
);


/**
 * One search's view of a kept store: what the search read or found stays in a map of its own as
 * well, so the search reads each posting once (a split's parts, a phrase's words, a word again)
 * even when the budget empties the kept store meanwhile, or holds nothing (budget spent).
 */
class SearchLayer<T> {
  private readonly own = new Map<string, T>();

  constructor(private readonly kept: Kept<T>) {}

  get(key: string): T | undefined {
    let value = this.own.get(key);
    if (value === undefined) {
      value = this.kept.get(key);
      if (value !== undefined) this.own.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    this.own.set(key, value);
    this.kept.set(key, value);
  }
}

/**
 * The word postings (`word-docids`) and prefix postings (`word-prefix-docids`) kept for `env` as
 * of its current snapshot, seen by one search (SearchLayer); `wordsVersion` as the search read it.
 */
export function cachedPostings(env: IndexReadEnv, wordsVersion: number): { words: PostingStore; prefixes: PostingStore; splits: SplitStore; phrases: PostingStore } {
  const postings = cached.get(env);
  if (postings.wordsVersion !== wordsVersion) {
    postings.wordsVersion = wordsVersion;
    postings.words.clear();
    postings.prefixes.clear();
    postings.splits.clear();
    postings.phrases.clear();
  }
  return { words: new SearchLayer(postings.words), prefixes: new SearchLayer(postings.prefixes), splits: new SearchLayer(postings.splits), phrases: new SearchLayer(postings.phrases) };
}
