/**
 * How milli stores the typo-exempt words (settings.md §5 `typoTolerance.disableOnWords`): each
 * goes through the default tokenizer and keeps the concatenation of its tokens' normalised forms;
 * the set is deduplicated and byte-sorted. The settings merge (settings/merge.ts) gets it from the
 * callers that apply patches: the settings processor, on the scheduler thread (one tokenizer call
 * per patch), and the dump import.
 */
import { tokenizeBatch, visitTokens } from '../kernels/tokenizer.js';
import { sortedSet } from '../types/bytes.js';

export function normalizeExactWords(words: readonly string[]): string[] {
  if (words.length === 0) return [];
  const normalized = words.map(() => '');
  // Separators keep their own text: milli concatenates every token's lemma, separators included.
  visitTokens(tokenizeBatch(words), words, (string, word, lemma, text) => {
    normalized[string] += word ? lemma : text();
  });
  return sortedSet(normalized);
}
