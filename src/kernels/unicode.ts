/**
 * charabia's per-character facts computed from the running Node's Unicode data (not from the
 * kernel's generated tables): a code point's script (Script::from) and lemma (NFKD, then
 * ControlCharNormalizer). Shared by the word segmentation pre-pass (segmentation.ts), the
 * custom-token compiler (custom-tokens.ts), which must classify tokens exactly as the reference
 * does, and the tests' reference tokenizer (reference/tokenizer.ts).
 */
import { SCRIPT_RANGES } from './charabia-data.js';

export const SCRIPT_OTHER = 0;

const scriptCache = new Map<number, number>();
const lemmaCache = new Map<number, string>();

/** charabia Script::from(char): the first matching range wins. */
export function scriptOf(cp: number): number {
  let script = scriptCache.get(cp);
  if (script === undefined) {
    script = SCRIPT_RANGES.find(([first, last]) => cp >= first && cp <= last)?.[2] ?? SCRIPT_OTHER;
    scriptCache.set(cp, script);
  }
  return script;
}

/** Control characters ControlCharNormalizer removes (white space is kept). */
export const isControl = (ch: string): boolean => /\p{Cc}/u.test(ch) && !/\p{White_Space}/u.test(ch);

/** CompatibilityDecompositionNormalizer then ControlCharNormalizer, for one character. */
export function lemmaOf(cp: number): string {
  let lemma = lemmaCache.get(cp);
  if (lemma === undefined) {
    lemma = [...String.fromCodePoint(cp).normalize('NFKD')].filter((ch) => !isControl(ch)).join('');
    lemmaCache.set(cp, lemma);
  }
  return lemma;
}

/** SwedishRecompositionNormalizer on an NFKD lemma: `å`, `ä`, `ö` (and capitals) composed again. */
export function recomposeSwedish(lemma: string): string {
  return lemma.replace(/[aA]\u030a|[aAoO]\u0308/g, (pair) => pair.normalize('NFC'));
}

/** The lemma of a whole text: its characters' lemmas in order. */
export function lemmaOfText(text: string): string {
  let lemma = '';
  for (const ch of text) lemma += lemmaOf(ch.codePointAt(0)!);
  return lemma;
}
