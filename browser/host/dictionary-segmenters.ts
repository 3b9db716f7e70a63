/**
 * The browser's src/kernels/dictionary-segmenters.ts: jieba's and lindera's dictionaries (about
 * 60 MB of JavaScript and WebAssembly) are left out of the browser build, so a run of Chinese,
 * Japanese or Korean text in a query is refused with this error rather than cut differently
 * from the server's.
 */
export type DictionaryLanguage = 'cmn' | 'jpn' | 'kor';

export function dictionaryWordStarts(_text: string, language: DictionaryLanguage): number[] {
  throw new Error(`the browser build has no ${language} dictionary segmenter: Chinese, Japanese and Korean text is searched by the server only`);
}
