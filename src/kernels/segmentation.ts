/**
 * Word boundaries inside the scripts written without spaces between words (Han and kana, Hangul,
 * Thai, Lao, Khmer, Myanmar), found with ICU's dictionaries through `Intl.Segmenter`: the host
 * pre-pass of the tokenizer kernel, which only splits on separators. Meilisearch (charabia) runs
 * a dictionary segmenter on these scripts (jieba, lindera, its Thai and Khmer dictionaries), so
 * `北京大学` holds the words `北京` and `大学` and a word inside a sentence can be found.
 *
 * Output: per batch, sorted (string index, UTF-8 byte offset) pairs, byte offsets into the
 * ORIGINAL string, handed to the kernel in one region (assembly/tokenize.ts splits a pending
 * word there). A boundary is kept only when a character of those scripts touches it, so the
 * rest of the text stays under the kernel's rules; the kernel ignores boundaries that fall
 * inside a separator or custom token it matched, so dictionary words stay whole.
 * Cost: a string whose UTF-8 is as long as its UTF-16 is ASCII and skipped by the caller; any
 * other string pays one regular-expression scan, and only windows around characters of those
 * scripts are segmented. Segmenting the whole string would be quadratic: V8's segment iterator
 * costs more per segment the longer the string (2.6 µs at 1,000 characters, 22 µs at 43,000).
 * Windows are cut where ICU always breaks and no rule looks across (see `isSplit`), so each gives
 * the boundaries the whole string would; a window takes in the segmented characters that follow
 * while it is shorter than `WINDOW`, as each call costs about as much as a few segments. A run of
 * those scripts with no ASCII whitespace, 、 or 。 stays one window: such text is still quadratic.
 * No locale is passed: ICU picks its dictionary by character (cjdict for Han and kana, thaidict,
 * laodict, khmerdict, burmesedict), so `zh`, `ja`, `ko`, `th` or `en` give identical boundaries,
 * and the `locales` search parameter and `localizedAttributes` setting would change nothing.
 */
import { SCRIPT_RANGES, SCRIPTS } from './reference/charabia-data.js';
import { decodeUtf8 } from './reference/utf8.js';
import type { Utf8Batch } from './tokenizer.js';

/** charabia's scripts that get a dictionary segmenter, plus Lao (charabia's Script::Other) */
const SEGMENTED_SCRIPTS: ReadonlySet<string> = new Set(['Cj', 'Hangul', 'Thai', 'Khmer', 'Myanmar']);
const LAO: readonly [number, number] = [0x0e80, 0x0eff];

/** Per BMP code unit: 1 if it belongs to a segmented script (every such character is in the BMP). */
const SEGMENTED = new Uint8Array(0x10000);
// charabia's Script::from takes the first matching range, so earlier ranges are written last.
for (const [first, last, script] of [...SCRIPT_RANGES].reverse()) {
  if (first <= 0xffff) SEGMENTED.fill(SEGMENTED_SCRIPTS.has(SCRIPTS[script]!) ? 1 : 0, first, Math.min(last, 0xffff) + 1);
}
SEGMENTED.fill(1, LAO[0], LAO[1] + 1);

/**
 * Finds characters of a segmented script, and some neighbours: the one scan every non-ASCII
 * string pays. Few wide ranges make it several times faster than the exact list; `nextSegmented`
 * checks a match against SEGMENTED.
 */
const SEGMENTED_CLASS = new RegExp(`[${codeUnitRanges(SEGMENTED, 0x100)}]`, 'g');
/**
 * The characters ICU may join to a space or 。 before them (WB3 CR LF, WB3d spaces, WB4 Extend,
 * Format and ZWJ), with margin: any whitespace, mark and format character.
 */
const JOINS_PREVIOUS = /[\s\u0085\p{M}\p{Cf}\p{Grapheme_Extend}\p{Emoji_Modifier}]/uy;
/** Length up to which a window takes in more segmented characters; ICU's cost per segment is flat below it. */
const WINDOW = 512;
const LONE_SURROGATE = /[\ud800-\udfff]/gu;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
// ignoreBOM keeps a leading U+FEFF, as decodeUtf8 does.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Appends the word boundaries of string `index` (`text`) to `out` as (index, byte offset) pairs. */
export function pushWordBreaks(out: number[], index: number, text: string): void {
  const first = nextSegmented(text, 0);
  if (first < 0) return;
  // Encoding turns a lone surrogate into U+FFFD; segment what the kernel sees.
  const wellFormed = text.replace(LONE_SURROGATE, '\ufffd');
  pushBoundaries(out, index, wellFormed, first, utf8Cursor(wellFormed));
}

/** The same for a string given as UTF-8, which may be invalid (it is decoded as TextDecoder does). */
export function pushWordBreaksOfBytes(out: number[], index: number, bytes: Uint8Array): void {
  // Every segmented character takes three bytes, so a string without such a lead byte has none.
  if (!bytes.some((b) => b >= 0xe0)) return;
  const text = decoder.decode(bytes);
  const first = nextSegmented(text, 0);
  if (first < 0) return;
  // Without U+FFFD the bytes were valid, so each character's bytes are its encoding.
  if (!text.includes('\ufffd')) {
    pushBoundaries(out, index, text, first, utf8Cursor(text));
    return;
  }
  // decodeUtf8 decodes to the same text, and gives the bytes each character came from.
  const offsets: number[] = [];
  for (const char of decodeUtf8(bytes)) {
    offsets.push(char.start);
    if (char.cp > 0xffff) offsets.push(char.start);
  }
  pushBoundaries(out, index, text, first, (at) => offsets[at]!);
}

/** The word boundaries of every string of a byte batch, as `pushWordBreaks` gives them for strings. */
export function wordBreaksOfBatch(batch: Utf8Batch): number[] {
  const out: number[] = [];
  for (let i = 0; i < batch.spans.length / 2; i++) {
    const offset = batch.spans[2 * i]!;
    pushWordBreaksOfBytes(out, i, batch.bytes.subarray(offset, offset + batch.spans[2 * i + 1]!));
  }
  return out;
}

/**
 * ICU's boundaries inside `text` that touch a segmented character, found window by window from
 * the segmented character at `first`; `byteOffset` maps a UTF-16 index to its byte offset, and
 * is called with increasing indexes.
 */
function pushBoundaries(out: number[], index: number, text: string, first: number, byteOffset: (at: number) => number): void {
  let from = 0; // the end of the last window
  while (first >= 0) {
    let start = first;
    while (start > from && !isSplit(text, start)) start--;
    let end = splitAfter(text, first);
    let next: number;
    while ((next = nextSegmented(text, end)) >= 0 && next - start < WINDOW) end = splitAfter(text, next);
    // The start is a boundary of the whole string too, kept below when the character at it is
    // segmented; the end is the next window's start (the character before it is not segmented).
    for (const { index: offset } of segmenter.segment(text.slice(start, end))) {
      const at = start + offset;
      if (at === 0) continue;
      if (SEGMENTED[text.charCodeAt(at - 1)] === 1 || SEGMENTED[text.charCodeAt(at)] === 1) out.push(index, byteOffset(at));
    }
    from = end;
    first = next;
  }
}

/** Index of the first segmented character at or after `from`, or -1. */
function nextSegmented(text: string, from: number): number {
  SEGMENTED_CLASS.lastIndex = from;
  for (let match; (match = SEGMENTED_CLASS.exec(text)) !== null; ) {
    if (SEGMENTED[text.charCodeAt(match.index)] === 1) return match.index;
  }
  return -1;
}

/**
 * Whether a window may start at `p` (0 < p < length): ICU breaks there whatever the text around
 * it, and segments each side as it would alone. After ASCII whitespace, 、 or 。 (Word_Break Other,
 * WSegSpace, CR, LF or Newline; neither segmented nor in ICU's dictionary set) only CR LF, two
 * WSegSpace and WB4 (a following Extend, Format or ZWJ) join, and no rule of ICU's word.txt has
 * such a character inside it. Unlike ',', '.' or ':', which join letters and digits (UAX #29 WB6-12).
 */
function isSplit(text: string, p: number): boolean {
  const before = text.charCodeAt(p - 1);
  if (before !== 0x20 && (before < 0x09 || before > 0x0d) && before !== 0x3001 && before !== 0x3002) return false;
  JOINS_PREVIOUS.lastIndex = p;
  return !JOINS_PREVIOUS.test(text);
}

/** The first split point after `i`, or the end of `text`. */
function splitAfter(text: string, i: number): number {
  let p = i + 1;
  while (p < text.length && !isSplit(text, p)) p++;
  return p;
}

/** Byte offsets of a well-formed string's UTF-16 indexes, asked for in increasing order. */
function utf8Cursor(text: string): (at: number) => number {
  let unit = 0;
  let bytes = 0;
  return (at) => {
    for (; unit < at; unit++) {
      const code = text.charCodeAt(unit);
      // A surrogate pair is four bytes: two for each half.
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdfff ? 2 : 3;
    }
    return bytes;
  };
}

/** A regular-expression character class body covering the code units flagged in `table`, gaps up to `maxGap` included. */
function codeUnitRanges(table: Uint8Array, maxGap: number): string {
  const hex = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;
  let body = '';
  let first = -1;
  let last = -1;
  for (let unit = 0; unit <= table.length; unit++) {
    const flagged = unit < table.length && table[unit] === 1;
    if (!flagged && unit < table.length) continue;
    if (first >= 0 && (!flagged || unit - last > maxGap)) {
      body += `${hex(first)}-${hex(last)}`;
      first = -1;
    }
    if (flagged) {
      if (first < 0) first = unit;
      last = unit;
    }
  }
  return body;
}
