/**
 * What tokenizing and matching derive from an index's settings (the stop-word set, the compiled
 * custom tokens, ...), derived once per settings object instead of per search or per extracted
 * part: searches share one settings object until a commit changes it (index-settings.ts
 * `searchSettings`), a write and each extraction worker one per batch; the stop-word set is
 * also kept from one batch to the next while the stop words stay the same. With 3,000 synonyms
 * or 100,000 stop words, deriving them per request took ~45 ms of every search. Settings objects
 * are never mutated, so a value derived from one stays true for it.
 */
import { customTokens, type CustomTokens, type TokenizerSettings } from '../kernels/custom-tokens.js';
import type { IndexSettings } from '../types/settings.js';

/** `derive`, computed once per key object (kept as long as the key is). */
export function derivedOnce<K extends object, T>(derive: (key: K) => T): (key: K) => T {
  const values = new WeakMap<K, { value: T }>();
  return (key) => {
    let held = values.get(key);
    if (held === undefined) values.set(key, (held = { value: derive(key) }));
    return held.value;
  };
}

/** Whether two lists hold the same strings in the same order. */
function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The stop-word set made last, kept for settings read again with the same stop words: a write
 * reads its index's settings afresh for each batch, so a set per settings object was a set per
 * batch (900,000 stop words: ~1 s of the writer's thread, and the extraction kernel's table of
 * them, kept per set, built again too; comparing the lists takes milliseconds).
 */
let lastStopWords: { readonly words: readonly string[]; readonly set: ReadonlySet<string> } | undefined;

/** The stop words, as a set (the same set for the same stop words, read again). */
export const stopWordSet: (settings: Pick<IndexSettings, 'stopWords'>) => ReadonlySet<string> = derivedOnce(({ stopWords }) => {
  if (lastStopWords === undefined || !sameStrings(lastStopWords.words, stopWords)) lastStopWords = { words: stopWords, set: new Set(stopWords) };
  return lastStopWords.set;
});

/** The custom tokens compiled for the tokenizer, or undefined when they tokenize like the defaults. */
export const tokenizerRules: (settings: TokenizerSettings) => CustomTokens | undefined = derivedOnce(customTokens);

/** `typoTolerance.disableOnWords`, as a set. */
export const typoExemptWords: (settings: Pick<IndexSettings, 'typoTolerance'>) => ReadonlySet<string> = derivedOnce((settings) => new Set(settings.typoTolerance.disableOnWords));
