/**
 * The prefix entries of documents: each vocabulary word's 1–3 character prefixes as prefix ids,
 * and per document the union of its words' entries under each prefix (fields OR-ed, lowest
 * position), which is what `word-prefix-docids` stores per document.
 * Prefixes are cut from the words' UTF-8 bytes and interned as bytes (a ByteVocabulary of their
 * own): a prefix's key string is made once, not once per word holding it.
 */
import { grownInt32 } from '../grown.js';
import { ByteVocabulary, type VocabularyBytes } from './vocabulary.js';

/** Prefixes cached in `word-prefix-docids`, in characters. */
export const PREFIX_MAX_CHARS = 3;

/** A batch vocabulary's prefix ids, and the per-document aggregation of their entries. */
export class PrefixTable {
  private readonly prefixes = new ByteVocabulary();
  // per vocabulary word: its prefix ids (PREFIX_MAX_CHARS slots each) and how many, -1 until known
  private prefixIds: Int32Array;
  private prefixCounts: Int8Array;
  // per prefix id (at most PREFIX_MAX_CHARS per word): the document (serial) that last
  // aggregated it, and the aggregate; typed so that millions of updates allocate nothing, and
  // made at the first `aggregate` (a table handed to the grouping kernel needs none of them),
  // again after the table grew
  private seenBy = new Int32Array(0);
  masks = new Uint32Array(0);
  positions = new Uint32Array(0);
  // the prefix ids of the document last aggregated (a list emptied per document regrew from nothing)
  private current = new Int32Array(64);
  private serial = 0;

  /** `vocabulary`: the words' bytes, which must not change while the table is used (but see `grow`) */
  constructor(private vocabulary: VocabularyBytes) {
    this.prefixIds = new Int32Array(PREFIX_MAX_CHARS * vocabulary.starts.length);
    this.prefixCounts = new Int8Array(vocabulary.starts.length).fill(-1);
  }

  /** prefix id → prefix key (latin1 of its UTF-8 bytes, as word keys) */
  get keys(): readonly string[] {
    return this.prefixes.keys;
  }

  /**
   * Takes `vocabulary`, the table's own grown (the same words under the same ids, and more):
   * an extraction worker's lexicon (lexicon.ts), whose words keep their prefixes from part to part.
   */
  grow(vocabulary: VocabularyBytes): void {
    const words = vocabulary.starts.length;
    if (words > this.prefixCounts.length) {
      const counts = new Int8Array(Math.max(words, 2 * this.prefixCounts.length)).fill(-1);
      counts.set(this.prefixCounts);
      this.prefixCounts = counts;
      this.prefixIds = grownInt32(this.prefixIds, PREFIX_MAX_CHARS * counts.length);
    }
    this.vocabulary = vocabulary;
  }

  /** Prefix `k` (below `prefixCount(word)`) of vocabulary word `word`. */
  prefixId(word: number, k: number): number {
    return this.prefixIds[word * PREFIX_MAX_CHARS + k]!;
  }

  /** How many prefix ids there are. */
  get size(): number {
    return this.prefixes.size;
  }

  /** How many prefixes vocabulary word `word` has (`prefixId` gives them), worked out on first ask. */
  prefixCount(word: number): number {
    let count = this.prefixCounts[word]!;
    if (count < 0) {
      const { bytes } = this.vocabulary;
      const start = this.vocabulary.starts[word]!;
      const length = this.vocabulary.lengths[word]!;
      count = 0;
      for (let end = 1; end <= length && count < PREFIX_MAX_CHARS; end++) {
        // a character ends where the next byte is not a continuation byte
        if (end === length || (bytes[start + end]! & 0xc0) !== 0x80) {
          this.prefixIds[word * PREFIX_MAX_CHARS + count++] = this.prefixes.idOf(bytes, start, end);
        }
      }
      this.prefixCounts[word] = count;
    }
    return count;
  }

  /**
   * Aggregates a document's prefix entries: returns its prefix ids, whose `masks` and
   * `positions` (lowest) hold its aggregate; both valid until the next call.
   */
  aggregate(doc: { readonly words: ArrayLike<number>; readonly masks: ArrayLike<number>; readonly infos: ArrayLike<number> }): Int32Array {
    if (this.seenBy.length < this.prefixIds.length) {
      this.seenBy = new Int32Array(this.prefixIds.length);
      this.masks = new Uint32Array(this.prefixIds.length);
      this.positions = new Uint32Array(this.prefixIds.length);
    }
    const serial = ++this.serial;
    let count = 0;
    for (let slot = 0; slot < doc.words.length; slot++) {
      const mask = doc.masks[slot]!;
      const position = doc.infos[slot]! & 0xffff;
      const word = doc.words[slot]!;
      const end = word * PREFIX_MAX_CHARS + this.prefixCount(word);
      for (let at = word * PREFIX_MAX_CHARS; at < end; at++) {
        const id = this.prefixIds[at]!;
        if (this.seenBy[id] !== serial) {
          this.seenBy[id] = serial;
          this.masks[id] = mask;
          this.positions[id] = position;
          if (count === this.current.length) this.current = grownInt32(this.current, 2 * count);
          this.current[count++] = id;
        } else {
          this.masks[id] = this.masks[id]! | mask;
          if (position < this.positions[id]!) this.positions[id] = position;
        }
      }
    }
    return this.current.subarray(0, count);
  }
}
