// Word segmentation of the scripts written without spaces (src/kernels/segmentation.ts and the
// kernel's breaks region): the words charabia's segmenters find, offsets into the original text,
// positions, what stays whole, and kernel == reference on random Chinese, Japanese, Thai, Lao,
// Khmer and Myanmar text mixed with Latin, digits, separators and custom tokens; and the groups
// and runs segmentation.ts finds against a whole-string oracle (below).
import { describe, expect, it } from 'vitest';

import { customTokens } from '../../src/kernels/custom-tokens.js';
import { getKernels, KernelStatus } from '../../src/kernels/module.js';
import { referenceTokenizeBatch, referenceTokenizeBytes } from '../../src/kernels/reference/tokenizer.js';
import { DEFAULT_SEPARATORS, SCRIPTS, WHATLANG_MANDARIN_RANGES } from '../../src/kernels/charabia-data.js';
import { SCRIPT_OTHER, scriptOf } from '../../src/kernels/unicode.js';
import { decodeUtf8, type Char } from '../../src/kernels/utf8.js';
import { dictionaryWordStarts } from '../../src/kernels/dictionary-segmenters.js';
import { prefixWordStarts, wordTrie } from '../../src/kernels/prefix-segmenter.js';
import { wordList } from '../../src/kernels/word-lists.js';
import { pushWordBreaks, pushWordBreaksOfBytes } from '../../src/kernels/segmentation.js';
import {
  encodeBatch,
  materializeTokens,
  tokenizeBatch,
  tokenizeBytes,
  type Token,
  type TokenizeOptions,
} from '../../src/kernels/tokenizer.js';
import { cjIsJapanese, isKana, Lang, langOfLocales } from '../../src/kernels/languages.js';
import { mulberry32 } from '../helpers/random.js';

/** Tokens of the kernel, after checking the reference gives the same batch. */
function tokenize(strings: readonly string[], options: TokenizeOptions = {}): Token[] {
  const batch = tokenizeBatch(strings, options);
  expect(batch).toEqual(referenceTokenizeBatch(strings, options));
  return materializeTokens(batch, strings);
}

/** The words of one text as written. */
const wordsOf = (text: string, options: TokenizeOptions = {}): string[] =>
  tokenize([text], options).filter((t) => t.kind === 'word').map((t) => t.text);

function breaksOf(text: string): number[] {
  const out: number[] = [];
  pushWordBreaks(out, 0, text, Lang.Detect);
  return out.filter((_, i) => i % 2 === 1);
}

describe('dictionary segmentation', () => {
  it('cuts a Chinese sentence into words', () => {
    expect(wordsOf('我们在北京大学学习中文')).toEqual(['我们', '在', '北京', '大学', '学习', '中文']);
  });

  it('cuts Japanese with lindera (IPADIC), so で in クーポンで無料で頂きました is a word twice', () => {
    expect(wordsOf('クーポンで無料で頂きました')).toEqual(['クーポン', 'で', '無料', 'で', '頂き', 'まし', 'た']);
  });

  it('cuts Han text as Japanese when its kana are over 5% of it or the locales leave Mandarin out, else as Mandarin with jieba', () => {
    expect(wordsOf('进击的巨人')).toEqual(['进击', '的', '巨人']);
    expect(wordsOf('进击的巨人', { langs: Uint8Array.of(Lang.JapaneseOnly) })).toEqual(['进', '击', '的', '巨人']);
    expect(wordsOf('進撃の巨人')).toEqual(['進撃', 'の', '巨人']);
  });

  it('follows a lone locale: Mandarin cuts kana text with jieba, a non-CJK one leaves Cj text whole but Hangul still cut', () => {
    const lone = (locale: string): TokenizeOptions => ({ langs: Uint8Array.of(langOfLocales([locale])) });
    const text = '進撃の巨人';
    const cuts = [0, ...dictionaryWordStarts(text, 'cmn'), text.length];
    expect(wordsOf(text, lone('cmn'))).toEqual(cuts.slice(1).map((end, i) => text.slice(cuts[i], end)));
    expect(wordsOf(text, lone('cmn'))).not.toEqual(wordsOf(text));
    expect(wordsOf('进击的巨人', lone('eng'))).toEqual(['进击的巨人']);
    expect(wordsOf('进击的巨人', lone('deu'))).toEqual(['进击的巨人']);
    expect(wordsOf('한국어를 공부합니다', lone('eng'))).toEqual(wordsOf('한국어를 공부합니다'));
  });

  it('cuts the Latin words of German text into dictionary words, numbers and other scripts left alone', () => {
    const german = { langs: Uint8Array.of(Lang.German) };
    expect(wordsOf('Der Dampfschifffahrtskapitän fährt 2024 über den Mittellandkanal', german)).toEqual([
      'Der', 'Dampf', 'schifffahrts', 'kapitän', 'fähr', 't', '2024', 'über', 'den', 'Mittel', 'land', 'kanal',
    ]);
    expect(wordsOf('Wissensorganisation 北京大学 Haushalt', german)).toEqual(['Wissens', 'organisation', '北京', '大学', 'Haus', 'halt']);
    expect(wordsOf('Wissensorganisation')).toEqual(['Wissensorganisation']);
  });

  it('splits compounds in the Latin groups whatlang calls German when the locales let it choose', () => {
    const mixed = { langs: [langOfLocales(['deu', 'eng'])] };
    expect(wordsOf('Der Kapitän fährt über den Mittellandkanal nach Magdeburg', mixed)).toContain('kanal');
    expect(wordsOf('The captain sails the steamship through the Mittellandkanal', mixed)).toContain('Mittellandkanal');
    // each Latin group is asked alone: the German one is cut, the English one is not
    const words = wordsOf('Der Kapitän fährt über den Mittellandkanal 北京 the Mittellandkanal is long', mixed);
    expect(words.filter((word) => word === 'kanal')).toHaveLength(1);
    expect(words).toContain('Mittellandkanal');
  });

  it('keeps å, ä and ö in text whatlang calls Swedish when the locales let it choose', () => {
    const normalized = (text: string, locales: string[]): string[] =>
      tokenize([text], { separators: false, langs: [langOfLocales(locales)] }).map((t) => t.normalized);
    expect(normalized('Räksmörgåsen är god och jag äter den gärna på morgonen', ['swe', 'eng'])).toContain('räksmörgåsen');
    expect(normalized('The waffle at the café in Malmö is good and I eat it in the morning', ['swe', 'eng'])).toContain('malmo');
    expect(normalized('Räksmörgåsen är god och jag äter den gärna på morgonen', ['eng', 'fra'])).toContain('raksmorgasen');
  });

  it('agrees kernel == reference on random strings whose locales let whatlang choose', () => {
    const r = mulberry32(21);
    const pool = [Lang.Detect, langOfLocales(['swe', 'eng']), langOfLocales(['deu', 'eng', 'cmn']), langOfLocales(['deu', 'swe'])];
    const words = ['Räksmörgås', 'är', 'god', 'och', 'the', 'captain', 'Mittellandkanal', 'fährt', 'über', 'Malmö', 'å', '北京', '123', ' ', ', '];
    const strings = Array.from({ length: 300 }, () => Array.from({ length: 1 + Math.floor(r() * 12) }, () => words[Math.floor(r() * words.length)]!).join(' '));
    const langs = strings.map(() => pool[Math.floor(r() * pool.length)]!);
    expect(tokenizeBatch(strings, { langs })).toEqual(referenceTokenizeBatch(strings, { langs }));
  });

  it('cuts each run between separators of a script group alone, and the groups of a string apart', () => {
    // the first group is Japanese for its kana, the second (after the Latin word) Mandarin
    expect(wordsOf('の进击的巨人 abc 进击的巨人')).toEqual(['の', '进', '击', '的', '巨人', 'abc', '进击', '的', '巨人']);
  });

  it("cuts Thai and Khmer with charabia's word lists, and leaves Lao, Myanmar and numbers whole", () => {
    // charabia 0.9.9's thai.rs and khmer.rs vectors
    expect(wordsOf('ภาษาไทยง่ายนิดเดียว ไก่ขันตอนเช้าบนขันน้ำ ฉันสระผมที่สระน้ำด้วยน้ำยาสระผม 123 456')).toEqual([
      'ภาษาไทย', 'ง่าย', 'นิดเดียว', 'ไก่', 'ขัน', 'ตอนเช้า', 'บน', 'ขันน้ำ', 'ฉัน', 'สระผม', 'ที่', 'สระน้ำ', 'ด้วย', 'น้ำยา', 'สระผม', '123', '456',
    ]);
    expect(wordsOf('សួស្តីពិភពលោក 123 456')).toEqual(['សួស្តី', 'ពិភពលោក', '123', '456']);
    expect(wordsOf('ภาษา๑๒๓')).toEqual(['ภาษา', '๑', '๒', '๓']);
    expect(wordsOf('ราคา ๑๒๓ บาท')).toEqual(['ราคา', '๑๒๓', 'บาท']);
    expect(wordsOf('ພາສາລາວ')).toEqual(['ພາສາລາວ']);
    expect(wordsOf('မြန်မာစာ')).toEqual(['မြန်မာစာ']);
  });

  it("cuts the article ال off Arabic words, as charabia's Arabic segmenter, and not inside a word", () => {
    const text = 'السلام عليكم، كيف حالكم؟ (أتمنى أن تكونوا بأفضل ٱلأحوال)';
    expect(wordsOf(text)).toEqual(['ال', 'سلام', 'عليكم', 'كيف', 'حالكم', 'أتمنى', 'أن', 'تكونوا', 'بأفضل', 'ٱل', 'أحوال']);
    expect(tokenize([text], { separators: false }).map((t) => t.normalized)).toEqual(['ال', 'سلام', 'عليكم', 'كيف', 'حالكم', 'اتمني', 'ان', 'تكونوا', 'بافضل', 'ال', 'احوال']);
    // after a Latin word (another script group), but not after a digit (UAX #29 joins them)
    expect(wordsOf('abcالحمد 5الحمد بالحمد')).toEqual(['abc', 'ال', 'حمد', '5الحمد', 'بالحمد']);
  });

  it('separates digits from the words around them and cuts Korean with lindera (ko-dic), particles apart', () => {
    expect(wordsOf('北京123大学')).toEqual(['北京', '123', '大学']);
    expect(wordsOf('한국어를 배우고')).toEqual(['한국어', '를', '배우', '고']);
  });

  it('gives byte offsets of the original text and one position per word, 8 across a hard separator', () => {
    const tokens = tokenize(['Hi 北京大学。学习'], { separators: false });
    expect(tokens.map((t) => [t.text, t.start, t.end, t.position])).toEqual([
      ['Hi', 0, 2, 0], ['北京', 3, 9, 1], ['大学', 9, 15, 2], ['学习', 18, 24, 10],
    ]);
  });

  it('keeps a dictionary word and a custom separator whole across the boundaries the segmenters find', () => {
    const custom = customTokens({ separatorTokens: ['京大'], nonSeparatorTokens: [], dictionary: ['北京大学'] });
    expect(wordsOf('我们在北京大学学习', { custom })).toEqual(['我们', '在', '北京大学', '学习']);
    const separator = customTokens({ separatorTokens: ['京大'], nonSeparatorTokens: [], dictionary: [] });
    expect(wordsOf('北京大学', { custom: separator })).toEqual(['北', '学']);
  });

  it('finds no boundary in Latin, accented or Cyrillic text', () => {
    for (const text of ['Hello world', 'Ça été déjà vu', 'Война и мир', '🍕 pizza']) expect(breaksOf(text)).toEqual([]);
  });

  it('finds the same boundaries in a string and in its UTF-8, lone surrogates and invalid bytes included', () => {
    for (const text of ['東京タワーに行く', 'a\ud800東京\udfffタワー', 'ภาษาไทย 北京大学']) {
      const fromBytes: number[] = [];
      pushWordBreaksOfBytes(fromBytes, 0, encodeBatch([text]).bytes, Lang.Detect);
      expect(fromBytes.filter((_, i) => i % 2 === 1)).toEqual(breaksOf(text));
    }
    // 0xff decodes to one U+FFFD, two bytes shorter than its re-encoding
    const bytes = Uint8Array.from([0xff, ...new TextEncoder().encode('北京大学')]);
    const out: number[] = [];
    pushWordBreaksOfBytes(out, 0, bytes, Lang.Detect);
    expect(out).toEqual([0, 1, 0, 7]);
    const input = { bytes, spans: Uint32Array.from([0, bytes.length]) };
    expect(materializeTokens(tokenizeBytes(input), input).map((t) => [t.start, t.end])).toEqual([[0, 1], [1, 7], [7, 13]]);
    expect(tokenizeBytes(input)).toEqual(referenceTokenizeBytes(input));
  });
});

describe('breaks region', () => {
  /** Calls the kernel on "北京" with the given (string, offset) pairs. */
  function callWithBreaks(pairs: number[]): number {
    const { arena, exports } = getKernels();
    arena.reset();
    const bytes = new TextEncoder().encode('北京');
    const table = arena.alloc(8);
    const input = arena.alloc(bytes.length);
    const breaks = arena.alloc(pairs.length * 4);
    const out = arena.alloc(64 * 28);
    const norm = arena.alloc(64);
    arena.u8.set(bytes, input);
    arena.u32.set([0, bytes.length], table >>> 2);
    arena.u32.set(pairs, breaks >>> 2);
    return exports.tokenize(input, bytes.length, table, 1, out, 64, norm, 64, 0, 0, 0, breaks, pairs.length / 2, 0);
  }

  it('splits at a break and rejects breaks out of order or naming a missing string', () => {
    expect(callWithBreaks([])).toBe(1);
    expect(callWithBreaks([0, 3])).toBe(2);
    expect(callWithBreaks([0, 3, 0, 3])).toBe(KernelStatus.BadBreaks);
    expect(callWithBreaks([1, 3])).toBe(KernelStatus.BadBreaks);
  });

  it('ignores a break inside a character', () => {
    expect(callWithBreaks([0, 1, 0, 4])).toBe(1);
  });
});


const VOCABULARY = [
  '北京', '大学', '学习', '中文', '我们', '人民', '共和国', '東京', 'タワー', 'クーポン', 'で', 'が', 'の', 'ひらがな', 'カタカナ',
  'ภาษา', 'ไทย', 'ง่าย', 'ພາສາ', 'ລາວ', 'ខ្ញុំ', 'អ្នក', 'မြန်မာ', '한국어', '를', 'ー', '々', '・',
  'abc', 'Ünïcode', '123', '２０２４', ' ', '　', '。', '、', '「', '」', '. ', '-', '🍕', '\ufe0f', '\u0301', '\u0000', '\ud800',
];

function randomText(r: () => number): string {
  let text = '';
  const length = Math.floor(r() * 16);
  for (let i = 0; i < length; i++) {
    text += r() < 0.8 ? VOCABULARY[Math.floor(r() * VOCABULARY.length)]! : String.fromCodePoint(0x3040 + Math.floor(r() * 0x6000));
  }
  return text;
}

describe('kernel == reference on random text in the segmented scripts', () => {
  it.each([1, 2, 3])('agrees on 1000 random strings, with and without separators (seed %i)', (seed) => {
    const r = mulberry32(seed);
    const strings = Array.from({ length: 1000 }, () => randomText(r));
    expect(tokenizeBatch(strings)).toEqual(referenceTokenizeBatch(strings));
    expect(tokenizeBatch(strings, { separators: false })).toEqual(referenceTokenizeBatch(strings, { separators: false }));
  });

  it('agrees with custom tokens made of those words', () => {
    const r = mulberry32(21);
    const custom = customTokens({ separatorTokens: ['京大', 'ー'], nonSeparatorTokens: ['・', '-'], dictionary: ['北京大学', 'で無料', 'ไทยง่าย'] });
    const strings = Array.from({ length: 1000 }, () => randomText(r) + (r() < 0.5 ? '北京大学で無料' : 'ภาษาไทยง่าย'));
    expect(tokenizeBatch(strings, { custom })).toEqual(referenceTokenizeBatch(strings, { custom }));
  });

  it('agrees string by string with the batched call (the break cursor is per string)', () => {
    const r = mulberry32(5);
    const strings = Array.from({ length: 200 }, () => randomText(r));
    const batched = materializeTokens(tokenizeBatch(strings), strings);
    const single = strings.flatMap((text, i) => materializeTokens(tokenizeBatch([text]), [text]).map((t) => ({ ...t, string: i })));
    expect(batched).toEqual(single);
  });
});

/**
 * The whole-string algorithm, without code-unit tables, over the decoded text: for each charabia
 * script group of Cj, Hangul, Thai or Khmer, each run between
 * one-character default separators that is not a number given to its segmenter.
 */
function oracleOfBytes(bytes: Uint8Array, lang: number = Lang.Detect): number[] {
  const chars = decodeUtf8(bytes);
  let text = '';
  const offsets: number[] = [];
  for (const char of chars) {
    const ch = String.fromCodePoint(char.cp);
    for (let unit = 0; unit < ch.length; unit++) offsets.push(char.start);
    text += ch;
  }
  const found = new Set<number>();
  // charabia's groups: a character of another script than the current one (neither Other) starts one
  const groups: { script: number; chars: typeof chars }[] = [];
  for (const char of chars) {
    const script = scriptOf(char.cp);
    const current = groups[groups.length - 1];
    if (current === undefined || (script !== SCRIPT_OTHER && current.script !== SCRIPT_OTHER && script !== current.script)) groups.push({ script, chars: [char] });
    else {
      current.chars.push(char);
      if (current.script === SCRIPT_OTHER) current.script = script;
    }
  }
  for (const { script, chars: group } of groups) {
    if (SCRIPTS[script] === 'Arabic') {
      // ArabicSegmenter: each UAX #29 word of a run starting with an article loses its first two characters
      for (const { text: runText, unitStarts } of runsOf(group)) {
        for (const { segment, index } of new Intl.Segmenter(undefined, { granularity: 'word' }).segment(runText)) {
          // (charabia also asks for more than 2 bytes in the segment: always true)
          if (['ال', 'أل', 'إل', 'آل', 'ٱل'].some((article) => segment.startsWith(article))) found.add(unitStarts[index + 2]!);
        }
      }
      continue;
    }
    if (SCRIPTS[script] === 'Thai' || SCRIPTS[script] === 'Khmer') {
      const words = SCRIPTS[script] === 'Thai' ? THAI_TRIE : KHMER_TRIE;
      for (const { text: runText, unitStarts } of runsOf(group)) {
        for (const at of prefixWordStarts(words, runText, 1)) found.add(unitStarts[at]!);
      }
      continue;
    }
    if (SCRIPTS[script] !== 'Cj' && SCRIPTS[script] !== 'Hangul') continue;
    const kana = group.filter((c) => isKana(c.cp)).length;
    const mandarin = group.filter((c) => !isKana(c.cp) && WHATLANG_MANDARIN_RANGES.some(([first, last]) => c.cp >= first && c.cp <= last)).length;
    const language = SCRIPTS[script] === 'Hangul' ? 'kor' : cjIsJapanese(kana, mandarin, lang) ? 'jpn' : 'cmn';
    for (const { text: runText, unitStarts } of runsOf(group)) {
      for (const at of dictionaryWordStarts(runText, language)) found.add(unitStarts[at]!);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** The runs of a script group between one-character separators but numbers: their text, and the byte where each UTF-16 unit starts (and the run's end). */
function runsOf(group: readonly Char[]): { text: string; unitStarts: number[] }[] {
  const runs: { text: string; unitStarts: number[] }[] = [];
  let run: Char[] = [];
  for (const char of [...group, null]) {
    if (char !== null && !ONE_CHARACTER_SEPARATORS.has(String.fromCodePoint(char.cp))) {
      run.push(char);
      continue;
    }
    const unitStarts = run.flatMap((c) => (c.cp > 0xffff ? [c.start, c.start] : [c.start]));
    unitStarts.push(run[run.length - 1]?.end ?? 0);
    const runText = run.map((c) => String.fromCodePoint(c.cp)).join('');
    // charabia's maybe_number: numeric characters and ASCII punctuation only go unsegmented
    if (!/^[\p{N}!-/:-@[-`{-~]+$/u.test(runText)) runs.push({ text: runText, unitStarts });
    run = [];
  }
  return runs;
}

const THAI_TRIE = wordTrie(wordList('thai'));
const KHMER_TRIE = wordTrie(wordList('khmer'));
/** The separators a group's runs are cut at (the two-character ones start with one). */
const ONE_CHARACTER_SEPARATORS = new Set(DEFAULT_SEPARATORS.filter((separator) => separator.length === 1));

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Byte offsets of pushWordBreaks, after checking pushWordBreaksOfBytes gives the same for the UTF-8. */
function breaksOfBoth(text: string): number[] {
  const fromBytes: number[] = [];
  pushWordBreaksOfBytes(fromBytes, 3, encode(text), Lang.Detect);
  const out: number[] = [];
  pushWordBreaks(out, 3, text, Lang.Detect);
  expect(fromBytes).toEqual(out);
  expect(out.filter((_, i) => i % 2 === 0).every((index) => index === 3)).toBe(true);
  return out.filter((_, i) => i % 2 === 1);
}

/** Checks both entry points against the oracle (TextEncoder writes a lone surrogate as U+FFFD, as the kernel reads it). */
function expectLikeWholeString(text: string): void {
  expect(breaksOfBoth(text), JSON.stringify(text)).toEqual(oracleOfBytes(encode(text)));
}

// Whitespace of every kind, the separators 、 and 。 with what may follow them (marks, format
// characters, halfwidth sound marks, ZWJ, skin tones), letters and digits of the segmented scripts
// and others, punctuation, emoji, flags, lone surrogates, U+FFFD, BOM.
const ALPHABET = [
  '北京', '大学', '学习', '東京', 'タワー', 'クーポン', 'で', 'ひらがな', 'ー', '々', '〇', '豆腐', 'ｶ', 'ﾞ', '\uff9f', '\u3099', '\u302a',
  'ภาษา', 'ไทย', 'ง่าย', '\u0e48', '\u0e31', 'ພາສາ', 'ລາວ', 'ខ្ញុំ', 'ស្រលាញ់', '\u17b6', 'မြန်မာ', '\u103a', '๑๒', '໓', '၄', '한국어', '를', '\u1100', '\u11a8', 'ᄀ', 'ㄱ',
  'abc', 'Ünïcode', 'word', 'שלום', 'Война', 'الحمد', 'بال', 'ٱلأحوال', 'أن', 'ال', 'كتاب', '123', '２０２４', 'ＡＢ', '3.14', '.', ',', "'", '"', ':', '-', '_', '!', '?',
  ' ', ' ', ' ', '\t', '\n', '\v', '\f', '\r', '\r\n', '  ', '\u3000', '\u00a0', '\u0085', '\u2028', '\u200b',
  '、', '。', '，', '．', '：', '！', '「', '」', '・',
  '\u00ad', '\u200c', '\u200d', '\u2060', '\ufeff', '\u0301', '\u034f', '\ufe0f', '\u{e0020}', '\u{1f3fb}',
  '🍕', '👍🏻', '👨‍👩‍👧', '🇯🇵', '\u{1f1ef}', '\u{20000}', '\ufffd', '\ud800', '\udfff',
];

function randomMixedText(r: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    const roll = r();
    text += roll < 0.9 ? ALPHABET[Math.floor(r() * ALPHABET.length)]! : roll < 0.95 ? String.fromCharCode(Math.floor(r() * 0x10000)) : String.fromCodePoint(0x3040 + Math.floor(r() * 0x6000));
  }
  return text;
}

describe('segmenting groups and runs == segmenting the whole string', () => {
  it('agrees on mixed scripts, marks after a space, ideographic spaces, CRLF, emoji, lone surrogates and the string edges', () => {
    for (const text of [
      '北', '北京', '北 京', ' 北京 ', '北京大学 in Beijing', 'The 豆腐 is soft. 北京大学, 東京タワー and ภาษาไทย.',
      'ภาษา \u0e48ไทย', 'ภาษา\t\u0e31ไทย', 'a \u0301北京', 'x ｶﾞ ｷﾞ \uff9e北', 'の \u3099か', '北京\u3000大学\u3000\u3000学习',
      'line one\r\n北京\r\nline two\r\n', 'one\n北京\nthree\n\u4e00', '\u000b北\u000c京', 'a \u00ad北 \u200d京 \u200b学',
      '北京 👍🏻 大学 \u{1f3fb}学习 👨‍👩‍👧 🇯🇵🇯🇵 京', 'a\ud800 北京\udfff タワー \ud800', '\ufeff北京', '\ufffd 北京 \ufffd',
      '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。', '北京、大学。 学习。\u3099京、\u200d学。',
      '๑,๒ ᄀ.ᄀ ๑，๒ ᄀ:ᄀ abc.ᄀ 3.๑ ภาษา๑๒ ๑๒ภาษา',
      '한국어를 배우고 있습니다', 'ខ្ញុំស្រលាញ់ អ្នក', 'မြန်မာ စာ', 'ພາສາ ລາວ', 'Hello world', 'end with 北', '北 at start',
    ]) {
      expectLikeWholeString(text);
    }
  });

  it.each([1, 2, 3])('agrees on 200 random strings of a mixed alphabet (seed %i)', (seed) => {
    const r = mulberry32(seed);
    for (let i = 0; i < 200; i++) expectLikeWholeString(randomMixedText(r, Math.floor(r() * 40)));
  });

  it('agrees on long strings, sparse and dense', () => {
    const r = mulberry32(7);
    const english = 'the package manager resolves dependencies before it unpacks anything ';
    for (let i = 0; i < 12; i++) {
      let text = '';
      while (text.length < 3000) text += r() < 0.05 * (i % 4) ? randomMixedText(r, 8) : english.slice(0, Math.floor(r() * english.length));
      expectLikeWholeString(text);
    }
    const tricky = '๑,๒ ᄀ.ᄀ ๑，๒ ᄀ:ᄀ ภาษา \u0e48ไทย x ｶﾞ \uff9e北 の \u3099か 北\u3000\u3000京。\u3099京、学 \u200d京 👍🏻 ';
    for (let n = 500; n < 510; n++) expectLikeWholeString(`北 ${'a'.repeat(n)} ${tricky}${tricky}`);
    expectLikeWholeString('吾輩は猫である。名前はまだ無い。'.repeat(80));
    expectLikeWholeString('한국어를 배우고 있습니다 '.repeat(100));
  });

  it('agrees on invalid UTF-8, whose U+FFFD stand for 1 to 3 bytes', () => {
    const r = mulberry32(11);
    const invalid = [[0xff], [0xc3], [0xe4, 0xb8], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x8d], [0x80, 0x80]];
    for (let i = 0; i < 200; i++) {
      const parts: number[] = [];
      for (let j = Math.floor(r() * 20); j > 0; j--) {
        parts.push(...(r() < 0.2 ? invalid[Math.floor(r() * invalid.length)]! : encode(randomMixedText(r, 1))));
      }
      const bytes = Uint8Array.from(parts);
      const out: number[] = [];
      pushWordBreaksOfBytes(out, 0, bytes, Lang.Detect);
      expect(out.filter((_, k) => k % 2 === 1)).toEqual(oracleOfBytes(bytes));
    }
  });

  it('segments only the run of the one Chinese word in 200,000 characters of English', () => {
    const half = 'The package manager resolves dependencies before it unpacks anything. '.repeat(1430);
    const text = `${half}北京大学 ${half}`;
    expect(breaksOf(text)).toEqual([half.length + 6]);
    const bytes: number[] = [];
    pushWordBreaksOfBytes(bytes, 0, encode(text), Lang.Detect);
    expect(bytes).toEqual([0, half.length + 6]);
    expect(text.length).toBeGreaterThan(200_000);
  });

  it('segments the one Thai run of 200,000 characters of English', () => {
    const half = 'The package manager resolves dependencies before it unpacks anything. '.repeat(1430);
    // ภาษาไทย|ง่าย|นิดเดียว, three bytes a character
    expect(breaksOf(`${half}ภาษาไทยง่ายนิดเดียว ${half}`)).toEqual([half.length + 21, half.length + 33]);
  });
});
