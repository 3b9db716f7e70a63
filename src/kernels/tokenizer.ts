/**
 * Typed wrapper of the tokenizer kernel (assembly/tokenize.ts): a batch of strings (or of UTF-8
 * byte spans) in, packed token records out, ONE WASM call per batch. Callers: the indexer's
 * extract step (all searchable fields of a chunk of documents) and search (query terms).
 * Behaviour is Meilisearch's (charabia segmentation and normalisation, milli word positions),
 * with the index's custom separators, non-separators and dictionary when given (`options.custom`,
 * from custom-tokens.ts); text in the scripts written without spaces (Han, kana, Thai…) is first
 * cut into words by segmentation.ts, whose breaks go to the kernel in the same call. The kernel's
 * header lists the rules, and reference/tokenizer.ts implements them in plain TS with identical
 * output (the tests' oracle and a fallback).
 *
 * Its input and output formats (UTF-8 batches, token records) are in token-records.ts, which
 * segmentation.ts and custom-tokens.ts read too; this module exports them again for its callers.
 *
 * Threading: each thread has its own kernels instance and arena (module.ts); a call owns the
 * arena until it returns and the returned arrays are copies, so results outlive the next call.
 */
import { RESULT_OUTPUT_BYTES, RESULT_RECORDS } from './arena.js';
import type { CustomTokens } from './custom-tokens.js';
import { Lang, latinAllowList } from './languages.js';
import { getKernels, KernelStatus, type Kernels } from './module.js';
import { latinGroupLanguages, latinMayBeGerman, WordBreaks, wordBreaksOfBatch } from './segmentation.js';
import { TOKEN_RECORD_U32, TokenField, TokenKind, type TokenBatch, type Utf8Batch } from './token-records.js';

export { TOKEN_RECORD_U32, TokenField, TokenKind, type TokenBatch, type TokenKindValue, type Utf8Batch } from './token-records.js';

/** The kernel's `flags` bit that asks for separator records too (assembly FLAG_SEPARATORS). */
export const FLAG_SEPARATORS = 1;

export interface TokenizeOptions {
  /** Also emit soft/hard separator records (default true); words are always emitted. */
  readonly separators?: boolean;
  /** The index's separatorTokens/nonSeparatorTokens/dictionary (`customTokens(settings)`); none = defaults. */
  readonly custom?: CustomTokens | undefined;
  /** One `Lang` per string (languages.ts `langOfLocales`); none = all `Lang.Detect`. */
  readonly langs?: ArrayLike<number> | undefined;
}

/** One token as plain data, for tests and debugging (see `materializeTokens`). */
export interface Token {
  readonly string: number;
  /** Byte offsets of the token in its string's UTF-8. */
  readonly start: number;
  readonly end: number;
  readonly position: number;
  readonly kind: 'word' | 'soft' | 'hard';
  /** The original text of the token. */
  readonly text: string;
  /** The normalised word ('' for separators). */
  readonly normalized: string;
}

const TOKEN_RECORD_BYTES = TOKEN_RECORD_U32 * 4;
const KIND_NAMES = ['word', 'soft', 'hard'] as const;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Tokenizes `strings` in one kernel call. */
export function tokenizeBatch(
  strings: readonly string[],
  options: TokenizeOptions = {},
  kernels: Kernels = getKernels(),
): TokenBatch {
  return copyOut(kernels, tokenizeInArena(strings, options, kernels));
}

/** Where a call left its input and output in the arena (valid until the arena's next reset). */
export interface ArenaTokens {
  readonly input: number;
  readonly inLen: number;
  /** (offset, length) per string in `input` */
  readonly table: number;
  readonly nStrings: number;
  readonly count: number;
  readonly records: number;
  readonly normalized: number;
  readonly normBytes: number;
}

/**
 * Tokenizes `strings` in one kernel call and leaves everything in the arena, for a kernel that
 * reads the records right after (extract.ts); the arena is not reset, so later regions follow.
 */
export function tokenizeInArena(
  strings: readonly string[],
  options: TokenizeOptions = {},
  kernels: Kernels = getKernels(),
): ArenaTokens {
  const { arena } = kernels;
  arena.reset();
  let capacity = 0;
  for (const text of strings) capacity += text.length * 3;
  const rules = writeRules(kernels, options);
  const table = arena.alloc(strings.length * 8);
  const input = arena.alloc(capacity);
  const breaks = new WordBreaks();
  const kernelBytes = langBytes(options.langs, strings.length);
  let written = 0;
  for (let i = 0; i < strings.length; i++) {
    const text = strings[i]!;
    const length = arena.writeUtf8(input + written, capacity - written, text);
    const u32 = arena.u32;
    u32[(table >>> 2) + 2 * i] = written;
    u32[(table >>> 2) + 2 * i + 1] = length;
    written += length;
    // as many UTF-8 bytes as UTF-16 units: ASCII, nothing to segment unless it is German
    const lang = options.langs?.[i] ?? Lang.Detect;
    if (length !== text.length || latinMayBeGerman(lang)) breaks.add(i, text, lang);
    // right after its breaks: the Latin groups whatlang judged there are still at hand
    if (kernelBytes !== undefined) kernelBytes[i] = kernelLang(lang, () => text);
  }
  const langs = writeLangs(kernels, anyLang(kernelBytes));
  return run(kernels, { input, inLen: written, table, nStrings: strings.length, flags: flagsOf(options), rules, breaks: writeBreaks(kernels, breaks.finish()), langs });
}

/** The records and normalised bytes of a call, copied out of the arena. */
function copyOut({ arena }: Kernels, tokens: ArenaTokens): TokenBatch {
  return {
    count: tokens.count,
    records: arena.u32.slice(tokens.records >>> 2, (tokens.records >>> 2) + tokens.count * TOKEN_RECORD_U32),
    normalized: arena.u8.slice(tokens.normalized, tokens.normalized + tokens.normBytes),
  };
}

/** Tokenizes UTF-8 spans (which may hold invalid UTF-8: it decodes as U+FFFD) in one call. */
export function tokenizeBytes(
  batch: Utf8Batch,
  options: TokenizeOptions = {},
  kernels: Kernels = getKernels(),
): TokenBatch {
  if (batch.spans.length % 2 !== 0) throw new RangeError('spans must hold (offset, length) pairs');
  const { arena } = kernels;
  arena.reset();
  const rules = writeRules(kernels, options);
  const table = arena.alloc(batch.spans.length * 4);
  const input = arena.alloc(batch.bytes.length);
  arena.u32.set(batch.spans, table >>> 2);
  arena.u8.set(batch.bytes, input);
  const nStrings = batch.spans.length / 2;
  const breaks = writeBreaks(kernels, wordBreaksOfBatch(batch, options.langs));
  const langs = writeLangs(kernels, kernelLangs(options.langs, nStrings, (i) => spanText(batch, i)));
  return copyOut(kernels, run(kernels, { input, inLen: batch.bytes.length, table, nStrings, flags: flagsOf(options), rules, breaks, langs }));
}

/** String `index` of a byte batch, decoded (invalid UTF-8 as U+FFFD). */
export function spanText(batch: Utf8Batch, index: number): string {
  const offset = batch.spans[2 * index]!;
  return decoder.decode(batch.bytes.subarray(offset, offset + batch.spans[2 * index + 1]!));
}

/** The UTF-8 form of `strings` that `tokenizeBytes` and `materializeTokens` take. */
export function encodeBatch(strings: readonly string[]): Utf8Batch {
  const parts = strings.map((text) => encoder.encode(text));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  const spans = new Uint32Array(strings.length * 2);
  let offset = 0;
  parts.forEach((part, i) => {
    bytes.set(part, offset);
    spans[2 * i] = offset;
    spans[2 * i + 1] = part.length;
    offset += part.length;
  });
  return { bytes, spans };
}

/** Unpacks a batch into objects (slow; for tests, debugging and small query-side uses). */
export function materializeTokens(batch: TokenBatch, source: readonly string[] | Utf8Batch): Token[] {
  const { bytes, spans } = isUtf8Batch(source) ? source : encodeBatch(source);
  const tokens: Token[] = [];
  for (let i = 0; i < batch.count; i++) {
    const r = batch.records.subarray(i * TOKEN_RECORD_U32, (i + 1) * TOKEN_RECORD_U32);
    const string = r[TokenField.String]!;
    const start = r[TokenField.Start]!;
    const end = start + r[TokenField.Length]!;
    const base = spans[2 * string]!;
    const normStart = r[TokenField.NormStart]!;
    tokens.push({
      string,
      start,
      end,
      position: r[TokenField.Position]!,
      kind: KIND_NAMES[r[TokenField.Kind]!]!,
      text: decoder.decode(bytes.subarray(base + start, base + end)),
      normalized: decoder.decode(batch.normalized.subarray(normStart, normStart + r[TokenField.NormLength]!)),
    });
  }
  return tokens;
}

/**
 * Each token of a batch over `strings`, in order, as its string's index, whether it is a word, its
 * normalised form ('' for separators) and its original text (read only when asked). For callers
 * that tokenize many short strings at once (synonyms, word lists): `materializeTokens` copies
 * every string to UTF-8 and decodes two strings per token, ~2.4 µs a token over 300,000 synonym
 * texts; here an ASCII batch's normalised words are sliced from one decoded string.
 */
export function visitTokens(
  batch: TokenBatch,
  strings: readonly string[],
  visit: (string: number, word: boolean, normalized: string, text: () => string) => void,
): void {
  const whole = decoder.decode(batch.normalized);
  const ascii = whole.length === batch.normalized.length;
  const { records } = batch;
  const sources = new Utf8Sources(strings);
  for (let i = 0; i < batch.count; i++) {
    const r = i * TOKEN_RECORD_U32;
    const string = records[r + TokenField.String]!;
    const normStart = records[r + TokenField.NormStart]!;
    const normEnd = normStart + records[r + TokenField.NormLength]!;
    const normalized = ascii ? whole.slice(normStart, normEnd) : decoder.decode(batch.normalized.subarray(normStart, normEnd));
    const start = records[r + TokenField.Start]!;
    const end = start + records[r + TokenField.Length]!;
    visit(string, records[r + TokenField.Kind] === TokenKind.Word, normalized, () => sources.slice(string, start, end));
  }
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * The parts of the source strings between UTF-8 byte offsets (no Buffer: the browser build shares
 * this). Each string is looked at once, then sliced as it is (ASCII: its bytes are its units) or
 * from its UTF-8 bytes: looking at the whole string for every token made a long text's tokens
 * quadratic (a 64 Ki-character `disableOnWords` entry took 19 s).
 */
class Utf8Sources {
  private readonly read = new Map<number, string | Uint8Array>();

  constructor(private readonly strings: readonly string[]) {}

  slice(string: number, start: number, end: number): string {
    let source = this.read.get(string);
    if (source === undefined) {
      const text = this.strings[string]!;
      source = ASCII.test(text) ? text : encoder.encode(text);
      this.read.set(string, source);
    }
    return typeof source === 'string' ? source.slice(start, end) : decoder.decode(source.subarray(start, end));
  }
}

function isUtf8Batch(source: readonly string[] | Utf8Batch): source is Utf8Batch {
  return !Array.isArray(source);
}

function flagsOf(options: TokenizeOptions): number {
  return options.separators === false ? 0 : FLAG_SEPARATORS;
}

/** Arena addresses and sizes of one call's inputs. */
interface CallInputs {
  readonly input: number;
  readonly inLen: number;
  readonly table: number;
  readonly nStrings: number;
  readonly flags: number;
  /** the custom tokens' rules region; length 0 for the defaults */
  readonly rules: { readonly ptr: number; readonly length: number };
  /** the word breaks region: `count` (string index, byte offset) pairs */
  readonly breaks: { readonly ptr: number; readonly count: number };
  /** the per-string `Lang` bytes, or 0 when every string detects */
  readonly langs: number;
}

/** Copies the custom tokens' rules region into the arena (one copy per call, nothing per token). */
function writeRules(kernels: Kernels, options: TokenizeOptions): CallInputs['rules'] {
  const rules = options.custom?.rules;
  if (rules === undefined) return { ptr: 0, length: 0 };
  const ptr = kernels.arena.alloc(rules.length);
  kernels.arena.u8.set(rules, ptr);
  return { ptr, length: rules.length };
}

/** Copies the word breaks (segmentation.ts) into the arena, one region per call. */
function writeBreaks(kernels: Kernels, breaks: readonly number[]): CallInputs['breaks'] {
  if (breaks.length === 0) return { ptr: 0, count: 0 };
  const ptr = kernels.arena.alloc(breaks.length * 4);
  kernels.arena.u32.set(breaks, ptr >>> 2);
  return { ptr, count: breaks.length / 2 };
}

/** `kernelLang` of every string, or undefined when every one is `Lang.Detect`. */
export function kernelLangs(langs: ArrayLike<number> | undefined, nStrings: number, textOf: (index: number) => string): Uint8Array | undefined {
  const bytes = langBytes(langs, nStrings);
  if (bytes === undefined) return undefined;
  for (let i = 0; i < nStrings; i++) bytes[i] = kernelLang(langs![i]!, () => textOf(i));
  return anyLang(bytes);
}

/** Room for one kernel byte per string when there are `langs` (which must hold one value each). */
function langBytes(langs: ArrayLike<number> | undefined, nStrings: number): Uint8Array | undefined {
  if (langs === undefined) return undefined;
  if (langs.length !== nStrings) throw new RangeError('langs must hold one value per string');
  return new Uint8Array(nStrings);
}

function anyLang(bytes: Uint8Array | undefined): Uint8Array | undefined {
  return bytes?.some((byte) => byte !== Lang.Detect) === true ? bytes : undefined;
}

/**
 * The byte the kernel takes for a string: its `Lang`'s low byte, with the Swedish bit when its
 * locales let whatlang choose and whatlang calls each Latin group of the string Swedish (per
 * string, where charabia decides per group: strings mixing such groups are rare).
 */
function kernelLang(lang: number, text: () => string): number {
  return (lang & 0xff) | (swedishByDetection(lang, text) ? Lang.Swedish : 0);
}

function swedishByDetection(lang: number, text: () => string): boolean {
  if ((lang & Lang.DetectLatin) === 0 || !latinAllowList(lang).has('swe')) return false;
  const groups = latinGroupLanguages(text(), lang);
  return groups.length > 0 && groups.every((group) => group.language === 'swe');
}

/** Copies the kernel's per-string bytes into the arena, or gives 0 when there are none. */
function writeLangs(kernels: Kernels, langs: Uint8Array | undefined): number {
  if (langs === undefined) return 0;
  const ptr = kernels.arena.alloc(langs.length);
  kernels.arena.u8.set(langs, ptr);
  return ptr;
}

/**
 * Lays out the output regions after the input and calls the kernel; when they were too small the
 * kernel reported the exact sizes it needed, so the single retry cannot run out again.
 */
function run(kernels: Kernels, call: CallInputs): ArenaTokens {
  const { arena, exports } = kernels;
  const { input, inLen, table, nStrings, flags, rules, breaks, langs } = call;
  const outputs = arena.top;
  // English prose gives ~0.35 tokens per byte with separators and half that without; leave
  // headroom so the retry (a second full run) only happens on unusually dense text.
  let recordCap = Math.ceil(inLen / ((flags & FLAG_SEPARATORS) !== 0 ? 2 : 4)) + 16;
  let byteCap = inLen + 16;
  for (let attempt = 0; attempt < 2; attempt++) {
    arena.rewind(outputs);
    const out = arena.alloc(recordCap * TOKEN_RECORD_BYTES);
    const norm = arena.alloc(byteCap);
    const status = exports.tokenize(input, inLen, table, nStrings, out, recordCap, norm, byteCap, flags, rules.ptr, rules.length, breaks.ptr, breaks.count, langs);
    if (status >= 0) return { input, inLen, table, nStrings, count: status, records: out, normalized: norm, normBytes: arena.result(RESULT_OUTPUT_BYTES) };
    if (status === KernelStatus.BadSpan) throw new RangeError('a string span lies outside the input bytes');
    if (status === KernelStatus.BadRules) throw new RangeError('the custom tokens region is malformed');
    if (status === KernelStatus.BadBreaks) throw new RangeError('the word breaks are out of order or name a missing string');
    if (status !== KernelStatus.OutOfCapacity) throw new Error(`tokenizer kernel returned unknown status ${status}`);
    recordCap = arena.result(RESULT_RECORDS);
    byteCap = arena.result(RESULT_OUTPUT_BYTES);
  }
  throw new Error('tokenizer kernel ran out of capacity after its regions were grown to the reported size');
}
