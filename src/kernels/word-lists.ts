/**
 * The word lists of charabia's FST segmenters (German compounds, Thai, Khmer), kept as JSON data
 * beside this module (data/<name>-words.json: `notice`, their source and licence; `words`,
 * in the source file's order) and read on first use through `require`, which parses each once
 * per thread: most threads never meet such text, and holding them as module source cost every
 * thread that imports the tokenizer about 70 ms and 15 MiB at start.
 */
import { createRequire } from 'node:module';

export type WordListName = 'german' | 'thai' | 'khmer';

const require = createRequire(import.meta.url);

/** The words of list `name`, in the order of the file they come from. */
export function wordList(name: WordListName): readonly string[] {
  return (require(`./data/${name}-words.json`) as { words: string[] }).words;
}
