/**
 * Words extracted ahead of the write (ahead-parts.ts) in a form one thread can hand another: a
 * part's documents' words as a few typed columns, filled straight from the extraction kernel's
 * (WordExtractor.extractAhead; their buffers are transferred, not copied), plus its words' and
 * prefixes' ids in its worker's lexicon with the ones new to it (lexicon.ts), its field names,
 * the same entries grouped per word, and the documents' prefix entries grouped per prefix. The
 * index writer takes whole words and prefixes of a chunk of new documents at once
 * (ahead-chunk.ts), or each document into its own batch vocabulary and field ids
 * (WordExtractor.takeAhead).
 */
import { groupByKey, type GroupedEntries } from './key-ops.js';
import { groupPrefixes } from '../../kernels/prefixes.js';
import type { LexiconAdditions, ReceivedLexicon, WorkerLexicon } from './lexicon.js';

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

/**
 * A part as handed over: its columns but the entries' masks and infos, which its word entries
 * hold too (grouped per word); a write that takes its documents one by one gets them back from
 * there (`docEntries`). Handing them over twice was an eighth of a movies load's parts.
 */
export interface AheadWords extends Omit<AheadColumns, 'masks' | 'infos'> {
  /** the extracting worker (its thread number), whose lexicon the ids below are of */
  readonly worker: number;
  /** the extracting worker's field ids → field paths */
  readonly fields: readonly string[];
  /** the part's word ids (those of `words`, `wordEntries`) → the worker's lexicon ids */
  readonly wordIds: Int32Array;
  /** the words and prefixes the worker's lexicon hands over first with this part */
  readonly added: LexiconAdditions;
  /** the entries grouped per word, `docids` holding document indexes in the part */
  readonly wordEntries: GroupedEntries;
  /**
   * The documents' prefix entries (prefix-table.ts) grouped per prefix of the part, as the
   * write would aggregate them per document; null when the index stores no prefixes.
   */
  readonly prefixEntries: GroupedEntries | null;
  /** the part's prefix ids (those of `prefixEntries`) → the worker's lexicon ids */
  readonly prefixIds: Int32Array;
}

/** One document of a part, with the lexicon its part's ids are of. */
export interface AheadDoc {
  readonly ahead: AheadWords;
  readonly index: number;
  readonly lexicon: ReceivedLexicon;
}

/** The entries of `columns` grouped per word of their part (`partWords` of them), documents ascending. */
function groupedByWord({ docStarts, words, masks, infos }: AheadColumns, partWords: number): GroupedEntries {
  // each entry's document index in the part
  const docs = new Uint32Array(words.length);
  for (let doc = 0; doc + 1 < docStarts.length; doc++) docs.fill(doc, docStarts[doc]!, docStarts[doc + 1]!);
  return groupByKey(words, docs, masks, infos, words.length, partWords);
}

/**
 * The prefix entries of a part's documents (their entries in `columns`, words as part ids of
 * `lexicon`'s current part) grouped per prefix: aggregated here, on the extraction worker's
 * thread, by the prefix-grouping kernel, rather than document by document on the writer's, where
 * they were a sixth of a bulk load's writing.
 */
function prefixColumns(columns: AheadColumns, lexicon: WorkerLexicon): { prefixIds: Int32Array; prefixEntries: GroupedEntries } {
  const { wordPrefixes, prefixCounts, nPrefixes, prefixIds } = lexicon.partPrefixes();
  const prefixEntries = groupPrefixes({ ...columns, wordPrefixes, prefixCounts, nPrefixes });
  return { prefixIds, prefixEntries };
}

const NO_IDS = new Int32Array(0);

/**
 * A part to hand over: `columns` (extracted against `fields`, words as part ids of `lexicon`'s
 * current part, worker `worker`'s), with their prefix entries when `withPrefixes`.
 */
export function aheadWords(columns: AheadColumns, fields: readonly string[], withPrefixes: boolean, lexicon: WorkerLexicon, worker: number): AheadWords {
  const wordIds = lexicon.partWordIds();
  const prefixes = withPrefixes ? prefixColumns(columns, lexicon) : { prefixEntries: null, prefixIds: NO_IDS };
  const { masks: _masks, infos: _infos, ...handed } = columns;
  return {
    ...handed,
    worker,
    fields: [...fields],
    wordIds,
    added: lexicon.additions(),
    wordEntries: groupedByWord(columns, wordIds.length),
    ...prefixes,
  };
}

/**
 * The masks and infos of a part's documents' entries, in the order of their words (as its
 * columns held them): each document takes the next entry of each of its words' groups, whose
 * documents ascend.
 */
export function docEntries({ docStarts, words, wordEntries }: AheadWords): { masks: Uint32Array; infos: Uint32Array } {
  const masks = new Uint32Array(words.length);
  const infos = new Uint32Array(words.length);
  const next = wordEntries.starts.slice(0, wordEntries.starts.length - 1);
  for (let doc = 0; doc + 1 < docStarts.length; doc++) {
    for (let at = docStarts[doc]!; at < docStarts[doc + 1]!; at++) {
      const entry = next[words[at]!]!++;
      masks[at] = wordEntries.masks[entry]!;
      infos[at] = wordEntries.infos[entry]!;
    }
  }
  return { masks, infos };
}

/** The buffers of a part's words, to transfer rather than copy. */
export function aheadBuffers(ahead: AheadWords): ArrayBuffer[] {
  const { docStarts, words, fieldStarts, fieldPairs, tokenStarts, tokenWords, tokenPlaces, leafStarts, leafFields, wordIds, prefixIds, added } = ahead;
  const { wordEntries, prefixEntries } = ahead;
  const grouped = [wordEntries.starts, wordEntries.docids, wordEntries.masks, wordEntries.infos];
  if (prefixEntries !== null) grouped.push(prefixEntries.starts, prefixEntries.docids, prefixEntries.masks, prefixEntries.infos, prefixIds);
  const lexicon = [wordIds, added.words.bytes, added.words.starts, added.words.lengths];
  return [docStarts, words, fieldStarts, fieldPairs, tokenStarts, tokenWords, tokenPlaces, leafStarts, leafFields, ...lexicon, ...grouped].map(
    (column) => column.buffer as ArrayBuffer,
  );
}
