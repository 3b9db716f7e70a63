/**
 * The words and prefixes an extraction worker has handed over in one write: its lexicon. A part
 * (ahead-words.ts) names its words and prefixes by their ids in its worker's lexicon, and
 * carries only the ones its worker hands over first, so the write receives and interns each
 * word once per worker rather than once per part (a movies load handed over 348,000 part words
 * and 129,000 prefix strings for 55,000 words and 5,100 prefixes), and the worker cuts each
 * word's prefixes once.
 * The worker keeps a WorkerLexicon for the write; the writer one ReceivedLexicon per worker,
 * fed each part's additions in the order the worker posted them. A lexicon past MAX_WORDS words
 * starts over, its next part handing over its words from id 0 again, so that a batch's memory
 * stays bounded however many distinct words its payloads hold.
 */
import { grownInt32, grownUint8 } from '../grown.js';
import { PREFIX_MAX_CHARS, PrefixTable } from './prefix-table.js';
import { ByteVocabulary, type VocabularyBytes } from './vocabulary.js';

/** Words a worker's lexicon holds before it starts over (~10-20 MB of words and ids on each side). */
const MAX_WORDS = 1 << 20;

/** What a part adds to its worker's lexicon; from ids 0 and 0, to a lexicon started over. */
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

/**
 * Dense ids for the lexicon ids one part meets (its words, or its prefixes), in the order it
 * meets them: marks per lexicon id of the part (serial) that last met it, so a part costs
 * nothing to start however large the lexicon.
 */
class PartIds {
  private seen = new Int32Array(1 << 10);
  private idIn = new Int32Array(1 << 10);
  private serial = 0;
  // part id → lexicon id
  private met = new Int32Array(1 << 10);
  private size = 0;

  /** Starts a part: ids from 0 again (earlier parts' marks, of whatever lexicon, are below the new serial). */
  start(): void {
    this.serial++;
    this.size = 0;
  }

  /** The part's id of lexicon id `key`, the next one when the part meets it first. */
  idOf(key: number): number {
    if (key >= this.seen.length) {
      const length = Math.max(key + 1, 2 * this.seen.length);
      this.seen = grownInt32(this.seen, length);
      this.idIn = grownInt32(this.idIn, length);
    }
    if (this.seen[key] === this.serial) return this.idIn[key]!;
    const id = this.size++;
    if (id === this.met.length) this.met = grownInt32(this.met, 2 * id);
    this.met[id] = key;
    this.seen[key] = this.serial;
    this.idIn[key] = id;
    return id;
  }

  /** The part's ids so far: part id → lexicon id. */
  keys(): Int32Array {
    return this.met.slice(0, this.size);
  }
}

/**
 * The extraction worker's side. Its extractors intern words into `vocabulary` (the lexicon's
 * ids), once per word of a kernel call as any extractor does, and each word's prefixes are cut
 * once for the write, not once per part holding the word. A part numbers its own words and
 * prefixes densely as it meets them (what its grouped entries are keyed by), with their lexicon
 * ids beside.
 */
export class WorkerLexicon {
  private words = new ByteVocabulary();
  private prefixes = new PrefixTable(this.words.export());
  private handedWords = 0;
  private handedPrefixes = 0;
  private readonly partWords = new PartIds();
  private readonly partPrefixIds = new PartIds();

  constructor(private readonly maxWords = MAX_WORDS) {}

  /** The vocabulary the current part's extractor interns into. */
  get vocabulary(): ByteVocabulary {
    return this.words;
  }

  /**
   * Starts a part, its words numbered from 0 again; answers the vocabulary its extractor
   * interns into, a fresh one when the lexicon held `maxWords` words.
   */
  nextPart(): ByteVocabulary {
    if (this.words.size >= this.maxWords) {
      this.words = new ByteVocabulary();
      this.prefixes = new PrefixTable(this.words.export());
      this.handedWords = 0;
      this.handedPrefixes = 0;
    }
    this.partWords.start();
    return this.words;
  }

  /** The current part's id of lexicon word `word`, the next one when the part meets it first. */
  partWord(word: number): number {
    return this.partWords.idOf(word);
  }

  /** The current part's words: part id → lexicon id. */
  partWordIds(): Int32Array {
    return this.partWords.keys();
  }

  /**
   * The current part's words' prefixes under part prefix ids (PREFIX_MAX_CHARS slots per part
   * word, `prefixCounts` of them used), as the prefix-grouping kernel takes them, and the
   * lexicon ids of the part's `nPrefixes` prefixes.
   */
  partPrefixes(): { wordPrefixes: Int32Array; prefixCounts: Int8Array; nPrefixes: number; prefixIds: Int32Array } {
    const table = this.prefixes;
    table.grow(this.words.export());
    const words = this.partWords.keys();
    const wordPrefixes = new Int32Array(PREFIX_MAX_CHARS * words.length);
    const prefixCounts = new Int8Array(words.length);
    const prefixes = this.partPrefixIds;
    prefixes.start();
    words.forEach((word, w) => {
      const count = table.prefixCount(word);
      prefixCounts[w] = count;
      for (let k = 0; k < count; k++) wordPrefixes[PREFIX_MAX_CHARS * w + k] = prefixes.idOf(table.prefixId(word, k));
    });
    const prefixIds = prefixes.keys();
    return { wordPrefixes, prefixCounts, nPrefixes: prefixIds.length, prefixIds };
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
    if (this.used + words.bytes.length > this.bytes.length) this.bytes = grownUint8(this.bytes, Math.max(2 * this.bytes.length, this.used + words.bytes.length));
    this.bytes.set(words.bytes, this.used);
    for (let i = 0; i < count; i++) this.starts[this.size + i] = this.used + words.starts[i]!;
    this.lengths.set(words.lengths, this.size);
    this.size += count;
    this.used += words.bytes.length;
    for (const prefix of prefixes) this.prefixes.push(prefix);
    return true;
  }
}
