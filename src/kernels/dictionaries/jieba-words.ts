/**
 * jieba's dictionary as a compact lookup: what jieba-rs keeps in a cedar trie and a record per word
 * (jieba-wasm's first use costs about 70 MiB of RSS), here 4.4 MB of typed arrays for its 349,045
 * words. dict.txt lists its words in order (code point order, which for its words, all in the BMP,
 * is UTF-16 order), so they are stored as they come, one after another in one UTF-16 buffer, and
 * the words a text starts with are found by narrowing the range of words sharing a prefix one unit
 * at a time (binary search, from a table of the range per first unit). The loader checks the order
 * and throws if it fails.
 *
 * Each word keeps what jieba's route needs of its frequency: ln(freq) - ln(total), computed once
 * per distinct frequency with jieba-rs's own logarithm (jieba-log.ts), where `total` is the sum of
 * the words' frequencies as jieba-rs computes it (a wasm32 `usize`, so modulo 2^32). A word listed
 * twice is one word with its last frequency, as jieba-rs's `load_dict` keeps it.
 */
import type { DictionaryEntries } from './jieba-dict-text.js';
import { ResizableArrayBuffer } from '../resizable-buffer.js';
import { partArray, partNumber, type DictionaryParts } from './compiled.js';
import { DictionaryPages } from './dictionary-pages.js';
import { jiebaLn } from './jieba-log.js';

export class JiebaWords {
  private constructor(
    /** The words' UTF-16 units, one word after another, in order. */
    private readonly units: Uint16Array,
    /** Where word i starts in `units`; entry `count` is `units.length`. */
    private readonly starts: Uint32Array,
    /** Per word, the index of its weight in `weights`. */
    private readonly weightIndexes: Uint16Array | Uint32Array,
    /** ln(freq) - ln(total) per distinct frequency. */
    private readonly weights: Float64Array,
    /** Per UTF-16 unit u, the first word whose first unit is u or more (entry 0x10000: the count). */
    private readonly byFirstUnit: Uint32Array,
    /** ln(1) - ln(total): the weight jieba gives a character that starts no word. */
    readonly unknownWeight: number,
    /** The longest word's length in UTF-16 units: at most this many words start at one place. */
    readonly longest: number,
    /** Reads in `units`, `starts`, `weightIndexes` and `byFirstUnit` as lookups reach them. */
    private readonly pages: DictionaryPages = DictionaryPages.resident(),
  ) {}

  /** Reads dict.txt from `entries`. Throws if a line is not an entry or the words are out of order. */
  static read(entries: DictionaryEntries): JiebaWords {
    // Built in arrays that grow in place, then copied out at their length (which frees them).
    const units = new GrowingArray(Uint16Array);
    const starts = new GrowingArray(Uint32Array);
    const frequencyIndexes = new GrowingArray(Uint32Array);
    const unitArray = units.array;
    const startArray = starts.array;
    const indexArray = frequencyIndexes.array;
    const frequencyIndex = new Map<number, number>();
    const byFirstUnit = new Uint32Array(0x10001);
    let previous = new Uint16Array(64);
    let previousLength = 0;
    let count = 0;
    let end = 0;
    let longest = 0;
    while (entries.next()) {
      const { word, length, frequency } = entries;
      let index = frequencyIndex.get(frequency);
      if (index === undefined) frequencyIndex.set(frequency, (index = frequencyIndex.size));
      const order = count === 0 ? -1 : compareUnits(previous, previousLength, word, length);
      if (order > 0) throw new Error(`jieba dictionary line ${entries.line}: "${String.fromCharCode(...word.subarray(0, length))}" is out of order (the lookup needs dict.txt's sorted words)`);
      if (order < 0) {
        // Words whose first unit lies in (the previous word's first unit, this one's] start here or later.
        for (let unit = count === 0 ? 0 : previous[0]! + 1; unit <= word[0]!; unit++) byFirstUnit[unit] = count;
        if (count + 2 > startArray.length) starts.reserve(count + 2);
        if (count + 1 > indexArray.length) frequencyIndexes.reserve(count + 1);
        if (end + length > unitArray.length) units.reserve(end + length);
        startArray[count++] = end;
        if (length > previous.length) previous = new Uint16Array(word.length);
        for (let i = 0; i < length; i++) unitArray[end++] = previous[i] = word[i]!;
        previousLength = length;
        longest = Math.max(longest, length);
      }
      // A word listed again is one word with its last frequency.
      indexArray[count - 1] = index;
    }
    if (count === 0) throw new Error('jieba dictionary: no entries');
    startArray[count] = end;
    byFirstUnit.fill(count, previous[0]! + 1);

    const frequencies = new Float64Array(frequencyIndex.size);
    for (const [frequency, index] of frequencyIndex) frequencies[index] = frequency;
    let total = 0;
    for (let word = 0; word < count; word++) total = (total + frequencies[indexArray[word]!]!) % 2 ** 32;
    const lnTotal = jiebaLn(total);
    const weights = frequencies.map((frequency) => jiebaLn(frequency) - lnTotal);
    const weightIndexes = frequencyIndex.size <= 0x10000 ? new Uint16Array(indexArray.subarray(0, count)) : indexArray.slice(0, count);
    frequencyIndexes.release();
    return new JiebaWords(units.take(end), starts.take(count + 1), weightIndexes, weights, byFirstUnit, jiebaLn(1) - lnTotal, longest);
  }

  /** The lookup's arrays and numbers, for a compiled dictionary file (compiled.ts). */
  toParts(): DictionaryParts {
    const { units, starts, weightIndexes, weights, byFirstUnit, unknownWeight, longest } = this;
    for (const array of [units, starts, weightIndexes, byFirstUnit]) this.pages.ensureAll(array);
    return { arrays: { units, starts, weightIndexes, weights, byFirstUnit }, values: { unknownWeight, longest } };
  }

  /** The lookup `toParts` gave, its arrays read in by `pages` (the weights at once). */
  static fromParts(parts: DictionaryParts, pages: DictionaryPages): JiebaWords {
    const indexes = parts.arrays.weightIndexes;
    if (!(indexes instanceof Uint16Array || indexes instanceof Uint32Array)) throw new Error('compiled jieba dictionary: no weight indexes');
    const weights = partArray(parts, 'weights', Float64Array);
    pages.ensureAll(weights);
    return new JiebaWords(
      partArray(parts, 'units', Uint16Array),
      partArray(parts, 'starts', Uint32Array),
      indexes,
      weights,
      partArray(parts, 'byFirstUnit', Uint32Array),
      partNumber(parts, 'unknownWeight'),
      partNumber(parts, 'longest'),
      pages,
    );
  }

  /** Closes the compiled file the lookup reads in from, if any: it is not to be used after. */
  close(): void {
    this.pages.close();
  }

  /** Whether `word` is a dictionary word (jieba-rs's `has_word`; a lone surrogate reads as U+FFFD). */
  has(word: string): boolean {
    if (word.length === 0) return false;
    const first = unitAt(word, 0);
    const paged = !this.pages.complete;
    this.pages.ensure(this.byFirstUnit, first, first + 2);
    let low = this.byFirstUnit[first]!;
    let high = this.byFirstUnit[first + 1]!;
    for (let depth = 1; depth < word.length && low < high; depth++) {
      // Words [low, high) all start with word[0, depth); the one that is no longer comes first.
      if (this.lengthOf(low, paged) === depth) low++;
      const unit = unitAt(word, depth);
      low = this.lowerBound(low, high, depth, unit, paged);
      high = this.lowerBound(low, high, depth, unit + 1, paged);
    }
    return low < high && this.lengthOf(low, paged) === word.length;
  }

  /**
   * The dictionary words `text` has from `from` on, ending at `to` at the latest: their ends
   * (UTF-16 indexes, increasing) in `ends` and their weights in `weights` (each of at least
   * `longest` entries); the count. A lone surrogate reads as U+FFFD.
   */
  prefixes(text: string, from: number, to: number, ends: Int32Array, weights: Float64Array): number {
    let found = 0;
    const first = unitAt(text, from);
    const paged = !this.pages.complete;
    this.pages.ensure(this.byFirstUnit, first, first + 2);
    let low = this.byFirstUnit[first]!;
    let high = this.byFirstUnit[first + 1]!;
    for (let depth = 1; low < high; depth++) {
      // Words [low, high) all start with text[from, from + depth); the one that is no longer comes first.
      if (this.lengthOf(low, paged) === depth) {
        if (paged) this.pages.ensure(this.weightIndexes, low, low + 1);
        ends[found] = from + depth;
        weights[found++] = this.weights[this.weightIndexes[low]!]!;
        low++;
      }
      if (from + depth >= to) break;
      const unit = unitAt(text, from + depth);
      low = this.lowerBound(low, high, depth, unit, paged);
      high = this.lowerBound(low, high, depth, unit + 1, paged);
    }
    return found;
  }

  /** `paged`: the pages were not all read when the lookup began, so reads are guarded (pages.complete read once per lookup, not per read). */
  private lengthOf(word: number, paged: boolean): number {
    if (paged) this.pages.ensure(this.starts, word, word + 2);
    return this.starts[word + 1]! - this.starts[word]!;
  }

  /** The first of words [low, high), all longer than `depth`, whose unit at `depth` is `unit` or more. */
  private lowerBound(low: number, high: number, depth: number, unit: number, paged: boolean): number {
    const { units, starts } = this;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (paged) this.pages.ensure(starts, middle, middle + 1);
      const at = starts[middle]! + depth;
      if (paged) this.pages.ensure(units, at, at + 1);
      if (units[at]! < unit) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** The unit at `at`, U+FFFD for a lone surrogate (as a string reaches jieba-wasm). */
function unitAt(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit < 0xd800 || unit > 0xdfff) return unit;
  const paired = unit < 0xdc00 ? isLowSurrogate(text.charCodeAt(at + 1)) : isHighSurrogate(text.charCodeAt(at - 1));
  return paired ? unit : 0xfffd;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** Sign of `a[0, aLength)` against `b[0, bLength)`, by UTF-16 units. */
function compareUnits(a: Uint16Array, aLength: number, b: Uint16Array, bLength: number): number {
  const common = Math.min(aLength, bLength);
  for (let i = 0; i < common; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return aLength - bLength;
}

/** Bytes a growing array may reach: address space reserved, not memory. */
const MAX_GROWTH = 1 << 26;

/**
 * A typed array over a resizable ArrayBuffer: it grows in place, without the copies and garbage of
 * reallocating, and `take` copies it out at its final length and gives its memory back at once
 * (the process's RSS shrinks, where garbage would wait for a GC).
 */
class GrowingArray<T extends Uint16Array | Uint32Array> {
  private readonly buffer = new ResizableArrayBuffer(1 << 16, { maxByteLength: MAX_GROWTH });
  /** A view that tracks the buffer's length. */
  readonly array: T;

  constructor(type: new (buffer: ArrayBuffer) => T) {
    this.array = new type(this.buffer);
  }

  /** The array, with at least `length` elements. */
  reserve(length: number): T {
    if (length > this.array.length) {
      const bytes = length * this.array.BYTES_PER_ELEMENT;
      if (bytes > MAX_GROWTH) throw new Error(`jieba dictionary: more than ${MAX_GROWTH} bytes of words`);
      this.buffer.resize(Math.min(MAX_GROWTH, Math.max(bytes, this.buffer.byteLength * 2)));
    }
    return this.array;
  }

  /** A copy of the first `length` elements; the buffer is given back. */
  take(length: number): T {
    const copy = this.array.slice(0, length) as T;
    this.release();
    return copy;
  }

  release(): void {
    this.buffer.resize(0);
  }
}
