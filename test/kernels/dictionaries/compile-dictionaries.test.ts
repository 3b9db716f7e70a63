// The build's compiled dictionaries (src/kernels/dictionaries/compile-dictionaries.ts): each holds
// exactly what reading its package gives, segments as the package's dictionary does, and the
// build (npm run build, which this suite runs after) left a current copy of each in build/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { compileDictionaries } from '../../../src/kernels/dictionaries/compile-dictionaries.js';
import { compiledDictionaryPath, openCompiledDictionary, type DictionaryParts } from '../../../src/kernels/dictionaries/compiled.js';
import { readWhole } from '../../helpers/compiled-dictionaries.js';
import { JIEBA_COMPILED, jiebaSource, readPackagedJiebaWords } from '../../../src/kernels/dictionaries/jieba.js';
import { JiebaWords } from '../../../src/kernels/dictionaries/jieba-words.js';
import { linderaSource, readDictionary, readPackagedDictionary, toParts } from '../../../src/kernels/dictionaries/lindera-dictionary.js';
import { Lattice } from '../../../src/kernels/dictionaries/lindera-lattice.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-dictionaries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `parts` with each array as its type, length and bytes in hex: compared deeply, a difference names its array. */
const plain = (parts: DictionaryParts) => ({
  values: parts.values,
  arrays: Object.fromEntries(
    Object.entries(parts.arrays).map(([key, array]) => [key, `${array.constructor.name} ${array.length} ${Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('hex')}`]),
  ),
});

describe('compileDictionaries', () => {
  const files = compileDictionaries(dir);

  it('writes jieba, IPADIC and ko-dic', () => {
    expect(files.map((file) => file.slice(dir.length + 1))).toEqual(['jieba.bin', 'ipadic.bin', 'ko-dic.bin']);
  });

  it("compiles jieba's words as read from jieba-wasm, and reads them back whole", () => {
    const packaged = plain(readPackagedJiebaWords().toParts());
    expect(plain(readWhole(join(dir, 'jieba.bin'), jiebaSource())!)).toEqual(packaged);
    const opened = openCompiledDictionary(join(dir, 'jieba.bin'), jiebaSource())!;
    expect(plain(JiebaWords.fromParts(opened.parts, opened.pages).toParts())).toEqual(packaged);
  });

  it.each(['ipadic', 'ko-dic'] as const)('compiles %s as read from lindera-wasm, read back whole, and it segments the same', (name) => {
    const compiled = readWhole(join(dir, `${name}.bin`), linderaSource());
    const packaged = readPackagedDictionary(name);
    expect(plain(compiled!)).toEqual(plain(toParts(packaged)));
    // readDictionary reads build/'s copy, compiled from the same package.
    expect(plain(toParts(readDictionary(name)))).toEqual(plain(toParts(packaged)));
    const text = new TextEncoder().encode(name === 'ipadic' ? '検索エンジンは文章を単語に分割してから索引を作る' : '검색 엔진은 문장을 형태소 단위로 나누어 색인을 만든다');
    const starts = (lattice: Lattice) => {
      const out: number[] = [];
      lattice.segment(text, 0, text.length, out);
      return out;
    };
    expect(starts(new Lattice(readDictionary(name)))).toEqual(starts(new Lattice(packaged)));
  });

  it.each([
    [JIEBA_COMPILED, jiebaSource],
    ['ipadic', linderaSource],
    ['ko-dic', linderaSource],
  ])('left a current %s in build/dictionaries', (name, source) => {
    expect(readWhole(compiledDictionaryPath(name), source())).toBeDefined();
  });
});
