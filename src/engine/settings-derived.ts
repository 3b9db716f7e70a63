/**
 * What tokenizing and matching derive from an index's settings (the stop-word set, the compiled
 * custom tokens, ...), derived once per settings object instead of per search or per extracted
 * part: searches share one settings object until a commit changes it (index-settings.ts
 * `searchSettings`), a write and each extraction worker one per batch. With 3,000 synonyms or
 * 100,000 stop words, deriving them per request took ~45 ms of every search. Settings objects
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

/** The stop words, as a set. */
export const stopWordSet: (settings: Pick<IndexSettings, 'stopWords'>) => ReadonlySet<string> = derivedOnce((settings) => new Set(settings.stopWords));

/** The custom tokens compiled for the tokenizer, or undefined when they tokenize like the defaults. */
export const tokenizerRules: (settings: TokenizerSettings) => CustomTokens | undefined = derivedOnce(customTokens);

/** `typoTolerance.disableOnWords`, as a set. */
export const typoExemptWords: (settings: Pick<IndexSettings, 'typoTolerance'>) => ReadonlySet<string> = derivedOnce((settings) => new Set(settings.typoTolerance.disableOnWords));
