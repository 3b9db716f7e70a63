/**
 * The record word extraction (extract.ts) makes of a document, extracted in the write or taken
 * from a part extracted ahead (WordExtractor.takeAhead), for the word-index updater.
 */

/**
 * What one document contributes to the index, with its words as ids of the extractor's batch
 * vocabulary. Parallel number arrays rather than small objects or per-document maps: a batch
 * holds millions of entries, and per-entry allocations dominated indexing time.
 */
export interface DocWords {
  readonly docid: number;
  /** distinct words (vocabulary ids), in order of first occurrence */
  readonly words: number[];
  /** field mask per distinct word */
  readonly masks: number[];
  /** lowest position (| INFO_WHOLE_FIELD) per distinct word */
  readonly infos: number[];
  /** search field → indexed word count */
  readonly fieldWords: Map<number, number>;
  /** per occurrence: index of its word in `words` (a view of the extraction's token column) */
  tokenWords: Int32Array;
  /** per occurrence: field << 16 | position (a view, as tokenWords) */
  tokenPlaces: Uint32Array;
}
