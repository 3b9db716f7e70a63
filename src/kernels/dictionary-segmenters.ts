/**
 * Word boundaries from the dictionary segmenters Meilisearch's charabia (0.9.9) runs on text written
 * without spaces, the same libraries built to WebAssembly: jieba (jieba-rs, jieba's dict.txt) for
 * Chinese, lindera with IPADIC for Japanese and with ko-dic for Korean, both in Decompose mode.
 * (charabia's default features segment Japanese with UniDic instead, which lindera-wasm lacks.)
 *
 * Input: one run of characters between separators, as charabia hands its segmenters the text between
 * separators. Output: the UTF-16 indexes strictly inside the run where a piece starts.
 *
 * Chinese is charabia's ChineseSegmenter: jieba's `cut(run, hmm = false)`, then charabia's
 * `cut_for_search` on each piece: a piece of at most 2 characters, or of ASCII letters and digits
 * only, stays whole; any other is split greedily from the left into a dictionary word of 2
 * characters, else of 3, else 1 character. jieba-wasm has no `has_word`; its `tokenize` in search
 * mode emits, before each piece of that same cut, the piece's 2-character substrings that are
 * dictionary words (pieces longer than 2 characters) and its 3-character ones (pieces longer than
 * 3), each checked with the dictionary lookup `has_word` is. That is every lookup the greedy split
 * makes but one: the 3 characters of a 3-character piece, which is a dictionary word (jieba's cut
 * makes a piece of several characters only of a dictionary word or of ASCII letters and digits).
 *
 * Each dictionary loads on first use, as most processes and worker threads never see these
 * scripts: jieba takes about 350 ms and 70 MiB of RSS; lindera's module, which embeds all its
 * dictionaries (compressed, 40 MB, held once: lean-wasm.ts), with IPADIC about 450 ms and 137 MiB,
 * and ko-dic then 400 ms and 110 MiB more (bench/dictionary-segmenters.ts).
 *
 * Cost is linear in the run's length (jieba about 1 M characters per second, lindera 50 to 90 k,
 * most of it building lindera's token objects), but the WebAssembly memory a call grows is never
 * given back (lindera's by about 0.5 KB per character past 60,000). So a run is handed over whole
 * up to `WINDOW` code units, which covers any realistic run exactly; a longer one goes in windows
 * that overlap by `OVERLAP` units: the pieces starting in a window's last `OVERLAP` units are
 * dropped and the next window starts at the last piece kept. That is not exact, as both
 * segmenters choose the best path over the whole run, but the choice that far from a window's end
 * is settled in practice: test/kernels/dictionary-segmenters.test.ts checks windowed runs against
 * whole ones, where no overlap at all fails.
 */
import { createRequire } from 'node:module';
import { initSync, type Tokenizer, TokenizerBuilder } from 'lindera-wasm';
import { compileLean } from './lean-wasm.js';
import { isSurrogatePair } from './utf16.js';

export type DictionaryLanguage = 'cmn' | 'jpn' | 'kor';

type Jieba = typeof import('jieba-wasm');

/** Longest run segmented in one call; larger ones go in overlapping windows. */
const WINDOW = 1 << 16;
/** Code units at a window's end whose pieces are left to the next window. */
const OVERLAP = 1 << 10;

const require = createRequire(import.meta.url);
let jieba: Jieba | undefined;
let linderaReady = false;
const linderaTokenizers = new Map<'jpn' | 'kor', Tokenizer>();

/**
 * The UTF-16 indexes in `text` (strictly between 0 and its length, increasing) where the segmenter
 * of `language` starts a piece. A lone surrogate is segmented as U+FFFD, as the libraries read it.
 */
export function dictionaryWordStarts(text: string, language: DictionaryLanguage): number[] {
  if (text.length < 2) return [];
  const starts = language === 'cmn' ? chineseStarts : (run: string) => linderaStarts(run, linderaTokenizer(language));
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

/** Loads the dictionary of `language` in this thread, if it is not loaded yet. */
export function loadDictionary(language: DictionaryLanguage): void {
  if (language === 'cmn') loadJieba();
  else linderaTokenizer(language);
}

/** The languages whose dictionary this thread has loaded. */
export function loadedDictionaries(): DictionaryLanguage[] {
  return (['cmn', 'jpn', 'kor'] as const).filter((language) => (language === 'cmn' ? jieba !== undefined : linderaTokenizers.has(language)));
}

function chineseStarts(text: string): number[] {
  const tokens = loadJieba().tokenize(text, 'search', false);
  // Tokens count characters (code points); units[c] is character c's UTF-16 index.
  const units = characterUnits(text);
  // Per character: 1 if the 2 characters from it are a dictionary word, 2 if the 3 are.
  const words = new Uint8Array(units.length);
  // Each piece comes after its sub-words, which lie inside it; the pieces tile the run.
  const pieceStarts: number[] = [];
  let pieceStart = Infinity;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const { start, end } = tokens[i]!;
    if (start >= pieceStart) words[start] |= end - start === 2 ? 1 : 2;
    else pieceStarts.push((pieceStart = start));
  }
  pieceStarts.reverse();
  const out: number[] = [];
  for (let p = 0; p < pieceStarts.length; p++) {
    const start = pieceStarts[p]!;
    const end = pieceStarts[p + 1] ?? units.length - 1;
    if (start > 0) out.push(units[start]);
    if (end - start <= 2 || ASCII_ALPHANUMERIC.test(text.slice(units[start], units[end]))) continue;
    for (let at = start; ; ) {
      if (at + 2 <= end && (words[at] & 1) !== 0) at += 2;
      else if (at + 3 <= end && ((words[at] & 2) !== 0 || end - start === 3)) at += 3;
      else at += 1;
      if (at >= end) break;
      out.push(units[at]);
    }
  }
  return out;
}

const ASCII_ALPHANUMERIC = /^[A-Za-z0-9]+$/;

function linderaStarts(text: string, tokenizer: Tokenizer): number[] {
  const tokens = tokenizer.tokenize(text) as readonly { readonly byteStart: number }[];
  const out: number[] = [];
  let unit = 0;
  let byte = 0;
  for (const { byteStart } of tokens) {
    // Offsets are into the UTF-8 the string was encoded to (a lone surrogate as U+FFFD's 3 bytes).
    while (byte < byteStart && unit < text.length) {
      const code = text.charCodeAt(unit);
      if (isSurrogatePair(text, unit)) {
        unit += 2;
        byte += 4;
      } else {
        unit += 1;
        byte += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
      }
    }
    if (unit > (out.at(-1) ?? 0) && unit < text.length) out.push(unit);
  }
  return out;
}

function loadJieba(): Jieba {
  if (jieba === undefined) {
    const loaded = require('jieba-wasm') as Jieba;
    // The dictionary is parsed on the first cut: pay it here, with the rest of the load.
    loaded.cut('', false);
    jieba = loaded;
  }
  return jieba;
}

function linderaTokenizer(language: 'jpn' | 'kor'): Tokenizer {
  let tokenizer = linderaTokenizers.get(language);
  if (tokenizer === undefined) {
    if (!linderaReady) {
      // Its dictionaries (a 40 MB data segment) go into its memory once, not also into the module.
      const lean = compileLean(require.resolve('lindera-wasm/lindera_wasm_bg.wasm'));
      lean.install(initSync({ module: lean.module }).memory);
      linderaReady = true;
    }
    const builder = new TokenizerBuilder();
    builder.setDictionary(language === 'jpn' ? 'embedded://ipadic' : 'embedded://ko-dic');
    builder.setMode('decompose');
    tokenizer = builder.build();
    linderaTokenizers.set(language, tokenizer);
  }
  return tokenizer;
}

/** UTF-16 index of each code point of `text` (a lone surrogate is one), then `text.length`. */
function characterUnits(text: string): Uint32Array {
  const units = new Uint32Array(text.length + 1);
  let count = 0;
  for (let unit = 0; unit < text.length; unit += isSurrogatePair(text, unit) ? 2 : 1) units[count++] = unit;
  units[count] = text.length;
  return units.subarray(0, count + 1);
}

/** `at`, or one less if it would cut a surrogate pair. */
function pairSafe(text: string, at: number): number {
  return isSurrogatePair(text, at - 1) ? at - 1 : at;
}
