/**
 * The browser's src/kernels/word-lists.ts: the German, Thai and Khmer word lists (5 MB of JSON)
 * are left out of the browser build, so German compounds (when locales say German), Thai and
 * Khmer text are refused with this error rather than cut differently from the server's.
 */
import type { WordListName } from '../../src/kernels/word-lists.js';

export type { WordListName };

export function wordList(name: WordListName): readonly string[] {
  throw new Error(`the browser build has no ${name} word list: that text is searched by the server only`);
}
