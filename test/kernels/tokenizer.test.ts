// The tokenizer kernel against its TS reference: fixed cases pin Meilisearch's behaviour (each one
// also checks kernel == reference), random and exhaustive inputs check the two agree everywhere.
import { describe, expect, it } from 'vitest';

import { RESULT_BLOCK_BYTES, RESULT_OUTPUT_BYTES, RESULT_RECORDS, ARENA_ALIGN } from '../../src/kernels/arena.js';
import {
  compileKernelModule,
  createKernelImports,
  defaultKernelVariant,
  getKernels,
  instantiateKernels,
  KernelAbortError,
  KernelStatus,
  KERNELS_ABI_VERSION,
} from '../../src/kernels/module.js';
import { kernelPath } from '../../src/kernels/kernel-binary.js';
import {
  customTokens,
  OVERRIDE_KIND_SHIFT,
  OVERRIDE_RECORD_U32,
  OVERRIDE_SEPARATOR,
  PATTERN_RECORD_U32,
  RULES_HEADER_U32,
  RULES_INDEX_U32,
  type TokenizerSettings,
} from '../../src/kernels/custom-tokens.js';
import { DEFAULT_SEPARATORS, SCRIPT_RANGES } from '../../src/kernels/charabia-data.js';
import { referenceTokenizeBatch, referenceTokenizeBytes } from '../../src/kernels/reference/tokenizer.js';
import { decodeUtf8 } from '../../src/kernels/utf8.js';
import {
  encodeBatch,
  FLAG_SEPARATORS,
  materializeTokens,
  visitTokens,
  tokenizeBatch,
  tokenizeBytes,
  TokenField,
  TokenKind,
  TOKEN_RECORD_U32,
  type Token,
  type TokenBatch,
  type TokenizeOptions,
  type Utf8Batch,
} from '../../src/kernels/tokenizer.js';
import { Lang } from '../../src/kernels/languages.js';
import { mulberry32 } from '../helpers/random.js';

/** One record with its normalised word, for readable failures. */
function describeRecord(batch: TokenBatch, index: number): { fields: number[]; normalized: string } | undefined {
  if (index >= batch.count) return undefined;
  const fields = Array.from(batch.records.subarray(index * TOKEN_RECORD_U32, (index + 1) * TOKEN_RECORD_U32));
  const start = fields[TokenField.NormStart]!;
  return { fields, normalized: new TextDecoder().decode(batch.normalized.subarray(start, start + fields[TokenField.NormLength]!)) };
}

/** Byte-identical batches; on failure reports the first differing token instead of whole arrays. */
function expectSameBatch(actual: TokenBatch, expected: TokenBatch): void {
  const n = Math.max(actual.count, expected.count) * TOKEN_RECORD_U32;
  for (let i = 0; i < n; i++) {
    if (actual.records[i] !== expected.records[i]) {
      const token = Math.floor(i / TOKEN_RECORD_U32);
      expect({ token, ...describeRecord(actual, token) }).toEqual({ token, ...describeRecord(expected, token) });
    }
  }
  expect(actual.count).toBe(expected.count);
  expect(Buffer.from(actual.normalized).equals(Buffer.from(expected.normalized))).toBe(true);
}

/** Tokenizes with the kernel, checks the reference agrees, and returns plain tokens. */
function tokenize(strings: readonly string[], options: TokenizeOptions = {}): Token[] {
  const batch = tokenizeBatch(strings, options);
  expectSameBatch(batch, referenceTokenizeBatch(strings, options));
  return materializeTokens(batch, strings);
}

function tokenizeRaw(input: Utf8Batch, options: TokenizeOptions = {}): Token[] {
  const batch = tokenizeBytes(input, options);
  expectSameBatch(batch, referenceTokenizeBytes(input, options));
  return materializeTokens(batch, input);
}

/** Words as [normalized, position]. */
function words(text: string): [string, number][] {
  return tokenize([text])
    .filter((t) => t.kind === 'word')
    .map((t) => [t.normalized, t.position]);
}

const normalizedWords = (text: string): string[] => words(text).map(([word]) => word);

describe('kernel ABI', () => {
  it('exports the record layout, arena slots and status codes the host mirrors', () => {
    const kernels = getKernels();
    const expected: Record<string, number> = {
      ABI_VERSION: KERNELS_ABI_VERSION,
      TOKEN_RECORD_U32,
      TOKEN_STRING: TokenField.String,
      TOKEN_START: TokenField.Start,
      TOKEN_LENGTH: TokenField.Length,
      TOKEN_POSITION: TokenField.Position,
      TOKEN_KIND: TokenField.Kind,
      TOKEN_NORM_START: TokenField.NormStart,
      TOKEN_NORM_LENGTH: TokenField.NormLength,
      KIND_WORD: TokenKind.Word,
      KIND_SOFT: TokenKind.SoftSeparator,
      KIND_HARD: TokenKind.HardSeparator,
      FLAG_SEPARATORS,
      LANG_JAPANESE_ONLY: Lang.JapaneseOnly,
      LANG_SWEDISH: Lang.Swedish,
      LANG_MANDARIN_ONLY: Lang.MandarinOnly,
      ARENA_ALIGN,
      RESULT_BLOCK_BYTES,
      RESULT_RECORDS,
      RESULT_OUTPUT_BYTES,
      ERR_OUT_OF_CAPACITY: KernelStatus.OutOfCapacity,
      ERR_BAD_SPAN: KernelStatus.BadSpan,
      ERR_BAD_RULES: KernelStatus.BadRules,
      ERR_BAD_BREAKS: KernelStatus.BadBreaks,
      RULES_HEADER_U32,
      RULES_INDEX_U32,
      PATTERN_RECORD_U32,
      OVERRIDE_RECORD_U32,
      OVERRIDE_SEPARATOR,
      OVERRIDE_KIND_SHIFT,
    };
    for (const [name, value] of Object.entries(expected)) expect([name, kernels.constant(name)]).toEqual([name, value]);
    expect(kernels.arena.base % ARENA_ALIGN).toBe(0);
  });

  it('loads the release build by default and the debug build under tests or QUARRY_KERNELS=debug', () => {
    expect(defaultKernelVariant({})).toBe('release');
    expect(defaultKernelVariant({ VITEST: 'true' })).toBe('debug');
    expect(defaultKernelVariant({ QUARRY_KERNELS: 'debug' })).toBe('debug');
    expect(defaultKernelVariant({ VITEST: 'true', QUARRY_KERNELS: 'release' })).toBe('release');
    expect(kernelPath('release')).toMatch(/build[/\\]kernels\.release\.wasm$/);
  });

  it('turns a kernel abort into a KernelAbortError naming the file and line', () => {
    const memory = { buffer: new ArrayBuffer(65_536), grow: () => 1 }; // what the imports read of a Memory
    const writeString = (ptr: number, text: string): void => {
      const view = new DataView(memory.buffer);
      view.setUint32(ptr - 4, text.length * 2, true);
      for (let i = 0; i < text.length; i++) view.setUint16(ptr + 2 * i, text.charCodeAt(i), true);
    };
    writeString(64, 'index out of range');
    writeString(256, 'assembly/tokenize.ts');
    const { env } = createKernelImports(() => memory);
    const abort = env!.abort as (message: number, file: number, line: number, column: number) => never;
    expect(() => abort(64, 256, 42, 7)).toThrow(KernelAbortError);
    expect(() => abort(64, 256, 42, 7)).toThrow('kernel abort: index out of range (assembly/tokenize.ts:42:7)');
  });
});

describe('segmentation (charabia separators)', () => {
  it("splits like charabia's Latin segmenter test text, camelCase kept whole", () => {
    const text = 'The quick ("brown") fox can’t jump 32.3 feet, right? Brr, it\'s 29.3°F! camelCase kebab-case snake_case 123 456';
    const tokens = tokenize([text]).map((t) => (t.kind === 'word' ? t.normalized : t.text));
    // charabia's expected output, except that separators are shown as written (its lemma of ’ is ').
    expect(tokens).toEqual([
      'the', ' ', 'quick', ' ', '(', '"', 'brown', '"', ')', ' ', 'fox', ' ', 'can', '’', 't',
      ' ', 'jump', ' ', '32', '.', '3', ' ', 'feet', ', ', 'right', '?', ' ', 'brr', ', ', 'it',
      "'", 's', ' ', '29', '.', '3°f', '!', ' ', 'camelcase', ' ', 'kebab', '-', 'case', ' ',
      'snake', '_', 'case', ' ', '123', ' ', '456',
    ]);
  });

  it('matches separators leftmost-longest, so ". " and ", " are single hard tokens', () => {
    const tokens = tokenize(['a. b, c.d ,e']);
    expect(tokens.map((t) => [t.text, t.kind])).toEqual([
      ['a', 'word'], ['. ', 'hard'], ['b', 'word'], [', ', 'hard'], ['c', 'word'], ['.', 'soft'],
      ['d', 'word'], [' ', 'soft'], [',', 'soft'], ['e', 'word'],
    ]);
  });

  it('reports byte offsets of the original text and the string index of every token', () => {
    const tokens = tokenize(['héllo wörld', '', '🍕 pizza']);
    expect(tokens.map((t) => [t.string, t.start, t.end, t.text])).toEqual([
      [0, 0, 6, 'héllo'], [0, 6, 7, ' '], [0, 7, 13, 'wörld'],
      [2, 0, 4, '🍕'], [2, 4, 5, ' '], [2, 5, 10, 'pizza'],
    ]);
  });

  it('starts a new word where the script changes', () => {
    expect(words('abcабв123')).toEqual([['abc', 0], ['абв123', 1]]);
  });

  it('treats Khmer ។ល។ as one hard separator', () => {
    const tokens = tokenize(['ក។ល។ខ']);
    expect(tokens.map((t) => [t.text, t.kind, t.position])).toEqual([
      ['ក', 'word', 0], ['។ល។', 'hard', 0], ['ខ', 'word', 8],
    ]);
  });

  it('keeps a no-break space inside a word but makes a lone one a soft separator', () => {
    expect(tokenize(['3\u00a0456 a \u00a0 b']).map((t) => [t.kind, t.kind === 'word' ? t.normalized : t.text])).toEqual([
      ['word', '3 456'], ['soft', ' '], ['word', 'a'], ['soft', ' '], ['soft', '\u00a0'], ['soft', ' '], ['word', 'b'],
    ]);
  });

  it('makes a separator whose decomposition is not a separator a word ("…" is "...")', () => {
    expect(words('wait… what')).toEqual([['wait', 0], ['...', 1], ['what', 2]]);
  });

  it('cuts on NUL without emitting a token for it', () => {
    expect(tokenize(['a\0b']).map((t) => [t.text, t.position])).toEqual([['a', 0], ['b', 1]]);
  });

  it('drops control characters inside words', () => {
    expect(normalizedWords('co\u0001py\u007f')).toEqual(['copy']);
  });

  it('emits only words when separators are not asked for', () => {
    const tokens = tokenize(['Hello, world! Again'], { separators: false });
    expect(tokens.map((t) => [t.normalized, t.position, t.kind])).toEqual([
      ['hello', 0, 'word'], ['world', 8, 'word'], ['again', 16, 'word'],
    ]);
  });

  it('returns no tokens for empty strings, separator-only strings and an empty batch', () => {
    expect(tokenize([''])).toEqual([]);
    expect(tokenize([])).toEqual([]);
    expect(tokenize(['  .,;  '], { separators: false })).toEqual([]);
  });
});

/** The compiled custom tokens of partial settings. */
function customOf(settings: Partial<TokenizerSettings>): TokenizeOptions['custom'] {
  return customTokens({ separatorTokens: [], nonSeparatorTokens: [], dictionary: [], ...settings });
}

/** Tokens as [text, kind, position] (normalised text for words), kernel and reference compared. */
function customTokensOf(text: string, settings: Partial<TokenizerSettings>): [string, string, number][] {
  return tokenize([text], { custom: customOf(settings) }).map((t) => [t.kind === 'word' ? t.normalized : t.text, t.kind, t.position]);
}

describe('custom tokens (separatorTokens, nonSeparatorTokens, dictionary)', () => {
  // Meilisearch's tests/settings/tokenizer_customization.rs `set_and_search`
  const music = { nonSeparatorTokens: ['#', '&'], separatorTokens: ['<br/>', '&sep'], dictionary: ['#', 'A#', 'B#', 'C#', 'D#', 'E#', 'F#', 'G#'] };

  it('keeps a non-separator token as a word of its own or inside a word', () => {
    expect(customTokensOf('Mac & cheese', music)).toEqual([
      ['mac', 'word', 0], [' ', 'soft', 0], ['&', 'word', 1], [' ', 'soft', 1], ['cheese', 'word', 2],
    ]);
    expect(customTokensOf('C# and @user', { nonSeparatorTokens: ['#', '@'] }).filter(([, kind]) => kind === 'word')).toEqual([
      ['c#', 'word', 0], ['and', 'word', 1], ['@user', 'word', 2],
    ]);
  });

  it('cuts on custom separators, as soft separators, and matches the longest token first', () => {
    expect(customTokensOf('Mac&sep&&sepcheese', music)).toEqual([
      ['mac', 'word', 0], ['&sep', 'soft', 0], ['&', 'word', 1], ['&sep', 'soft', 1], ['cheese', 'word', 2],
    ]);
    // "!!" is one custom token, soft, where the default list would see two hard "!"
    expect(customTokensOf('a!!b', { separatorTokens: ['!!'] })).toEqual([['a', 'word', 0], ['!!', 'soft', 0], ['b', 'word', 1]]);
    expect(customTokensOf('a!!b', {})).toEqual([['a', 'word', 0], ['!', 'hard', 0], ['!', 'hard', 0], ['b', 'word', 8]]);
  });

  it('cuts dictionary words out anywhere in the text, even inside a word', () => {
    expect(customTokensOf('G#D#G#C#', music).map(([word, , position]) => [word, position])).toEqual([
      ['g#', 0], ['d#', 1], ['g#', 2], ['c#', 3],
    ]);
    expect(customTokensOf('C#D#G', music).map(([word]) => word)).toEqual(['c#', 'd#', 'g']);
    expect(customTokensOf('inseparable', { dictionary: ['sep'] }).map(([word]) => word)).toEqual(['in', 'sep', 'arable']);
  });

  it('keeps a dictionary entry containing separators as one word, normalised with its separators', () => {
    // charabia's words_dict example
    const dictionary = ['J. R. R.', 'Dr.', 'J. K.'];
    expect(customTokensOf('J. R. R. Tolkien. J. K. Rowling. Dr. Seuss', { dictionary }).filter(([, kind]) => kind === 'word')).toEqual([
      ['j. r. r.', 'word', 0], ['tolkien', 'word', 1], ['j. k.', 'word', 9], ['rowling', 'word', 10], ['dr.', 'word', 18], ['seuss', 'word', 19],
    ]);
    expect(customTokensOf('New York City hall', { dictionary: ['New York', 'New York City'] }).map(([word]) => word)).toEqual([
      'new york city', ' ', 'hall',
    ]);
  });

  it('matches custom tokens case-sensitively on the original text', () => {
    expect(customTokensOf('j.r.r. J.R.R.', { dictionary: ['J.R.R.'] }).filter(([, kind]) => kind === 'word').map(([word]) => word)).toEqual([
      'j', 'r', 'r', 'j.r.r.',
    ]);
    expect(customTokensOf('boxes BOXES', { separatorTokens: ['x'] }).filter(([, kind]) => kind === 'word').map(([word]) => word)).toEqual([
      'bo', 'es', 'boxes',
    ]);
  });

  it('leaves a dictionary entry that is an allowed separator a separator', () => {
    expect(customTokensOf('a-b', { dictionary: ['-'] })).toEqual([['a', 'word', 0], ['-', 'soft', 0], ['b', 'word', 1]]);
  });

  it('removes multi-character default separators too: ". " becomes "." then " "', () => {
    expect(customTokensOf('a. b', { nonSeparatorTokens: ['. '] })).toEqual([['a', 'word', 0], ['.', 'soft', 0], [' ', 'soft', 0], ['b', 'word', 1]]);
  });

  it('classifies by lemma: a cut character decomposing to a non-separator is a word, a lone one decomposing to a separator is one', () => {
    // "＃" is still cut (it is its own default separator) but its NFKD "#" is no longer a separator
    expect(customTokensOf('C＃', { nonSeparatorTokens: ['#'] })).toEqual([['c', 'word', 0], ['#', 'word', 1]]);
    // a lone "ﬁ" has the lemma "fi", now a separator; inside a word it stays part of it
    expect(customTokensOf('a ﬁ ﬁne', { separatorTokens: ['fi'] })).toEqual([
      ['a', 'word', 0], [' ', 'soft', 0], ['ﬁ', 'soft', 0], [' ', 'soft', 0], ['fine', 'word', 1],
    ]);
    expect(customTokensOf('can’t', { nonSeparatorTokens: ['’'] }).map(([word]) => word)).toEqual(["can't"]);
  });

  it('never matches a custom token across a script change', () => {
    expect(customTokensOf('aα xaα', { dictionary: ['aα'] }).filter(([, kind]) => kind === 'word').map(([word]) => word)).toEqual([
      'a', 'α', 'xa', 'α',
    ]);
    expect(customTokensOf('β1a 1a', { dictionary: ['1a'] }).filter(([, kind]) => kind === 'word').map(([word]) => word)).toEqual([
      'β1', 'a', '1a',
    ]);
  });

  it('emits only words when separators are not asked for, with the same positions', () => {
    const options = { separators: false, custom: customOf(music) };
    expect(tokenize(['Mac&sep&&sepcheese'], options).map((t) => [t.normalized, t.position])).toEqual([['mac', 0], ['&', 1], ['cheese', 2]]);
  });
});

describe('word positions (milli process_tokens)', () => {
  it('advances 1 across soft separators and 8 across hard ones', () => {
    expect(words('one two-three. four; five! six? seven')).toEqual([
      ['one', 0], ['two', 1], ['three', 2], ['four', 10], ['five', 18], ['six', 26], ['seven', 34],
    ]);
  });

  it('treats a lone "." and ":" and a newline as soft, as the current charabia lists do', () => {
    expect(words('a.b c:d e\nf')).toEqual([['a', 0], ['b', 1], ['c', 2], ['d', 3], ['e', 4], ['f', 5]]);
  });

  it('does not let soft separators after a hard one soften the gap', () => {
    expect(words('end. "(start')).toEqual([['end', 0], ['start', 8]]);
  });

  it('ignores separators before the first word', () => {
    expect(words('!!! ... hello')).toEqual([['hello', 0]]);
  });

  it('gives separator records the position of the word before them', () => {
    expect(tokenize(['a. b']).map((t) => t.position)).toEqual([0, 0, 8]);
  });

  it('numbers positions per string', () => {
    const tokens = tokenize(['a b', 'c d'], { separators: false });
    expect(tokens.map((t) => [t.string, t.position])).toEqual([[0, 0], [0, 1], [1, 0], [1, 1]]);
  });
});

describe('normalisation (charabia lossy normalisers)', () => {
  it('lowercases and removes Latin diacritics', () => {
    expect(normalizedWords('Éléphant ÇA Ångström NAÏVE Crème Brûlée Ñandú')).toEqual([
      'elephant', 'ca', 'angstrom', 'naive', 'creme', 'brulee', 'nandu',
    ]);
  });

  it('applies the character converter: œ æ ı đ and the apostrophes', () => {
    expect(normalizedWords('Œuvre Ærø ıi Đà_Nẵng ð')).toEqual(['oeuvre', 'aerø', 'ii', 'da', 'nang', 'd']);
  });

  it('keeps ß as charabia does (no "ss" expansion) and lowercases ẞ to it', () => {
    expect(normalizedWords('Straße STRAẞE')).toEqual(['straße', 'straße']);
  });

  it('lowercases İ to i (its dot is a mark)', () => {
    expect(normalizedWords('İstanbul')).toEqual(['istanbul']);
  });

  it('lowercases Greek, drops its accents and turns a final ς into σ', () => {
    expect(normalizedWords('ΑΓΑΠΗΤΌΣ Σίσυφος ςα')).toEqual(['αγαπητοσ', 'σισυφοσ', 'ςα']);
  });

  it('lowercases Cyrillic but keeps its marks, decomposed, as charabia does', () => {
    expect(normalizedWords('МОСКВА Ёлка й')).toEqual(['москва', 'е\u0308лка', 'и\u0306']);
  });

  it('applies compatibility decomposition (ligatures, fullwidth, circled and styled letters)', () => {
    expect(normalizedWords('ﬁnance Ｈｅｌｌｏ ① ² ™ 𝒜𝒷𝒸')).toEqual(['finance', 'hello', '1', '2', 'tm', 'abc']);
  });

  it('decomposes Hangul syllables into jamo like NFKD', () => {
    expect(normalizedWords('한국어')).toEqual(['한국어'.normalize('NFKD')]);
  });

  it('keeps emoji and 4-byte characters as words with correct byte lengths', () => {
    const tokens = tokenize(['I ❤️ 🍕 and 𠜎𠜱'], { separators: false });
    expect(tokens.map((t) => [t.text, t.normalized, t.end - t.start])).toEqual([
      ['I', 'i', 1], ['❤️', '❤', 6], ['🍕', '🍕', 4], ['and', 'and', 3], ['𠜎𠜱', '𠜎𠜱', 8],
    ]);
  });

  it('removes Arabic tatweel and harakat and converts ٱ ى ة, the article ٱل cut off as its own word', () => {
    expect(normalizedWords('كَتَـــبَ ٱلمدرسة على')).toEqual(['كتب', 'ال', 'مدرسه', 'علي']);
  });
});

describe('Chinese ideograph variants (ChineseNormalizer, kVariants)', () => {
  it("maps a source to its destination, as charabia's kvariants tests do (simp, wrong!)", () => {
    expect(normalizedWords('亚')).toEqual(['亞']);
    expect(normalizedWords('澚')).toEqual(['澳']);
  });

  it("maps the old and = relations (㮺 -> 本, 刄 -> 刃) and leaves a destination-only 刃 as is", () => {
    expect(normalizedWords('㮺')).toEqual(['本']);
    expect(normalizedWords('刄')).toEqual(['刃']);
    expect(normalizedWords('刃')).toEqual(['刃']);
  });

  it('unifies a simplified and a traditional spelling of the same word, keeping the original byte offsets', () => {
    // jieba keeps 亚洲 whole and cuts the traditional 亞洲 (not in its dictionary) in two
    const tokens = tokenize(['亚洲 亞洲'], { separators: false });
    expect(tokens.map((t) => [t.text, t.normalized, t.start, t.end])).toEqual([
      ['亚洲', '亞洲', 0, 6],
      ['亞', '亞', 7, 10],
      ['洲', '洲', 10, 13],
    ]);
  });

  it('maps a compatibility ideograph through its NFKD form', () => {
    // U+F9A8 decomposes to 令, which is not a source; U+F90A decomposes to 金, which is not either;
    // the mapping runs on what NFKD gives, so the word equals the one written with the unified form.
    expect(normalizedWords('\uf9a8')).toEqual(normalizedWords('令'));
  });

  it('leaves Cj ideographs alone when more than 5% of its Han and kana are kana: whatlang calls it Japanese', () => {
    expect(normalizedWords('亚洲へいく').join('')).toBe('亚洲へいく');
    expect(normalizedWords('アメリカ亚洲').join('')).toBe('あめりか亚洲');
    // 1 kana in 19 characters: 5.3%
    expect(normalizedWords('亚'.repeat(18) + 'へ').join('')).toBe('亚'.repeat(18) + 'へ');
  });

  it('normalises Cj text whose kana are at most 5% of its Han and kana, as whatlang calls it Mandarin', () => {
    // 1 kana in 20 characters: exactly 5%
    expect(normalizedWords('亚'.repeat(19) + 'へ').join('')).toBe('亞'.repeat(19) + 'へ');
    expect(normalizedWords('亚洲').join('')).toBe('亞洲');
  });

  it('leaves all Cj text alone when the string\'s locales leave Mandarin out', () => {
    const japaneseOnly = Uint8Array.of(Lang.JapaneseOnly, Lang.Detect);
    const tokens = tokenize(['亚洲', '亚洲'], { separators: false, langs: japaneseOnly });
    // lindera (IPADIC) cuts the simplified 亚洲 in two; jieba keeps it whole
    expect(tokens.map((t) => [t.string, t.normalized])).toEqual([
      [0, '亚'],
      [0, '洲'],
      [1, '亞洲'],
    ]);
  });

  it('decides per script group: Han after a Latin word is normalised even if another group has kana', () => {
    expect(normalizedWords('へ abc 亚')).toEqual(['へ', 'abc', '亞']);
  });

  it('normalises the Han of a Cj group that holds only Han and Script::Other characters', () => {
    expect(normalizedWords('亚1洲')).toEqual(['亞', '1', '洲']);
  });
});

describe('katakana to hiragana (JapaneseNormalizer, wana_kana)', () => {
  it('gives a word written in katakana the word written in hiragana, keeping the original byte offsets', () => {
    const tokens = tokenize(['カタカナ', 'かたかな'], { separators: false });
    expect(tokens.filter((t) => t.string === 0).map((t) => [t.normalized, t.text, t.start, t.end])).toEqual([['かたかな', 'カタカナ', 0, 12]]);
    // the segmenter cuts either spelling alike once both are hiragana
    expect(tokens.filter((t) => t.string === 1).map((t) => t.normalized).join('')).toBe('かたかな');
  });

  it("turns a long dash into the vowel of the katakana before it, as wana_kana's tests do", () => {
    expect(normalizedWords('ラーメン').join('')).toBe('らあめん');
    // パ is ハ and U+309A after NFKD: the dash follows the mark, not a kana, and stays
    expect(normalizedWords('スーパー').join('')).toBe('すうは\u309aー');
    // o gives う; after ッ and ン the dash is dropped; first or after a hiragana it stays
    expect(normalizedWords('ソーダ').join('')).toBe('そうた\u3099');
    expect(normalizedWords('ンー').join('')).toBe('ん');
    expect(normalizedWords('ーカ').join('')).toBe('ーか');
    expect(normalizedWords('らー').join('')).toBe('らー');
  });

  it('keeps ・ ヵ ヶ', () => {
    expect(normalizedWords('ヵヶ').join('')).toBe('ヵヶ');
  });

  it('converts half-width katakana, in which whatlang finds no script and so no language', () => {
    expect(normalizedWords('ｶﾀｶﾅ').join('')).toBe('かたかな');
  });

  it('converts voiced katakana after their NFKD, voiced marks kept decomposed as for hiragana', () => {
    expect(normalizedWords('ヷヸヹヺ').join('')).toBe('わ\u3099ゐ\u3099ゑ\u3099を\u3099');
    expect(normalizedWords('ガ').join('')).toBe('か\u3099');
    expect(normalizedWords('が').join('')).toBe('か\u3099');
  });

  it('leaves the kana of Cj text whatlang calls Mandarin, and of a string whose lone locale is not Japanese', () => {
    expect(normalizedWords('亚'.repeat(19) + 'ア').join('')).toBe('亞'.repeat(19) + 'ア');
    const tokens = tokenize(['アメリカ', 'アメリカ'], { separators: false, langs: Uint8Array.of(Lang.JapaneseOnly | Lang.CjPlain, Lang.JapaneseOnly) });
    expect(tokens.map((t) => [t.string, t.normalized])).toEqual([
      [0, 'アメリカ'],
      [1, 'あめりか'],
    ]);
  });
});

describe('Swedish recomposition (SwedishRecompositionNormalizer)', () => {
  const swedish = (text: string, lang: number = Lang.Swedish): string[] =>
    tokenize([text], { separators: false, langs: Uint8Array.of(lang) }).map((t) => t.normalized);

  it('keeps å, ä and ö in Latin text whose locales name Swedish alone, and strips the other marks', () => {
    expect(swedish('Räksmörgås ÄRLIGT Öl café')).toEqual(['räksmörgås', 'ärligt', 'öl', 'cafe']);
    expect(swedish('Räksmörgås ÄRLIGT Öl café', Lang.Detect)).toEqual(['raksmorgas', 'arligt', 'ol', 'cafe']);
  });

  it('recomposes a letter written with a combining ring or diaeresis, but not ö from a ring or ü', () => {
    expect(swedish('a\u030ang o\u0308l A\u0308')).toEqual(['ång', 'öl', 'ä']);
    expect(swedish('o\u030a über')).toEqual(['o', 'uber']);
  });

  it('leaves the marks of other scripts to their rules', () => {
    expect(swedish('Ελλάδα')).toEqual(['ελλαδα']);
  });
});

describe('invalid UTF-8', () => {
  const bytes = Uint8Array.from([
    0x61, 0xff, 0x62, 0x20, // a, invalid byte, b
    0xe2, 0x82, 0x20, // truncated 3-byte sequence
    0xc0, 0xaf, 0x20, // overlong
    0xed, 0xa0, 0x80, 0x20, // encoded surrogate
    0xf0, 0x9f, 0x8d, // truncated 4-byte sequence at the end
  ]);
  const input: Utf8Batch = { bytes, spans: Uint32Array.from([0, bytes.length]) };

  it('decodes each maximal invalid subpart as U+FFFD, exactly like TextDecoder', () => {
    const decoded = String.fromCodePoint(...decodeUtf8(bytes).map((c) => c.cp));
    expect(decoded).toBe(new TextDecoder().decode(bytes));
  });

  it('tokenizes replacement characters as word characters and keeps original byte offsets', () => {
    const tokens = tokenizeRaw(input, { separators: false });
    expect(tokens.map((t) => [t.start, t.end, t.normalized])).toEqual([
      [0, 3, 'a\ufffdb'],
      [4, 6, '\ufffd'],
      [7, 9, '\ufffd\ufffd'],
      [10, 13, '\ufffd\ufffd\ufffd'],
      [14, 17, '\ufffd'],
    ]);
  });

  it('rejects a span outside the input without running the kernel', () => {
    const bad: Utf8Batch = { bytes, spans: Uint32Array.from([10, bytes.length]) };
    expect(() => tokenizeBytes(bad)).toThrow(RangeError);
    expect(() => referenceTokenizeBytes(bad)).toThrow(RangeError);
  });
});

describe('region growth', () => {
  it('grows the record and byte regions and retries once when a batch needs more', () => {
    const kernels = instantiateKernels(compileKernelModule('debug'), 'debug');
    const before = kernels.arena.byteLength;
    const dense = ['a '.repeat(150_000)]; // one record per byte: 3x the first guess
    const dense2 = tokenizeBatch(dense, {}, kernels);
    expect(dense2.count).toBe(300_000);
    expectSameBatch(dense2, referenceTokenizeBatch(dense));
    const expanding = ['\ufdfa'.repeat(4_000)]; // 3 bytes in, 33 bytes of normalised word out
    const expanded = tokenizeBatch(expanding, {}, kernels);
    expect(expanded.normalized.length).toBe(4_000 * new TextEncoder().encode('\ufdfa'.normalize('NFKD')).length);
    expectSameBatch(expanded, referenceTokenizeBatch(expanding));
    expect(kernels.arena.byteLength).toBeGreaterThan(before);
  });
});


const range = (first: number, last: number): ((r: () => number) => string) => (r) =>
  String.fromCodePoint(first + Math.floor(r() * (last - first + 1)));
const oneOf = (items: readonly string[]): ((r: () => number) => string) => (r) => items[Math.floor(r() * items.length)]!;

const PIECES: ((r: () => number) => string)[] = [
  range(0x61, 0x7a), range(0x41, 0x5a), range(0x30, 0x39), range(0x20, 0x7e), oneOf([' ', ' ', ' ']),
  oneOf(DEFAULT_SEPARATORS), oneOf(['. ', ', ', '។ល។', '…', '‼', '\u00a0', '\u2007', '\u202f', '\u2028', '\n', '\t']),
  range(0xc0, 0x24f), range(0x1e00, 0x1eff), range(0x300, 0x36f), range(0x370, 0x3ff), oneOf(['ς', 'Σ', 'σ']),
  range(0x400, 0x4ff), range(0x590, 0x5ff), range(0x600, 0x6ff), oneOf(['\u0640', 'ٱ', 'ى', 'ة']), range(0xe00, 0xe7f),
  range(0x900, 0x97f), range(0x4e00, 0x4fff), range(0x3040, 0x30ff), range(0xac00, 0xd7a3), range(0x1f300, 0x1faff),
  // Ideographs with kVariants forms: simplified, Extension A, compatibility, Extension B.
  oneOf(['亚', '来', '们', '门', '澚', '㮺', '刄', '刃', '亞']), range(0x3400, 0x4dbf), range(0xf900, 0xfad9), range(0x20000, 0x2a6df),
  // Katakana whose hiragana depends on the character before: long dashes, voiced wa, kept signs.
  oneOf(['ー', 'ッー', 'ンー', 'ヴー', 'ガー', 'ヷー', 'ヵー', 'ゕー', '・', 'ヶ', 'ｶｰ', 'ﾞ']),
  oneOf(['\ufe0f', '\u200d', 'ﬁ', '①', '²', '™', '㎏', 'Ｈ', '\ufdfa', 'ℌ', 'ǅ', 'İ', 'ẞ', 'ß', 'Œ', 'Đ', 'ı', '’']),
  range(0x00, 0x1f), range(0x7f, 0x9f), oneOf(['\ud800', '\udfff']), range(0xff00, 0xffef),
  (r) => {
    const cp = Math.floor(r() * 0x110000);
    return cp >= 0xd800 && cp <= 0xdfff ? 'x' : String.fromCodePoint(cp);
  },
];

function randomString(r: () => number): string {
  // Mostly one or two "scripts" per string, like real fields, with occasional wild characters.
  const favourites = [PIECES[Math.floor(r() * PIECES.length)]!, PIECES[Math.floor(r() * PIECES.length)]!];
  const length = Math.floor(r() * 40);
  let text = '';
  for (let i = 0; i < length; i++) {
    const roll = r();
    const piece = roll < 0.45 ? favourites[0]! : roll < 0.7 ? favourites[1]! : roll < 0.85 ? PIECES[4]! : PIECES[Math.floor(r() * PIECES.length)]!;
    text += piece(r);
  }
  return text;
}

describe('kernel == reference on random input', () => {
  it.each([1, 2, 3, 4, 5, 6])('agrees on 1000 random mixed-script strings (seed %i)', (seed) => {
    const r = mulberry32(seed);
    const strings = Array.from({ length: 1000 }, () => randomString(r));
    expectSameBatch(tokenizeBatch(strings), referenceTokenizeBatch(strings));
    expectSameBatch(tokenizeBatch(strings, { separators: false }), referenceTokenizeBatch(strings, { separators: false }));
    const langs = Uint8Array.from(strings, () => Math.floor(r() * 32));
    expectSameBatch(tokenizeBatch(strings, { langs }), referenceTokenizeBatch(strings, { langs }));
  });

  it('agrees string by string with the batched call (per-string state is reset)', () => {
    const r = mulberry32(99);
    const strings = Array.from({ length: 200 }, () => randomString(r));
    const batched = materializeTokens(tokenizeBatch(strings), strings);
    const single = strings.flatMap((text, i) =>
      materializeTokens(tokenizeBatch([text]), [text]).map((t) => ({ ...t, string: i })),
    );
    expect(batched).toEqual(single);
  });

  it.each([11, 12, 13, 14])('agrees with random custom tokens on 1000 strings that use them (seed %i)', (seed) => {
    const r = mulberry32(seed);
    const token = () => {
      const roll = r();
      if (roll < 0.3) return PIECES[Math.floor(r() * PIECES.length)]!(r);
      const length = 2 + Math.floor(r() * 4);
      return Array.from({ length }, () => (r() < 0.4 ? oneOf(DEFAULT_SEPARATORS)(r) : PIECES[Math.floor(r() * 8)]!(r))).join('');
    };
    const list = (n: number) => Array.from({ length: Math.floor(r() * n) }, token);
    const settings = { separatorTokens: list(6), nonSeparatorTokens: [...list(3), ...Array.from({ length: 4 }, () => oneOf(DEFAULT_SEPARATORS)(r))], dictionary: list(8) };
    const custom = customOf(settings);
    const tokens = [...settings.separatorTokens, ...settings.nonSeparatorTokens, ...settings.dictionary];
    const strings = Array.from({ length: 1000 }, () => {
      let text = '';
      while (r() < 0.8) text += r() < 0.5 ? oneOf(tokens)(r) : randomString(r).slice(0, 8);
      return text;
    });
    expectSameBatch(tokenizeBatch(strings, { custom }), referenceTokenizeBatch(strings, { custom }));
    expectSameBatch(tokenizeBatch(strings, { separators: false, custom }), referenceTokenizeBatch(strings, { separators: false, custom }));
  });

  it.each([21, 22])('agrees with 400 custom tokens that start one another, matched longest first (seed %i)', (seed) => {
    // a small alphabet makes tokens prefixes of each other, so a match narrows many candidates
    const r = mulberry32(seed);
    const alphabet = ['a', 'b', 'é', '-', 'ß', '.'];
    const token = () => Array.from({ length: 2 + Math.floor(r() * 6) }, () => oneOf(alphabet)(r)).join('');
    const list = (n: number) => Array.from({ length: n }, token);
    const settings = { separatorTokens: list(150), nonSeparatorTokens: ['-'], dictionary: list(250) };
    const custom = customOf(settings);
    const strings = Array.from({ length: 500 }, () => Array.from({ length: Math.floor(r() * 40) }, () => (r() < 0.1 ? ' ' : oneOf(alphabet)(r))).join(''));
    expectSameBatch(tokenizeBatch(strings, { custom }), referenceTokenizeBatch(strings, { custom }));
    expectSameBatch(tokenizeBatch(strings, { separators: false, custom }), referenceTokenizeBatch(strings, { separators: false, custom }));
  });

  it('agrees on 2000 random byte strings, valid or not', () => {
    const r = mulberry32(7);
    const encoder = new TextEncoder();
    const parts: number[] = [];
    const spans: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const start = parts.length;
      const length = Math.floor(r() * 30);
      for (let j = 0; j < length; j++) {
        if (r() < 0.5) parts.push(Math.floor(r() * 256));
        else parts.push(...encoder.encode(randomString(r).slice(0, 3)));
      }
      spans.push(start, parts.length - start);
    }
    const input: Utf8Batch = { bytes: Uint8Array.from(parts), spans: Uint32Array.from(spans) };
    expectSameBatch(tokenizeBytes(input), referenceTokenizeBytes(input));
    for (let i = 0; i < 2000; i += 97) {
      const bytes = input.bytes.subarray(spans[2 * i]!, spans[2 * i]! + spans[2 * i + 1]!);
      expect(String.fromCodePoint(...decodeUtf8(bytes).map((c) => c.cp))).toBe(new TextDecoder().decode(bytes));
    }
  });

  it('agrees on every assigned code point and every script range, alone and after a Latin letter', () => {
    // Unassigned code points outside the script ranges share one property word; a sample covers them.
    const inScriptRange = (cp: number): boolean => SCRIPT_RANGES.some(([first, last]) => cp >= first && cp <= last);
    const chars: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const assigned = !/[\p{Cn}\p{Co}]/u.test(ch);
      if (assigned || inScriptRange(cp) || cp % 251 === 0) chars.push(ch);
    }
    for (const prefix of ['', 'E']) {
      for (let i = 0; i < chars.length; i += 100_000) {
        const strings = chars.slice(i, i + 100_000).map((ch) => prefix + ch);
        expectSameBatch(tokenizeBatch(strings), referenceTokenizeBatch(strings));
      }
    }
  }, 60_000);
});

describe('encodeBatch', () => {
  it('lays strings out back to back with (offset, length) spans', () => {
    const { bytes, spans } = encodeBatch(['ab', '', 'é']);
    expect(Array.from(bytes)).toEqual([0x61, 0x62, 0xc3, 0xa9]);
    expect(Array.from(spans)).toEqual([0, 2, 2, 0, 2, 2]);
  });
});

describe('visitTokens', () => {
  const visited = (strings: readonly string[], options: TokenizeOptions = {}) => {
    const seen: Pick<Token, 'string' | 'kind' | 'normalized' | 'text'>[] = [];
    visitTokens(tokenizeBatch(strings, options), strings, (string, word, normalized, text) =>
      seen.push({ string, kind: word ? 'word' : 'soft', normalized, text: text() }),
    );
    return seen;
  };
  const materialized = (strings: readonly string[], options: TokenizeOptions = {}) =>
    materializeTokens(tokenizeBatch(strings, options), strings).map(({ string, kind, normalized, text }) => ({ string, kind: kind === 'word' ? kind : 'soft', normalized, text }));

  it('reads the same tokens as materializeTokens on ASCII and mixed-script strings', () => {
    const r = mulberry32(7);
    const mixed = Array.from({ length: 300 }, () => randomString(r));
    for (const strings of [['Hello, World', 'san-francisco', ''], ['Élan vital', 'naïve café', '東京タワー 🙂 x'], mixed]) {
      expect(visited(strings)).toEqual(materialized(strings));
      expect(visited(strings, { separators: false })).toEqual(materialized(strings, { separators: false }));
    }
  });
});
