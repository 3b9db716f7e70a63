/**
 * Chinese, Japanese or Korean text ahead in a batch, found before extraction reaches it: when a
 * batch starts, its first extraction worker scans the batch's payloads (`scoutDictionaries`) and
 * asks the segmenter thread to load the dictionaries their runs will ask for. A compiled
 * dictionary opens in about 3 ms (kernels/dictionaries/compiled.ts), so this now spares the
 * extraction little; it costs an extraction worker, which waits on the writer most of a load,
 * 88 ms of a debdocs load. (The documents route also sampled every payload as it was received,
 * when a dictionary took 0.1 to 2.6 s to load: that cost the HTTP thread, which also answers
 * searches, 115 ms of a debdocs load, and was removed: bench/RESULTS.md 2026-11-30.)
 * The scan finds the lines holding the UTF-8 lead bytes of U+3000–U+DFFF (kana, CJK ideographs,
 * Hangul) and tokenizes a bounded number of them with a segmenter that cuts nothing
 * (run-segmenter.ts `dictionaryLanguagesOf`) to learn which languages their runs ask for.
 */
import type { DictionaryLanguage } from '../../kernels/dictionary-segmenters.js';
import { dictionaryLanguagesOf } from '../../kernels/run-segmenter.js';
import type { PayloadSource } from '../../store/update-files.js';
import type { IndexSettings } from '../../types/settings.js';
import type { JsonObject } from '../document-id.js';
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
    // a buffer of a few bytes may hold no aligned word, and end where its ArrayBuffer does
    const count = Math.max(0, buffer.length - first) >>> 2;
    wordsOf = { buffer, words: count === 0 ? new Uint32Array(0) : new Uint32Array(buffer.buffer, buffer.byteOffset + first, count), first };
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

/**
 * The languages found so far by one look ahead, and which lines are worth tokenizing: a line may
 * ask only for the languages of its scripts (kana: Japanese, Hangul: Korean, Han: Chinese or
 * Japanese), and at most HAN_LINES_LOOKED_AT lines holding Han alone are tokenized.
 */
class LanguageHunt {
  readonly found = new Set<DictionaryLanguage>();
  private readonly extractor: ReturnType<typeof extractorFor>;
  private hanLooked = 0;

  constructor(settings: IndexSettings, searchFields: readonly string[]) {
    this.extractor = extractorFor(settings, new SearchFieldIds(searchFields));
  }

  get complete(): boolean {
    return this.found.size === ALL_LANGUAGES;
  }

  /** Whether a line holding `scripts` may ask for a language not found yet; counts it as looked at if so. */
  take(scripts: number): boolean {
    const { found } = this;
    const worth =
      ((scripts & KANA) !== 0 && !found.has('jpn')) ||
      ((scripts & HANGUL) !== 0 && !found.has('kor')) ||
      ((scripts & HAN) !== 0 && this.hanLooked < HAN_LINES_LOOKED_AT && !(found.has('cmn') && found.has('jpn')));
    if (worth && scripts === HAN) this.hanLooked++;
    return worth;
  }

  /** Adds the languages `doc`'s runs ask for under the settings. */
  tokenize(doc: JsonObject): void {
    for (const language of dictionaryLanguagesOf(() => this.extractor.extract([{ docid: 0, doc }]))) this.found.add(language);
  }
}

/** The dictionary languages the additions `sources` (null: not an addition) will ask for. */
export function scoutDictionaries(sources: readonly (PayloadSource | null)[], settings: IndexSettings, searchFields: readonly string[]): Set<DictionaryLanguage> {
  const hunt = new LanguageHunt(settings, searchFields);
  let looked = 0;
  scan: for (const source of sources) {
    if (source === null) continue;
    for (const { buffer, start, end } of ndjsonLines(source)) {
      const scripts = scriptsOf(buffer, start, end);
      if (scripts === 0 || !hunt.take(scripts)) continue;
      const doc = parsedLine(buffer.subarray(start, end));
      if (doc !== null) hunt.tokenize(doc);
      if (hunt.complete || ++looked === LINES_LOOKED_AT) break scan;
    }
  }
  // the payload's last block is not kept
  wordsOf = null;
  return hunt.found;
}
