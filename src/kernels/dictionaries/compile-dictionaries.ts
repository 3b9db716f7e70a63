/**
 * The build step that compiles the dictionaries (`npm run build:dictionaries`, part of `npm run
 * build`): jieba's, IPADIC and ko-dic read from their packages once, as segmentation holds them,
 * and written to build/dictionaries/ (compiled.ts), which the segmenters then read in a few
 * milliseconds instead of inflating and parsing their packages' files at each first use.
 */
import { join } from 'node:path';
import { findBuildDirectory } from '../build-directory.js';
import { writeCompiledDictionary, type DictionaryParts } from './compiled.js';
import { JIEBA_COMPILED, jiebaSource, readPackagedJiebaWords } from './jieba.js';
import { linderaSource, readPackagedDictionary, toParts, type DictionaryName } from './lindera-dictionary.js';

const LINDERA_COMPILED: readonly DictionaryName[] = ['ipadic', 'ko-dic'];

/** Compiles every dictionary into `directory` (by default build/dictionaries/); the files written. */
export function compileDictionaries(directory = defaultDirectory()): string[] {
  const written: string[] = [];
  const write = (name: string, source: string, parts: DictionaryParts) => {
    const file = join(directory, `${name}.bin`);
    writeCompiledDictionary(file, source, parts);
    written.push(file);
  };
  write(JIEBA_COMPILED, jiebaSource(), readPackagedJiebaWords().toParts());
  for (const name of LINDERA_COMPILED) write(name, linderaSource(), toParts(readPackagedDictionary(name)));
  return written;
}

function defaultDirectory(): string {
  const build = findBuildDirectory();
  if (build === undefined) throw new Error('no build/ directory above this file: run `npm run build:wasm` first');
  return join(build, 'dictionaries');
}
