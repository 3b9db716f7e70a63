/**
 * The index settings `separatorTokens`, `nonSeparatorTokens` and `dictionary`, compiled once per
 * distinct value for the tokenizer (`TokenizeOptions.custom`). Meilisearch v1.50 behaviour:
 * - milli's allowed separators (Index::allowed_separators) are (DEFAULT_SEPARATORS ∪
 *   separatorTokens) − nonSeparatorTokens;
 * - charabia then cuts each script group with one leftmost-longest Aho-Corasick automaton over
 *   dictionary ∪ allowed separators, matched case-sensitively on the original text: each match
 *   is one token, and so is each run of text between matches. A match never spans two script
 *   groups, and it may start inside a word ("G#D#" with `G#`, `D#` in the dictionary is two);
 * - the Classifier makes a token whose lemma (NFKD, control characters removed) is an allowed
 *   separator a separator, hard only if CONTEXT_SEPARATORS lists it (so custom separators are
 *   soft), and anything else a word, normalised as usual: dictionary `J. R. R.` indexes the one
 *   word `j. r. r.`, a removed `#` leaves `C#` the word `c#`, and a dictionary entry that is an
 *   allowed separator stays a separator.
 * Empty strings are ignored (an empty pattern would match everywhere). The reference tokenizer
 * reads `separators`/`dictionary`; the kernel reads `rules`, the region assembly/custom-tokens.ts
 * describes: the patterns of two or more code points, and per-code-point overrides of the
 * kernel's default property words (found through a reverse NFKD index of Node's Unicode data).
 */
import { CONTEXT_SEPARATORS, DEFAULT_SEPARATORS } from './charabia-data.js';
import { lemmaOf, lemmaOfText, SCRIPT_OTHER, scriptOf } from './unicode.js';
import { TokenKind, type TokenKindValue } from './token-records.js';

/** The settings the tokenizer honours; IndexSettings has them. */
export interface TokenizerSettings {
  readonly separatorTokens: readonly string[];
  readonly nonSeparatorTokens: readonly string[];
  readonly dictionary: readonly string[];
}

export interface CustomTokens {
  /** milli's allowed separators: what a token's lemma must be to be a separator */
  readonly separators: ReadonlySet<string>;
  /** the dictionary words, cut out like separators but classified like any token */
  readonly dictionary: ReadonlySet<string>;
  /** the kernel's rules region (assembly/custom-tokens.ts) */
  readonly rules: Uint8Array;
}

// Layout of the rules region, mirrored from assembly/custom-tokens.ts (checked by the tests).
export const RULES_HEADER_U32 = 4;
export const RULES_INDEX_U32 = 512;
export const PATTERN_RECORD_U32 = 4;
export const OVERRIDE_RECORD_U32 = 2;
export const OVERRIDE_SEPARATOR = 1;
export const OVERRIDE_KIND_SHIFT = 1;

const DEFAULTS: ReadonlySet<string> = new Set(DEFAULT_SEPARATORS);
const CONTEXT: ReadonlySet<string> = new Set(CONTEXT_SEPARATORS);
const CACHE_SIZE = 32;
const cache = new Map<string, CustomTokens | undefined>();
const encoder = new TextEncoder();

/**
 * The compiled custom tokens of `settings`, or undefined when they tokenize like the defaults
 * (then the kernel keeps its default path). Cached per distinct value, so callers may ask per
 * batch or per query.
 */
export function customTokens(settings: TokenizerSettings): CustomTokens | undefined {
  const { separatorTokens, nonSeparatorTokens, dictionary } = settings;
  if (separatorTokens.length === 0 && nonSeparatorTokens.length === 0 && dictionary.length === 0) return undefined;
  const key = JSON.stringify([separatorTokens, nonSeparatorTokens, dictionary]);
  if (cache.has(key)) return cache.get(key);
  const compiled = compile(settings);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/** The Classifier's verdict on a lemma, given the allowed separators. */
export function classifyLemma(lemma: string, separators: ReadonlySet<string>): TokenKindValue {
  if (!separators.has(lemma)) return TokenKind.Word;
  return CONTEXT.has(lemma) ? TokenKind.HardSeparator : TokenKind.SoftSeparator;
}

function compile(settings: TokenizerSettings): CustomTokens | undefined {
  const nonEmpty = (list: readonly string[]) => list.filter((text) => text !== '');
  const separators = new Set([...DEFAULT_SEPARATORS, ...nonEmpty(settings.separatorTokens)]);
  for (const token of settings.nonSeparatorTokens) separators.delete(token);
  const dictionary = new Set(nonEmpty(settings.dictionary));
  if (dictionary.size === 0 && separators.size === DEFAULTS.size && [...DEFAULTS].every((s) => separators.has(s))) return undefined;
  return { separators, dictionary, rules: pack(patternsOf(separators, dictionary), overridesOf(settings, separators, dictionary)) };
}

interface Pattern {
  readonly bytes: Uint8Array;
  readonly kind: TokenKindValue;
  readonly script: number;
}

/** The tokens of two or more code points, in byte order (as matchAt narrows them); those spanning two scripts never match. */
function patternsOf(separators: ReadonlySet<string>, dictionary: ReadonlySet<string>): Pattern[] {
  const patterns: Pattern[] = [];
  for (const text of new Set([...dictionary, ...separators])) {
    const cps = [...text].map((ch) => ch.codePointAt(0)!);
    if (cps.length < 2) continue;
    const scripts = new Set(cps.map(scriptOf).filter((script) => script !== SCRIPT_OTHER));
    if (scripts.size > 1) continue;
    patterns.push({ bytes: encoder.encode(text), kind: classifyLemma(lemmaOfText(text), separators), script: [...scripts][0] ?? SCRIPT_OTHER });
  }
  return patterns.sort((a, b) => compareBytes(a.bytes, b.bytes));
}

/** Byte order, a prefix first (the browser build has no Buffer.compare). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Code points that behave differently alone than the kernel's tables say: whether they are cut
 * out (a single-character separator or dictionary word) and the kind of a token whose lemma is
 * theirs. Candidates are the single characters of the three lists and every code point whose
 * lemma entered or left the separators.
 */
function overridesOf(settings: TokenizerSettings, separators: ReadonlySet<string>, dictionary: ReadonlySet<string>): [number, number][] {
  const flags = (ch: string, cut: (ch: string) => boolean, allowed: ReadonlySet<string>): number =>
    (cut(ch) ? OVERRIDE_SEPARATOR : 0) | (classifyLemma(lemmaOf(ch.codePointAt(0)!), allowed) << OVERRIDE_KIND_SHIFT);
  const candidates = new Set<number>();
  for (const text of [...settings.separatorTokens, ...settings.nonSeparatorTokens, ...dictionary]) {
    if ([...text].length === 1) candidates.add(text.codePointAt(0)!);
  }
  for (const lemma of [...DEFAULTS].filter((s) => !separators.has(s)).concat([...separators].filter((s) => !DEFAULTS.has(s)))) {
    for (const cp of codePointsWithLemma(lemma)) candidates.add(cp);
  }
  const overrides: [number, number][] = [];
  for (const cp of [...candidates].sort((a, b) => a - b)) {
    const ch = String.fromCodePoint(cp);
    const before = flags(ch, (c) => DEFAULTS.has(c), DEFAULTS);
    const after = flags(ch, (c) => separators.has(c) || dictionary.has(c), separators);
    if (after !== before) overrides.push([cp, after]);
  }
  return overrides;
}

let lemmaIndex: Map<string, number[]> | undefined;

/** Every code point whose lemma is `lemma` (built on first use: a pass over the decomposing planes). */
function codePointsWithLemma(lemma: string): number[] {
  if (lemmaIndex === undefined) {
    lemmaIndex = new Map();
    // Nothing decomposes above U+2FA1D. A code point NFKD leaves alone is its own lemma (or a
    // control character, whose empty lemma is never looked up). About 70 ms, once per thread.
    for (let cp = 0; cp <= 0x2fa1f; cp++) {
      if (cp === 0xd800) cp = 0xe000;
      const ch = String.fromCodePoint(cp);
      if (ch.normalize('NFKD') === ch) continue;
      const own = lemmaOf(cp);
      lemmaIndex.set(own, [...(lemmaIndex.get(own) ?? []), cp]);
    }
  }
  const found = lemmaIndex.get(lemma) ?? [];
  const cps = [...lemma];
  return cps.length === 1 && lemmaOf(cps[0]!.codePointAt(0)!) === lemma ? [...found, cps[0]!.codePointAt(0)!] : found;
}

function pack(patterns: readonly Pattern[], overrides: readonly [number, number][]): Uint8Array {
  const poolBytes = patterns.reduce((sum, p) => sum + p.bytes.length, 0);
  const fixedU32 = RULES_HEADER_U32 + RULES_INDEX_U32 + patterns.length * PATTERN_RECORD_U32 + overrides.length * OVERRIDE_RECORD_U32;
  const out = new Uint8Array(fixedU32 * 4 + poolBytes);
  const u32 = new Uint32Array(out.buffer, 0, fixedU32);
  u32.set([patterns.length, overrides.length, poolBytes, 0]);
  const patternsAt = RULES_HEADER_U32 + RULES_INDEX_U32;
  let pool = 0;
  patterns.forEach((pattern, i) => {
    const first = pattern.bytes[0]!;
    if (u32[RULES_HEADER_U32 + 2 * first + 1] === 0) u32[RULES_HEADER_U32 + 2 * first] = i;
    u32[RULES_HEADER_U32 + 2 * first + 1]!++;
    u32.set([pool, pattern.bytes.length, pattern.kind, pattern.script], patternsAt + i * PATTERN_RECORD_U32);
    out.set(pattern.bytes, fixedU32 * 4 + pool);
    pool += pattern.bytes.length;
  });
  overrides.forEach(([cp, flags], i) => u32.set([cp, flags], patternsAt + patterns.length * PATTERN_RECORD_U32 + i * OVERRIDE_RECORD_U32));
  return out;
}
