/**
 * Cutting JavaScript strings, whose indices count UTF-16 units: a cut between the two halves of a
 * surrogate pair (a code point above U+FFFF) would leave a lone surrogate, which UTF-8 encoding
 * turns into U+FFFD. Pure; shared by the bounds on long inputs (query, facet query, filter
 * values), the embedders' text pieces, the trims that walk a string's edges, and what counts
 * characters as Rust does (code points, a lone surrogate being one) without spreading a string
 * into an array of them.
 */

/** Where a cut of `text` from `start` of at most `units` UTF-16 units ends: never inside a surrogate pair. */
export function unitEnd(text: string, start: number, units: number): number {
  const end = Math.min(text.length, start + units);
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** The first `units` UTF-16 units of `text` at most, without half a surrogate pair. */
export function leadingUnits(text: string, units: number): string {
  return text.length <= units ? text : text.slice(0, unitEnd(text, 0, units));
}

/**
 * Where `text` starts once its leading units that `strip` takes are cut off, walked once: a
 * pattern for an edge run (`/x+$/`) retries every inner run to its end, quadratic in it.
 */
export function strippedStart(text: string, strip: (unit: number) => boolean): number {
  let start = 0;
  while (start < text.length && strip(text.charCodeAt(start))) start++;
  return start;
}

/** Where `text` ends once its trailing units that `strip` takes are cut off, never before `start`. */
export function strippedEnd(text: string, strip: (unit: number) => boolean, start = 0): number {
  let end = text.length;
  while (end > start && strip(text.charCodeAt(end - 1))) end--;
  return end;
}

/** Whether a surrogate pair starts at `i` of `text`. */
function pairAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  return unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}

/** The code points of `text` between two UTF-16 indices (`[...text].length` for the whole), counted in place. */
export function codePointCount(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let i = from; i < to; i++, count++) if (pairAt(text, i)) i++;
  return count;
}

/** The UTF-16 index where code point `n` of `text`, counted from index `from`, starts (its length past the end). */
export function unitIndexOf(text: string, n: number, from = 0): number {
  let i = from;
  for (let point = 0; point < n && i < text.length; point++) i += pairAt(text, i) ? 2 : 1;
  return i;
}
