/**
 * An index's word dictionary as search uses it: every indexed word in code-point (UTF-8 byte)
 * order with its id, and a TypoMatcher holding the packed list resident in WASM memory.
 *
 * Built from the `word-ids` database of a read snapshot and cached per index; when
 * `words-version` changes (the word-index updater bumps it whenever a word appears or
 * disappears), the words the writes since created and deleted are merged into it
 * (index-changes.ts), which costs copies of its arrays where reading and packing the whole list
 * again costs ~70 ms on movies and ~170 ms on debdocs (most of it the read; an index's first
 * search after a start pays it); it is built again when those writes are not all recorded.
 * Main thread only (the matcher owns a kernels instance, which the next version's matcher takes
 * over).
 */
import { packWordList, repackWordList, TypoMatcher, type PackedWordList, type WordSource } from '../../kernels/typo.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { readWordsVersion, wordChangesSince, type WordChanges } from '../index-changes.js';

export interface Dictionary {
  readonly version: number;
  /** sorted by code point */
  readonly words: readonly string[];
  /** word id of each word, parallel to `words` */
  readonly ids: Uint32Array;
  /** one more than the largest id */
  readonly idLimit: number;
  readonly matcher: TypoMatcher;
}

// keyed by environment object: a deleted and re-created index gets a new one
const cache = new WeakMap<IndexReadEnv, Dictionary>();

/** The dictionary of `env` as of its current snapshot. */
export function dictionaryOf(env: IndexReadEnv): Dictionary {
  const version = readWordsVersion(env);
  const cached = cache.get(env);
  if (cached !== undefined && cached.version === version) return cached;
  const changes = cached === undefined ? null : wordChangesSince(env, cached.version);
  const { words, ids, list, idLimit } = changes === null ? readWords(env) : mergeWords(cached!, changes);
  // the replaced dictionary's kernels instance is taken over: searches use a dictionary within one
  // synchronous call (search.ts), so the replaced one is never used again
  const matcher = cached === undefined ? new TypoMatcher(list) : cached.matcher.succeededBy(list);
  const dictionary: Dictionary = { version, words, ids, idLimit, matcher };
  cache.set(env, dictionary);
  return dictionary;
}

interface Words {
  readonly words: readonly string[];
  readonly ids: Uint32Array;
  readonly list: PackedWordList;
  readonly idLimit: number;
}

/** One more than the largest of `ids`. */
function limitOf(ids: Uint32Array): number {
  let limit = 0;
  for (let k = 0; k < ids.length; k++) if (ids[k]! >= limit) limit = ids[k]! + 1;
  return limit;
}

/** Every word of the snapshot, packed. */
function readWords(env: IndexReadEnv): Words {
  const words: string[] = [];
  const idList: number[] = [];
  for (const { key, value } of env.wordIds.getRange()) {
    words.push(key);
    idList.push(value.readUInt32LE(0));
  }
  const ids = Uint32Array.from(idList);
  return { words, ids, list: packWordList(words), idLimit: limitOf(ids) };
}

/** Arrays joined per `concat` call (a spread of many more risks the engine's argument limit). */
const CONCAT_ARGUMENTS = 4096;

/** `old`'s words with the created ones inserted and the deleted ones left out, write by write. */
function mergeWords(old: Dictionary, changes: readonly WordChanges[]): Words {
  // net effect: a word deleted then created again gets its new id
  const added = new Map<string, number>();
  const removed = new Set<string>();
  for (const change of changes) {
    for (const word of change.removed) if (!added.delete(word)) removed.add(word);
    for (const [word, id] of change.added) added.set(word, id);
  }
  const inserts = [...added].sort((a, b) => compareCodePoints(a[0], b[0]));
  const drops: number[] = [];
  for (const word of removed) {
    const at = lowerBound(old.words, word);
    if (old.words[at] === word) drops.push(at);
  }
  drops.sort((a, b) => a - b);
  // the kept words are copied in runs (array slices, typed-array copies): this runs once per
  // write, in code too cold for a loop per word to be cheap
  const n = old.words.length + inserts.length - drops.length;
  const pieces: string[][] = [];
  const sources: WordSource[] = [];
  const ids = new Uint32Array(n);
  let k = 0;
  let i = 0;
  const copyTo = (end: number) => {
    if (end <= i) return;
    pieces.push(old.words.slice(i, end));
    sources.push({ from: i, to: end });
    ids.set(old.ids.subarray(i, end), k);
    k += end - i;
    i = end;
  };
  let d = 0;
  for (const [word, id] of inserts) {
    const place = lowerBound(old.words, word);
    // the deleted words before it are skipped, then it goes before old word `place`
    for (; d < drops.length && drops[d]! < place; d++) {
      copyTo(drops[d]!);
      i++;
    }
    copyTo(place);
    pieces.push([word]);
    sources.push(word);
    ids[k++] = id;
  }
  for (; d < drops.length; d++) {
    copyTo(drops[d]!);
    i++;
  }
  copyTo(old.words.length);
  // the largest id is recounted only when a deleted word held it
  let idLimit = old.idLimit;
  for (const [, id] of inserts) idLimit = Math.max(idLimit, id + 1);
  if (drops.some((at) => old.ids[at]! + 1 === old.idLimit)) idLimit = limitOf(ids);
  // concat copies arrays whole (flat goes element by element: 10 ms for debdocs' 136,549 words)
  let words: string[] = [];
  for (let p = 0; p < pieces.length; p += CONCAT_ARGUMENTS) words = words.concat(...pieces.slice(p, p + CONCAT_ARGUMENTS));
  return { words, ids, list: repackWordList(old.matcher.list, sources), idLimit };
}

/** Code-point comparison of two strings (JS `<` compares UTF-16 units, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // surrogates (U+D800–DFFF) encode code points above every BMP unit
    if (x >= 0xd800 && y >= 0xd800) {
      x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
      y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** First index in `words` whose word is ≥ `word`. */
export function lowerBound(words: readonly string[], word: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(words[mid]!, word) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index range of the words starting with `prefix`. */
export function prefixRange(words: readonly string[], prefix: string): [number, number] {
  const from = lowerBound(words, prefix);
  let lo = from;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]!.startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return [from, lo];
}
