/**
 * charabia's `char_map` of one word token: for each character of its original text, the UTF-8
 * bytes normalisation turns it into (0 for a dropped mark or control character, 2 for `ﬁ` → `fi`).
 * milli's matcher reads it to highlight a prefix match (`Token::original_lengths`): as many
 * original characters as it takes to cover the query word's bytes in the normalised word.
 *
 * The kernel gives a token's normalised word, not its map: the map is rebuilt here character by
 * character with the normalisers of the token's script (normalize-word.ts), under each gate its
 * script group may have had (the group's script is its first character's that has one, maybe before
 * the token; a Cj group's language), and kept only if the pieces join into the kernel's word. Pure.
 */
import { SCRIPTS } from './charabia-data.js';
import { normalizeWord, type NormalizerGates } from './normalize-word.js';
import { lemmaOf, SCRIPT_OTHER, scriptOf } from './unicode.js';
import { utf8Length } from './utf8.js';

const SCRIPT_CJ = SCRIPTS.indexOf('Cj');
const SCRIPT_LATIN = SCRIPTS.indexOf('Latin');
const CJ_GATES = [
  [true, true],
  [true, false],
  [false, true],
  [false, false],
] as const;

/**
 * The normalised UTF-8 bytes of each character of `text`, a word token whose normalised form is
 * `normalized`; null when no gate's per-character normalisation gives it back (a recomposition
 * that joins characters: Swedish `a` + ring, a Greek final sigma inside a word).
 */
export function charNormalizedBytes(text: string, normalized: string): number[] | null {
  let script = SCRIPT_OTHER;
  for (const ch of text) {
    script = scriptOf(ch.codePointAt(0)!);
    if (script !== SCRIPT_OTHER) break;
  }
  const gates: NormalizerGates[] =
    script === SCRIPT_CJ
      ? CJ_GATES.map(([chinese, japanese]) => ({ script, chinese, japanese, swedish: false }))
      : // a word of Other characters alone (marks, ligatures, digits) has its group's script: one
        // that drops marks or one that keeps them
        (script === SCRIPT_OTHER ? [SCRIPT_OTHER, SCRIPT_LATIN] : [script]).map((gated) => ({ script: gated, chinese: false, japanese: false, swedish: false }));
  for (const gate of gates) {
    const pieces: string[] = [];
    for (const ch of text) pieces.push(normalizeWord(lemmaOf(ch.codePointAt(0)!), gate));
    if (pieces.join('') === normalized) return pieces.map(utf8Length);
  }
  return null;
}
