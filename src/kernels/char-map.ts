/**
 * charabia's `char_map` of one word token: for each character of its original text, the UTF-8
 * bytes normalisation turns it into (0 for a dropped mark or control character, 2 for `ﬁ` → `fi`).
 * milli's matcher reads it to highlight a prefix match (`Token::original_lengths`): as many
 * original characters as it takes to cover the query word's bytes in the normalised word.
 *
 * The kernel gives a token's normalised word, not its map: each character is normalised here
 * alone with the normalisers of the token's script group (normalize-word.ts), its piece found at
 * its place in the kernel's word, and the map kept only if the pieces make that word. The group's
 * script is its first character's that has one, maybe before the token: a token of Other
 * characters alone is tried as one that keeps marks, then as one that drops them. In Cj text a
 * piece is matched by its length in characters: ChineseNormalizer maps an ideograph to another
 * (kVariants), one for one, whose table the browser build leaves out. Pure.
 */
import { SCRIPTS } from './charabia-data.js';
import { normalizeWord } from './normalize-word.js';
import { lemmaOf, SCRIPT_OTHER, scriptOf } from './unicode.js';
import { utf8Length } from './utf8.js';

const SCRIPT_CJ = SCRIPTS.indexOf('Cj');
const SCRIPT_LATIN = SCRIPTS.indexOf('Latin');

/** The map under one script, or null when the pieces do not make `target` (the normalised word's characters). */
function mapUnder(text: string, target: readonly string[], script: number): number[] | null {
  // katakana to hiragana keeps a character's length: Japanese or not, a Cj piece is matched by length
  const gates = { script, chinese: null, japanese: false, swedish: false };
  const lengths: number[] = [];
  let at = 0;
  for (const ch of text) {
    const piece = [...normalizeWord(lemmaOf(ch.codePointAt(0)!), gates)];
    const actual = target.slice(at, at + piece.length);
    if (actual.length !== piece.length || (script !== SCRIPT_CJ && actual.join('') !== piece.join(''))) return null;
    lengths.push(utf8Length(actual.join('')));
    at += piece.length;
  }
  return at === target.length ? lengths : null;
}

/**
 * The normalised UTF-8 bytes of each character of `text`, a word token whose normalised form is
 * `normalized`; null when per-character normalisation does not give it back (a recomposition that
 * joins characters: Swedish `a` + ring; a Greek final sigma inside a word).
 */
export function charNormalizedBytes(text: string, normalized: string): number[] | null {
  let script = SCRIPT_OTHER;
  for (const ch of text) {
    script = scriptOf(ch.codePointAt(0)!);
    if (script !== SCRIPT_OTHER) break;
  }
  const target = [...normalized];
  for (const tried of script === SCRIPT_OTHER ? [SCRIPT_OTHER, SCRIPT_LATIN] : [script]) {
    const lengths = mapUnder(text, target, tried);
    if (lengths !== null) return lengths;
  }
  return null;
}
