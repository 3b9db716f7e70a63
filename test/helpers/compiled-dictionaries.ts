// A compiled dictionary file read whole (every page of every array), for tests that compare it.
import { openCompiledDictionary, type DictionaryParts } from '../../src/kernels/dictionaries/compiled.js';

/** The parts of `file` if it is a dictionary compiled from `source`, every array read in; else undefined. */
export function readWhole(file: string | undefined, source: string): DictionaryParts | undefined {
  const opened = openCompiledDictionary(file, source);
  if (opened === undefined) return undefined;
  for (const array of Object.values(opened.parts.arrays)) opened.pages.ensureAll(array);
  return opened.parts;
}
