/**
 * How milli stores the stop words (settings.md §4 stopWords): a non-lossy normalisation (NFKD,
 * control characters removed, case kept), deduplicated and byte-sorted. Pure. (Typo-exempt words
 * go through the tokenizer: engine/exact-words.ts.)
 */
import { sortedSet } from '../types/bytes.js';

const CONTROL = /\p{Cc}/gu;

export function normalizeStopWords(words: readonly string[]): string[] {
  return sortedSet(words.map((word) => word.normalize('NFKD').replace(CONTROL, '')));
}
