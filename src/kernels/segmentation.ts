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
 * other string pays one regular-expression test, and only strings containing those scripts
 * are segmented.
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
 * Matches any character of a segmented script, and some neighbours: the one test every non-ASCII
 * string pays. Few wide ranges make it several times faster than the exact list, and a false
 * positive only costs a segmentation whose boundaries pushBoundaries then drops.
 */
const HAS_SEGMENTED = new RegExp(`[${codeUnitRanges(SEGMENTED, 0x100)}]`);
const LONE_SURROGATE = /[\ud800-\udfff]/gu;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Appends the word boundaries of string `index` (`text`) to `out` as (index, byte offset) pairs. */
export function pushWordBreaks(out: number[], index: number, text: string): void {
  if (!HAS_SEGMENTED.test(text)) return;
  // Encoding turns a lone surrogate into U+FFFD; segment what the kernel sees.
  const wellFormed = text.replace(LONE_SURROGATE, '\ufffd');
  pushBoundaries(out, index, wellFormed, utf8Offsets(wellFormed));
}

/** The same for a string given as UTF-8, which may be invalid (it is decoded as TextDecoder does). */
export function pushWordBreaksOfBytes(out: number[], index: number, bytes: Uint8Array): void {
  // Every segmented character takes three bytes, so a string without such a lead byte has none.
  if (!bytes.some((b) => b >= 0xe0)) return;
  let text = '';
  const offsets: number[] = [];
  for (const char of decodeUtf8(bytes)) {
    const ch = String.fromCodePoint(char.cp);
    for (let unit = 0; unit < ch.length; unit++) offsets.push(char.start);
    text += ch;
  }
  offsets.push(bytes.length);
  if (HAS_SEGMENTED.test(text)) pushBoundaries(out, index, text, offsets);
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

/** ICU's boundaries inside `text` that touch a segmented character; `offsets` maps UTF-16 index → byte. */
function pushBoundaries(out: number[], index: number, text: string, offsets: ArrayLike<number>): void {
  for (const { index: at } of segmenter.segment(text)) {
    if (at === 0) continue;
    if (SEGMENTED[text.charCodeAt(at - 1)] === 1 || SEGMENTED[text.charCodeAt(at)] === 1) out.push(index, offsets[at]!);
  }
}

/** UTF-8 byte offset of every UTF-16 index of a well-formed string (and of its end). */
function utf8Offsets(text: string): Uint32Array {
  const offsets = new Uint32Array(text.length + 1);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    offsets[i] = bytes;
    const unit = text.charCodeAt(i);
    // A surrogate pair is four bytes: two for each half.
    bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit >= 0xd800 && unit <= 0xdfff ? 2 : 3;
  }
  offsets[text.length] = bytes;
  return offsets;
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
