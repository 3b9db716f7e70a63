/**
 * The browser's src/kernels/dictionary-segmenters.ts: jieba's and lindera's dictionaries (about
 * 60 MB of JavaScript and WebAssembly) are left out of the browser build. A run of Chinese,
 * Japanese or Korean text is left whole here, which only the formatting of a hit's text meets
 * (its highlights and crop window may differ from the server's inside such text): a query
 * holding such text is refused before it is parsed (browser/index.ts), as its words would not be
 * the index's.
 */
export type DictionaryLanguage = 'cmn' | 'jpn' | 'kor';

export function dictionaryWordStarts(_text: string, _language: DictionaryLanguage): number[] {
  return [];
}
