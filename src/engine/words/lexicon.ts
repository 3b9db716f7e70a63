/**
 * The words and prefixes an extraction worker has handed over in one write: its lexicon. A part
 * (ahead-words.ts) names its words and prefixes by their ids in its worker's lexicon, and
 * carries only the ones its worker hands over first, so the write receives and interns each
 * word once per worker rather than once per part (a movies load handed over 348,000 part words
 * and 129,000 prefix strings for 55,000 words and 5,100 prefixes).
 * The worker keeps a WorkerLexicon for the write; the writer one ReceivedLexicon per worker,
 * fed each part's additions in the order the worker posted them.
 */
import { grownInt32 } from '../grown.js';
import { ByteVocabulary, type VocabularyBytes } from './vocabulary.js';

/** What a part adds to its worker's lexicon. */
export interface LexiconAdditions {
  /** the id its first word gets: how many words the worker handed over before */
  readonly firstWord: number;
  /** the words new with the part, as bytes (`starts` into `bytes`) */
  readonly words: VocabularyBytes;
  /** the id its first prefix gets */
  readonly firstPrefix: number;
  /** the prefix keys new with the part (latin1 of their UTF-8 bytes, as word keys) */
  readonly prefixes: readonly string[];
}

/** The extraction worker's side: gives words and prefixes ids, and hands over the new ones. */
export class WorkerLexicon {
  private readonly words = new ByteVocabulary();
  private readonly prefixes = new ByteVocabulary();
  private handedWords = 0;
  private handedPrefixes = 0;

  /** The lexicon ids of `vocabulary`'s words, new ones added. */
  wordIds(vocabulary: VocabularyBytes): Int32Array {
    return idsIn(this.words, vocabulary);
  }

  /** The lexicon ids of `prefixes` (a part's prefixes as bytes), new ones added. */
  prefixIds(prefixes: VocabularyBytes): Int32Array {
    return idsIn(this.prefixes, prefixes);
  }

  /** The words and prefixes added since the last call, which the next part hands over. */
  additions(): LexiconAdditions {
    const { bytes, starts, lengths } = this.words.export();
    const firstWord = this.handedWords;
    const from = firstWord < starts.length ? starts[firstWord]! : bytes.length;
    const words = { bytes: bytes.slice(from), starts: starts.slice(firstWord).map((start) => start - from), lengths: lengths.slice(firstWord) };
    const firstPrefix = this.handedPrefixes;
    const prefixes = this.prefixes.keys.slice(firstPrefix);
    this.handedWords = starts.length;
    this.handedPrefixes += prefixes.length;
    return { firstWord, words, firstPrefix, prefixes };
  }
}

function idsIn(lexicon: ByteVocabulary, { bytes, starts, lengths }: VocabularyBytes): Int32Array {
  const ids = new Int32Array(starts.length);
  for (let id = 0; id < ids.length; id++) ids[id] = lexicon.idOf(bytes, starts[id]!, lengths[id]!);
  return ids;
}

/** The writer's side: one worker's lexicon, as its parts' additions arrive. */
export class ReceivedLexicon {
  /** word id → bytes[starts[id], starts[id] + lengths[id]); the arrays are replaced as they grow */
  bytes = new Uint8Array(1 << 14);
  starts = new Int32Array(1 << 10);
  lengths = new Int32Array(1 << 10);
  /** how many words it holds */
  size = 0;
  /** prefix id → prefix key */
  readonly prefixes: string[] = [];
  private used = 0;

  /**
   * Takes a part's additions, which must follow the ones taken before; answers false, taking
   * nothing, when they do not (a part of the worker's never came).
   */
  receive({ firstWord, words, firstPrefix, prefixes }: LexiconAdditions): boolean {
    if (firstWord !== this.size || firstPrefix !== this.prefixes.length) return false;
    const count = words.starts.length;
    if (this.size + count > this.starts.length) {
      const length = Math.max(2 * this.starts.length, this.size + count);
      this.starts = grownInt32(this.starts, length);
      this.lengths = grownInt32(this.lengths, length);
    }
    if (this.used + words.bytes.length > this.bytes.length) {
      const bytes = new Uint8Array(Math.max(2 * this.bytes.length, this.used + words.bytes.length));
      bytes.set(this.bytes.subarray(0, this.used));
      this.bytes = bytes;
    }
    this.bytes.set(words.bytes, this.used);
    for (let i = 0; i < count; i++) this.starts[this.size + i] = this.used + words.starts[i]!;
    this.lengths.set(words.lengths, this.size);
    this.size += count;
    this.used += words.bytes.length;
    for (const prefix of prefixes) this.prefixes.push(prefix);
    return true;
  }
}
