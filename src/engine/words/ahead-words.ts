/**
 * Words extracted ahead of the write (ahead-parts.ts) in a form one thread can hand another: a
 * part's documents' words as a few typed columns, filled straight from the extraction kernel's
 * (WordExtractor.extractAhead; their buffers are transferred, not copied), plus the extractor's
 * vocabulary as bytes and its field names, the same entries grouped per word, and the
 * documents' prefix entries grouped per prefix. The index writer takes whole words and prefixes
 * of a chunk of new documents at once (ahead-chunk.ts), or each document into its own batch
 * vocabulary and field ids (WordExtractor.takeAhead).
 */
import { groupByKey, type GroupedEntries } from './key-ops.js';
import { PrefixTable } from './prefix-table.js';
import { groupPrefixes } from '../../kernels/prefixes.js';
import type { VocabularyBytes } from './vocabulary.js';

/** What a part's documents contribute, as DocWords (doc-words.ts) would hold it, in columns. */
export interface AheadColumns {
  /** per document (count + 1 entries): where its distinct words start in words/masks/infos */
  readonly docStarts: Int32Array;
  readonly words: Int32Array;
  readonly masks: Uint32Array;
  readonly infos: Uint32Array;
  /** per document (count + 1 entries): where its (field, word count) pairs start in fieldPairs */
  readonly fieldStarts: Int32Array;
  readonly fieldPairs: Uint32Array;
  /** per document (count + 1 entries): where its token occurrences start */
  readonly tokenStarts: Int32Array;
  readonly tokenWords: Int32Array;
  readonly tokenPlaces: Uint32Array;
  /** per document (count + 1 entries): where its fields, in the order its leaves first name them, start in leafFields */
  readonly leafStarts: Int32Array;
  readonly leafFields: Int32Array;
}

export interface AheadWords extends AheadColumns {
  /** the extracting worker's field ids → field paths */
  readonly fields: readonly string[];
  /** the extracting worker's vocabulary: word id → bytes (normalised UTF-8) in vocabBytes */
  readonly vocabBytes: Uint8Array;
  readonly vocabStarts: Int32Array;
  readonly vocabLengths: Int32Array;
  /** the entries grouped per word, `docids` holding document indexes in the part */
  readonly wordEntries: GroupedEntries;
  /**
   * The documents' prefix entries (prefix-table.ts) grouped per prefix of `prefixKeys`, as the
   * write would aggregate them per document; null when the index stores no prefixes.
   */
  readonly prefixEntries: GroupedEntries | null;
  readonly prefixKeys: readonly string[];
}

/** One document of a part. */
export interface AheadDoc {
  readonly ahead: AheadWords;
  readonly index: number;
}

/** The entries of `columns` grouped per word of their vocabulary (`vocabularySize` words), documents ascending. */
function groupedByWord({ docStarts, words, masks, infos }: AheadColumns, vocabularySize: number): GroupedEntries {
  // each entry's document index in the part
  const docs = new Uint32Array(words.length);
  for (let doc = 0; doc + 1 < docStarts.length; doc++) docs.fill(doc, docStarts[doc]!, docStarts[doc + 1]!);
  return groupByKey(words, docs, masks, infos, words.length, vocabularySize);
}

/**
 * The prefix entries of a part's documents (their entries in `columns`, words as ids of
 * `vocabulary`) grouped per prefix: aggregated here, on the extraction worker's thread, by the
 * prefix-grouping kernel, rather than document by document on the writer's, where they were a
 * sixth of a bulk load's writing.
 */
function prefixColumns(columns: AheadColumns, vocabulary: VocabularyBytes): { prefixKeys: readonly string[]; prefixEntries: GroupedEntries } {
  const table = new PrefixTable(vocabulary);
  const { ids, counts } = table.wordPrefixes();
  const prefixEntries = groupPrefixes({ ...columns, wordPrefixes: ids, prefixCounts: counts, nPrefixes: table.size });
  return { prefixKeys: table.keys, prefixEntries };
}

/** A part to hand over: `columns` (extracted against `vocabulary` and `fields`), with their prefix entries when `withPrefixes`. */
export function aheadWords(columns: AheadColumns, vocabulary: VocabularyBytes, fields: readonly string[], withPrefixes: boolean): AheadWords {
  return {
    ...columns,
    fields: [...fields],
    vocabBytes: vocabulary.bytes.slice(),
    vocabStarts: vocabulary.starts.slice(),
    vocabLengths: vocabulary.lengths.slice(),
    wordEntries: groupedByWord(columns, vocabulary.starts.length),
    ...(withPrefixes ? prefixColumns(columns, vocabulary) : { prefixEntries: null, prefixKeys: [] }),
  };
}

/** The buffers of a part's words, to transfer rather than copy. */
export function aheadBuffers(ahead: AheadWords): ArrayBuffer[] {
  const { vocabBytes, vocabStarts, vocabLengths, docStarts, words, masks, infos, fieldStarts, fieldPairs, tokenStarts, tokenWords, tokenPlaces, leafStarts, leafFields } = ahead;
  const { wordEntries, prefixEntries } = ahead;
  const grouped = [wordEntries.starts, wordEntries.docids, wordEntries.masks, wordEntries.infos];
  if (prefixEntries !== null) grouped.push(prefixEntries.starts, prefixEntries.docids, prefixEntries.masks, prefixEntries.infos);
  return [vocabBytes, vocabStarts, vocabLengths, docStarts, words, masks, infos, fieldStarts, fieldPairs, tokenStarts, tokenWords, tokenPlaces, leafStarts, leafFields, ...grouped].map(
    (column) => column.buffer as ArrayBuffer,
  );
}
