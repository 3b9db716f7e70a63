/**
 * Word boundaries from charabia's German segmenter (feature german-segmentation, a default one),
 * which Meilisearch runs on Latin text detected as German to split compound words: a greedy
 * longest-prefix match against the word list of data/german-words.json (charabia's FST keys),
 * case-sensitive, on the text as written. That list predates a later change to charabia's German
 * dictionary (pull request 345, sports words), of which no copy was found; its own tests show it
 * added Volley, Beach and Basket and dropped Basketball, so such words are cut otherwise here.
 *
 * Input: one run of characters between separators, as charabia hands its segmenters the text
 * between separators. Output: the UTF-16 indexes strictly inside the run where a piece starts.
 * charabia hands no segmenter a run made only of numeric characters and ASCII punctuation
 * (segmenter/mod.rs maybe_number); that is the caller's to do, and changes nothing for 0.9.9's
 * segmenter, as no word holds such a character.
 *
 * `germanWordStarts` is charabia 0.9.9's segmenter (german.rs with FstSegmenter's
 * `BufferingStrategy::UntilNextMatch { max_char_count: None }`, prefix-segmenter.ts): characters
 * where no word starts are gathered into one piece ("fährt" → "fähr", "t"; "Feuchteschutz" →
 * "Feuchte", "schutz"). (Before 0.9.8 charabia cut one character where no word starts, then
 * stretched short pieces to 2 bytes; Meilisearch's releases with 0.9.9 no longer do.)
 *
 * The trie is built on the first call (most processes never see German text): 30 to 70 ms, and
 * about 1.5 MB of typed arrays for its 109,553 nodes.
 */
import { prefixWordStarts, wordTrie, type WordTrie } from './prefix-segmenter.js';
import { wordList } from './word-lists.js';

let trie: WordTrie | undefined;

/** The UTF-16 indexes in `piece` (increasing, strictly inside it) where charabia 0.9.9's German segmenter starts a piece. */
export function germanWordStarts(piece: string): number[] {
  return prefixWordStarts((trie ??= wordTrie(wordList('german'))), piece, Infinity);
}

/** Whether this thread has built the word trie (it does on the first call, never before). */
export function germanDictionaryLoaded(): boolean {
  return trie !== undefined;
}
