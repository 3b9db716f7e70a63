/**
 * Chinese, Japanese or Korean text ahead in a batch, found before extraction reaches it. A
 * dictionary segmenter loads on first use, most of a second each (lindera's IPADIC and ko-dic,
 * jieba), and the extraction that meets the first such run waits for it, and the index writer
 * for that extraction. So an extraction worker first scans its batch's payloads for the UTF-8
 * lead bytes of U+3000–U+DFFF (kana, CJK ideographs, Hangul), tokenizes the first lines holding
 * them with a segmenter that cuts nothing (run-segmenter.ts `dictionaryLanguagesOf`), and
 * answers the languages their runs ask for; the segmenter thread loads those dictionaries while
 * the worker extracts the lines before.
 */
import type { DictionaryLanguage } from '../../kernels/dictionary-segmenters.js';
import { dictionaryLanguagesOf } from '../../kernels/run-segmenter.js';
import type { PayloadSource } from '../../store/update-files.js';
import type { IndexSettings } from '../../types/settings.js';
import { ndjsonLines, parsedLine } from '../documents/ndjson-payload.js';
import { extractorFor, SearchFieldIds } from './extract.js';

/** Lines holding such text tokenized at most: a corpus in these scripts shows its languages in its first lines. */
const LINES_LOOKED_AT = 16;
const ALL_LANGUAGES = 3;

const isLead = (byte: number) => byte >= 0xe3 && byte <= 0xed;

/** The 4-byte words of the last buffer scanned (the lines of a payload block share theirs). */
let wordsOf: { buffer: Buffer; words: Uint32Array; first: number } | null = null;

/**
 * Whether `buffer[start, end)` holds a character of U+3000–U+DFFF (3-byte UTF-8 lead bytes
 * 0xE3–0xED). Four bytes at a time while they are ASCII, as most text of a payload is.
 */
function holdsCjk(buffer: Buffer, start: number, end: number): boolean {
  if (wordsOf?.buffer !== buffer) {
    // the first byte of `buffer` on a 4-byte boundary of its ArrayBuffer
    const first = (4 - (buffer.byteOffset & 3)) & 3;
    wordsOf = { buffer, words: new Uint32Array(buffer.buffer, buffer.byteOffset + first, (buffer.length - first) >>> 2), first };
  }
  const { words, first } = wordsOf;
  let at = start;
  for (; at < end && (at < first || ((at - first) & 3) !== 0); at++) if (isLead(buffer[at]!)) return true;
  for (let word = (at - first) >>> 2; at + 4 <= end; word++, at += 4) {
    if ((words[word]! & 0x80808080) === 0) continue;
    for (let i = at; i < at + 4; i++) if (isLead(buffer[i]!)) return true;
  }
  for (; at < end; at++) if (isLead(buffer[at]!)) return true;
  return false;
}

/** The dictionary languages the additions `sources` (null: not an addition) will ask for. */
export function scoutDictionaries(sources: readonly (PayloadSource | null)[], settings: IndexSettings, searchFields: readonly string[]): Set<DictionaryLanguage> {
  const found = new Set<DictionaryLanguage>();
  const extractor = extractorFor(settings, new SearchFieldIds(searchFields));
  let looked = 0;
  for (const source of sources) {
    if (source === null) continue;
    for (const { buffer, start, end } of ndjsonLines(source)) {
      if (!holdsCjk(buffer, start, end)) continue;
      const doc = parsedLine(buffer.subarray(start, end));
      if (doc !== null) for (const language of dictionaryLanguagesOf(() => extractor.extract([{ docid: 0, doc }]))) found.add(language);
      if (++looked === LINES_LOOKED_AT || found.size === ALL_LANGUAGES) break;
    }
    if (looked === LINES_LOOKED_AT || found.size === ALL_LANGUAGES) break;
  }
  // the payload's last block is not kept
  wordsOf = null;
  return found;
}
