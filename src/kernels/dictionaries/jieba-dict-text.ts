/**
 * The entries of a jieba dictionary file (dict.txt), read as jieba-rs's `load_dict` reads them: the
 * text is UTF-8 (a Rust `str`); each line, up to '\n', is split at whitespace (Rust's
 * `char::is_whitespace`) into fields; a line without any is skipped; the first field is the word,
 * the second, if any, its frequency (a wasm32 `usize`: an optional '+', then decimal digits, at
 * most 2^32 - 1; 0 when missing), and the rest (the part-of-speech tag) go unused. Anything else is
 * an error jieba-rs fails on too.
 */
import { isRustWhitespace } from '../../types/rust-whitespace.js';

/** Reads the entries of a dict.txt, decoding each word to UTF-16. */
export class DictionaryEntries {
  /** The current entry's word: its UTF-16 units, `word[0, length)` (a buffer reused from entry to entry). */
  word: Uint16Array = new Uint16Array(64);
  length = 0;
  frequency = 0;
  /** The current entry's line, from 1. */
  line = 0;
  /** Where the next line starts. */
  private at = 0;

  constructor(private readonly text: Uint8Array) {}

  /** Moves to the next entry: false past the last. */
  next(): boolean {
    while (this.at < this.text.length) {
      this.at = this.readLine(this.text, this.at);
      if (this.length > 0) return true;
    }
    return false;
  }

  /**
   * Reads the line at `text[from]`: the position after it. The entry goes to `word`, `length` (0
   * for a line without one) and `frequency`.
   */
  private readLine(text: Uint8Array, from: number): number {
    const end = text.length;
    let word = this.word;
    let fields = 0;
    let inField = false;
    let length = 0;
    let frequencyStart = from;
    let frequencyEnd = from;
    let at = from;
    for (;;) {
      let point = at < end ? text[at]! : 0x0a;
      let size = 1;
      if (point >= 0x80) {
        size = point >= 0xc2 && point <= 0xdf ? 2 : point >= 0xe0 && point <= 0xef ? 3 : point >= 0xf0 && point <= 0xf4 ? 4 : 0;
        if (at + size > end) size = 0;
        point = decode(text, at, size, this.line + 1);
      }
      if (point === 0x0a || isRustWhitespace(point)) {
        if (inField && fields === 2) frequencyEnd = at;
        inField = false;
        if (point === 0x0a) break;
      } else {
        if (!inField) {
          inField = true;
          if (++fields === 2) frequencyStart = at;
        }
        if (fields === 1) {
          if (length + 2 > word.length) this.word = word = grow(word);
          if (point > 0xffff) {
            word[length++] = 0xd7c0 + (point >> 10);
            word[length++] = 0xdc00 | (point & 0x3ff);
          } else {
            word[length++] = point;
          }
        }
      }
      at += size;
    }
    this.line++;
    this.length = length;
    this.frequency = fields > 1 ? parseFrequency(text, frequencyStart, frequencyEnd, this.line) : 0;
    return at + 1;
  }
}

/** The digits of `text[from, to)` as a wasm32 `usize`, as Rust's `str::parse` reads them. */
function parseFrequency(text: Uint8Array, from: number, to: number, line: number): number {
  let value = 0;
  for (let at = text[from] === 0x2b && to - from > 1 ? from + 1 : from; at < to; at++) {
    const digit = text[at]! - 0x30;
    if (digit < 0 || digit > 9 || (value = value * 10 + digit) > 0xffffffff) {
      throw new Error(`jieba dictionary line ${line}: frequency "${new TextDecoder().decode(text.subarray(from, to))}" is not a 32-bit unsigned integer`);
    }
  }
  return value;
}

/** The code point of the `size`-byte UTF-8 sequence at `at` (0: no valid lead byte); throws if it is ill-formed. */
function decode(text: Uint8Array, at: number, size: number, line: number): number {
  let point = text[at]! & (size === 2 ? 0x1f : size === 3 ? 0x0f : 0x07);
  for (let i = 1; i < size; i++) {
    const next = text[at + i]!;
    if ((next & 0xc0) !== 0x80) break;
    point = (point << 6) | (next & 0x3f);
    if (i === size - 1 && point >= MIN_POINT[size]! && (point < 0xd800 || point > 0xdfff) && point <= 0x10ffff) return point;
  }
  throw new Error(`jieba dictionary line ${line}: not UTF-8`);
}

/** The least code point of each encoded size (fewer bytes would do for a lower one). */
const MIN_POINT = [0, 0, 0x80, 0x800, 0x10000];

function grow(word: Uint16Array): Uint16Array {
  const larger = new Uint16Array(word.length * 2);
  larger.set(word);
  return larger;
}
