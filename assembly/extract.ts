// The word-extraction kernel: the token records of a chunk of documents' searchable strings (as
// `tokenize` left them in the arena) -> each document's indexed words, in one call, with the
// chunk's distinct words interned in a hash table in linear memory. Called through
// `extractWords` (assembly/index.ts) by src/kernels/extract.ts right after `tokenize`, so the
// host never walks the tokens: it decodes each distinct word of the chunk once and receives
// typed columns. Mirrored by src/kernels/reference/extract.ts (the tests' oracle).
//
// Rules (milli `tokenize_document`, as src/engine/words/extract.ts documents them):
// - the strings of one document are consecutive (string -> document index is non-decreasing);
//   positions count per field from 0 and a further value of the same field starts VALUE_GAP
//   after the previous value's last indexed word (or its start, when it had none);
// - a word record is indexed unless its position is >= MAX_POSITION, its normalised form is
//   empty or longer than MAX_WORD_BYTES, or it is a stop word: its original bytes, when ASCII,
//   equal an entry of the stop table; non-ASCII ones the host resolved beforehand (their NFKD
//   decides) and marked KIND_STOP (`nonAsciiWords` lists them);
// - per document: its distinct words (chunk word ids) in order of first occurrence, each with
//   its field mask (bit min(field, 31)) and lowest position, | INFO_WHOLE_FIELD when a field
//   holding it has exactly one indexed word; its occurrences (slot in its distinct words,
//   field << 16 | position) in text order; its (field, indexed word count) pairs in the order
//   the fields first had a word.
//
// Memory (host-laid; the header holds u32 slots H_*): scratch = table slots u32[tableSlots]
// (a power of two) | per chunk word u32[count] × 4 (hash, start, length, last document + 1) and
// slot u32[count] | per field u32[nFields] × 4 (document + 1, last position, count, pair index).
// Outputs, each sized by the host from count / nStrings / nDocs / normBytes: tokenSlots,
// tokenPlaces u32[count]; docTokenStarts u32[nDocs + 1]; docWords, docMasks, docInfos u32[count];
// docWordStarts u32[nDocs + 1]; pairs u32[2 nStrings]; docPairStarts u32[nDocs + 1]; wordStarts
// u32[count + 1] and wordBytes u8[normBytes] (distinct word w = wordBytes[wordStarts[w] ..
// wordStarts[w + 1])). Returns the number of distinct words.
// Invariants: no allocation, no traps: records naming a string, a document or a field out of
// range, or bytes outside their regions, or a word table not a power of two above count, return
// ERR_BAD_SPAN before anything is read.
import { ERR_BAD_SPAN } from './errors';
import {
  KIND_WORD,
  TOKEN_KIND,
  TOKEN_LENGTH,
  TOKEN_NORM_LENGTH,
  TOKEN_NORM_START,
  TOKEN_POSITION,
  TOKEN_RECORD_U32,
  TOKEN_START,
  TOKEN_STRING,
} from './tokenize';

/** Kind the host gives a word record it found to be a stop word (after KIND_HARD). */
export const KIND_STOP: u32 = 3;
export const MAX_POSITION: u32 = 65536;
export const MAX_WORD_BYTES: u32 = 250;
export const VALUE_GAP: u32 = 8;
export const INFO_WHOLE_FIELD: u32 = 1 << 16;
const MASK_BITS: u32 = 32;

/** u32 slots of the header. */
export const H_RECORDS: u32 = 0;
export const H_COUNT: u32 = 1;
export const H_NORM: u32 = 2;
export const H_NORM_BYTES: u32 = 3;
export const H_INPUT: u32 = 4;
export const H_INPUT_BYTES: u32 = 5;
export const H_TABLE: u32 = 6;
export const H_STRINGS: u32 = 7;
export const H_STRING_DOCS: u32 = 8;
export const H_STRING_FIELDS: u32 = 9;
export const H_DOCS: u32 = 10;
export const H_FIELDS: u32 = 11;
/** stop table: slots u32[mask + 1] (entry + 1, 0 = empty; none when H_STOP_SLOTS is 0), entries (start, length) into its bytes */
export const H_STOP_SLOTS: u32 = 12;
export const H_STOP_MASK: u32 = 13;
export const H_STOP_ENTRIES: u32 = 14;
export const H_STOP_BYTES: u32 = 15;
export const H_SCRATCH: u32 = 16;
export const H_TABLE_SLOTS: u32 = 17;
export const H_TOKEN_SLOTS: u32 = 18;
export const H_TOKEN_PLACES: u32 = 19;
export const H_DOC_TOKEN_STARTS: u32 = 20;
export const H_DOC_WORDS: u32 = 21;
export const H_DOC_MASKS: u32 = 22;
export const H_DOC_INFOS: u32 = 23;
export const H_DOC_WORD_STARTS: u32 = 24;
export const H_PAIRS: u32 = 25;
export const H_DOC_PAIR_STARTS: u32 = 26;
export const H_WORD_STARTS: u32 = 27;
export const H_WORD_BYTES: u32 = 28;
export const HEADER_U32: u32 = 29;

// @ts-ignore: decorator
@inline function slot32(base: usize, index: u32): usize {
  return base + (<usize>index << 2);
}

// @ts-ignore: decorator
@inline function fnv(p: usize, length: u32): u32 {
  let hash: u32 = 0x811c9dc5;
  for (let i: u32 = 0; i < length; i++) hash = (hash ^ <u32>load<u8>(p + <usize>i)) * 0x01000193;
  return hash;
}

function sameBytes(a: usize, b: usize, length: u32): bool {
  for (let i: u32 = 0; i < length; i++) if (load<u8>(a + <usize>i) != load<u8>(b + <usize>i)) return false;
  return true;
}

function isAscii(p: usize, length: u32): bool {
  for (let i: u32 = 0; i < length; i++) if (load<u8>(p + <usize>i) >= 0x80) return false;
  return true;
}

/** Whether records, spans, documents and fields all stay inside their regions. */
function validInput(h: usize): bool {
  const records = <usize>load<u32>(slot32(h, H_RECORDS));
  const count = load<u32>(slot32(h, H_COUNT));
  const normBytes = <u64>load<u32>(slot32(h, H_NORM_BYTES));
  const inputBytes = <u64>load<u32>(slot32(h, H_INPUT_BYTES));
  const table = <usize>load<u32>(slot32(h, H_TABLE));
  const nStrings = load<u32>(slot32(h, H_STRINGS));
  const stringDocs = <usize>load<u32>(slot32(h, H_STRING_DOCS));
  const stringFields = <usize>load<u32>(slot32(h, H_STRING_FIELDS));
  const nDocs = load<u32>(slot32(h, H_DOCS));
  const nFields = load<u32>(slot32(h, H_FIELDS));
  const tableSlots = load<u32>(slot32(h, H_TABLE_SLOTS));
  if (tableSlots <= count || (tableSlots & (tableSlots - 1)) != 0) return false;
  let lastDoc: u32 = 0;
  for (let s: u32 = 0; s < nStrings; s++) {
    const doc = load<u32>(slot32(stringDocs, s));
    if (doc >= nDocs || doc < lastDoc || load<u32>(slot32(stringFields, s)) >= nFields) return false;
    lastDoc = doc;
    if (<u64>load<u32>(slot32(table, 2 * s)) + <u64>load<u32>(slot32(table, 2 * s + 1)) > inputBytes) return false;
  }
  let lastString: u32 = 0;
  for (let r: u32 = 0; r < count; r++) {
    const record = records + (<usize>(r * TOKEN_RECORD_U32) << 2);
    const s = load<u32>(slot32(record, TOKEN_STRING));
    if (s >= nStrings || s < lastString) return false;
    lastString = s;
    if (<u64>load<u32>(slot32(record, TOKEN_START)) + <u64>load<u32>(slot32(record, TOKEN_LENGTH)) > <u64>load<u32>(slot32(table, 2 * s + 1))) return false;
    if (<u64>load<u32>(slot32(record, TOKEN_NORM_START)) + <u64>load<u32>(slot32(record, TOKEN_NORM_LENGTH)) > normBytes) return false;
  }
  return true;
}

/**
 * Writes at `out` the index of every word record whose original bytes are not all ASCII (the
 * ones whose stop-word status needs their NFKD, which the host computes); returns their count.
 */
export function nonAsciiWords(records: usize, count: u32, input: usize, table: usize, out: usize): u32 {
  let n: u32 = 0;
  for (let r: u32 = 0; r < count; r++) {
    const record = records + (<usize>(r * TOKEN_RECORD_U32) << 2);
    if (load<u32>(slot32(record, TOKEN_KIND)) != KIND_WORD) continue;
    const s = load<u32>(slot32(record, TOKEN_STRING));
    const start = input + <usize>load<u32>(slot32(table, 2 * s)) + <usize>load<u32>(slot32(record, TOKEN_START));
    if (!isAscii(start, load<u32>(slot32(record, TOKEN_LENGTH)))) store<u32>(slot32(out, n++), r);
  }
  return n;
}

/** Whether the ASCII bytes at p are a stop word. */
function isStopWord(h: usize, p: usize, length: u32): bool {
  const slots = <usize>load<u32>(slot32(h, H_STOP_SLOTS));
  const mask = load<u32>(slot32(h, H_STOP_MASK));
  const entries = <usize>load<u32>(slot32(h, H_STOP_ENTRIES));
  const bytes = <usize>load<u32>(slot32(h, H_STOP_BYTES));
  // the host keeps the table at most half full, so an empty slot ends every probe
  for (let at = fnv(p, length) & mask, probes: u32 = 0; probes <= mask; at = (at + 1) & mask, probes++) {
    const entry = load<u32>(slot32(slots, at));
    if (entry == 0) return false;
    const e = entry - 1;
    if (load<u32>(slot32(entries, 2 * e + 1)) == length && sameBytes(bytes + <usize>load<u32>(slot32(entries, 2 * e)), p, length)) return true;
  }
  return false;
}

/** The rules above, over the chunk the header describes. Returns the distinct word count or ERR_BAD_SPAN. */
export function extractWords(h: usize): i32 {
  if (!validInput(h)) return ERR_BAD_SPAN;
  const records = <usize>load<u32>(slot32(h, H_RECORDS));
  const count = load<u32>(slot32(h, H_COUNT));
  const norm = <usize>load<u32>(slot32(h, H_NORM));
  const input = <usize>load<u32>(slot32(h, H_INPUT));
  const table = <usize>load<u32>(slot32(h, H_TABLE));
  const nStrings = load<u32>(slot32(h, H_STRINGS));
  const stringDocs = <usize>load<u32>(slot32(h, H_STRING_DOCS));
  const stringFields = <usize>load<u32>(slot32(h, H_STRING_FIELDS));
  const nDocs = load<u32>(slot32(h, H_DOCS));
  const nFields = load<u32>(slot32(h, H_FIELDS));
  const stops = load<u32>(slot32(h, H_STOP_SLOTS)) != 0;
  const tableSlots = load<u32>(slot32(h, H_TABLE_SLOTS));
  const tableMask = tableSlots - 1;
  const tokenSlots = <usize>load<u32>(slot32(h, H_TOKEN_SLOTS));
  const tokenPlaces = <usize>load<u32>(slot32(h, H_TOKEN_PLACES));
  const docTokenStarts = <usize>load<u32>(slot32(h, H_DOC_TOKEN_STARTS));
  const docWords = <usize>load<u32>(slot32(h, H_DOC_WORDS));
  const docMasks = <usize>load<u32>(slot32(h, H_DOC_MASKS));
  const docInfos = <usize>load<u32>(slot32(h, H_DOC_INFOS));
  const docWordStarts = <usize>load<u32>(slot32(h, H_DOC_WORD_STARTS));
  const pairs = <usize>load<u32>(slot32(h, H_PAIRS));
  const docPairStarts = <usize>load<u32>(slot32(h, H_DOC_PAIR_STARTS));
  const wordStarts = <usize>load<u32>(slot32(h, H_WORD_STARTS));
  const wordBytes = <usize>load<u32>(slot32(h, H_WORD_BYTES));

  const slots = <usize>load<u32>(slot32(h, H_SCRATCH));
  const wordHash = slots + (<usize>tableSlots << 2);
  const wordStart = wordHash + (<usize>count << 2);
  const wordLength = wordStart + (<usize>count << 2);
  const wordDoc = wordLength + (<usize>count << 2);
  const wordSlot = wordDoc + (<usize>count << 2);
  const fieldDoc = wordSlot + (<usize>count << 2);
  const fieldLast = fieldDoc + (<usize>nFields << 2);
  const fieldCount = fieldLast + (<usize>nFields << 2);
  const fieldPair = fieldCount + (<usize>nFields << 2);
  memory.fill(slots, 0, <usize>tableSlots << 2);
  memory.fill(fieldDoc, 0, <usize>nFields << 2);

  let distinct: u32 = 0;
  let bytesOut: u32 = 0;
  let tokens: u32 = 0;
  let entries: u32 = 0;
  let nPairs: u32 = 0;
  let doc: u32 = 0; // the next document whose starts are not written yet
  let docStart: u32 = 0; // its first occurrence
  let r: u32 = 0;
  store<u32>(wordStarts, 0);
  for (let s: u32 = 0; s <= nStrings; s++) {
    const owner = s < nStrings ? load<u32>(slot32(stringDocs, s)) : nDocs;
    if (s == 0 || owner != load<u32>(slot32(stringDocs, s - 1))) {
      // the previous document is complete: flag its words alone in a field
      if (s > 0) {
        const previous = load<u32>(slot32(stringDocs, s - 1)) + 1;
        const firstEntry = load<u32>(slot32(docWordStarts, previous - 1));
        for (let t = docStart; t < tokens; t++) {
          const place = load<u32>(slot32(tokenPlaces, t));
          if (load<u32>(slot32(fieldCount, place >>> 16)) == 1) {
            const at = slot32(docInfos, firstEntry + load<u32>(slot32(tokenSlots, t)));
            store<u32>(at, load<u32>(at) | INFO_WHOLE_FIELD);
          }
        }
      }
      for (; doc <= owner && doc < nDocs; doc++) {
        store<u32>(slot32(docTokenStarts, doc), tokens);
        store<u32>(slot32(docWordStarts, doc), entries);
        store<u32>(slot32(docPairStarts, doc), 2 * nPairs);
      }
      docStart = tokens;
    }
    if (s == nStrings) break;
    const stamp = owner + 1;
    const field = load<u32>(slot32(stringFields, s));
    const bit: u32 = 1 << (field < MASK_BITS - 1 ? field : MASK_BITS - 1);
    let base: u32 = 0;
    let fieldWords: u32 = 0;
    if (load<u32>(slot32(fieldDoc, field)) == stamp) {
      base = load<u32>(slot32(fieldLast, field)) + VALUE_GAP;
      fieldWords = load<u32>(slot32(fieldCount, field));
    } else {
      store<u32>(slot32(fieldDoc, field), stamp);
      store<u32>(slot32(fieldPair, field), 0xffffffff);
    }
    let last = base;
    const stringBytes = input + <usize>load<u32>(slot32(table, 2 * s));
    for (; r < count; r++) {
      const record = records + (<usize>(r * TOKEN_RECORD_U32) << 2);
      if (load<u32>(slot32(record, TOKEN_STRING)) != s) break;
      if (load<u32>(slot32(record, TOKEN_KIND)) != KIND_WORD) continue;
      const position = base + load<u32>(slot32(record, TOKEN_POSITION));
      if (position >= MAX_POSITION) continue;
      const length = load<u32>(slot32(record, TOKEN_NORM_LENGTH));
      if (length == 0 || length > MAX_WORD_BYTES) continue;
      if (stops) {
        const text = stringBytes + <usize>load<u32>(slot32(record, TOKEN_START));
        const textLength = load<u32>(slot32(record, TOKEN_LENGTH));
        if (isAscii(text, textLength) && isStopWord(h, text, textLength)) continue;
      }
      last = position;
      fieldWords++;
      // intern the normalised bytes
      const start = load<u32>(slot32(record, TOKEN_NORM_START));
      const p = norm + <usize>start;
      const hash = fnv(p, length);
      let word: u32 = 0xffffffff;
      for (let at = hash & tableMask; ; at = (at + 1) & tableMask) {
        const entry = load<u32>(slot32(slots, at));
        if (entry == 0) {
          word = distinct++;
          store<u32>(slot32(slots, at), word + 1);
          store<u32>(slot32(wordHash, word), hash);
          store<u32>(slot32(wordStart, word), start);
          store<u32>(slot32(wordLength, word), length);
          store<u32>(slot32(wordDoc, word), 0);
          memory.copy(wordBytes + <usize>bytesOut, p, <usize>length);
          bytesOut += length;
          store<u32>(slot32(wordStarts, distinct), bytesOut);
          break;
        }
        const candidate = entry - 1;
        if (
          load<u32>(slot32(wordHash, candidate)) == hash &&
          load<u32>(slot32(wordLength, candidate)) == length &&
          sameBytes(norm + <usize>load<u32>(slot32(wordStart, candidate)), p, length)
        ) {
          word = candidate;
          break;
        }
      }
      // its slot among the document's distinct words
      let slot: u32;
      const docEntries = load<u32>(slot32(docWordStarts, owner));
      if (load<u32>(slot32(wordDoc, word)) == stamp) {
        slot = load<u32>(slot32(wordSlot, word));
        const mask = slot32(docMasks, docEntries + slot);
        store<u32>(mask, load<u32>(mask) | bit);
        const info = slot32(docInfos, docEntries + slot);
        if (position < load<u32>(info)) store<u32>(info, position);
      } else {
        slot = entries - docEntries;
        store<u32>(slot32(wordDoc, word), stamp);
        store<u32>(slot32(wordSlot, word), slot);
        store<u32>(slot32(docWords, entries), word);
        store<u32>(slot32(docMasks, entries), bit);
        store<u32>(slot32(docInfos, entries), position);
        entries++;
      }
      store<u32>(slot32(tokenSlots, tokens), slot);
      store<u32>(slot32(tokenPlaces, tokens), (field << 16) | position);
      tokens++;
    }
    // the records of strings skipped over (none when the tokenizer wrote them) are ignored
    store<u32>(slot32(fieldLast, field), last);
    store<u32>(slot32(fieldCount, field), fieldWords);
    if (fieldWords > 0) {
      const pair = load<u32>(slot32(fieldPair, field));
      if (pair == 0xffffffff) {
        store<u32>(slot32(fieldPair, field), nPairs);
        store<u32>(slot32(pairs, 2 * nPairs), field);
        store<u32>(slot32(pairs, 2 * nPairs + 1), fieldWords);
        nPairs++;
      } else {
        store<u32>(slot32(pairs, 2 * pair + 1), fieldWords);
      }
    }
  }
  for (; doc <= nDocs; doc++) {
    store<u32>(slot32(docTokenStarts, doc), tokens);
    store<u32>(slot32(docWordStarts, doc), entries);
    store<u32>(slot32(docPairStarts, doc), 2 * nPairs);
  }
  return <i32>distinct;
}
