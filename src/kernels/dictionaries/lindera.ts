/**
 * Japanese and Korean word boundaries exactly as lindera-wasm 1.1.0 finds them with IPADIC and
 * ko-dic in Decompose mode (lindera 1.2.0), from the same dictionary data, in TypeScript. The
 * module, instantiated, holds about 137 MiB for IPADIC and 110 MiB more for ko-dic (every file of
 * both inflated, word details included, and never given back); here only what segmentation reads
 * is held (lindera-dictionary.ts: about 11 MB and 30 MB), and segmenting is 8 to 20 times faster.
 *
 * lindera's `Segmenter::segment`: the text's UTF-8 (a lone surrogate as U+FFFD, as wasm-bindgen
 * passes it) is cut into sentences after each `\n`, `\t`, `。` and `、`, each sentence segmented
 * on its own (lindera-lattice.ts). A token's offset is the sum of the lengths of the tokens before
 * it: its place in the text, as every sentence has a path through it (every character has a
 * category, and every category unknown-word entries), unless costs wrap around onto exactly
 * i32::MAX; lindera's sum, which would then miss the bytes of tokens not found, is kept.
 */
import { isSurrogatePair } from '../utf16.js';
import { readDictionary, type DictionaryName } from './lindera-dictionary.js';
import { Lattice } from './lindera-lattice.js';

export type LinderaLanguage = 'jpn' | 'kor';

const DICTIONARIES: Record<LinderaLanguage, DictionaryName> = { jpn: 'ipadic', kor: 'ko-dic' };
const LINE_FEED = 0x0a;
const TAB = 0x09;

const lattices = new Map<LinderaLanguage, Lattice>();
const encoder = new TextEncoder();
/**
 * The text's UTF-8, reused (at most 3 bytes a UTF-16 unit; dictionary-segmenters.ts hands over
 * 64 Ki units at most): a fresh array per run, often one Korean word, was a twelfth of segmenting
 * Korean.
 */
let utf8 = new Uint8Array(1024);
/** A sentence's token starts, reused. */
const sentenceStarts: number[] = [];

/**
 * The UTF-16 indexes strictly inside `text`, increasing, where lindera-wasm with the dictionary of
 * `language` in Decompose mode starts a token (the tokens' `byteStart`, as UTF-16 indexes).
 */
export function linderaWordStarts(text: string, language: LinderaLanguage): number[] {
  if (text.length < 2) return [];
  const lattice = latticeOf(language);
  if (utf8.length < 3 * text.length) utf8 = new Uint8Array(Math.max(3 * text.length, 2 * utf8.length));
  const bytes = utf8.subarray(0, encoder.encodeInto(text, utf8).written);
  const out: number[] = [];
  // lindera's running token offset, and the UTF-16 index and UTF-8 offset reached in `text`.
  let offset = 0;
  let unit = 0;
  let byte = 0;
  for (let from = 0; from < bytes.length; ) {
    const to = sentenceEnd(bytes, from);
    sentenceStarts.length = 0;
    lattice.segment(bytes, from, to, sentenceStarts);
    for (let k = 0; k < sentenceStarts.length; k++) {
      const start = offset;
      offset += (sentenceStarts[k + 1] ?? to - from) - sentenceStarts[k]!;
      while (byte < start && unit < text.length) {
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
    from = to;
  }
  return out;
}

/** Loads the dictionary of `language`, if it is not loaded yet. */
export function loadLinderaDictionary(language: LinderaLanguage): void {
  latticeOf(language);
}

/** Drops both dictionaries from this thread (closing their files): a later use loads them again. */
export function unloadLinderaDictionaries(): void {
  for (const lattice of lattices.values()) lattice.close();
  lattices.clear();
}

export function linderaDictionaryLoaded(language: LinderaLanguage): boolean {
  return lattices.has(language);
}

function latticeOf(language: LinderaLanguage): Lattice {
  let lattice = lattices.get(language);
  if (lattice === undefined) {
    lattice = new Lattice(readDictionary(DICTIONARIES[language]));
    lattices.set(language, lattice);
  }
  return lattice;
}

/** Where the sentence from `from` ends: after the first `\n`, `\t`, `。` (E3 80 82) or `、` (E3 80 81), else at the end. */
function sentenceEnd(bytes: Uint8Array, from: number): number {
  for (let at = from; at < bytes.length; at++) {
    const byte = bytes[at]!;
    if (byte === LINE_FEED || byte === TAB) return at + 1;
    if ((byte === 0x82 || byte === 0x81) && at >= 2 && bytes[at - 1] === 0x80 && bytes[at - 2] === 0xe3) return at + 1;
  }
  return bytes.length;
}
