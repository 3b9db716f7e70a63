// The tokenizer kernel: UTF-8 bytes of a batch of strings -> packed token records + normalised
// words, with Meilisearch's segmentation, normalisation and word positions for non-CJK text.
// Called through `tokenize` (assembly/index.ts) by src/kernels/tokenizer.ts, once per batch.
//
// Behaviour (charabia defaults, milli positions), mirrored by src/kernels/reference/tokenizer.ts:
// - A string is cut into script groups: a character of a script other than the group's (and not
//   Script::Other) starts a new group. Tokens never span groups.
// - Inside a group, DEFAULT_SEPARATORS are matched leftmost-longest (". " beats "."); each match
//   is a token, and so is each run of text between matches.
// - A token's lemma is its NFKD with control characters dropped. A lemma equal to a separator is
//   a soft or hard separator (hard if it is in CONTEXT_SEPARATORS); anything else is a word, so
//   "…" (lemma "...") is a word and a lone U+00A0 (lemma " ") is a soft separator.
// - A word's normalised form: lemma, lowercased, CharacterConverter (œ->oe, ’->', ı->i, đ->d...),
//   Greek final ς->σ, and nonspacing marks removed in Latin/Greek/Hebrew/Thai/Arabic groups.
//   Words whose normalised form is empty are dropped (milli never indexes them).
// - Positions (milli process_tokens): separators before the first token are ignored; a word is
//   0 if first, +HARD_SEPARATOR_DISTANCE after a hard separator, +1 otherwise. A soft separator
//   after a hard one does not soften it. Separator records carry the position of the word before.
// - Invalid UTF-8 decodes as U+FFFD per maximal subpart (as TextDecoder does); U+FFFD is a word
//   character, and records still give offsets of the original bytes.
// - Custom tokens (the index's separatorTokens, nonSeparatorTokens, dictionary; the call's rules
//   region, see assembly/custom-tokens.ts and src/kernels/custom-tokens.ts): the matches are
//   then the dictionary words and milli's allowed separators, leftmost-longest, compared
//   byte-exactly with the original text and never across a script group; ". ", ", " and "។ល។"
//   are ordinary patterns. A match is classified by its lemma against the allowed separators
//   (custom separators are soft), so a dictionary word is one word and a removed separator is a
//   word character. With no rules the default path runs, and only pays a flag test per character.
// - Word breaks (the call's breaks region: sorted (string index, byte offset) pairs, which the
//   host finds with charabia's segmenters, jieba and lindera, in Han, kana and Hangul text, after
//   the Arabic article ال, with charabia's word lists in Thai and Khmer text and German Latin text,
//   src/kernels/segmentation.ts): the pending word ends at a break that falls on the start of a
//   character the kernel reaches; a break inside a separator or custom token it matched is
//   passed over, so those stay whole. The text between breaks runs the unchanged loop, so a
//   string without breaks pays nothing per character.
// - Chinese ideograph variants (ChineseNormalizer, default build: no pinyin): in a Cj group
//   whatlang calls Mandarin, each character of a word, after NFKD and lowercasing, becomes its
//   kVariants destination (wrong!, sem, simp, old and = rows; one destination per source,
//   applied once), so 亚 and 亞 give the same word. whatlang calls a Cj group Japanese when
//   more than 5% of its Han and kana characters (its Mandarin ranges, Hiragana, Katakana) are
//   kana, or when the string's locales leave Mandarin out (the call's langs region, one
//   LANG_* byte per string, src/kernels/languages.ts).
// - Katakana to hiragana (JapaneseNormalizer, in the default build through charabia's
//   `japanese-transliteration`): in a Cj group whatlang calls Japanese, or in which it finds
//   none of its Cj scripts (half-width katakana: both normalisers run), unless the string's lone
//   locale names another language (LANG_CJ_PLAIN), each katakana becomes its hiragana as
//   wana_kana's katakana_to_hiragana makes it (`hiraganaOf`, src/kernels/kana.ts), so ラーメン
//   and らあめん give the same word.
//   Only Cj groups pay for either: a count over the group when it starts, a table search per
//   character for the variants, a range test per character for the kana.
// - Swedish recomposition (SwedishRecompositionNormalizer): in a Latin group of a string whose
//   locales name no Latin-script language but Swedish, or whose Latin groups whatlang all calls
//   Swedish among its locales (LANG_SWEDISH, set by the host: tokenizer.ts `kernelLangs`), a
//   ring right after a, or a diaeresis right after a or o, joins it, so å, ä and ö keep their marks.
// Not reproduced: UniDic for Japanese (lindera-wasm has IPADIC); whatlang's choice per Latin
// group for Swedish (it is per string here); and a group's script is its first non-Other
// character's, where charabia asks whatlang (differs only on odd mixes).
// With custom tokens, a run of two or more non-control characters between matches is always a
// word, where charabia would make it a separator if its NFKD were an allowed one (only a custom
// separator written with compatibility characters or control characters inside, or a removed
// "." before a no-break space, can do that).
// Invariants: no allocation, no traps on any input; every store is bounds-checked against the
// capacities the host gave, and overflow switches to counting (see ERR_OUT_OF_CAPACITY).
import {
  FOLD_ENTRIES,
  FOLD_POOL,
  HARD_SEPARATOR_DISTANCE,
  HIRAGANA_FIRST,
  HIRAGANA_LAST,
  KATAKANA_FIRST,
  KATAKANA_LAST,
  KIND_COMMA_SPACE,
  KIND_DOT_SPACE,
  KIND_KHMER_LEK,
  KVARIANT_COUNT,
  KVARIANTS,
  MANDARIN_RANGE_COUNT,
  MANDARIN_RANGES,
  MARK_REMOVING_SCRIPTS,
  POOL_CODE_POINT_MASK,
  POOL_MARK,
  PROPS,
  PROPS_INDEX,
  PROP_CONTROL,
  PROP_FOLD,
  PROP_FOLD_SHIFT,
  PROP_LEMMA_MASK,
  PROP_LEMMA_SHIFT,
  PROP_MARK,
  PROP_SCRIPT_MASK,
  PROP_SEPARATOR,
  SCRIPT_CJ,
  SCRIPT_GREEK,
  SCRIPT_LATIN,
  SCRIPT_OTHER,
  TRIE_MASK,
  TRIE_SHIFT,
} from './unicode-tables';
import { ERR_BAD_BREAKS, ERR_BAD_RULES, ERR_BAD_SPAN, ERR_OUT_OF_CAPACITY } from './errors';
import { loadRules, matchAt, matchKind, matchLength, matchScript, overrideAscii, overrideProps, startsPattern } from './custom-tokens';
import { RESULT_OUTPUT_BYTES, RESULT_RECORDS, writeResult } from './arena';

/** u32 fields per token record, and the index of each field. */
export const TOKEN_RECORD_U32: u32 = 7;
export const TOKEN_STRING: u32 = 0;
export const TOKEN_START: u32 = 1;
export const TOKEN_LENGTH: u32 = 2;
export const TOKEN_POSITION: u32 = 3;
export const TOKEN_KIND: u32 = 4;
export const TOKEN_NORM_START: u32 = 5;
export const TOKEN_NORM_LENGTH: u32 = 6;

export const KIND_WORD: u32 = 0;
export const KIND_SOFT: u32 = 1;
export const KIND_HARD: u32 = 2;
/** `prev` before the first word or separator that counts: milli's `None`. */
const PREV_NONE: u32 = 3;

/** flags bit: also emit separator records (words are always emitted). */
export const FLAG_SEPARATORS: u32 = 1;
/** Per-string language byte: the string's locales leave out Mandarin, so its Cj text is Japanese. */
export const LANG_JAPANESE_ONLY: u32 = 1;
/** Per-string language byte: Swedish is the only Latin-script language of its locales. */
export const LANG_SWEDISH: u32 = 2;
/** Per-string language byte: a lone locale names a language neither Chinese nor Japanese, which no Cj normaliser serves. */
export const LANG_CJ_PLAIN: u32 = 8;
/** Per-string language byte: Mandarin is the lone locale, so all its Cj text is Mandarin. */
export const LANG_MANDARIN_ONLY: u32 = 16;

/**
 * Property bit of the kernel's own ASCII table only: a custom multi-character token starts with
 * this byte, so the ASCII fast path must stop there. Bit 11 is unused by unicode-tables.ts.
 */
const PROP_PATTERN_START: u32 = 1 << 11;

/**
 * PROPS' ASCII block, copied so a call with custom tokens can patch it (separator bits, lemma
 * kinds, PROP_PATTERN_START) and keep its fast path a single load; restored for default calls.
 */
const ASCII_PROPS: usize = memory.data(128 << 2, 16);
let asciiPatched = true;

const HANGUL_FIRST: u32 = 0xac00;
const HANGUL_COUNT: u32 = 11172;
const FINAL_SIGMA: u32 = 0x3c2;

// Call state (module globals: no allocation, and the kernel is not reentrant anyway).
let outPtr: usize = 0;
let outCap: u32 = 0;
let count: u32 = 0;
let normPtr: usize = 0;
let normCap: u32 = 0;
let normLen: u32 = 0;
let emitSeparators = false;
/** The call came with custom tokens (assembly/custom-tokens.ts holds them). */
let custom = false;

// String state.
let stringIndex: u32 = 0;
let position: u32 = 0;
let prev: u32 = PREV_NONE;
let started = false;
let removeMarks = false;
let greek = false;
/** The group is Cj text whatlang would call Mandarin: its ideographs take their kVariants form. */
let chinese = false;
/** The group is Cj text whatlang calls Japanese or gives no language (and no lone locale names another): katakana become hiragana. */
let japanese = false;
/** The string's LANG_JAPANESE_ONLY bit. */
let japaneseOnly = false;
/** The string's LANG_CJ_PLAIN bit. */
let cjPlain = false;
/** The string's LANG_MANDARIN_ONLY bit. */
let mandarinOnly = false;
/** The string's LANG_SWEDISH bit. */
let swedishOnly = false;
/** The group is Latin text whatlang calls Swedish: å, ä and ö keep their marks. */
let swedish = false;

// The pending token between separators; tokStart < 0 when there is none.
let tokStart: i32 = -1;
let tokNorm: u32 = 0;
let tokNonControl: u32 = 0;
let tokFirstProps: u32 = 0;
let tokLastOut: u32 = 0;
/** The hiragana the pending token's last character became if it was a katakana, else 0: a long dash after it gives its vowel. */
let kanaPrev: u32 = 0;

// Word breaks: the cursor into the (string index, byte offset) pairs, and the next break of the
// current string (string-relative), NO_BREAK when it has none left.
const NO_BREAK: u32 = 0xffffffff;
let breakAt: usize = 0;
let breaksEnd: usize = 0;
let nextBreak: u32 = NO_BREAK;

/** Byte length of the code point the last `decode` returned. */
let cpLen: u32 = 0;

/** WHATWG UTF-8 decoding of one code point at p (< end); sets cpLen. */
function decode(p: usize, end: usize): u32 {
  const b0 = <u32>load<u8>(p);
  if (b0 < 0x80) {
    cpLen = 1;
    return b0;
  }
  let need: u32;
  let cp: u32;
  let lower: u32 = 0x80;
  let upper: u32 = 0xbf;
  if (b0 - 0xc2 <= 0x1d) {
    need = 1;
    cp = b0 & 0x1f;
  } else if (b0 - 0xe0 <= 0x0f) {
    need = 2;
    cp = b0 & 0x0f;
    if (b0 == 0xe0) lower = 0xa0;
    else if (b0 == 0xed) upper = 0x9f; // UTF-16 surrogates are not scalar values
  } else if (b0 - 0xf0 <= 0x04) {
    need = 3;
    cp = b0 & 0x07;
    if (b0 == 0xf0) lower = 0x90;
    else if (b0 == 0xf4) upper = 0x8f;
  } else {
    cpLen = 1;
    return 0xfffd;
  }
  for (let k: u32 = 1; k <= need; k++) {
    // A maximal subpart ends before the offending byte, which then starts the next code point.
    if (p + <usize>k >= end) {
      cpLen = k;
      return 0xfffd;
    }
    const b = <u32>load<u8>(p + <usize>k);
    if (b < lower || b > upper) {
      cpLen = k;
      return 0xfffd;
    }
    lower = 0x80;
    upper = 0xbf;
    cp = (cp << 6) | (b & 0x3f);
  }
  cpLen = need + 1;
  return cp;
}

// @ts-ignore: decorator
@inline function props(cp: u32): u32 {
  const block = <usize>load<u16>(PROPS_INDEX + (<usize>(cp >> TRIE_SHIFT) << 1));
  return load<u32>(PROPS + (((block << TRIE_SHIFT) + <usize>(cp & TRIE_MASK)) << 2));
}

// @ts-ignore: decorator
@inline function putByte(b: u32): void {
  if (normLen < normCap) store<u8>(normPtr + <usize>normLen, <u8>b);
  normLen++;
}

function putUtf8(cp: u32): void {
  if (cp < 0x80) {
    putByte(cp);
  } else if (cp < 0x800) {
    putByte(0xc0 | (cp >> 6));
    putByte(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    putByte(0xe0 | (cp >> 12));
    putByte(0x80 | ((cp >> 6) & 0x3f));
    putByte(0x80 | (cp & 0x3f));
  } else {
    putByte(0xf0 | (cp >> 18));
    putByte(0x80 | ((cp >> 12) & 0x3f));
    putByte(0x80 | ((cp >> 6) & 0x3f));
    putByte(0x80 | (cp & 0x3f));
  }
}

function record(start: u32, length: u32, kind: u32, normStart: u32, normLength: u32): void {
  if (count < outCap) {
    const at = outPtr + <usize>count * (<usize>TOKEN_RECORD_U32 << 2);
    store<u32>(at, stringIndex, TOKEN_STRING << 2);
    store<u32>(at, start, TOKEN_START << 2);
    store<u32>(at, length, TOKEN_LENGTH << 2);
    store<u32>(at, position, TOKEN_POSITION << 2);
    store<u32>(at, kind, TOKEN_KIND << 2);
    store<u32>(at, normStart, TOKEN_NORM_START << 2);
    store<u32>(at, normLength, TOKEN_NORM_LENGTH << 2);
  }
  count++;
}

function emitWord(start: u32, length: u32, normStart: u32): void {
  started = true;
  if (prev == KIND_HARD) position += HARD_SEPARATOR_DISTANCE;
  else if (prev != PREV_NONE) position += 1;
  prev = KIND_WORD;
  record(start, length, KIND_WORD, normStart, normLen - normStart);
}

function emitSeparator(start: u32, length: u32, kind: u32): void {
  // milli skips leading separators, and never lets a soft separator downgrade a hard one.
  if (started) {
    if (kind == KIND_HARD) prev = KIND_HARD;
    else if (prev != KIND_HARD) prev = KIND_SOFT;
  }
  if (emitSeparators) record(start, length, kind, normLen, 0);
}

/** Sets the per-group flags of the group of `script` that starts at p. */
function setGroupScript(script: u32, p: usize, end: usize): void {
  removeMarks = ((MARK_REMOVING_SCRIPTS >> script) & 1) != 0;
  greek = script == SCRIPT_GREEK;
  const language = script == SCRIPT_CJ ? groupLanguage(p, end) : CJ_MANDARIN;
  chinese = script == SCRIPT_CJ && language != CJ_JAPANESE;
  japanese = script == SCRIPT_CJ && language != CJ_MANDARIN && !cjPlain;
  swedish = swedishOnly && script == SCRIPT_LATIN;
}

/**
 * SwedishRecompositionNormalizer, after NFKD: a ring right after a, or a diaeresis right after a
 * or o (tokLastOut: the lemma's previous character, lowercased and written), joins it as å, ä
 * or ö, which keeps its mark.
 */
function recomposeSwedish(mark: u32): bool {
  if (!swedish) return false;
  let joined: u32 = 0;
  if (tokLastOut == 0x61) joined = mark == 0x30a ? 0xe5 : mark == 0x308 ? 0xe4 : 0;
  else if (tokLastOut == 0x6f && mark == 0x308) joined = 0xf6;
  if (joined == 0) return false;
  normLen--;
  tokLastOut = joined;
  putUtf8(joined);
  return true;
}

function isWhatlangMandarin(cp: u32): bool {
  for (let i: u32 = 0; i < MANDARIN_RANGE_COUNT; i++) {
    const at = MANDARIN_RANGES + (<usize>i << 3);
    if (cp >= load<u32>(at) && cp <= load<u32>(at, 4)) return true;
  }
  return false;
}

/** What groupLanguage finds. */
const CJ_MANDARIN: u32 = 0;
const CJ_JAPANESE: u32 = 1;
/** whatlang finds none of its Cj scripts (half-width katakana, ideographs outside its ranges): no language, and both normalisers apply. */
const CJ_UNKNOWN: u32 = 2;

/**
 * The language whatlang gives the group starting at p (up to the first character of another
 * script): Japanese, which ChineseNormalizer leaves alone, always when the string's languages
 * leave out Mandarin, never when Mandarin is the lone one, else when more than 5% of its Han and
 * kana characters are Hiragana or Katakana (whatlang's detect_lang_base_on_mandarin_script; a
 * kana-led group is Japanese either way); none when it holds neither. Only Cj groups pay for
 * this look-ahead.
 */
function groupLanguage(p: usize, end: usize): u32 {
  if (japaneseOnly) return CJ_JAPANESE;
  if (mandarinOnly) return CJ_MANDARIN;
  let mandarin: u32 = 0;
  let kana: u32 = 0;
  while (p < end) {
    const cp = decode(p, end);
    const script = props(cp) & PROP_SCRIPT_MASK;
    if (script != SCRIPT_OTHER && script != SCRIPT_CJ) break;
    if (cp - HIRAGANA_FIRST <= HIRAGANA_LAST - HIRAGANA_FIRST || cp - KATAKANA_FIRST <= KATAKANA_LAST - KATAKANA_FIRST) kana++;
    else if (isWhatlangMandarin(cp)) mandarin++;
    p += <usize>cpLen;
  }
  if (kana == 0 && mandarin == 0) return CJ_UNKNOWN;
  // jpn_pct > 0.05, exactly: kana / (mandarin + kana) > 1 / 20
  return <u64>kana * 20 > <u64>mandarin + <u64>kana ? CJ_JAPANESE : CJ_MANDARIN;
}

/** ChineseNormalizer: the kVariants destination of cp, or cp (binary search by source). */
function variantOf(cp: u32): u32 {
  let lo: u32 = 0;
  let hi = KVARIANT_COUNT;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const source = load<u32>(KVARIANTS + (<usize>mid << 3));
    if (source == cp) return load<u32>(KVARIANTS + (<usize>mid << 3), 4);
    if (source < cp) lo = mid + 1;
    else hi = mid;
  }
  return cp;
}

/**
 * The last letter of the romaji of each hiragana from U+3041 (src/kernels/kana.ts ROMAJI_ENDS):
 * `-` for っ, `?` for ゕ and ゖ, which wana_kana's table lacks.
 */
const ROMAJI_ENDS = 'aaiiuueeooaaiiuueeooaaiiuueeooaaii-uueeooaiueoaaaiiiuuueeeoooaiueoaauuooaiueoaaieonu??';
const LONG_DASH: u32 = 0x30fc;

/**
 * JapaneseNormalizer, one character of the lemma at a time (wana_kana's katakana_to_hiragana,
 * src/kernels/kana.ts): a katakana's hiragana; a long dash after one, its vowel's hiragana (o
 * gives う), after ん or っ nothing (0); ・, ヵ, ヶ and a dash after anything else stay.
 */
function hiraganaOf(cp: u32): u32 {
  if (cp - 0x30a1 > LONG_DASH - 0x30a1) {
    kanaPrev = 0;
    return cp;
  }
  if (cp == 0x30fb || cp == 0x30f5 || cp == 0x30f6) return cp;
  if (cp == LONG_DASH) {
    if (kanaPrev == 0) return cp;
    const end = kanaPrev - 0x3041 < <u32>ROMAJI_ENDS.length ? ROMAJI_ENDS.charCodeAt(kanaPrev - 0x3041) : 0x3f;
    if (end == 0x61) return 0x3042;
    if (end == 0x69) return 0x3044;
    if (end == 0x75 || end == 0x6f) return 0x3046;
    if (end == 0x65) return 0x3048;
    return end == 0x3f ? cp : 0;
  }
  // ヷ–ヺ never get here: NFKD has made them ワ–ヲ and U+3099.
  kanaPrev = cp - 0x60;
  return kanaPrev;
}

function startToken(start: u32): void {
  tokStart = <i32>start;
  tokNorm = normLen;
  tokNonControl = 0;
  tokLastOut = 0;
  kanaPrev = 0;
}

/** Appends the normalised form of one character of the pending token. */
function appendChar(cp: u32, p: u32): void {
  if (p & PROP_CONTROL) return;
  tokNonControl++;
  if (tokNonControl == 1) tokFirstProps = p;
  if (cp < 0x80) {
    const lower = cp - 0x41 < 26 ? cp | 0x20 : cp;
    putByte(lower);
    tokLastOut = lower;
    kanaPrev = 0;
    return;
  }
  const syllable = cp - HANGUL_FIRST;
  if (syllable < HANGUL_COUNT) {
    putUtf8(0x1100 + syllable / 588);
    const vowel = 0x1161 + (syllable % 588) / 28;
    putUtf8(vowel);
    const trailing = syllable % 28;
    tokLastOut = vowel;
    kanaPrev = 0;
    if (trailing != 0) {
      tokLastOut = 0x11a7 + trailing;
      putUtf8(tokLastOut);
    }
    return;
  }
  if ((p & PROP_FOLD) == 0) {
    if ((p & PROP_MARK) != 0 && recomposeSwedish(cp)) return;
    tokLastOut = chinese ? variantOf(cp) : cp;
    if (japanese) tokLastOut = hiraganaOf(tokLastOut);
    if (tokLastOut != 0 && ((p & PROP_MARK) == 0 || !removeMarks)) putUtf8(tokLastOut);
    return;
  }
  const entry = load<u32>(FOLD_ENTRIES + (<usize>(p >> PROP_FOLD_SHIFT) << 2));
  let q = FOLD_POOL + (<usize>(entry >> 8) << 2);
  const end = q + (<usize>(entry & 0xff) << 2);
  while (q < end) {
    const v = load<u32>(q);
    q += 4;
    if ((v & POOL_MARK) != 0 && recomposeSwedish(v & POOL_CODE_POINT_MASK)) continue;
    // The Greek final-sigma rule looks at the lemma before marks are removed.
    tokLastOut = v & POOL_CODE_POINT_MASK;
    // ChineseNormalizer runs after NFKD: a compatibility ideograph maps through its unified form.
    if (chinese) tokLastOut = variantOf(tokLastOut);
    if (japanese) tokLastOut = hiraganaOf(tokLastOut);
    if (tokLastOut != 0 && ((v & POOL_MARK) == 0 || !removeMarks)) putUtf8(tokLastOut);
  }
}

/**
 * Classifies and emits the pending token, which ends at `end` (string-relative); a custom token
 * the Classifier already judged a word is not `classify`d again.
 */
function flushToken(end: u32, classify: bool = true): void {
  if (tokStart < 0) return;
  const start = <u32>tokStart;
  tokStart = -1;
  if (classify && tokNonControl == 1) {
    const kind = (tokFirstProps >> PROP_LEMMA_SHIFT) & PROP_LEMMA_MASK;
    if (kind != 0) {
      normLen = tokNorm;
      emitSeparator(start, end - start, kind);
      return;
    }
  }
  if (normLen == tokNorm) {
    // An empty word still ends milli's leading-separator skip.
    started = true;
    return;
  }
  // ς (CF 82) -> σ (CF 83): only the last byte differs.
  if (greek && tokLastOut == FINAL_SIGMA && normLen <= normCap) {
    store<u8>(normPtr + <usize>normLen - 1, 0x83);
  }
  emitWord(start, end - start, tokNorm);
}

/** The script of the first group: charabia only learns it at the first non-Other character. */
function firstScript(p: usize, end: usize): u32 {
  while (p < end) {
    const script = props(decode(p, end)) & PROP_SCRIPT_MASK;
    if (script != SCRIPT_OTHER) return script;
    p += <usize>cpLen;
  }
  return SCRIPT_OTHER;
}

/**
 * Fast path for the common case: appends the run of ASCII word characters starting at p (which
 * must be one) to the pending token, with state in locals, and returns where the run stops: at
 * the first non-ASCII byte, separator, control character or letter that would start a new group,
 * or at `end` (the string's end or its next word break).
 * Equivalent to calling appendChar on each character.
 */
function appendAsciiRun(p: usize, end: usize, base: usize, groupScript: u32): usize {
  if (tokStart < 0) startToken(<u32>(p - base));
  if (tokNonControl == 0) tokFirstProps = load<u32>(ASCII_PROPS + (<usize>load<u8>(p) << 2));
  const start = p;
  let at = normLen;
  let lower: u32 = 0;
  do {
    const b = <u32>load<u8>(p);
    if (b >= 0x80) break;
    const pr = load<u32>(ASCII_PROPS + (<usize>b << 2));
    if (pr & (PROP_SEPARATOR | PROP_CONTROL | PROP_PATTERN_START)) break;
    const script = pr & PROP_SCRIPT_MASK;
    if (script != SCRIPT_OTHER && script != groupScript) break;
    lower = b - 0x41 < 26 ? b | 0x20 : b;
    if (at < normCap) store<u8>(normPtr + <usize>at, <u8>lower);
    at++;
    p++;
  } while (p < end);
  tokNonControl += <u32>(p - start);
  tokLastOut = lower;
  kanaPrev = 0;
  normLen = at;
  return p;
}

/** "។ល។" (U+17D4 U+179B U+17D4) at p; the first ។ is already decoded. */
function isKhmerLek(p: usize, end: usize): bool {
  return (
    p + 9 <= end &&
    load<u8>(p + 3) == 0xe1 &&
    load<u8>(p + 4) == 0x9e &&
    load<u8>(p + 5) == 0x9b &&
    load<u8>(p + 6) == 0xe1 &&
    load<u8>(p + 7) == 0x9f &&
    load<u8>(p + 8) == 0x94
  );
}

/**
 * Emits the custom token matchAt found at p: a separator of the pattern's kind, or a word
 * normalised character by character like any other token.
 */
function emitCustomToken(p: usize, base: usize): void {
  const rel = <u32>(p - base);
  if (matchKind != KIND_WORD) {
    emitSeparator(rel, matchLength, matchKind);
    return;
  }
  startToken(rel);
  const end = p + <usize>matchLength;
  while (p < end) {
    const cp = decode(p, end);
    appendChar(cp, props(cp));
    p += <usize>cpLen;
  }
  flushToken(rel + matchLength, false);
}

/** Fills ASCII_PROPS for this call: PROPS' block, patched when there are custom tokens. */
function prepareAsciiProps(): void {
  if (!custom && !asciiPatched) return;
  memory.copy(ASCII_PROPS, PROPS, 128 << 2);
  asciiPatched = custom;
  if (!custom) return;
  overrideAscii(ASCII_PROPS);
  for (let b: u32 = 0; b < 0x80; b++) {
    if (startsPattern(b)) store<u32>(ASCII_PROPS + (<usize>b << 2), load<u32>(ASCII_PROPS + (<usize>b << 2)) | PROP_PATTERN_START);
  }
}

/** Points nextBreak at the current string's first break, skipping what earlier strings left. */
function firstBreak(): void {
  while (breakAt < breaksEnd && load<u32>(breakAt) < stringIndex) breakAt += 8;
  nextBreak = breakAt < breaksEnd && load<u32>(breakAt) == stringIndex ? load<u32>(breakAt, 4) : NO_BREAK;
}

/** At rel >= nextBreak: ends the pending word if the break is exactly at rel, and moves past rel. */
function passBreaks(rel: u32): void {
  if (rel == nextBreak) flushToken(rel);
  do {
    breakAt += 8;
    nextBreak = breakAt < breaksEnd && load<u32>(breakAt) == stringIndex ? load<u32>(breakAt, 4) : NO_BREAK;
  } while (nextBreak <= rel);
}

function tokenizeString(index: u32, base: usize, length: u32, langs: u32): void {
  stringIndex = index;
  japaneseOnly = (langs & LANG_JAPANESE_ONLY) != 0;
  cjPlain = (langs & LANG_CJ_PLAIN) != 0;
  swedishOnly = (langs & LANG_SWEDISH) != 0;
  mandarinOnly = (langs & LANG_MANDARIN_ONLY) != 0;
  position = 0;
  prev = PREV_NONE;
  started = false;
  tokStart = -1;
  firstBreak();
  const end = base + <usize>length;
  setGroupScript(firstScript(base, end), base, end);
  let groupScript = SCRIPT_OTHER;
  let p = base;
  // The text up to the next break runs without testing for breaks; a character, separator or
  // custom token that runs past it carries p beyond, and passBreaks skips what it covered.
  while (p < end) {
    const stop = nextBreak < length ? base + <usize>nextBreak : end;
    while (p < stop) {
      const b = <u32>load<u8>(p);
      let cp = b;
      let n: u32 = 1;
      let pr: u32;
      if (b < 0x80) {
        pr = load<u32>(ASCII_PROPS + (<usize>b << 2));
        const script = pr & PROP_SCRIPT_MASK;
        if ((pr & (PROP_SEPARATOR | PROP_CONTROL | PROP_PATTERN_START)) == 0 && (script == SCRIPT_OTHER || script == groupScript)) {
          p = appendAsciiRun(p, stop, base, groupScript);
          continue;
        }
      } else {
        cp = decode(p, end);
        n = cpLen;
        pr = custom ? overrideProps(cp, props(cp)) : props(cp);
      }
      const rel = <u32>(p - base);
      const script = pr & PROP_SCRIPT_MASK;
      if (script != SCRIPT_OTHER && script != groupScript) {
        if (groupScript != SCRIPT_OTHER) {
          flushToken(rel);
          setGroupScript(script, p, end);
        }
        groupScript = script;
      }
      if (custom && (b >= 0x80 ? startsPattern(b) : (pr & PROP_PATTERN_START) != 0) && matchAt(p, end, groupScript)) {
        flushToken(rel);
        emitCustomToken(p, base);
        if (matchScript != SCRIPT_OTHER) groupScript = matchScript;
        p += <usize>matchLength;
        continue;
      }
      if (pr & PROP_SEPARATOR) {
        flushToken(rel);
        // With custom tokens these multi-character separators are patterns, if still allowed.
        if (!custom && (cp == 0x2e || cp == 0x2c) && p + 1 < end && load<u8>(p + 1) == 0x20) {
          emitSeparator(rel, 2, cp == 0x2e ? KIND_DOT_SPACE : KIND_COMMA_SPACE);
          p += 2;
          continue;
        }
        if (!custom && cp == 0x17d4 && isKhmerLek(p, end)) {
          emitSeparator(rel, 9, KIND_KHMER_LEK);
          p += 9;
          continue;
        }
        const kind = (pr >> PROP_LEMMA_SHIFT) & PROP_LEMMA_MASK;
        if (kind != 0) {
          emitSeparator(rel, n, kind);
        } else {
          // Matched as a separator but its lemma is not one ("…" -> "...", "\0" -> ""): a word.
          startToken(rel);
          appendChar(cp, pr);
          flushToken(rel + n);
        }
        p += <usize>n;
        continue;
      }
      if (tokStart < 0) startToken(rel);
      appendChar(cp, pr);
      p += <usize>n;
    }
    if (p < end) passBreaks(<u32>(p - base));
  }
  flushToken(length);
}

/** Whether the breaks are in strictly increasing (string, offset) order and name existing strings. */
function validBreaks(breaks: usize, nBreaks: u32, nStrings: u32): bool {
  let last: u64 = 0;
  for (let i: u32 = 0; i < nBreaks; i++) {
    const string = load<u32>(breaks + (<usize>i << 3));
    const key = (<u64>string << 32) | <u64>load<u32>(breaks + (<usize>i << 3), 4);
    if (string >= nStrings || (i > 0 && key <= last)) return false;
    last = key;
  }
  return true;
}

/**
 * Tokenizes a batch of strings in one call.
 * - `inPtr`/`inLen`: the UTF-8 bytes of all strings.
 * - `tablePtr`/`nStrings`: per string, (offset into the input, byte length) as two u32.
 * - `outPtr`/`outCap`: room for `outCap` records of TOKEN_RECORD_U32 u32 each.
 * - `normPtr`/`normCap`: room for the normalised words' UTF-8 bytes.
 * - `flags`: FLAG_SEPARATORS to also emit separator records.
 * - `rules`/`rulesLen`: the custom tokens (assembly/custom-tokens.ts), or rulesLen 0 for none.
 * - `breaks`/`nBreaks`: word breaks as (string index, byte offset) u32 pairs, in increasing
 *   order of string then offset (several strings may have none), or nBreaks 0 for none.
 * - `langs`: one LANG_* byte per string (what the string's locales allow), or 0 for none.
 * Returns the record count, ERR_BAD_SPAN, ERR_BAD_RULES, ERR_BAD_BREAKS or ERR_OUT_OF_CAPACITY. Unless the input
 * was rejected, the arena's result block then holds the record count and normalised byte count
 * produced (or needed).
 */
export function tokenize(
  inPtr: usize,
  inLen: u32,
  tablePtr: usize,
  nStrings: u32,
  out: usize,
  outCapacity: u32,
  norm: usize,
  normCapacity: u32,
  flags: u32,
  rules: usize,
  rulesLen: u32,
  breaks: usize,
  nBreaks: u32,
  langs: usize,
): i32 {
  for (let s: u32 = 0; s < nStrings; s++) {
    const offset = <u64>load<u32>(tablePtr + (<usize>s << 3));
    const length = <u64>load<u32>(tablePtr + (<usize>s << 3), 4);
    if (offset + length > <u64>inLen) return ERR_BAD_SPAN;
  }
  if (!validBreaks(breaks, nBreaks, nStrings)) return ERR_BAD_BREAKS;
  breakAt = breaks;
  breaksEnd = breaks + (<usize>nBreaks << 3);
  custom = rulesLen != 0;
  if (custom && !loadRules(rules, rulesLen)) {
    custom = false;
    return ERR_BAD_RULES;
  }
  prepareAsciiProps();
  outPtr = out;
  outCap = outCapacity;
  count = 0;
  normPtr = norm;
  normCap = normCapacity;
  normLen = 0;
  emitSeparators = (flags & FLAG_SEPARATORS) != 0;
  for (let s: u32 = 0; s < nStrings; s++) {
    const offset = load<u32>(tablePtr + (<usize>s << 3));
    const length = load<u32>(tablePtr + (<usize>s << 3), 4);
    tokenizeString(s, inPtr + <usize>offset, length, langs == 0 ? 0 : <u32>load<u8>(langs + <usize>s));
  }
  writeResult(RESULT_RECORDS, count);
  writeResult(RESULT_OUTPUT_BYTES, normLen);
  return count > outCap || normLen > normCap ? ERR_OUT_OF_CAPACITY : <i32>count;
}
