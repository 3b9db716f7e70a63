/**
 * whatlang 0.16.4's script detection (`whatlangScript`, the main script of a text, which facet
 * search's normalisation reads) and its language detection (the crate charabia 0.9.9 asks), for
 * text whose main script is Latin: `Detector::new().detect_lang(text)`, or `Detector::with_allowlist(..)` when
 * `allowed` is given, with the default method (Method::Combined). Ported from whatlang's
 * src/core/detect.rs, src/scripts/detect.rs, src/alphabets/{common,latin}.rs,
 * src/trigrams/{detection,utils}.rs and src/combined/mod.rs; the tables are in
 * whatlang-latin-data.ts.
 *
 * - Script: whatlang counts each non-stop character under the first of its 25 scripts that
 *   holds it, and the text's script is the one counted most. Text of a one-language script
 *   (e.g. fullwidth letters, which whatlang counts as Hangul) gets that language whatever the
 *   allow list, as whatlang does; Mandarin gets whatlang's Mandarin-or-Japanese call. Cyrillic,
 *   Arabic, Devanagari and Hebrew text needs profiles not ported here: that throws.
 * - Latin: the text is lowercased (Rust's `str::to_lowercase`, which JS's `toLowerCase` matches
 *   up to Unicode-version differences) and scored twice. Alphabet: over the non-stop characters,
 *   each language scores (own characters - others) / all, floored at 0. Trigrams: stop characters
 *   become spaces, the text is padded with one space each side, trigrams with a space in the
 *   middle and a space at either end are skipped; the 600 most frequent (ties: the greater
 *   trigram first) are ranked and compared with each language's 300-trigram profile (out-of-place
 *   distance, 300 for a missing trigram), normalised by the number of ranked trigrams. The two
 *   are mixed with the alphabet weighing 2/3 at 0 characters down to 1/3 from 100 characters on.
 * - Order: whatlang sorts with Rust's `sort_unstable`, so the order of equal scores (among more
 *   than 32 languages, or among scripts for Rust before 1.81) depends on the compiler's sort:
 *   reproduced here as Rust 1.81 and later sort (Meilisearch's releases are built with those),
 *   see `sortUnstable`.
 */
import {
  WHATLANG_LATIN_ALPHABETS,
  WHATLANG_LATIN_LANGS,
  WHATLANG_LATIN_PROFILES,
  WHATLANG_SCRIPTS,
} from './whatlang-latin-data.js';

const MAX_TRIGRAM_DISTANCE = 300;
const MAX_TOTAL_DISTANCE = MAX_TRIGRAM_DISTANCE * MAX_TRIGRAM_DISTANCE;
const TEXT_TRIGRAMS_SIZE = 2 * MAX_TRIGRAM_DISTANCE;

const LATIN = WHATLANG_SCRIPTS.findIndex(([name]) => name === 'Latin');
const MANDARIN = WHATLANG_SCRIPTS.findIndex(([name]) => name === 'Mandarin');
const HIRAGANA = WHATLANG_SCRIPTS.findIndex(([name]) => name === 'Hiragana');
const KATAKANA = WHATLANG_SCRIPTS.findIndex(([name]) => name === 'Katakana');

const LANG_INDEX: ReadonlyMap<string, number> = new Map(WHATLANG_LATIN_LANGS.map((code, i) => [code, i]));
const ALL_LANGS: readonly number[] = WHATLANG_LATIN_LANGS.map((_, i) => i);

/**
 * A trigram's key: its code points, 16 bits each, when all three are in the BMP (as every
 * profile trigram is), which orders keys as Rust orders trigrams; else its string.
 */
function trigramKey(c1: number, c2: number, c3: number): number | string {
  return c1 > 0xffff || c2 > 0xffff || c3 > 0xffff ? String.fromCodePoint(c1, c2, c3) : (c1 * 0x10000 + c2) * 0x10000 + c3;
}

function codePoints(key: number | string): number[] {
  if (typeof key === 'string') return [...key].map((ch) => ch.codePointAt(0)!);
  return [Math.floor(key / 0x100000000), Math.floor(key / 0x10000) % 0x10000, key % 0x10000];
}

/** The alphabets and profiles as the Latin scoring reads them. */
interface LatinTables {
  /** for each character of the alphabets, the languages (indices into WHATLANG_LATIN_LANGS) holding it */
  readonly alphabetLangs: readonly (readonly number[])[];
  /** code point → 1 + its index in alphabetLangs, 0 for none (all are below U+1F00) */
  readonly alphabetIndex: Uint16Array;
  /** trigram key → [language, rank in its profile, language, rank, ...] over the profiles holding it */
  readonly profileRanks: ReadonlyMap<number | string, readonly number[]>;
}

let latinTables: LatinTables | undefined;

/**
 * The tables, built at the first Latin scoring (~50 ms of CPU): only text of localized attributes
 * is detected, so most processes, and most of their threads, never need them.
 */
function tables(): LatinTables {
  if (latinTables !== undefined) return latinTables;
  const alphabetLangs: number[][] = [];
  const alphabetIndex = new Uint16Array(0x1f00);
  for (const [code, alphabet] of Object.entries(WHATLANG_LATIN_ALPHABETS)) {
    const lang = LANG_INDEX.get(code)!;
    for (const ch of alphabet) {
      const cp = ch.codePointAt(0)!;
      if (alphabetIndex[cp] === 0) alphabetIndex[cp] = alphabetLangs.push([]);
      alphabetLangs[alphabetIndex[cp]! - 1]!.push(lang);
    }
  }
  const profileRanks = new Map<number | string, number[]>();
  for (const [code, trigrams] of WHATLANG_LATIN_PROFILES) {
    const lang = LANG_INDEX.get(code)!;
    trigrams.split('|').forEach((trigram, rank) => {
      const [c1, c2, c3] = codePoints(trigram);
      const key = trigramKey(c1!, c2!, c3!);
      const ranks = profileRanks.get(key);
      if (ranks === undefined) profileRanks.set(key, [lang, rank]);
      else ranks.push(lang, rank);
    });
  }
  return (latinTables = { alphabetLangs, alphabetIndex, profileRanks });
}

/** whatlang's is_stop_char: ASCII other than letters (spaces, digits, punctuation). */
function isStop(cp: number): boolean {
  return cp <= 0x40 || (cp >= 0x5b && cp <= 0x60) || (cp >= 0x7b && cp <= 0x7e);
}

/** Each script's ranges as first, last, first, last, ... */
const SCRIPT_RANGES: readonly Int32Array[] = WHATLANG_SCRIPTS.map(([, , ranges]) => Int32Array.from(ranges.flat()));

function inScript(script: number, cp: number): boolean {
  const ranges = SCRIPT_RANGES[script]!;
  for (let i = 0; i < ranges.length; i += 2) if (cp >= ranges[i]! && cp <= ranges[i + 1]!) return true;
  return false;
}

/** whatlang's raw_detect_script: each script's count of the text's characters, and the main one. */
function scriptCounts(text: string): { main: number; counts: readonly number[] } {
  // a found script moves one place forward, so the text's scripts are tried first
  const order = WHATLANG_SCRIPTS.map((_, i) => i);
  const counts = new Array<number>(order.length).fill(0);
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (isStop(cp)) continue;
    for (let k = 0; k < order.length; k++) {
      const script = order[k]!;
      if (!inScript(script, cp)) continue;
      counts[script]!++;
      if (k > 0) [order[k - 1], order[k]] = [script, order[k - 1]!];
      break;
    }
  }
  // main_script: the first most counted in that order (Rust 1.81+ sorts 25 counters stably).
  let main = order[0]!;
  for (const script of order) if (counts[script]! > counts[main]!) main = script;
  return { main, counts };
}

/**
 * whatlang's `detect_script`: the name of the text's main script (`Latin`, `Mandarin`,
 * `Hiragana`, …), or null when no character of the text is in one.
 */
export function whatlangScript(text: string): string | null {
  const { main, counts } = scriptCounts(text);
  return counts[main] === 0 ? null : WHATLANG_SCRIPTS[main]![0];
}

/**
 * whatlang's language for `text` as an ISO 639-3 code, or null where whatlang finds none (no
 * script character, or no allowed Latin language). `allowed` is an allow list of ISO 639-3
 * codes, as `Detector::with_allowlist` takes. Throws for text whose main script is Cyrillic,
 * Arabic, Devanagari or Hebrew.
 */
export function detectLatinLanguage(text: string, allowed?: ReadonlySet<string>): string | null {
  const { main, counts } = scriptCounts(text);
  if (counts[main] === 0) return null;

  const [name, onlyLang] = WHATLANG_SCRIPTS[main]!;
  if (onlyLang !== null) return onlyLang;
  if (main === MANDARIN) {
    // detect_lang_base_on_mandarin_script: Japanese above 5% kana, or when Mandarin is not allowed.
    if (allowed !== undefined && !allowed.has('cmn')) return 'jpn';
    const kana = counts[HIRAGANA]! + counts[KATAKANA]!;
    return kana / (counts[MANDARIN]! + kana) > 0.05 ? 'jpn' : 'cmn';
  }
  if (main !== LATIN) throw new RangeError(`whatlang's ${name} language detection is not ported`);

  const langs = allowed === undefined ? ALL_LANGS : ALL_LANGS.filter((lang) => allowed.has(WHATLANG_LATIN_LANGS[lang]!));
  if (langs.length === 0) return null;
  return WHATLANG_LATIN_LANGS[combined(text.toLowerCase(), langs)]!;
}

/** combined::raw_detect's best language (an index) for lowercased Latin text. */
function combined(lower: string, langs: readonly number[]): number {
  // Trigrams over the text with stop chars as spaces, a space before and after; alphabet counts.
  const { alphabetLangs, alphabetIndex, profileRanks } = tables();
  const trigrams = new Map<number | string, number>();
  const letters = new Int32Array(alphabetLangs.length);
  let chars = 0;
  let c1 = 0x20;
  let c2 = -1; // none yet
  const next = (c3: number): void => {
    if (c2 !== -1 && !(c2 === 0x20 && (c1 === 0x20 || c3 === 0x20))) {
      const key = trigramKey(c1, c2, c3);
      trigrams.set(key, (trigrams.get(key) ?? 0) + 1);
    }
    if (c2 !== -1) c1 = c2;
    c2 = c3;
  };
  for (let i = 0; i < lower.length; ) {
    const cp = lower.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (isStop(cp)) {
      next(0x20);
    } else {
      chars++;
      if (cp < alphabetIndex.length && alphabetIndex[cp] !== 0) letters[alphabetIndex[cp]! - 1]++;
      next(cp);
    }
  }
  next(0x20);

  const ranked = rankTrigrams(trigrams);
  const count = ranked.length;
  // Sum of (300 - |text rank - profile rank|) over each language's profile trigrams in the text.
  const near = new Int32Array(WHATLANG_LATIN_LANGS.length);
  ranked.forEach((trigram, rank) => {
    const ranks = profileRanks.get(trigram);
    if (ranks === undefined) return;
    for (let i = 0; i < ranks.length; i += 2) near[ranks[i]!] += MAX_TRIGRAM_DISTANCE - Math.abs(rank - ranks[i + 1]!);
  });
  const maxDistance = count * MAX_TRIGRAM_DISTANCE;
  const trigramScore = (lang: number): number => {
    let distance = MAX_TOTAL_DISTANCE - near[lang]!;
    // A short text cannot match all 300: the trigrams it lacks are not held against a language.
    if (MAX_TRIGRAM_DISTANCE > count) distance -= (MAX_TRIGRAM_DISTANCE - count) * MAX_TRIGRAM_DISTANCE;
    distance = Math.min(Math.max(distance, 0), MAX_TOTAL_DISTANCE);
    return (maxDistance - distance) / maxDistance;
  };

  // Alphabet: (own chars - other chars), floored at 0, as 2 per own char less all chars.
  const own = new Int32Array(WHATLANG_LATIN_LANGS.length);
  for (let char = 0; char < letters.length; char++) {
    const n = letters[char]!;
    if (n > 0) for (const lang of alphabetLangs[char]!) own[lang] += 2 * n;
  }
  const alphabet = langs.map((lang) => ({ lang, raw: Math.max(own[lang]! - chars, 0) }));
  sortUnstable(alphabet, (a, b) => a.raw > b.raw);

  const alphabetWeight = Math.min(Math.max(-(chars / 300) + 2 / 3, 1 / 3), 2 / 3);
  const trigramWeight = 1 - alphabetWeight;
  const scores = alphabet.map(({ lang, raw }) => ({ lang, score: (raw / chars) * alphabetWeight + trigramScore(lang) * trigramWeight }));
  sortUnstable(scores, (a, b) => a.score > b.score);
  return scores[0]!.lang;
}

/** The first 600 trigrams, the most frequent first, then the greater (Rust's order: code points). */
function rankTrigrams(trigrams: ReadonlyMap<number | string, number>): (number | string)[] {
  const byCount: (number | string)[][] = [];
  for (const [trigram, n] of trigrams) (byCount[n] ??= []).push(trigram);
  const ranked: (number | string)[] = [];
  for (let n = byCount.length - 1; n > 0 && ranked.length < TEXT_TRIGRAMS_SIZE; n--) {
    const keys = byCount[n];
    if (keys === undefined) continue;
    // Number keys already sort as their code points do.
    const sorted = keys.every((key) => typeof key === 'number')
      ? Float64Array.from(keys as number[]).sort().reverse()
      : keys.sort((a, b) => compareTrigrams(b, a));
    for (const key of sorted) {
      if (ranked.length === TEXT_TRIGRAMS_SIZE) break;
      ranked.push(key);
    }
  }
  return ranked;
}

function compareTrigrams(a: number | string, b: number | string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
}

/**
 * Rust 1.81+'s `slice::sort_unstable_by` (core/src/slice/sort/unstable: insertion sort up to 20,
 * else ipnsort), for the 16-byte Copy elements whatlang sorts: slices of at most 32 get the small
 * sort, which is stable, and longer ones are partitioned around a median-of-3 pivot first
 * (branchless cyclic Lomuto), which moves equal elements. Heapsort, after 2·log2(len) bad
 * pivots, needs more elements than the 36 languages there are.
 */
function sortUnstable<T>(v: T[], isLess: (a: T, b: T) => boolean): void {
  const len = v.length;
  if (len <= 20) return stableSort(v, 0, len, isLess);
  // find_existing_run: an already sorted (or strictly descending, then reversed) slice is kept.
  const descending = isLess(v[1]!, v[0]!);
  let run = 2;
  while (run < len && (descending ? isLess(v[run]!, v[run - 1]!) : !isLess(v[run]!, v[run - 1]!))) run++;
  if (run === len) {
    if (descending) v.reverse();
    return;
  }
  quicksort(v, 0, len, undefined, isLess);
}

function quicksort<T>(v: T[], start: number, end: number, ancestor: T | undefined, isLess: (a: T, b: T) => boolean): void {
  for (;;) {
    const len = end - start;
    if (len <= 32) return stableSort(v, start, end, isLess);
    // choose_pivot, below 64 elements: the median of the first, the 4/8th and the 7/8th.
    const eighth = Math.floor(len / 8);
    const a = start;
    const b = start + eighth * 4;
    const c = start + eighth * 7;
    const x = isLess(v[a]!, v[b]!);
    const y = isLess(v[a]!, v[c]!);
    const pivot = x === y ? (isLess(v[b]!, v[c]!) !== x ? c : b) : a;
    if (ancestor !== undefined && !isLess(ancestor, v[pivot]!)) {
      // The pivot equals the left neighbour, the smallest here: split off everything equal to it.
      start += partition(v, start, end, pivot, (p, q) => !isLess(q, p)) + 1;
      ancestor = undefined;
      continue;
    }
    const lt = partition(v, start, end, pivot, isLess);
    quicksort(v, start, start + lt, ancestor, isLess);
    ancestor = v[start + lt];
    start += lt + 1;
  }
}

/** partition + partition_lomuto_branchless_cyclic (whose loop unrolling moves nothing differently). */
function partition<T>(v: T[], start: number, end: number, pivotAt: number, isLess: (a: T, b: T) => boolean): number {
  [v[start], v[pivotAt]] = [v[pivotAt]!, v[start]!];
  const pivot = v[start]!;
  const base = start + 1;
  const len = end - base;
  let lt = 0;
  if (len > 0) {
    // v[base] is lifted out, leaving a gap; each element in turn goes to the slot after the
    // smaller ones so far, whose old value fills the gap, and its own slot becomes the gap; the
    // lifted element comes last.
    const lifted = v[base]!;
    let gap = base;
    const step = (element: T, from: number): void => {
      const isLt = isLess(element, pivot);
      v[gap] = v[base + lt]!;
      v[base + lt] = element;
      gap = from;
      lt += isLt ? 1 : 0;
    };
    for (let right = base + 1; right < end; right++) step(v[right]!, right);
    step(lifted, -1);
  }
  [v[start], v[start + lt]] = [v[start + lt]!, v[start]!];
  return lt;
}

/** Insertion sort of v[start, end): stable, so equal to Rust's for the slices it stands for. */
function stableSort<T>(v: T[], start: number, end: number, isLess: (a: T, b: T) => boolean): void {
  for (let i = start + 1; i < end; i++) {
    const item = v[i]!;
    let j = i;
    for (; j > start && isLess(item, v[j - 1]!); j--) v[j] = v[j - 1]!;
    v[j] = item;
  }
}
