/**
 * Words extracted ahead of the write (ahead-parts.ts) in a form one thread can hand another: the
 * DocWords of a part's documents as a few typed columns (whose buffers are transferred, not
 * copied) plus the extractor's vocabulary as bytes and its field names, the same entries
 * grouped per word, and the documents' prefix entries grouped per prefix. The index writer takes
 * whole words and prefixes of a chunk of new documents at once (ahead-chunk.ts), or each document
 * into its own batch vocabulary and field ids (WordExtractor.takeAhead).
 */
import type { DocWords } from './doc-words.js';
import { KeyOps, type GroupedEntries } from './key-ops.js';
import { PrefixTable } from './prefix-table.js';
import { groupPrefixes } from '../../kernels/prefixes.js';
import type { VocabularyBytes } from './vocabulary.js';

export interface AheadWords {
  /** the extracting worker's field ids → field paths */
  readonly fields: readonly string[];
  /** the extracting worker's vocabulary: word id → bytes (normalised UTF-8) in vocabBytes */
  readonly vocabBytes: Uint8Array;
  readonly vocabStarts: Int32Array;
  readonly vocabLengths: Int32Array;
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
  /** per document (count + 1 entries): where its fields, in their order (DocWords.leafFields), start in leafFields */
  readonly leafStarts: Int32Array;
  readonly leafFields: Int32Array;
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

// kept from one part to the next: only the grouped copy is handed over
const scratch = new KeyOps();

/** The entries of `docs` grouped per word of their vocabulary (`vocabularySize` words). */
function invert(docs: readonly DocWords[], vocabularySize: number): GroupedEntries {
  scratch.clear();
  docs.forEach((doc, index) => scratch.upsertAll(index, doc.words, doc.masks, doc.infos));
  return scratch.grouped(vocabularySize);
}

/**
 * The prefix entries of a part's documents (their entries in `columns`, words as ids of
 * `vocabulary`) grouped per prefix: aggregated here, on the extraction worker's thread, by the
 * prefix-grouping kernel, rather than document by document on the writer's, where they were a
 * sixth of a bulk load's writing.
 */
function prefixColumns(columns: { docStarts: Int32Array; words: Int32Array; masks: Uint32Array; infos: Uint32Array }, vocabulary: VocabularyBytes): { prefixKeys: readonly string[]; prefixEntries: GroupedEntries } {
  const table = new PrefixTable(vocabulary);
  const { ids, counts } = table.wordPrefixes();
  const prefixEntries = groupPrefixes({ ...columns, wordPrefixes: ids, prefixCounts: counts, nPrefixes: table.size });
  return { prefixKeys: table.keys, prefixEntries };
}

/** Packs `docs` (extracted against `vocabulary` and `fields`) into columns, with their prefix entries when `withPrefixes`. */
export function aheadColumns(docs: readonly DocWords[], vocabulary: VocabularyBytes, fields: readonly string[], withPrefixes: boolean): AheadWords {
  const docStarts = new Int32Array(docs.length + 1);
  const fieldStarts = new Int32Array(docs.length + 1);
  const tokenStarts = new Int32Array(docs.length + 1);
  const leafStarts = new Int32Array(docs.length + 1);
  docs.forEach((doc, i) => {
    docStarts[i + 1] = docStarts[i]! + doc.words.length;
    fieldStarts[i + 1] = fieldStarts[i]! + 2 * doc.fieldWords.size;
    tokenStarts[i + 1] = tokenStarts[i]! + doc.tokenWords.length;
    leafStarts[i + 1] = leafStarts[i]! + (doc.leafFields?.length ?? 0);
  });
  const words = new Int32Array(docStarts[docs.length]!);
  const masks = new Uint32Array(words.length);
  const infos = new Uint32Array(words.length);
  const fieldPairs = new Uint32Array(fieldStarts[docs.length]!);
  const tokenWords = new Int32Array(tokenStarts[docs.length]!);
  const tokenPlaces = new Uint32Array(tokenWords.length);
  const leafFields = new Int32Array(leafStarts[docs.length]!);
  docs.forEach((doc, i) => {
    leafFields.set(doc.leafFields ?? [], leafStarts[i]!);
    words.set(doc.words, docStarts[i]!);
    masks.set(doc.masks, docStarts[i]!);
    infos.set(doc.infos, docStarts[i]!);
    let at = fieldStarts[i]!;
    for (const [field, count] of doc.fieldWords) {
      fieldPairs[at++] = field;
      fieldPairs[at++] = count;
    }
    tokenWords.set(doc.tokenWords, tokenStarts[i]!);
    tokenPlaces.set(doc.tokenPlaces, tokenStarts[i]!);
  });
  return {
    fields: [...fields],
    vocabBytes: vocabulary.bytes.slice(),
    vocabStarts: vocabulary.starts.slice(),
    vocabLengths: vocabulary.lengths.slice(),
    docStarts,
    words,
    masks,
    infos,
    fieldStarts,
    fieldPairs,
    tokenStarts,
    tokenWords,
    tokenPlaces,
    leafStarts,
    leafFields,
    wordEntries: invert(docs, vocabulary.starts.length),
    ...(withPrefixes ? prefixColumns({ docStarts, words, masks, infos }, vocabulary) : { prefixEntries: null, prefixKeys: [] }),
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
