/**
 * Whether a document holds a phrase, as v1.50 decides it (milli's `compute_phrase_docids`,
 * search.md §7 "Phrase"): not one contiguous run, but every non-stop word present and, for each
 * window of 3 consecutive phrase words (the whole phrase if shorter), each adjacent pair with the
 * second word directly after the first and the window's outer pair forward at distance 1 or 2.
 * Each pair may be met at a different place, but inside one field (milli reads them from its
 * word-pair-proximity database, which pairs words of one field). A stop word is a one-position
 * hole: it takes part in no pair. With proximityPrecision `byAttribute` a pair only needs both
 * words in one field. Pure: works on the places (field << 16 | position) read from forward records.
 */

/** One pair the phrase needs: word `left` then word `right` (phrase offsets) at most `within` after it. */
export interface PhrasePair {
  readonly left: number;
  readonly right: number;
  readonly within: number;
}

/** The pairs a phrase of `words` (null: a stop-word hole) needs, each once. */
export function phrasePairs(words: readonly (string | null)[]): PhrasePair[] {
  const size = Math.min(words.length, 3);
  const pairs: PhrasePair[] = [];
  const seen = new Set<string>();
  for (let start = 0; start + size <= words.length; start++) {
    for (let left = start; left < start + size; left++) {
      for (let right = left + 1; right < start + size; right++) {
        if (words[left] === null || words[right] === null) continue;
        const pair = { left, right, within: right - left };
        const key = `${left}:${right}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push(pair);
      }
    }
  }
  return pairs;
}

/**
 * Whether some place of `right` lies 1 to `within` positions after a place of `left` in the same
 * field (`byAttribute`: whether some field holds both). Places of one word ascend within a field.
 */
export function pairMet(left: ArrayLike<number>, right: ArrayLike<number>, within: number, byAttribute: boolean): boolean {
  for (let i = 0; i < left.length; i++) {
    const l = left[i]!;
    const field = l >>> 16;
    for (let j = 0; j < right.length; j++) {
      const r = right[j]!;
      if (r >>> 16 !== field) continue;
      if (byAttribute) return true;
      const distance = r - l;
      if (distance >= 1 && distance <= within) return true;
      if (distance > within) break;
    }
  }
  return false;
}

/** Whether the places of the phrase's words (by phrase offset; holes ignored) meet every pair. */
export function phraseMet(pairs: readonly PhrasePair[], placesAt: (offset: number) => ArrayLike<number>, byAttribute: boolean): boolean {
  for (const { left, right, within } of pairs) if (!pairMet(placesAt(left), placesAt(right), within, byAttribute)) return false;
  return true;
}
