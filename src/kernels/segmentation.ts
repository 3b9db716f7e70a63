/**
 * Word boundaries inside the scripts written without spaces between words: the host pre-pass of
 * the tokenizer kernel, which only splits on separators. Meilisearch (charabia) runs a
 * dictionary segmenter there, so `北京大学` holds the words `北京` and `大学` and a word inside a
 * sentence can be found:
 * - Han and kana (charabia's Cj script) and Hangul: charabia's own segmenters, jieba for text
 *   whatlang calls Mandarin and lindera (IPADIC) for Japanese, lindera (ko-dic) for Korean
 *   (dictionary-segmenters.ts), each run between separators of a script group segmented alone,
 *   as charabia does. The Mandarin-or-Japanese call is languages.ts `cjIsJapanese` over the
 *   group, as the kernel makes it for the Chinese variants.
 * - Thai and Khmer: charabia's ThaiSegmenter and KhmerSegmenter, the longest word of their
 *   word lists (PyThaiNLP's, ICU's khmerdict) at each position, each other character alone
 *   (prefix-segmenter.ts); each run between separators of a script group segmented alone. Lao
 *   (charabia's Script::Other) and Myanmar have no segmenter in charabia, so their runs stay whole.
 * - Arabic script: charabia's ArabicSegmenter cuts the article ال off the words that start with
 *   it (`startsArticle`).
 * - Latin text of a string whose locales make it German (languages.ts): charabia's German
 *   segmenter (german-segmenter.ts) cuts each run between separators into dictionary words.
 *
 * A run of numeric characters and ASCII punctuation only is never segmented (charabia's
 * `maybe_number`).
 *
 * Output: per batch, sorted (string index, UTF-8 byte offset) pairs, byte offsets into the
 * ORIGINAL string, handed to the kernel in one region (assembly/tokenize.ts splits a pending
 * word there); the kernel ignores boundaries that fall inside a separator or custom token it
 * matched, so dictionary words stay whole.
 * Cost: a string whose UTF-8 is as long as its UTF-16 is ASCII and skipped by the caller unless
 * it is German; any other string pays one regular-expression scan, and only the script groups
 * around characters of the segmented scripts are segmented.
 */
import { DEFAULT_SEPARATORS, SCRIPT_RANGES, SCRIPTS, WHATLANG_MANDARIN_RANGES } from './charabia-data.js';
import { SCRIPT_OTHER, scriptOf } from './unicode.js';
import { decodeUtf8 } from './utf8.js';
import type { DictionaryLanguage } from './dictionary-segmenters.js';
import { germanWordStarts } from './german-segmenter.js';
import { prefixWordStarts, wordTrie, type WordTrie } from './prefix-segmenter.js';
import { wordList } from './word-lists.js';
import { cjIsJapanese, isKana, Lang, latinAllowList } from './languages.js';
import { detectLatinLanguage } from './whatlang-latin.js';
import { segmentRuns, type Run } from './run-segmenter.js';
import type { Utf8Batch } from './token-records.js';

/** How a BMP character is segmented (every segmented character is in the BMP). */
const enum Segmented {
  No = 0,
  /** Thai and Khmer: their word lists, per script group */
  WordList = 1,
  /** Han and kana: jieba or lindera IPADIC, per script group */
  Cj = 2,
  /** lindera ko-dic, per script group */
  Hangul = 3,
  /** an alef that may begin the article ال, which charabia's ArabicSegmenter cuts off */
  Alef = 4,
}

const SCRIPT_CJ = SCRIPTS.indexOf('Cj');
const SCRIPT_HANGUL = SCRIPTS.indexOf('Hangul');
const SCRIPT_LATIN = SCRIPTS.indexOf('Latin');
const SCRIPT_THAI = SCRIPTS.indexOf('Thai');
const SCRIPT_KHMER = SCRIPTS.indexOf('Khmer');

/** Per BMP code unit: charabia's script (Script::from; a surrogate is looked up whole). */
const SCRIPT_OF = new Uint8Array(0x10000);
/** Per BMP code unit: its `Segmented` kind. */
const SEGMENTED = new Uint8Array(0x10000);
// charabia's Script::from takes the first matching range, so earlier ranges are written last.
for (const [first, last, script] of [...SCRIPT_RANGES].reverse()) {
  if (first > 0xffff) continue;
  const end = Math.min(last, 0xffff) + 1;
  SCRIPT_OF.fill(script, first, end);
  const kind = script === SCRIPT_CJ ? Segmented.Cj : script === SCRIPT_HANGUL ? Segmented.Hangul : script === SCRIPT_THAI || script === SCRIPT_KHMER ? Segmented.WordList : Segmented.No;
  SEGMENTED.fill(kind, first, end);
}
const SCRIPT_ARABIC = SCRIPTS.indexOf('Arabic');
const LAM = 0x0644;
// ا أ إ آ ٱ
for (const alef of [0x0627, 0x0623, 0x0625, 0x0622, 0x0671]) SEGMENTED[alef] = Segmented.Alef;
/** UAX #29 letters and digits: no word boundary between one and a letter after it. */
const JOINS_NEXT_LETTER = /[\p{L}\p{Nd}]/u;
/** A run charabia keeps whole as a number: numeric characters and ASCII punctuation only (Rust `is_numeric`, `is_ascii_punctuation`). */
const MAYBE_NUMBER = /^[\p{N}!-/:-@[-`{-~]+$/u;
/** UAX #29 Extend, Format and ZWJ characters, which a boundary looks through (WB4). */
const IGNORED_BY_WORDS = /[\p{M}\p{Cf}\p{Emoji_Modifier}]/u;

/** Whether Latin text of this `Lang` is German, or may be as whatlang chooses among its locales. */
export function latinMayBeGerman(lang: number): boolean {
  return (lang & Lang.German) !== 0 || ((lang & Lang.DetectLatin) !== 0 && latinAllowList(lang).has('deu'));
}

/** The Thai and Khmer word tries, built when a thread first meets such text. */
let thaiWords: WordTrie | undefined;
let khmerWords: WordTrie | undefined;

/** The characters that cut a script group into the runs charabia segments alone: the one-character default separators. */
const SEPARATOR = new Uint8Array(0x10000);
for (const separator of DEFAULT_SEPARATORS) if (separator.length === 1) SEPARATOR[separator.charCodeAt(0)] = 1;

/**
 * Finds characters of a segmented script, and some neighbours: the one scan every non-ASCII
 * string pays. Few wide ranges make it several times faster than the exact list; `nextSegmented`
 * checks a match against SEGMENTED.
 */
const SEGMENTED_CLASS = new RegExp(`[${codeUnitRanges(SEGMENTED, 0x100)}]`, 'g');
const MANDARIN = new Uint8Array(0x10000);
for (const [first, last] of WHATLANG_MANDARIN_RANGES) MANDARIN.fill(1, first, last + 1);
const LONE_SURROGATE = /[\ud800-\udfff]/gu;
// ignoreBOM keeps a leading U+FEFF, as decodeUtf8 does.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The word boundaries of the strings of one tokenizer call: the word lists' found as each string
 * is added, the dictionary segmenters' for all the runs at once (run-segmenter.ts), as they may run in
 * another thread.
 */
export class WordBreaks {
  private readonly strings: { index: number; found: number[]; byteOffset: (at: number) => number }[] = [];
  private readonly runs: Run[] = [];
  /** per run: its string (in `strings`) and where it starts there */
  private readonly runPlaces: number[] = [];

  /** Adds string `index` (`text`), whose Cj text `lang` (languages.ts) constrains. */
  add(index: number, text: string, lang: number): void {
    const first = nextSegmented(text, 0);
    if (first < 0 && !latinMayBeGerman(lang)) return;
    // Encoding turns a lone surrogate into U+FFFD; segment what the kernel sees.
    const wellFormed = text.replace(LONE_SURROGATE, '\ufffd');
    this.addText(index, wellFormed, first, utf8Cursor(wellFormed), lang);
  }

  /** The same for a string given as UTF-8, which may be invalid (it is decoded as TextDecoder does). */
  addBytes(index: number, bytes: Uint8Array, lang: number): void {
    const german = latinMayBeGerman(lang);
    // Every segmented character takes three bytes but the alefs (U+0622 to U+0671, lead bytes D8
    // and D9), so a string without such a lead byte has none.
    if (!german && !bytes.some((b) => b >= 0xd8)) return;
    const text = decoder.decode(bytes);
    const first = nextSegmented(text, 0);
    if (first < 0 && !german) return;
    // Without U+FFFD the bytes were valid, so each character's bytes are its encoding.
    if (!text.includes('\ufffd')) {
      this.addText(index, text, first, utf8Cursor(text), lang);
      return;
    }
    // decodeUtf8 decodes to the same text, and gives the bytes each character came from.
    const offsets: number[] = [];
    for (const char of decodeUtf8(bytes)) {
      offsets.push(char.start);
      if (char.cp > 0xffff) offsets.push(char.start);
    }
    // a break may fall at the end (after an article that ends the string)
    offsets.push(bytes.length);
    this.addText(index, text, first, (at) => offsets[at]!, lang);
  }

  /** Every boundary, as (string index, byte offset) pairs in increasing order (strings added in order). */
  finish(): number[] {
    segmentRuns(this.runs).forEach((starts, run) => {
      const { found } = this.strings[this.runPlaces[2 * run]!]!;
      const start = this.runPlaces[2 * run + 1]!;
      for (const offset of starts) found.push(start + offset);
    });
    const out: number[] = [];
    for (const { index, found, byteOffset } of this.strings) {
      found.sort((a, b) => a - b);
      let last = 0;
      for (const at of found) {
        if (at === last) continue;
        out.push(index, byteOffset(at));
        last = at;
      }
    }
    return out;
  }

  /**
   * The word lists' boundaries of `text` from the segmented character at `first` on (none when
   * -1), its dictionary runs, and the German segmenter's boundaries when its Latin text is German.
   */
  private addText(index: number, text: string, first: number, byteOffset: (at: number) => number, lang: number): void {
    const found: number[] = [];
    const string = this.strings.length;
    this.strings.push({ index, found, byteOffset });
    if (latinMayBeGerman(lang)) pushGermanBoundaries(found, text, lang);
    if (first < 0) return;
    let groupEnd = 0; // the end of the last segmented script group
    const emit = (start: number, run: Run): void => {
      this.runs.push(run);
      this.runPlaces.push(string, start);
    };
    // a script group's segmented characters are all of its script (an alef, being Arabic, ends a
    // group): the search goes on after the group, not at each of its characters (every character of
    // Chinese, Japanese or Korean text is segmented: a sixth of tokenizing Korean)
    for (let at = first; at >= 0; at = nextSegmented(text, Math.max(at + 1, groupEnd))) {
      const kind = SEGMENTED[text.charCodeAt(at)]!;
      if (kind === Segmented.Alef) {
        if (startsArticle(text, at)) found.push(at + 2);
      } else if (kind === Segmented.WordList) groupEnd = pushWordListBoundaries(found, text, at);
      else groupEnd = groupRuns(text, at, lang, emit);
    }
  }
}

/** Appends the word boundaries of string `index` (`text`) to `out` as (index, byte offset) pairs. */
export function pushWordBreaks(out: number[], index: number, text: string, lang: number): void {
  const breaks = new WordBreaks();
  breaks.add(index, text, lang);
  out.push(...breaks.finish());
}

/** The same for a string given as UTF-8, which may be invalid (it is decoded as TextDecoder does). */
export function pushWordBreaksOfBytes(out: number[], index: number, bytes: Uint8Array, lang: number): void {
  const breaks = new WordBreaks();
  breaks.addBytes(index, bytes, lang);
  out.push(...breaks.finish());
}

/** The word boundaries of every string of a byte batch, as `pushWordBreaks` gives them for strings. */
export function wordBreaksOfBatch(batch: Utf8Batch, langs?: ArrayLike<number>): number[] {
  const breaks = new WordBreaks();
  for (let i = 0; i < batch.spans.length / 2; i++) {
    const offset = batch.spans[2 * i]!;
    breaks.addBytes(i, batch.bytes.subarray(offset, offset + batch.spans[2 * i + 1]!), langs?.[i] ?? Lang.Detect);
  }
  return breaks.finish();
}

/**
 * The script group (charabia SegmentedStrIter) of the character at `at`, as [start, end): it
 * holds the characters of its script and Script::Other around it, the Other characters after
 * another script's text belonging to that text's group.
 */
function groupAround(text: string, at: number): [number, number] {
  const script = SCRIPT_OF[text.charCodeAt(at)]!;
  let start = at;
  for (let p = at - 1; p >= 0; p--) {
    const other = scriptAt(text, p);
    if (other === script) start = p;
    else if (other !== SCRIPT_OTHER) break;
    // a group that starts the string takes in the Other characters before its first character
    else if (p === 0) start = 0;
  }
  let end = at + 1;
  while (end < text.length) {
    const other = scriptAt(text, end);
    if (other !== script && other !== SCRIPT_OTHER) break;
    end++;
  }
  return [start, end];
}

/**
 * Calls `each` with the start and end of every run of `text[start, end)` between separators that
 * charabia hands to a segmenter: not one of a single character, which has no boundary inside, nor
 * one of numeric characters and ASCII punctuation only (`maybe_number`).
 */
function forEachRun(text: string, start: number, end: number, each: (start: number, end: number) => void): void {
  let runStart = start;
  for (let p = start; p <= end; p++) {
    if (p < end && SEPARATOR[text.charCodeAt(p)] !== 1) continue;
    if (p - runStart > 1 && !MAYBE_NUMBER.test(text.slice(runStart, p))) each(runStart, p);
    runStart = p + 1;
  }
}

/** The segmenter of the Thai or Khmer group of the character at `at`, run by run; returns the group's end. */
function pushWordListBoundaries(found: number[], text: string, at: number): number {
  const [start, end] = groupAround(text, at);
  const words = SCRIPT_OF[text.charCodeAt(at)] === SCRIPT_THAI ? (thaiWords ??= wordTrie(wordList('thai'))) : (khmerWords ??= wordTrie(wordList('khmer')));
  forEachRun(text, start, end, (runStart, runEnd) => {
    // each character no word starts with is a piece alone (BufferingStrategy max_char_count 1)
    for (const offset of prefixWordStarts(words, text.slice(runStart, runEnd), 1)) found.push(runStart + offset);
  });
  return end;
}

/**
 * The runs of the script group of the Cj or Hangul character at `at`, given to `emit` with their
 * start, each run between separators being segmented alone; none for Cj text whose language no
 * segmenter serves (Lang.CjPlain). Returns the group's end.
 */
function groupRuns(text: string, at: number, lang: number, emit: (start: number, run: Run) => void): number {
  const [start, end] = groupAround(text, at);
  const hangul = SCRIPT_OF[text.charCodeAt(at)] === SCRIPT_HANGUL;
  if (!hangul && (lang & Lang.CjPlain) !== 0) return end;
  const language = hangul ? 'kor' : cjLanguage(text, start, end, lang);
  forEachRun(text, start, end, (runStart, runEnd) => emit(runStart, { text: text.slice(runStart, runEnd), language }));
  return end;
}

/**
 * charabia's GermanSegmenter on the Latin text of a string whose locales make it German, or on
 * each Latin script group whatlang calls German among the locales (Lang.DetectLatin): each run
 * between separators is cut into dictionary words (german-segmenter.ts).
 */
function pushGermanBoundaries(found: number[], text: string, lang: number): void {
  for (const { start, end, language } of latinGroupLanguages(text, lang)) {
    if ((lang & Lang.German) === 0 && language !== 'deu') continue;
    forEachRun(text, start, end, (runStart, runEnd) => {
      for (const offset of germanWordStarts(text.slice(runStart, runEnd))) found.push(runStart + offset);
    });
  }
}

/** A Latin script group of a string, and whatlang's language for it (null when not asked). */
export interface LatinGroup {
  readonly start: number;
  readonly end: number;
  readonly language: string | null;
}

/** The last string `latinGroupLanguages` answered for, as the tokenizer asks twice per string. */
let lastGroups: { text: string; lang: number; groups: LatinGroup[] } | undefined;

/**
 * The Latin script groups of `text`, each with the language whatlang picks for it among the
 * allowed Latin languages when `lang` has DetectLatin (charabia asks whatlang per group only
 * then: a lone locale is the language, and without locales Latin text has none).
 */
export function latinGroupLanguages(text: string, lang: number): LatinGroup[] {
  if (lastGroups?.text === text && lastGroups.lang === lang) return lastGroups.groups;
  const detect = (lang & Lang.DetectLatin) !== 0;
  const groups: LatinGroup[] = [];
  let groupEnd = 0;
  for (let at = 0; at < text.length; at++) {
    if (at < groupEnd || SCRIPT_OF[text.charCodeAt(at)] !== SCRIPT_LATIN) continue;
    const [start, end] = groupAround(text, at);
    groups.push({ start, end, language: detect ? whatlangOf(text.slice(start, end), latinAllowList(lang)) : null });
    groupEnd = end;
  }
  lastGroups = { text, lang, groups };
  return groups;
}

/** whatlang's language of a Latin group's text, or null (a script whatlang counts otherwise). */
function whatlangOf(group: string, allowed: ReadonlySet<string>): string | null {
  try {
    return detectLatinLanguage(group, allowed);
  } catch {
    return null;
  }
}

/**
 * Whether the alef at `at` and a lam after it begin a word of Arabic-script text: charabia's
 * ArabicSegmenter cuts ال (and أل إل آل ٱل) off each UAX #29 word that starts with it, so
 * الشجرة holds the words ال and شجرة. It segments the text of an Arabic script group between
 * separators, so a word starts at the alef when the group does (the Other characters before it
 * belong to the text of another script before them), after a separator, or after a character
 * UAX #29 does not join to a letter (Extend and Format characters skipped).
 */
function startsArticle(text: string, at: number): boolean {
  if (text.charCodeAt(at + 1) !== LAM) return false;
  let p = at - 1;
  while (p >= 0 && scriptAt(text, p) === SCRIPT_OTHER) p--;
  if (p >= 0 && scriptAt(text, p) !== SCRIPT_ARABIC) return true;
  for (let q = at - 1; q >= 0; q--) {
    // a separator, or the text of another script before the group, ends the text segmented
    if (SEPARATOR[text.charCodeAt(q)] === 1) return true;
    const script = scriptAt(text, q);
    if (script !== SCRIPT_OTHER && script !== SCRIPT_ARABIC) return true;
    const low = text.charCodeAt(q);
    const previous = low >= 0xdc00 && low <= 0xdfff && q > 0 ? text.slice(--q, q + 2) : text[q]!;
    if (IGNORED_BY_WORDS.test(previous)) continue;
    return !JOINS_NEXT_LETTER.test(previous);
  }
  return true;
}

/** jieba or lindera for the Cj group `text[start, end)`: whatlang's call (languages.ts). */
function cjLanguage(text: string, start: number, end: number, lang: number): DictionaryLanguage {
  let kana = 0;
  let mandarin = 0;
  for (let p = start; p < end; p++) {
    const unit = text.charCodeAt(p);
    if (isKana(unit)) kana++;
    else if (MANDARIN[unit] === 1) mandarin++;
  }
  return cjIsJapanese(kana, mandarin, lang) ? 'jpn' : 'cmn';
}

/** charabia's script of the character at `p` (the whole pair for a surrogate half). */
function scriptAt(text: string, p: number): number {
  const unit = text.charCodeAt(p);
  if (unit < 0xd800 || unit > 0xdfff) return SCRIPT_OF[unit]!;
  const cp = text.codePointAt(unit <= 0xdbff ? p : p - 1)!;
  return cp > 0xffff ? scriptOf(cp) : SCRIPT_OF[unit]!;
}

/** Index of the first segmented character at or after `from`, or -1. */
function nextSegmented(text: string, from: number): number {
  SEGMENTED_CLASS.lastIndex = from;
  for (let match; (match = SEGMENTED_CLASS.exec(text)) !== null; ) {
    if (SEGMENTED[text.charCodeAt(match.index)] !== Segmented.No) return match.index;
  }
  return -1;
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

/** A regular-expression character class body covering the code units not 0 in `table`, gaps up to `maxGap` included. */
function codeUnitRanges(table: Uint8Array, maxGap: number): string {
  const hex = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;
  let body = '';
  let first = -1;
  let last = -1;
  for (let unit = 0; unit <= table.length; unit++) {
    const flagged = unit < table.length && table[unit] !== 0;
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
