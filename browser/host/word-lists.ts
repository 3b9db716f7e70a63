/**
 * The browser's src/kernels/word-lists.ts: the German, Thai and Khmer word lists (5 MB of JSON)
 * are left out of the browser build. Thai and Khmer text then falls into one-character pieces,
 * which only the formatting of a hit's text meets (a query holding such text is refused before it
 * is parsed: browser/index.ts); German compounds are cut only where locales say the text is
 * German, a choice of the index or the query, so that is refused with this error.
 */
import type { WordListName } from '../../src/kernels/word-lists.js';

export type { WordListName };

export function wordList(name: WordListName): readonly string[] {
  if (name === 'german') throw new Error('the browser build has no German word list: text that locales make German is searched by the server only');
  return [];
}
