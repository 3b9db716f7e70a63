/**
 * Chinese, Japanese or Korean text ahead in a batch, found before extraction reaches it. A
 * dictionary segmenter loads on first use, most of a second each (lindera's IPADIC and ko-dic,
 * jieba), and the extraction that meets the first such run waits for it, and the index writer
 * for that extraction. So an extraction worker first scans its batch's payloads for the UTF-8
 * lead bytes of U+3000–U+DFFF (kana, CJK ideographs, Hangul), tokenizes the lines holding them
 * that may ask for a language not found yet with a segmenter that cuts nothing (run-segmenter.ts
 * `dictionaryLanguagesOf`), and answers the languages their runs ask for; the segmenter thread
 * loads those dictionaries while the worker extracts the lines before.
 */
import type { DictionaryLanguage } from '../../kernels/dictionary-segmenters.js';
import { dictionaryLanguagesOf } from '../../kernels/run-segmenter.js';
import type { PayloadSource } from '../../store/update-files.js';
import type { IndexSettings } from '../../types/settings.js';
import { ndjsonLines, parsedLine } from '../documents/ndjson-payload.js';
import { extractorFor, SearchFieldIds } from './extract.js';

/** Scripts a line holds, as bits. */
const HAN = 1;
const KANA = 2;
const HANGUL = 4;

/**
 * Lines holding Han but no kana or Hangul tokenized at most: Han alone is Chinese or Japanese
 * (whatlang's call), and a corpus shows which early; kana and Hangul lines, which can only ask
 * for Japanese and Korean, are tokenized until those are found...
 */
const HAN_LINES_LOOKED_AT = 16;
/** ...within this many lines tokenized in all: text in a field no search reads asks for nothing, however many lines hold it. */
const LINES_LOOKED_AT = 64;
const ALL_LANGUAGES = 3;

/** The script of a 3-byte UTF-8 sequence of U+3000–U+DFFF from its first two bytes (0: none of the three). */
function scriptOf(lead: number, next: number): number {
  if (lead === 0xe3) return next >= 0x81 && next <= 0x83 ? KANA : next >= 0x90 ? HAN : 0;
  if (lead <= 0xe9) return HAN;
  return lead > 0xea || next >= 0xb0 ? HANGUL : 0;
}

const isLead = (byte: number) => byte >= 0xe3 && byte <= 0xed;

/** The 4-byte words of the last buffer scanned (the lines of a payload block share theirs). */
let wordsOf: { buffer: Buffer; words: Uint32Array; first: number } | null = null;

/**
 * The scripts (HAN, KANA, HANGUL bits) `buffer[start, end)` holds, from the UTF-8 lead bytes
 * 0xE3–0xED (U+3000–U+DFFF). Four bytes at a time while they are ASCII, as most text of a
 * payload is.
 */
function scriptsOf(buffer: Buffer, start: number, end: number): number {
  if (wordsOf?.buffer !== buffer) {
    // the first byte of `buffer` on a 4-byte boundary of its ArrayBuffer
    const first = (4 - (buffer.byteOffset & 3)) & 3;
    wordsOf = { buffer, words: new Uint32Array(buffer.buffer, buffer.byteOffset + first, (buffer.length - first) >>> 2), first };
  }
  const { words, first } = wordsOf;
  let scripts = 0;
  const byte = (at: number) => {
    if (isLead(buffer[at]!)) scripts |= scriptOf(buffer[at]!, at + 1 < end ? buffer[at + 1]! : 0);
  };
  let at = start;
  for (; at < end && (at < first || ((at - first) & 3) !== 0); at++) byte(at);
  for (let word = (at - first) >>> 2; at + 4 <= end; word++, at += 4) {
    if ((words[word]! & 0x80808080) === 0) continue;
    for (let i = at; i < at + 4; i++) byte(i);
  }
  for (; at < end; at++) byte(at);
  return scripts;
}

/** The dictionary languages the additions `sources` (null: not an addition) will ask for. */
export function scoutDictionaries(sources: readonly (PayloadSource | null)[], settings: IndexSettings, searchFields: readonly string[]): Set<DictionaryLanguage> {
  const found = new Set<DictionaryLanguage>();
  const extractor = extractorFor(settings, new SearchFieldIds(searchFields));
  let hanLooked = 0;
  let looked = 0;
  /** Whether a line holding `scripts` may ask for a language not found yet. */
  const worth = (scripts: number) =>
    ((scripts & KANA) !== 0 && !found.has('jpn')) ||
    ((scripts & HANGUL) !== 0 && !found.has('kor')) ||
    ((scripts & HAN) !== 0 && hanLooked < HAN_LINES_LOOKED_AT && !(found.has('cmn') && found.has('jpn')));
  scan: for (const source of sources) {
    if (source === null) continue;
    for (const { buffer, start, end } of ndjsonLines(source)) {
      const scripts = scriptsOf(buffer, start, end);
      if (scripts === 0 || !worth(scripts)) continue;
      if (scripts === HAN) hanLooked++;
      const doc = parsedLine(buffer.subarray(start, end));
      if (doc !== null) for (const language of dictionaryLanguagesOf(() => extractor.extract([{ docid: 0, doc }]))) found.add(language);
      if (found.size === ALL_LANGUAGES || ++looked === LINES_LOOKED_AT) break scan;
    }
  }
  // the payload's last block is not kept
  wordsOf = null;
  return found;
}
