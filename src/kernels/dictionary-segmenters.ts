/**
 * Word boundaries from the dictionary segmenters Meilisearch's charabia (0.9.9) runs on text written
 * without spaces: jieba (jieba-rs, jieba's dict.txt) for Chinese, lindera with IPADIC for Japanese
 * and with ko-dic for Korean, both in Decompose mode. (charabia's default features segment Japanese
 * with UniDic instead, which lindera-wasm lacks.) Both are ours in TypeScript (dictionaries/), over
 * the dictionaries jieba-wasm's and lindera-wasm's module files carry, with the same results as
 * those libraries (test/kernels/dictionaries/ compares them) in a fraction of their memory.
 *
 * Input: one run of characters between separators, as charabia hands its segmenters the text between
 * separators. Output: the UTF-16 indexes strictly inside the run where a piece starts.
 *
 * Chinese is charabia's ChineseSegmenter: jieba's `cut(run, hmm = false)`, then charabia's
 * `cut_for_search` on each piece: a piece of at most 2 characters, or of ASCII letters and digits
 * only, stays whole; any other is split greedily from the left into a dictionary word of 2
 * characters, else of 3, else 1 character.
 *
 * Each dictionary loads on first use, as most processes and worker threads never see these
 * scripts: the build's compiled copy (dictionaries/compiled.ts) opens in about 3 ms and 1 MiB of
 * RSS, and its pages are read in as segmentation reaches them (dictionary-pages.ts), so a corpus
 * with a few words in these scripts holds a few hundred KiB of each dictionary, and one written in
 * them all of it (4, 11 and 30 MB for jieba's, IPADIC and ko-dic). Without that copy a dictionary
 * is read from its package's files in 95, 70 and 140 ms and 22, 17 and 42 MiB, the inflated files
 * being garbage until V8 collects them (bench/dictionary-segmenters.ts); the libraries' own took
 * 70, 137 and 110 MiB.
 *
 * Cost and memory are linear in the run's length. A run is handed over whole up to `WINDOW` code
 * units, which covers any realistic run exactly; a longer one goes in windows that overlap by
 * `OVERLAP` units, which bounds the memory a segmenter's buffers take: the pieces starting in a
 * window's last `OVERLAP` units are dropped and the next window starts at the last piece kept.
 * That is not exact, as both segmenters choose the best path over the whole run, but the choice
 * that far from a window's end is settled in practice: test/kernels/dictionary-segmenters.test.ts
 * checks windowed runs against whole ones, where no overlap at all fails.
 */
import { jiebaCut, jiebaDictionaryLoaded, jiebaHasWord, unloadJiebaDictionary } from './dictionaries/jieba.js';
import { linderaDictionaryLoaded, linderaWordStarts, unloadLinderaDictionaries } from './dictionaries/lindera.js';
import { isSurrogatePair } from './utf16.js';

export type DictionaryLanguage = 'cmn' | 'jpn' | 'kor';

/** Longest run segmented in one call; larger ones go in overlapping windows. */
const WINDOW = 1 << 16;
/** Code units at a window's end whose pieces are left to the next window. */
const OVERLAP = 1 << 10;

/**
 * The UTF-16 indexes in `text` (strictly between 0 and its length, increasing) where the segmenter
 * of `language` starts a piece. A lone surrogate is segmented as U+FFFD, as the libraries read it.
 */
export function dictionaryWordStarts(text: string, language: DictionaryLanguage): number[] {
  if (text.length < 2) return [];
  const starts = language === 'cmn' ? chineseStarts : (run: string) => linderaWordStarts(run, language);
  if (text.length <= WINDOW) return starts(text);
  const out: number[] = [];
  let from = 0;
  while (text.length - from > WINDOW) {
    const end = pairSafe(text, from + WINDOW);
    const keep = pairSafe(text, end - OVERLAP);
    // A piece longer than the window is left whole: the next window starts inside it.
    let next = keep;
    for (const start of starts(text.slice(from, end))) {
      if (from + start >= keep) break;
      out.push((next = from + start));
    }
    from = next;
  }
  for (const start of starts(text.slice(from))) out.push(from + start);
  return out;
}

/** Drops every dictionary this thread loaded, closing the files they read in from. */
export function unloadDictionaries(): void {
  unloadJiebaDictionary();
  unloadLinderaDictionaries();
}

/** The languages whose dictionary this thread has loaded. */
export function loadedDictionaries(): DictionaryLanguage[] {
  return (['cmn', 'jpn', 'kor'] as const).filter((language) => (language === 'cmn' ? jiebaDictionaryLoaded() : linderaDictionaryLoaded(language)));
}

function chineseStarts(text: string): number[] {
  const pieces = jiebaCut(text);
  const out: number[] = [];
  for (let p = 0; p < pieces.length; p++) {
    const start = pieces[p]!;
    const end = pieces[p + 1] ?? text.length;
    if (start > 0) out.push(start);
    // a piece of two units or fewer has two characters or fewer: most of jieba's words
    if (end - start <= 2) continue;
    const piece = text.slice(start, end);
    if (ASCII_ALPHANUMERIC.test(piece)) continue;
    // Characters, not UTF-16 units: units[c] is character c's index in the piece.
    const characters = characterUnits(piece);
    if (characters <= 2) continue;
    for (let at = 0; ; ) {
      if (at + 2 <= characters && jiebaHasWord(piece.slice(units[at], units[at + 2]))) at += 2;
      else if (at + 3 <= characters && jiebaHasWord(piece.slice(units[at], units[at + 3]))) at += 3;
      else at += 1;
      if (at >= characters) break;
      out.push(start + units[at]!);
    }
  }
  return out;
}

const ASCII_ALPHANUMERIC = /^[A-Za-z0-9]+$/;

/** `characterUnits`' answer, grown as needed: an array per jieba word was a fifth of segmenting Chinese. */
let units = new Uint32Array(64);

/**
 * Sets `units` to the UTF-16 index of each code point of `text` (a lone surrogate is one), then
 * `text.length`; answers the count of code points. Valid until the next call.
 */
function characterUnits(text: string): number {
  if (units.length < text.length + 1) units = new Uint32Array(Math.max(text.length + 1, 2 * units.length));
  let count = 0;
  for (let unit = 0; unit < text.length; unit += isSurrogatePair(text, unit) ? 2 : 1) units[count++] = unit;
  units[count] = text.length;
  return count;
}

/** `at`, or one less if it would cut a surrogate pair. */
function pairSafe(text: string, at: number): number {
  return isSurrogatePair(text, at - 1) ? at - 1 : at;
}
