/**
 * Cutting JavaScript strings, whose indices count UTF-16 units: a cut between the two halves of a
 * surrogate pair (a code point above U+FFFF) would leave a lone surrogate, which UTF-8 encoding
 * turns into U+FFFD. Pure; shared by the bounds on long inputs (query, facet query, filter
 * values) and the embedders' text pieces.
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
