/**
 * Rust's whitespace: `char::is_whitespace` (the Unicode White_Space property) and `str::trim`.
 * JS's `trim` and `\s` also take U+FEFF; a pattern for the trailing run
 * (`/\p{White_Space}+$/g`) tries every position of an inner run to its end, quadratic in it (a
 * filter value with 60,000 inner spaces took 1.5 s to normalise). The runs here are walked once
 * (utf16.ts).
 */
import { strippedEnd, strippedStart } from './utf16.js';

/** Rust's `char::is_whitespace`, for a code point or a UTF-16 unit (White_Space lies in the BMP). */
export function isRustWhitespace(point: number): boolean {
  return point <= 0x20
    ? point === 0x20 || (point >= 0x09 && point <= 0x0d)
    : point >= 0x85 &&
        point <= 0x3000 &&
        (point === 0x85 ||
          point === 0xa0 ||
          point === 0x1680 ||
          (point >= 0x2000 && point <= 0x200a) ||
          point === 0x2028 ||
          point === 0x2029 ||
          point === 0x202f ||
          point === 0x205f ||
          point === 0x3000);
}

/** Where `text` starts once its leading whitespace is stripped. */
export function trimmedStart(text: string): number {
  return strippedStart(text, isRustWhitespace);
}

/** Where `text` ends once its trailing whitespace is stripped, never before `start`. */
export function trimmedEnd(text: string, start = 0): number {
  return strippedEnd(text, isRustWhitespace, start);
}

/** Rust's `str::trim`. */
export function rustTrim(text: string): string {
  const start = trimmedStart(text);
  return text.slice(start, trimmedEnd(text, start));
}
