// Compiled dictionaries read in a page at a time (src/kernels/dictionaries/dictionary-pages.ts):
// nothing of an array is read before it is asked for, a range across pages is read whole, the file
// closes once every page is read (all at once, once a dictionary is in real use), and a page
// asked for after close is an error; a dictionary segmenting a sentence reads a small part of its
// pages and segments as the whole one does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { compiledDictionaryPath, openCompiledDictionary, writeCompiledDictionary } from '../../../src/kernels/dictionaries/compiled.js';
import { JIEBA_COMPILED, jiebaSource, readPackagedJiebaWords } from '../../../src/kernels/dictionaries/jieba.js';
import { JiebaWords } from '../../../src/kernels/dictionaries/jieba-words.js';
import { readDictionary, readPackagedDictionary } from '../../../src/kernels/dictionaries/lindera-dictionary.js';
import { Lattice } from '../../../src/kernels/dictionaries/lindera-lattice.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 64 pages of u32 counting up from 1, then a short array (65 pages: the rest is read at once after 8). */
function opened() {
  const file = join(dir, 'counting.bin');
  writeCompiledDictionary(file, 's', { arrays: { counting: Uint32Array.from({ length: 65536 }, (_, i) => i + 1), tail: Uint16Array.of(7, 8, 9) }, values: {} });
  const { parts, pages } = openCompiledDictionary(file, 's')!;
  return { counting: parts.arrays.counting as Uint32Array, tail: parts.arrays.tail as Uint16Array, pages };
}

describe('DictionaryPages', () => {
  it('reads nothing of an array before it is asked for, then the pages asked for', () => {
    const { counting, pages } = opened();
    expect(pages.residentPages).toEqual({ read: 0, total: 65 });
    expect(counting[2000]).toBe(0);
    pages.ensure(counting, 2000, 2001);
    expect(counting[2000]).toBe(2001);
    expect(pages.residentPages.read).toBe(1);
    expect(counting[0]).toBe(0);
    pages.close();
  });

  it('reads a range across pages whole', () => {
    const { counting, pages } = opened();
    pages.ensure(counting, 1000, 3100);
    expect([counting[1000], counting[1023], counting[1024], counting[2048], counting[3099]]).toEqual([1001, 1024, 1025, 2049, 3100]);
    // bytes 4,000 to 12,400: pages 0 to 3
    expect(pages.residentPages.read).toBe(4);
    pages.close();
  });

  it('closes the file once every page is read, and refuses a page after close', () => {
    const { counting, tail, pages } = opened();
    pages.ensureAll(counting);
    pages.ensureAll(tail);
    expect(pages.residentPages).toEqual({ read: 65, total: 65 });
    expect([...tail]).toEqual([7, 8, 9]);
    pages.ensure(counting, 0, 65536);
    const other = opened();
    other.pages.close();
    expect(() => other.pages.ensure(other.counting, 0, 1)).toThrow(/after it was closed/);
  });

  it('reads the rest at once when an eighth of the pages were read one at a time', () => {
    const { counting, pages } = opened();
    for (let page = 0; page < 7; page++) pages.ensure(counting, page * 4096, page * 4096 + 1);
    expect(pages.residentPages.read).toBe(7);
    expect(pages.complete).toBe(false);
    pages.ensure(counting, 40000, 40001);
    expect(pages.residentPages.read).toBe(65);
    expect(pages.complete).toBe(true);
    expect(counting[65535]).toBe(65536);
  });

  it('reads the rest at once after a million guarded reads, however few pages they reached', () => {
    const { counting, pages } = opened();
    for (let read = 1; read < 1_000_000; read++) pages.ensure(counting, read % 1024, (read % 1024) + 1);
    expect(pages.residentPages.read).toBe(1);
    pages.ensure(counting, 5, 6);
    expect(pages.complete).toBe(true);
    expect(counting[65535]).toBe(65536);
  });

  it('lets a compiled ko-dic segment a sentence reading a small part of its pages, as the whole one does', () => {
    const text = new TextEncoder().encode('검색 엔진은 문장을 형태소 단위로 나누어 색인을 만든다');
    const starts = (lattice: Lattice) => {
      const out: number[] = [];
      lattice.segment(text, 0, text.length, out);
      return out;
    };
    const lazy = readDictionary('ko-dic');
    expect(starts(new Lattice(lazy))).toEqual(starts(new Lattice(readPackagedDictionary('ko-dic'))));
    // build/'s copy, opened page by page
    const { read, total } = lazy.pages.residentPages;
    expect(total).toBeGreaterThan(1000);
    expect(read / total).toBeLessThan(0.1);
    lazy.pages.close();
  });

  it("lets jieba's compiled words answer lookups reading a small part of their pages, as the whole ones do", () => {
    const { parts, pages } = openCompiledDictionary(compiledDictionaryPath(JIEBA_COMPILED), jiebaSource())!;
    const lazy = JiebaWords.fromParts(parts, pages);
    const whole = readPackagedJiebaWords();
    for (const word of ['搜索引擎', '中国', '我们', '不是词语的字串', '诞生']) expect(lazy.has(word)).toBe(whole.has(word));
    expect(pages.residentPages.read / pages.residentPages.total).toBeLessThan(0.1);
    lazy.close();
  });
});
