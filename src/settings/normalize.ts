/**
 * How milli stores the word settings (settings.md §4 stopWords, §5 disableOnWords): stop words
 * get a non-lossy normalisation (NFKD, control characters removed, case kept); typo-exempt words
 * go through the default tokenizer and keep the concatenation of their tokens' normalised forms.
 * Called while applying a settings patch, on the scheduler thread (one tokenizer call per patch).
 */
import { materializeTokens, tokenizeBatch } from '../kernels/tokenizer.js';
import { sortedSet } from './bytes.js';

const CONTROL = /\p{Cc}/gu;

export function normalizeStopWords(words: readonly string[]): string[] {
  return sortedSet(words.map((word) => word.normalize('NFKD').replace(CONTROL, '')));
}

export function normalizeExactWords(words: readonly string[]): string[] {
  if (words.length === 0) return [];
  const normalized = words.map(() => '');
  // Separators keep their own text: milli concatenates every token's lemma, separators included.
  for (const token of materializeTokens(tokenizeBatch(words), words)) {
    normalized[token.string] += token.kind === 'word' ? token.normalized : token.text;
  }
  return sortedSet(normalized);
}
