/**
 * UTF-16 code units of JS strings, for the segmenters that cut text by unit offsets
 * (dictionary-segmenters.ts, prefix-segmenter.ts): never between the two halves of a pair.
 */

/** Whether the units at `at` and `at + 1` are a surrogate pair (one code point above U+FFFF). */
export function isSurrogatePair(text: string, at: number): boolean {
  const high = text.charCodeAt(at);
  const low = text.charCodeAt(at + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
