/**
 * Typed wrapper of the word-extraction kernel (assembly/extract.ts): the searchable strings of a
 * chunk of documents in, each document's indexed words out as typed columns, in two WASM calls
 * that share the arena (`tokenize`, then `extractWords` over the records it left there). The
 * chunk's distinct words come out once each, as normalised UTF-8, for the caller to intern in
 * its batch vocabulary; nothing is allocated per token. Caller: src/engine/words/extract.ts.
 *
 * Stop words compare with the NFKD of a token's original text: the kernel checks ASCII tokens
 * (their own NFKD) against a hashed table (`stopWordTable`, built once per stop-word set);
 * the few non-ASCII word tokens it lists (`nonAsciiWords`) are decided here and marked
 * KIND_STOP in the records before `extractWords` runs. reference/extract.ts computes the same
 * columns in TS from a TokenBatch (the tests' oracle).
 */
import type { CustomTokens } from './custom-tokens.js';
import { getKernels, KernelStatus, type Kernels } from './module.js';
import { TOKEN_RECORD_U32, TokenField } from './token-records.js';
import { tokenizeInArena } from './tokenizer.js';
import { encodeWords } from './utf8.js';

/** Record kind of a word found to be a stop word (assembly KIND_STOP). */
export const KIND_STOP = 3;
/** The rules' constants (assembly/extract.ts; src/engine/words/postings.ts INFO_WHOLE_FIELD). */
export const MAX_POSITION = 65_536;
export const MAX_WORD_BYTES = 250;
export const VALUE_GAP = 8;
export const INFO_WHOLE_FIELD = 1 << 16;

/** u32 slots of the kernel's header (assembly H_*), in order. */
const H = {
  Records: 0,
  Count: 1,
  Norm: 2,
  NormBytes: 3,
  Input: 4,
  InputBytes: 5,
  Table: 6,
  Strings: 7,
  StringDocs: 8,
  StringFields: 9,
  Docs: 10,
  Fields: 11,
  StopSlots: 12,
  StopMask: 13,
  StopEntries: 14,
  StopBytes: 15,
  Scratch: 16,
  TableSlots: 17,
  TokenSlots: 18,
  TokenPlaces: 19,
  DocTokenStarts: 20,
  DocWords: 21,
  DocMasks: 22,
  DocInfos: 23,
  DocWordStarts: 24,
  Pairs: 25,
  DocPairStarts: 26,
  WordStarts: 27,
  WordBytes: 28,
} as const;
export const EXTRACT_HEADER_U32 = 29;
/** The header slot names, for the tests that compare them with the kernel's exports. */
export const EXTRACT_HEADER_SLOTS: Readonly<Record<string, number>> = H;

/** A chunk: its strings, and per string the chunk-local document (non-decreasing) and field id. */
export interface ExtractInput {
  readonly strings: readonly string[];
  readonly stringDocs: Uint32Array;
  readonly stringFields: Uint32Array;
  readonly nDocs: number;
  /** above every field id of stringFields */
  readonly nFields: number;
}

/** What the chunk's documents contribute, document d's part of each column between its starts. */
export interface ExtractedChunk {
  /** the chunk's distinct indexed words in order of first occurrence: word w = wordBytes[wordStarts[w], wordStarts[w + 1]) */
  readonly wordBytes: Uint8Array;
  readonly wordStarts: Uint32Array;
  /** per document (nDocs + 1): its occurrences, as (slot in its distinct words, field << 16 | position) */
  readonly docTokenStarts: Uint32Array;
  readonly tokenSlots: Int32Array;
  readonly tokenPlaces: Uint32Array;
  /** per document (nDocs + 1): its distinct words (chunk word ids), field masks, lowest position | INFO_WHOLE_FIELD */
  readonly docWordStarts: Uint32Array;
  readonly docWords: Uint32Array;
  readonly docMasks: Uint32Array;
  readonly docInfos: Uint32Array;
  /** per document (nDocs + 1): where its (field, indexed word count) pairs start in pairs (in u32, 2 per pair) */
  readonly docPairStarts: Uint32Array;
  readonly pairs: Uint32Array;
}

/** A stop-word set hashed for the kernel: FNV-1a of each word's UTF-8, open addressing. */
export interface StopWordTable {
  readonly words: ReadonlySet<string>;
  /** entry + 1 per slot, 0 = empty; at most half full */
  readonly slots: Uint32Array;
  /** (start, length) per entry in bytes */
  readonly entries: Uint32Array;
  readonly bytes: Uint8Array;
}

export interface ExtractOptions {
  readonly custom?: CustomTokens | undefined;
  readonly langs?: ArrayLike<number> | undefined;
  readonly stopWords?: StopWordTable | undefined;
}

interface ExtractExports {
  extractWords(header: number): number;
  nonAsciiWords(records: number, count: number, input: number, table: number, out: number): number;
}

const decoder = new TextDecoder();

/** FNV-1a of bytes[start, start + length), as the kernel hashes. */
function fnv(bytes: Uint8Array, start: number, length: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = start; i < start + length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

/**
 * The kernel's table of `words`; undefined when there are none. Built once per set, which
 * engine/settings-derived.ts keeps while the index's stop words stay the same.
 */
export function stopWordTable(words: ReadonlySet<string>): StopWordTable | undefined {
  if (words.size === 0) return undefined;
  const { bytes, starts } = encodeWords(words, words.size);
  const entries = new Uint32Array(2 * words.size);
  let slotCount = 16;
  while (slotCount < 2 * words.size + 1) slotCount *= 2;
  const slots = new Uint32Array(slotCount);
  for (let e = 0; e < words.size; e++) {
    const length = starts[e + 1]! - starts[e]!;
    entries[2 * e] = starts[e]!;
    entries[2 * e + 1] = length;
    let at = fnv(bytes, starts[e]!, length) & (slotCount - 1);
    while (slots[at] !== 0) at = (at + 1) & (slotCount - 1);
    slots[at] = e + 1;
  }
  return { words, slots, entries, bytes };
}

/** Extracts a chunk's words: `tokenize` and `extractWords` over the same arena. */
export function extractChunk(input: ExtractInput, options: ExtractOptions = {}, kernels: Kernels = getKernels()): ExtractedChunk {
  const { arena } = kernels;
  const exports = kernels.exports as unknown as ExtractExports;
  const { strings, nDocs, nFields } = input;
  if (input.stringDocs.length !== strings.length || input.stringFields.length !== strings.length) throw new RangeError('one document and one field per string');
  const tokens = tokenizeInArena(strings, { separators: false, custom: options.custom, langs: options.langs }, kernels);
  const { count } = tokens;
  const stop = options.stopWords;
  if (stop !== undefined) markNonAsciiStopWords(kernels, exports, tokens, stop.words);
  const header = arena.alloc(EXTRACT_HEADER_U32 * 4);
  const region = (u32s: number, source?: Uint32Array): number => arena.allocU32(u32s, source);
  let tableSlots = 16;
  while (tableSlots <= 2 * count) tableSlots *= 2;
  const slots: Record<keyof typeof H, number> = {
    Records: tokens.records,
    Count: count,
    Norm: tokens.normalized,
    NormBytes: tokens.normBytes,
    Input: tokens.input,
    InputBytes: tokens.inLen,
    Table: tokens.table,
    Strings: strings.length,
    StringDocs: region(strings.length, input.stringDocs),
    StringFields: region(strings.length, input.stringFields),
    Docs: nDocs,
    Fields: nFields,
    StopSlots: stop === undefined ? 0 : region(stop.slots.length, stop.slots),
    StopMask: stop === undefined ? 0 : stop.slots.length - 1,
    StopEntries: stop === undefined ? 0 : region(stop.entries.length, stop.entries),
    StopBytes: 0,
    Scratch: region(tableSlots + 5 * count + 4 * nFields),
    TableSlots: tableSlots,
    TokenSlots: region(count),
    TokenPlaces: region(count),
    DocTokenStarts: region(nDocs + 1),
    DocWords: region(count),
    DocMasks: region(count),
    DocInfos: region(count),
    DocWordStarts: region(nDocs + 1),
    Pairs: region(2 * strings.length),
    DocPairStarts: region(nDocs + 1),
    WordStarts: region(count + 1),
    WordBytes: 0,
  };
  if (stop !== undefined) {
    slots.StopBytes = arena.alloc(stop.bytes.length);
    arena.u8.set(stop.bytes, slots.StopBytes);
  }
  slots.WordBytes = arena.alloc(tokens.normBytes);
  const u32 = arena.u32;
  for (const [name, slot] of Object.entries(H)) u32[(header >>> 2) + slot] = slots[name as keyof typeof H];
  const distinct = exports.extractWords(header);
  if (distinct === KernelStatus.BadSpan) throw new RangeError('the extraction kernel was given records or strings outside their regions');
  if (distinct < 0) throw new Error(`extraction kernel returned unknown status ${distinct}`);
  const column = (ptr: number, length: number) => arena.copyU32(ptr, length);
  const docTokenStarts = column(slots.DocTokenStarts, nDocs + 1);
  const docWordStarts = column(slots.DocWordStarts, nDocs + 1);
  const docPairStarts = column(slots.DocPairStarts, nDocs + 1);
  const nTokens = docTokenStarts[nDocs]!;
  const nEntries = docWordStarts[nDocs]!;
  const wordStarts = column(slots.WordStarts, distinct + 1);
  return {
    wordBytes: arena.u8.slice(slots.WordBytes, slots.WordBytes + wordStarts[distinct]!),
    wordStarts,
    docTokenStarts,
    tokenSlots: new Int32Array(column(slots.TokenSlots, nTokens).buffer),
    tokenPlaces: column(slots.TokenPlaces, nTokens),
    docWordStarts,
    docWords: column(slots.DocWords, nEntries),
    docMasks: column(slots.DocMasks, nEntries),
    docInfos: column(slots.DocInfos, nEntries),
    docPairStarts,
    pairs: column(slots.Pairs, docPairStarts[nDocs]!),
  };
}

/** Marks KIND_STOP the non-ASCII word records whose original text's NFKD is a stop word. */
function markNonAsciiStopWords(kernels: Kernels, exports: ExtractExports, tokens: ReturnType<typeof tokenizeInArena>, words: ReadonlySet<string>): void {
  const { arena } = kernels;
  const list = arena.alloc(tokens.count * 4);
  const n = exports.nonAsciiWords(tokens.records, tokens.count, tokens.input, tokens.table, list);
  const u8 = arena.u8;
  const u32 = arena.u32;
  for (let i = 0; i < n; i++) {
    const at = (tokens.records >>> 2) + u32[(list >>> 2) + i]! * TOKEN_RECORD_U32;
    const start = tokens.input + u32[(tokens.table >>> 2) + 2 * u32[at + TokenField.String]!]! + u32[at + TokenField.Start]!;
    const text = decoder.decode(u8.subarray(start, start + u32[at + TokenField.Length]!));
    if (words.has(text.normalize('NFKD'))) u32[at + TokenField.Kind] = KIND_STOP;
  }
}
