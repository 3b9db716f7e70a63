/**
 * charabia 0.9.9's lossy normalisers of one word, in its order, on the word's NFKD lemma (unicode.ts
 * `lemmaOf`), gated as charabia gates them by the word's script group and its language. Shared by
 * the reference tokenizer (reference/tokenizer.ts, the kernel's oracle) and the formatter's
 * per-character map (char-map.ts). Pure; no I/O.
 */
import { CHARACTER_CONVERSIONS, MARK_REMOVING_SCRIPTS, SCRIPTS } from './charabia-data.js';
import { katakanaToHiragana } from './kana.js';
import { recomposeSwedish } from './unicode.js';

/** Which normalisers a word's script group turns on. */
export interface NormalizerGates {
  readonly script: number;
  /**
   * Cj text that whatlang would call Mandarin or give no language: ChineseNormalizer's mapping of
   * an ideograph (kvariants.ts `kvariantOf`, passed in so that its table is loaded only by whoever
   * needs it: the browser build's formatter does not); null where it does not apply.
   */
  readonly chinese: ((ideograph: string) => string) | null;
  /** Cj text that whatlang would call Japanese or give no language, no lone locale naming another: JapaneseNormalizer applies. */
  readonly japanese: boolean;
  /** Latin text of a string whose kernel byte says Swedish: SwedishRecompositionNormalizer applies. */
  readonly swedish: boolean;
}

const SCRIPT_GREEK = SCRIPTS.indexOf('Greek');
const markRemoving = new Set(MARK_REMOVING_SCRIPTS);
const markCache = new Map<string, boolean>();

function isNonspacingMark(ch: string): boolean {
  let mark = markCache.get(ch);
  if (mark === undefined) {
    mark = /\p{Mn}/u.test(ch);
    markCache.set(ch, mark);
  }
  return mark;
}

/** The lossy normalisers, in charabia's order. */
export function normalizeWord(lemma: string, { script, chinese, japanese, swedish }: NormalizerGates): string {
  // SwedishRecompositionNormalizer: on the NFKD lemma, before the lossy normalisers.
  if (swedish) lemma = recomposeSwedish(lemma);
  // CharacterConverterNormalizer: char::to_lowercase (at most two chars kept), then conversions.
  // Per character: String.prototype.toLowerCase on a whole word would apply the final-sigma rule.
  let word = '';
  for (const ch of lemma) {
    for (const lower of [...ch.toLowerCase()].slice(0, 2)) word += CHARACTER_CONVERSIONS[lower] ?? lower;
  }
  // ChineseNormalizer: each ideograph to its kVariants destination.
  if (chinese !== null) word = [...word].map(chinese).join('');
  // JapaneseNormalizer: katakana to hiragana.
  if (japanese) word = katakanaToHiragana(word);
  if (script === SCRIPT_GREEK && word.endsWith('ς')) word = word.slice(0, -1) + 'σ';
  if (markRemoving.has(script)) word = [...word].filter((ch) => !isNonspacingMark(ch)).join('');
  return word;
}
