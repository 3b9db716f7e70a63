/**
 * The documents version of an index and what its last writes changed, so that what searches keep
 * between requests (decoded documents, postings, forward records, facet columns, the typo
 * dictionary) follows a write instead of being thrown away by it: a server taking a few documents
 * at a time otherwise answers the first searches after every write from cold caches, and rebuilds
 * its whole typo dictionary (40 ms on movies, 130 ms on debdocs) whenever a word appears.
 *
 * Every write transaction that changes documents or what is derived from them records one entry,
 * in that transaction: the documents version before and after (a fresh random id, bumped at each
 * step of the write so that the writer's own caches never see a half-written state), the words
 * version before and after, and the docids, words (keys whose word postings changed: every word
 * a changed document held before or holds after), the words created and deleted, and the facet
 * keys (field, kind, value) whose documents it changed. A cache derived at version A follows the
 * entries from A to the current version, dropping or taking in what they name; where the chain is
 * not held (more than KEPT writes since, or fewer when their lists hold more than MAX_ITEMS
 * together), or a list it needs is not (a write changed too many to list, or rebuilt them), it
 * starts over, as every cache did after every write before.
 *
 * The last write's entry is kept under a key of its own (`index-changes-last`), the writes before
 * it under `index-changes`: a write extends its entry at every step (each chunk's documents, facets
 * and words), and rewriting only that entry spares it decoding and encoding the earlier writes'
 * lists each time (up to MAX_ITEMS words, ~300 KB, per step: 50 ms of a movies load). Those are
 * rewritten once per write, when its first step moves the previous last entry among them, and
 * when its own entry grows past what they may hold with it. A record written before this split
 * (every entry under `index-changes`) reads the same.
 */
import type { Follow } from './entry-cache.js';
import type { IndexEnv } from './index-env.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from './index-read-env.js';

/** Writes kept for caches to follow. */
const KEPT = 8;
/** The longest list an entry keeps of each kind (a longer one is dropped: null). */
const MAX_DOCIDS = 4096;
const MAX_WORDS = 16_384;
const MAX_FACET_KEYS = 4096;
/** Items (docids, words, facet keys) the kept writes hold together; the last write is kept whatever it holds. */
const MAX_ITEMS = 2 * MAX_WORDS;

const size = (entry: Entry) => (entry.docids?.length ?? 0) + (entry.words?.length ?? 0) + (entry.added?.length ?? 0) + (entry.removed?.length ?? 0) + (entry.facetKeys?.length ?? 0);

/**
 * One write, as readers follow it. A list is null when the write changed too many of its kind to
 * list them, or rebuilt what it lists: a follower that needs that list starts over.
 */
export interface IndexChanges {
  /** documents versions before and after the write */
  readonly from: string | null;
  readonly to: string;
  readonly wordsFrom: number;
  readonly wordsTo: number;
  readonly docids: readonly number[] | null;
  /** words whose postings changed, including those created and deleted */
  readonly words: readonly string[] | null;
  /** words created, with their ids, and words deleted */
  readonly added: readonly (readonly [string, number])[] | null;
  readonly removed: readonly string[] | null;
  /** the facet keys (facets/store.ts `facetKeyString`: field, kind, value) whose documents changed */
  readonly facetKeys: readonly string[] | null;
}

interface Entry {
  /** the write transaction that recorded it: the steps of one write extend one entry */
  txn: number;
  from: string | null;
  to: string;
  wordsFrom: number;
  wordsTo: number;
  docids: number[] | null;
  words: string[] | null;
  added: [string, number][] | null;
  removed: string[] | null;
  facetKeys: string[] | null;
}

export function readDocumentsVersion(env: IndexReadEnv): string | null {
  return (env.main.get(INDEX_MAIN_KEYS.documentsVersion) as string | undefined) ?? null;
}

export function readWordsVersion(env: IndexReadEnv): number {
  return (env.main.get(INDEX_MAIN_KEYS.wordsVersion) as number | undefined) ?? 0;
}

/** The last write's entry, with how many entries and items the earlier writes' record holds. */
interface Last {
  readonly entry: Entry;
  olderCount: number;
  olderItems: number;
}

/** The earlier writes' entries, oldest first. */
function readOlder(env: IndexReadEnv): Entry[] {
  return (env.main.get(INDEX_MAIN_KEYS.indexChanges) as Entry[] | undefined) ?? [];
}

function readLast(env: IndexReadEnv): Last | undefined {
  return env.main.get(INDEX_MAIN_KEYS.lastIndexChange) as Last | undefined;
}

function readEntries(env: IndexReadEnv): Entry[] {
  const entries = readOlder(env);
  const last = readLast(env);
  if (last !== undefined) entries.push(last.entry);
  return entries;
}

/** Writes the earlier writes' entries, the oldest dropped while they and `last` hold more than MAX_ITEMS. */
function writeOlder(env: IndexEnv, older: Entry[], last: Last): void {
  const items = (entries: readonly Entry[]) => entries.reduce((sum, kept) => sum + size(kept), 0);
  while (older.length > 0 && items(older) + size(last.entry) > MAX_ITEMS) older.shift();
  env.main.putSync(INDEX_MAIN_KEYS.indexChanges, older);
  last.olderCount = older.length;
  last.olderItems = items(older);
}

/**
 * Extends this write's entry (made at its first step) and gives the documents a fresh version:
 * a step changes the state the step before left inside the transaction as much as the committed one.
 */
function step(env: IndexEnv, change: (entry: Entry) => void): void {
  const txn = env.root.getWriteTxnId();
  let last = readLast(env);
  let older: Entry[] | null = null;
  if (last === undefined || last.entry.txn !== txn) {
    // a new write: the previous last entry joins the earlier ones
    older = readOlder(env);
    if (last !== undefined) older.push(last.entry);
    if (older.length > KEPT - 1) older.splice(0, older.length - (KEPT - 1));
    const words = readWordsVersion(env);
    last = { entry: { txn, from: readDocumentsVersion(env), to: '', wordsFrom: words, wordsTo: words, docids: [], words: [], added: [], removed: [], facetKeys: [] }, olderCount: 0, olderItems: 0 };
  }
  const { entry } = last;
  // the web's crypto: the search side that reads this module also runs in browsers
  entry.to = crypto.randomUUID();
  change(entry);
  // the oldest writes go once the kept ones hold too much together (the last is kept whatever it holds)
  if (older === null && last.olderCount > 0 && last.olderItems + size(entry) > MAX_ITEMS) older = readOlder(env);
  if (older !== null) writeOlder(env, older, last);
  env.main.putSync(INDEX_MAIN_KEYS.lastIndexChange, last);
  env.main.putSync(INDEX_MAIN_KEYS.documentsVersion, entry.to);
}

/** `list` with `items` appended, or null once it would hold more than `max`. */
function extended<T>(list: T[] | null, items: readonly T[], max: number): T[] | null {
  if (list === null || list.length + items.length > max) return null;
  for (const item of items) list.push(item);
  return list;
}

/** Records documents written or deleted (inside the write's transaction). */
export function noteDocuments(env: IndexEnv, docids: readonly number[]): void {
  step(env, (entry) => {
    entry.docids = extended(entry.docids, docids, MAX_DOCIDS);
  });
}

/** Records word postings changed, words created and deleted, and the words version they left. */
export function noteWords(env: IndexEnv, words: readonly string[], added: readonly [string, number][], removed: readonly string[]): void {
  step(env, (entry) => {
    entry.wordsTo = readWordsVersion(env);
    entry.words = extended(entry.words, words, MAX_WORDS);
    entry.added = extended(entry.added, added, MAX_WORDS);
    entry.removed = extended(entry.removed, removed, MAX_WORDS);
  });
}

/** Records the facet keys whose documents changed. */
export function noteFacets(env: IndexEnv, keys: readonly string[]): void {
  step(env, (entry) => {
    entry.facetKeys = extended(entry.facetKeys, keys, MAX_FACET_KEYS);
  });
}

/** Records a write no list describes (a clear, a rebuild): every follower starts over. */
export function noteRebuild(env: IndexEnv): void {
  step(env, (entry) => {
    entry.wordsTo = readWordsVersion(env);
    entry.docids = entry.words = entry.added = entry.removed = entry.facetKeys = null;
  });
}

/**
 * The writes that led from documents version `from` to the current one, oldest first; null when
 * they are not all held. Empty when nothing was written since.
 */
export function changesSince(env: IndexReadEnv, from: string | null): IndexChanges[] | null {
  const current = readDocumentsVersion(env);
  if (from === current) return [];
  const entries = readEntries(env);
  const at = entries.findIndex((entry) => entry.from === from);
  if (at === -1) return null;
  const chain: IndexChanges[] = [];
  let version = from;
  for (let i = at; i < entries.length && version !== current; i++) {
    const entry = entries[i]!;
    if (entry.from !== version) return null;
    chain.push(entry);
    version = entry.to;
  }
  return version === current ? chain : null;
}

/**
 * An EntryCache `follow` for a value keyed on the documents version: `apply` brings it over one
 * write at a time (false: it cannot, and the value is derived again).
 */
export function followChanges<T>(apply: (value: T, changes: IndexChanges, env: IndexReadEnv) => boolean): Follow<T> {
  return (env, value, from) => {
    const chain = changesSince(env, (from as string | undefined) ?? null);
    return chain !== null && chain.every((changes) => apply(value, changes, env));
  };
}

/** Words created (with their ids) and deleted by one write. */
export interface WordChanges {
  readonly added: readonly (readonly [string, number])[];
  readonly removed: readonly string[];
}

/**
 * The words created and deleted since words version `from`, write by write, oldest first; null
 * when not every write since is held with its lists (the words version only grows).
 */
export function wordChangesSince(env: IndexReadEnv, from: number): WordChanges[] | null {
  const current = readWordsVersion(env);
  const chain: WordChanges[] = [];
  let version = from;
  for (const entry of readEntries(env)) {
    if (entry.wordsFrom === entry.wordsTo || entry.wordsTo <= version) continue;
    if (entry.wordsFrom !== version || entry.added === null || entry.removed === null) return null;
    chain.push({ added: entry.added, removed: entry.removed });
    version = entry.wordsTo;
  }
  return version === current ? chain : null;
}

/**
 * Moves the words version a cache was read under (-1: none yet) over one write; false when the
 * cache was read under another version than the one the write started from.
 */
export function followWordsVersion(holder: { wordsVersion: number }, changes: IndexChanges): boolean {
  if (holder.wordsVersion === -1) return true;
  if (holder.wordsVersion !== changes.wordsFrom) return false;
  holder.wordsVersion = changes.wordsTo;
  return true;
}
