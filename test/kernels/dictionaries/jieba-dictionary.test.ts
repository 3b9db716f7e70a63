// The pieces under src/kernels/dictionaries/jieba.ts: finding the deflated dict.txt in a module
// file, reading dict.txt's lines as jieba-rs's load_dict does, the word table, and jieba-rs's
// logarithm.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

import { DictionaryEntries } from '../../../src/kernels/dictionaries/jieba-dict-text.js';
import { withEmbeddedJiebaDictionary } from '../../../src/kernels/dictionaries/jieba-embedded.js';
import { jiebaLn } from '../../../src/kernels/dictionaries/jieba-log.js';
import { JiebaWords } from '../../../src/kernels/dictionaries/jieba-words.js';
import { mulberry32 } from '../../helpers/random.js';

const directory = mkdtempSync(join(tmpdir(), 'quarry-jieba-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

function temporaryFile(bytes: Uint8Array): string {
  const file = join(directory, `${files++}.bin`);
  writeFileSync(file, bytes);
  return file;
}

function entriesOf(text: string): { word: string; frequency: number; line: number }[] {
  const out: { word: string; frequency: number; line: number }[] = [];
  for (const entries = new DictionaryEntries(Buffer.from(text)); entries.next(); ) {
    out.push({ word: String.fromCharCode(...entries.word.subarray(0, entries.length)), frequency: entries.frequency, line: entries.line });
  }
  return out;
}

function wordsOf(text: string): JiebaWords {
  return JiebaWords.read(new DictionaryEntries(Buffer.from(text)));
}

/** The dictionary words `text` starts with: [end, weight] pairs. */
function prefixes(words: JiebaWords, text: string): [number, number][] {
  const ends = new Int32Array(words.longest);
  const weights = new Float64Array(words.longest);
  const count = words.prefixes(text, 0, text.length, ends, weights);
  return Array.from({ length: count }, (_, i) => [ends[i]!, weights[i]!]);
}

function leb(value: number, signed = false): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value = signed ? value >> 7 : value >>> 7;
    const done = signed ? (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0) : value === 0;
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

function wasmSection(id: number, body: number[]): number[] {
  return [id, ...leb(body.length), ...body];
}

/**
 * A WebAssembly module whose one function loads each of `addresses` with `i32.const` (after
 * `padding` nops) and whose one data segment holds `data` at memory offset 1024.
 */
function moduleFile(data: Uint8Array, addresses: readonly number[], padding = 0): string {
  const code = [0x00, ...new Array<number>(padding).fill(0x01), ...addresses.flatMap((address) => [0x41, ...leb(address, true), 0x1a]), 0x0b];
  return temporaryFile(
    Uint8Array.from([
      ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      ...wasmSection(1, [0x01, 0x60, 0x00, 0x00]),
      ...wasmSection(3, [0x01, 0x00]),
      ...wasmSection(5, [0x01, 0x00, 0x02]),
      ...wasmSection(10, [0x01, ...leb(code.length), ...code]),
      ...wasmSection(11, [0x01, 0x00, 0x41, ...leb(1024, true), 0x0b, ...leb(data.length), ...data]),
    ]),
  );
}

describe('finding the deflated dict.txt in a module file', () => {
  const lines = Array.from({ length: 100 }, (_, i) => `词${String(i).padStart(3, '0')} ${i + 1} n`).join('\n') + '\n';
  const deflated = deflateRawSync(Buffer.from(lines));
  const next = mulberry32(1);
  const segment = Uint8Array.from({ length: 70_000 }, () => Math.floor(next() * 256));
  const at = 30_000;
  segment.set(deflated, at);
  const read = (text: Uint8Array) => {
    const words: string[] = [];
    for (const entries = new DictionaryEntries(text); entries.next(); ) words.push(String.fromCharCode(...entries.word.subarray(0, entries.length)));
    return words;
  };

  it('takes the first address the code loads that inflates to lines of "word frequency tag", past decoys', () => {
    const decoys = [1024, 1024 + 17, 1024 + 29_000, 1024 + 60_000, 99];
    const words = withEmbeddedJiebaDictionary(read, moduleFile(segment, [...decoys, 1024 + at]));
    expect(words).toEqual(Array.from({ length: 100 }, (_, i) => `词${String(i).padStart(3, '0')}`));
  });

  it('finds an address whose i32.const straddles two windows of the code scan', () => {
    // The opcode 2 bytes before the end of the section's first 64 KiB, its 3-byte operand running past it
    // (the section's count, 3-byte size and the body's local count come first).
    const words = withEmbeddedJiebaDictionary(read, moduleFile(segment, [1024 + at], 65_534 - 5));
    expect(words).toHaveLength(100);
  });

  it('throws when no address inflates to a dictionary', () => {
    expect(() => withEmbeddedJiebaDictionary(read, moduleFile(segment, [1024, 1024 + 500]))).toThrow(/found no deflated jieba dictionary/);
  });
});

describe("dict.txt's lines, read as jieba-rs's load_dict reads them", () => {
  it('splits a line at any whitespace into word, frequency and tag; skips blank lines; a missing frequency is 0', () => {
    const text = '中国 100 ns\n\n  \r\n人民\t7\n北京\u3000+8\u3000ns\r\nAT&T 3 nz\n独词\n 前导空格 5\n最后一行 9';
    expect(entriesOf(text)).toEqual([
      { word: '中国', frequency: 100, line: 1 },
      { word: '人民', frequency: 7, line: 4 },
      { word: '北京', frequency: 8, line: 5 },
      { word: 'AT&T', frequency: 3, line: 6 },
      { word: '独词', frequency: 0, line: 7 },
      { word: '前导空格', frequency: 5, line: 8 },
      { word: '最后一行', frequency: 9, line: 9 },
    ]);
    expect(entriesOf('')).toEqual([]);
    expect(entriesOf('𠀀 2 n')).toEqual([{ word: '𠀀', frequency: 2, line: 1 }]);
  });

  it('throws on a frequency that is not a 32-bit unsigned integer, and on text that is not UTF-8', () => {
    expect(entriesOf('词 4294967295 n')[0]!.frequency).toBe(4294967295);
    for (const frequency of ['4294967296', '-1', '1.5', '+', '3x', '三']) expect(() => entriesOf(`中国 1 n\n词 ${frequency} n`), frequency).toThrow(/line 2: frequency/);
    expect(() => new DictionaryEntries(Uint8Array.of(0xe4, 0xb8, 0x20, 0x31)).next()).toThrow(/not UTF-8/);
  });
});

describe('the word table', () => {
  const words = wordsOf('中 10 n\n中国 40 n\n中国 20 n\n中国人 5 n\n中国人民 4 n\n人 30 n\n零 0 n\n');

  it("has exactly the dictionary's words, found as prefixes with ln(freq) - ln(total), a repeated word's last frequency counting", () => {
    const lnTotal = jiebaLn(10 + 20 + 5 + 4 + 30);
    expect(prefixes(words, '中国人民共和国')).toEqual([
      [1, jiebaLn(10) - lnTotal],
      [2, jiebaLn(20) - lnTotal],
      [3, jiebaLn(5) - lnTotal],
      [4, jiebaLn(4) - lnTotal],
    ]);
    expect(prefixes(words, '零')).toEqual([[1, -Infinity]]);
    expect(prefixes(words, '国')).toEqual([]);
    expect(words.unknownWeight).toBe(-lnTotal);
    expect(words.longest).toBe(4);
    for (const word of ['中', '中国', '中国人', '中国人民', '人', '零']) expect(words.has(word), word).toBe(true);
    for (const word of ['', '国', '中国人民共', '中人', '人中', '零零']) expect(words.has(word), word).toBe(false);
  });

  it('sums frequencies modulo 2^32, as a wasm32 usize does', () => {
    // 4294967295 + 2 is 1: ln(total) is 0.
    expect(wordsOf('乙 4294967295 n\n甲 2 n\n').unknownWeight).toBe(0);
  });

  it('throws on words out of order (the table needs dict.txt sorted)', () => {
    expect(() => wordsOf('中国 1 n\n中 1 n\n')).toThrow(/line 2: "中" is out of order/);
  });
});

describe("jieba-rs's logarithm", () => {
  it('gives the bits of jieba-wasm\'s own log where Math.log differs', () => {
    // Values of the module's log function (libm's), run on its own.
    const libm: [number, number][] = [
      [14, 2.639057329615259],
      [176, 5.170483995038152],
      [185, 5.220355825078324],
      [220, 5.393627546352361],
      [680, 6.522092798170152],
    ];
    for (const [x, ln] of libm) {
      expect(jiebaLn(x)).toBe(ln);
      expect(Math.log(x)).not.toBe(ln);
    }
    expect(jiebaLn(1)).toBe(0);
    expect(jiebaLn(0)).toBe(-Infinity);
    expect(jiebaLn(Math.E ** 10)).toBeCloseTo(10, 14);
  });
});
