/**
 * Plain-TS reference of the tokenizer kernel: same input, byte-identical TokenBatch output.
 * The kernel tests use it as the oracle, and it can stand in for the kernel where WASM is not
 * wanted. It is written the way charabia and milli are structured, stage by stage, rather than
 * as the kernel's fused single pass, so the two check each other:
 *   decode (WHATWG UTF-8, invalid bytes -> U+FFFD) -> script groups (Script::from + the
 *   linear_group_by_key rule) -> leftmost-longest matches per group of the separators (with
 *   custom tokens: the dictionary and milli's allowed separators, custom-tokens.ts) -> lemma =
 *   NFKD minus control characters -> Classifier -> lowercase, CharacterConverter, Chinese
 *   variants, katakana to hiragana, Greek final sigma, nonspacing-mark removal (../normalize-word.ts,
 *   shared with the formatter's character map) -> milli's
 *   process_tokens positions. The runs between
 *   matches are also cut at the word breaks of ../segmentation.ts (taken from the bytes, where
 *   the kernel's host takes them from the strings, so the two paths check each other).
 * Unicode facts (NFKD, case, categories) come from the running Node at call time, not from the
 * kernel's generated tables; only charabia's own lists come from ../charabia-data.ts and
 * ../kvariants-data.ts (through ../kvariants.ts).
 * It shares the kernel's documented divergences from charabia (IPADIC rather than UniDic for
 * Japanese; language-detected normalisers limited to Chinese ideograph variants in Cj groups
 * whatlang calls Mandarin, katakana to hiragana in those it calls Japanese (both in those it
 * gives no language), and Swedish
 * recomposition in Latin text of strings whose kernel byte (tokenizer.ts `kernelLangs`) says
 * Swedish; a group's script is its first non-Other character's; a run of two or more
 * characters between matches is a word even if its NFKD is an allowed separator;
 * on invalid UTF-8, a U+FFFD matches single-character custom tokens only).
 */
import { DEFAULT_SEPARATORS, HARD_SEPARATOR_DISTANCE, SCRIPTS, WHATLANG_MANDARIN_RANGES } from '../charabia-data.js';
import { classifyLemma, type CustomTokens } from '../custom-tokens.js';
import { cjIsJapanese, isKana, Lang } from '../languages.js';
import { wordBreaksOfBatch } from '../segmentation.js';
import { kvariantOf } from '../kvariants.js';
import { normalizeWord, type NormalizerGates } from '../normalize-word.js';
import { lemmaOf, SCRIPT_OTHER, scriptOf } from '../unicode.js';
import { decodeUtf8, type Char } from '../utf8.js';
import {
  encodeBatch,
  kernelLangs,
  spanText,
  TokenKind,
  TOKEN_RECORD_U32,
  type TokenBatch,
  type TokenizeOptions,
  type TokenKindValue,
  type Utf8Batch,
} from '../tokenizer.js';

interface Segment extends NormalizerGates {
  readonly chars: readonly Char[];
}

/** A token: its characters, and whether the automaton matched it (rather than the text between matches). */
interface Piece {
  readonly chars: readonly Char[];
  readonly matched: boolean;
}

/** What charabia's automaton cuts on, and what a lemma must be to be a separator. */
interface Matcher {
  /** patterns of two or more code points as UTF-8 by first byte, longest first */
  readonly long: ReadonlyMap<number, readonly Uint8Array[]>;
  /** single code points cut out alone */
  readonly single: ReadonlySet<string>;
  readonly separators: ReadonlySet<string>;
}

const SCRIPT_LATIN = SCRIPTS.indexOf('Latin');
const SCRIPT_CJ = SCRIPTS.indexOf('Cj');
const encoder = new TextEncoder();

function matcherOf(patterns: Iterable<string>, separators: ReadonlySet<string>): Matcher {
  const all = [...new Set(patterns)];
  const long = new Map<number, Uint8Array[]>();
  for (const text of all.filter((t) => [...t].length > 1)) {
    const utf8 = encoder.encode(text);
    long.set(utf8[0]!, [...(long.get(utf8[0]!) ?? []), utf8]);
  }
  for (const list of long.values()) list.sort((a, b) => b.length - a.length);
  return { long, single: new Set(all.filter((text) => [...text].length === 1)), separators };
}

const DEFAULT_MATCHER = matcherOf(DEFAULT_SEPARATORS, new Set(DEFAULT_SEPARATORS));
const customMatchers = new WeakMap<CustomTokens, Matcher>();

function matcherFor(custom: CustomTokens | undefined): Matcher {
  if (custom === undefined) return DEFAULT_MATCHER;
  let matcher = customMatchers.get(custom);
  if (matcher === undefined) {
    matcher = matcherOf([...custom.dictionary, ...custom.separators], custom.separators);
    customMatchers.set(custom, matcher);
  }
  return matcher;
}

/** Reference of `tokenizeBatch`. */
export function referenceTokenizeBatch(strings: readonly string[], options: TokenizeOptions = {}): TokenBatch {
  return referenceTokenizeBytes(encodeBatch(strings), options);
}

/** Reference of `tokenizeBytes`. */
export function referenceTokenizeBytes(batch: Utf8Batch, options: TokenizeOptions = {}): TokenBatch {
  const withSeparators = options.separators !== false;
  const matcher = matcherFor(options.custom);
  const records: number[] = [];
  const normalized: Uint8Array[] = [];
  let normLength = 0;
  const breakPairs = wordBreaksOfBatch(batch, options.langs);
  const breaksOf = new Map<number, Set<number>>();
  for (let i = 0; i < breakPairs.length; i += 2) {
    const string = breakPairs[i]!;
    breaksOf.set(string, (breaksOf.get(string) ?? new Set()).add(breakPairs[i + 1]!));
  }
  const nStrings = batch.spans.length / 2;
  const langs = kernelLangs(options.langs, nStrings, (index) => spanText(batch, index));
  for (let index = 0; index < nStrings; index++) {
    const offset = batch.spans[2 * index]!;
    const length = batch.spans[2 * index + 1]!;
    if (offset + length > batch.bytes.length) throw new RangeError('a string span lies outside the input bytes');
    const bytes = batch.bytes.subarray(offset, offset + length);
    const chars = decodeUtf8(bytes);
    // milli process_tokens: leading separators are skipped, then a word advances the position by
    // 0 (first), HARD_SEPARATOR_DISTANCE (after a hard separator) or 1; empty words do not count.
    let position = 0;
    let prev: TokenKindValue | undefined;
    let started = false;
    for (const segment of segments(chars, langs?.[index] ?? Lang.Detect)) {
      for (const { chars: token, matched } of tokens(segment, bytes, matcher, breaksOf.get(index))) {
        const start = token[0]!.start;
        const end = token[token.length - 1]!.end;
        const lemma = token.map((c) => lemmaOf(c.cp)).join('');
        // A run between matches is classified only when it has one character that is not a control.
        const run = !matched && token.length > 1 && token.filter((c) => lemmaOf(c.cp) !== '').length > 1;
        const kind = run ? TokenKind.Word : classifyLemma(lemma, matcher.separators);
        if (kind === TokenKind.Word) {
          const word = normalizeWord(lemma, segment);
          started = true;
          if (word === '') continue;
          if (prev === TokenKind.HardSeparator) position += HARD_SEPARATOR_DISTANCE;
          else if (prev !== undefined) position += 1;
          prev = TokenKind.Word;
          const bytes = encoder.encode(word);
          records.push(index, start, end - start, position, kind, normLength, bytes.length);
          normalized.push(bytes);
          normLength += bytes.length;
          continue;
        }
        if (started) {
          if (kind === TokenKind.HardSeparator) prev = kind;
          else if (prev !== TokenKind.HardSeparator) prev = kind;
        }
        if (withSeparators) records.push(index, start, end - start, position, kind, normLength, 0);
      }
    }
  }
  const out = new Uint8Array(normLength);
  let at = 0;
  for (const bytes of normalized) {
    out.set(bytes, at);
    at += bytes.length;
  }
  return { count: records.length / TOKEN_RECORD_U32, records: Uint32Array.from(records), normalized: out };
}

const within = (cp: number, [first, last]: readonly [number, number]): boolean => cp >= first && cp <= last;

/** whatlang's call on a Cj group (languages.ts `cjIsJapanese`); null when it finds none of its Cj scripts there. */
function cjLanguage(chars: readonly Char[], lang: number): 'cmn' | 'jpn' | null {
  const kana = chars.filter((c) => isKana(c.cp)).length;
  const mandarin = chars.filter((c) => !isKana(c.cp) && WHATLANG_MANDARIN_RANGES.some((range) => within(c.cp, range))).length;
  if (kana === 0 && mandarin === 0 && (lang & (Lang.JapaneseOnly | Lang.MandarinOnly)) === 0) return null;
  return cjIsJapanese(kana, mandarin, lang) ? 'jpn' : 'cmn';
}

/**
 * charabia SegmentedStrIter::new: a new group starts at a character whose script is not Other and
 * differs from the current script, unless the current script is still Other. A group's script is
 * the script of its first non-Other character.
 */
function segments(chars: readonly Char[], lang: number): Segment[] {
  const groups: Segment[] = [];
  let current: Char[] = [];
  let currentScript = SCRIPT_OTHER;
  const close = (): void => {
    const language = currentScript === SCRIPT_CJ ? cjLanguage(current, lang) : 'cmn';
    groups.push({
      chars: current,
      script: currentScript,
      chinese: currentScript === SCRIPT_CJ && language !== 'jpn' ? kvariantOf : null,
      japanese: currentScript === SCRIPT_CJ && language !== 'cmn' && (lang & Lang.CjPlain) === 0,
      swedish: currentScript === SCRIPT_LATIN && (lang & Lang.Swedish) !== 0,
    });
  };
  for (const c of chars) {
    const script = scriptOf(c.cp);
    if (script !== SCRIPT_OTHER && script !== currentScript) {
      if (currentScript !== SCRIPT_OTHER) {
        close();
        current = [];
      }
      currentScript = script;
    }
    current.push(c);
  }
  if (current.length > 0) close();
  return groups;
}

/**
 * The automaton's matches (leftmost-longest) and the runs of text between them, in order, a run
 * also ending at each word break. Matches stay inside the segment; longer patterns compare the
 * original bytes; a break inside a match is ignored.
 */
function tokens(segment: Segment, bytes: Uint8Array, matcher: Matcher, breaks: ReadonlySet<number> | undefined): Piece[] {
  const out: Piece[] = [];
  const { chars } = segment;
  const segmentEnd = chars[chars.length - 1]!.end;
  let pending: Char[] = [];
  let i = 0;
  while (i < chars.length) {
    const at = chars[i]!.start;
    if (breaks?.has(at) === true && pending.length > 0) {
      out.push({ chars: pending, matched: false });
      pending = [];
    }
    const long = matcher.long.get(bytes[at]!)?.find((p) => at + p.length <= segmentEnd && p.every((b, k) => bytes[at + k] === b));
    let matched = 0;
    if (long !== undefined) while (i + matched < chars.length && chars[i + matched]!.start < at + long.length) matched++;
    else if (matcher.single.has(String.fromCodePoint(chars[i]!.cp))) matched = 1;
    if (matched === 0) {
      pending.push(chars[i]!);
      i += 1;
      continue;
    }
    if (pending.length > 0) out.push({ chars: pending, matched: false });
    pending = [];
    out.push({ chars: chars.slice(i, i + matched), matched: true });
    i += matched;
  }
  if (pending.length > 0) out.push({ chars: pending, matched: false });
  return out;
}

