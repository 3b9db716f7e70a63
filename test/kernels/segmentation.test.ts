// Word segmentation of the scripts written without spaces (src/kernels/segmentation.ts and the
// kernel's breaks region): the words ICU's dictionaries find, offsets into the original text,
// positions, what stays whole, and kernel == reference on random Chinese, Japanese, Thai, Lao,
// Khmer and Myanmar text mixed with Latin, digits, separators and custom tokens.
import { describe, expect, it } from 'vitest';

import { customTokens } from '../../src/kernels/custom-tokens.js';
import { getKernels, KernelStatus } from '../../src/kernels/module.js';
import { referenceTokenizeBatch, referenceTokenizeBytes } from '../../src/kernels/reference/tokenizer.js';
import { pushWordBreaks, pushWordBreaksOfBytes } from '../../src/kernels/segmentation.js';
import {
  encodeBatch,
  materializeTokens,
  tokenizeBatch,
  tokenizeBytes,
  type Token,
  type TokenizeOptions,
} from '../../src/kernels/tokenizer.js';
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
  pushWordBreaks(out, 0, text);
  return out.filter((_, i) => i % 2 === 1);
}

describe('dictionary segmentation', () => {
  it('cuts a Chinese sentence into words', () => {
    expect(wordsOf('我们在北京大学学习中文')).toEqual(['我们', '在', '北京', '大学', '学习', '中文']);
  });

  it('cuts Japanese between kana and kanji, so で in クーポンで無料で頂きました is a word twice', () => {
    expect(wordsOf('クーポンで無料で頂きました')).toEqual(['クーポン', 'で', '無料', 'で', '頂', 'き', 'ま', 'した']);
  });

  it('cuts Thai, Lao, Khmer and Myanmar text into words', () => {
    expect(wordsOf('ภาษาไทยง่ายนิดเดียว')).toEqual(['ภาษา', 'ไทย', 'ง่าย', 'นิด', 'เดียว']);
    expect(wordsOf('ພາສາລາວ')).toEqual(['ພາສາ', 'ລາວ']);
    expect(wordsOf('ខ្ញុំស្រលាញ់អ្នក')).toEqual(['ខ្ញុំ', 'ស្រលាញ់', 'អ្នក']);
    expect(wordsOf('မြန်မာစာ')).toEqual(['မြန်မာ', 'စာ']);
  });

  it('separates digits from the words around them and leaves Korean words whole between spaces', () => {
    expect(wordsOf('北京123大学')).toEqual(['北京', '123', '大学']);
    expect(wordsOf('한국어를 배우고')).toEqual(['한국어를', '배우고']);
  });

  it('gives byte offsets of the original text and one position per word, 8 across a hard separator', () => {
    const tokens = tokenize(['Hi 北京大学。学习'], { separators: false });
    expect(tokens.map((t) => [t.text, t.start, t.end, t.position])).toEqual([
      ['Hi', 0, 2, 0], ['北京', 3, 9, 1], ['大学', 9, 15, 2], ['学习', 18, 24, 10],
    ]);
  });

  it('keeps a dictionary word and a custom separator whole across the boundaries ICU finds', () => {
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
      pushWordBreaksOfBytes(fromBytes, 0, encodeBatch([text]).bytes);
      expect(fromBytes.filter((_, i) => i % 2 === 1)).toEqual(breaksOf(text));
    }
    // 0xff decodes to one U+FFFD, two bytes shorter than its re-encoding
    const bytes = Uint8Array.from([0xff, ...new TextEncoder().encode('北京大学')]);
    const out: number[] = [];
    pushWordBreaksOfBytes(out, 0, bytes);
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
    return exports.tokenize(input, bytes.length, table, 1, out, 64, norm, 64, 0, 0, 0, breaks, pairs.length / 2);
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
