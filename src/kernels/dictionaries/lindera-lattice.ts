/**
 * lindera 1.2.0's segmentation of one sentence (lindera-dictionary's viterbi.rs) in Decompose mode
 * with its default penalties, the mode lindera-wasm's `setMode('decompose')` sets: the lattice of
 * dictionary and unknown words, then the cheapest path through it.
 *
 * At every position some word ends at (the start included), a word starts for each dictionary
 * entry whose surface the text continues with there, and, for each category of the character
 * there (in char.def's order), unknown words of that category's unk.def entries if the category
 * is `invoke` or no dictionary word starts there: over the run of following characters whose
 * category at the same place in their list is the same if the category is `group`, else over the
 * one character (char.def's length is not used). A word's cost on a path is its own, plus the
 * connection cost from the word before it, plus the Decompose penalty of the word before it,
 * which counts its characters as its UTF-8 bytes / 3: (n − 2) × 3000 for more than 2 of only
 * kanji (U+4E00 to U+9FAF), (n − 7) × 1700 for more than 7 of anything else.
 *
 * Reproduced exactly, as lindera's results depend on them: ties keep the earliest word that ends
 * at a position (words are made position by position, each position's in the order above); costs
 * are i32 that wrap, as in lindera's release build; a word no path reaches keeps the cost
 * i32::MAX, and a path that goes back through one stops there (it has then no tokens before it).
 *
 * The lattice is built and searched in one pass, as the cost of the words starting at a position
 * depends only on those ending there, all made earlier. For each position, the best word to come
 * from is found once per left context id, not once per word starting there. Group runs are
 * measured once per sentence, from its end, where lindera measures each anew.
 */
import type { LinderaDictionary } from './lindera-dictionary.js';
import { commonPrefixSearch } from './lindera-double-array.js';

const I32_MAX = 0x7fffffff;
const KANJI_THRESHOLD = 2;
const KANJI_PENALTY = 3000;
const OTHER_THRESHOLD = 7;
const OTHER_PENALTY = 1700;
/** Buffers kept from one sentence to the next: those of longer sentences are let go after them. */
const KEPT_EDGES = 1 << 16;
const KEPT_BYTES = 1 << 14;

/** The lattice of one dictionary, its buffers kept from one sentence to the next. */
export class Lattice {
  // Per word: its first character, the word before it on its best path (-1: none), the next word
  // ending where it ends, where the connection costs from its right context id start in the
  // matrix's rows, and its path cost plus its penalty.
  private start = new Int32Array(0);
  private left = new Int32Array(0);
  private next = new Int32Array(0);
  private rowStart = new Int32Array(0);
  private base = new Int32Array(0);
  private count = 0;
  // Per character position (one more for the end): the first and last word ending there.
  private head = new Int32Array(0);
  private tail = new Int32Array(0);
  // Per character: its byte offset (one more for the end), its category list, where its kanji run
  // and (per place in the lists) its group runs end; per byte, the character starting there or -1.
  private byteAt = new Int32Array(0);
  private list = new Int32Array(0);
  private kanjiEnd = new Int32Array(0);
  private runEnd = new Int32Array(0);
  private charAt = new Int32Array(0);
  // Per left context id, at the current position: the best word to come from and its cost.
  private readonly stamp: Int32Array;
  private readonly bestCost: Int32Array;
  private readonly bestEdge: Int32Array;
  private position = 0;
  // Prefix search results.
  private readonly values: number[] = [];
  private readonly lengths: number[] = [];

  constructor(private readonly dictionary: LinderaDictionary) {
    this.stamp = new Int32Array(dictionary.backwardSize);
    this.bestCost = new Int32Array(dictionary.backwardSize);
    this.bestEdge = new Int32Array(dictionary.backwardSize);
  }

  /** Closes the compiled file the dictionary reads in from, if any: the lattice is not to be used after. */
  close(): void {
    this.dictionary.pages.close();
  }

  /**
   * Appends to `out` where the tokens of the sentence `bytes[from .. to]` (valid UTF-8) start, in
   * bytes from `from`: lindera's `tokens_offset`, empty if no path reaches the sentence's end.
   */
  segment(bytes: Uint8Array, from: number, to: number, out: number[]): void {
    const chars = this.measure(bytes, from, to);
    const { characters, units, words, unknownStarts, unknownIds, unknown, pages } = this.dictionary;
    const { invoke, group, listStarts, categories } = characters;
    const { head, byteAt, list, kanjiEnd, runEnd, charAt, values, lengths } = this;
    this.count = 0;
    head.fill(-1, 0, chars + 1);
    this.addEdge(-1, 0, 0, 0, 0, 0, false); // BOS: its path cost and ids 0
    for (let i = 0; i < chars; i++) {
      if (head[i]! < 0) continue;
      this.nextPosition();
      const at = from + byteAt[i]!;
      const matches = commonPrefixSearch(units, pages, bytes, at, to, values, lengths);
      let found = false;
      for (let m = 0; m < matches; m++) {
        const first = values[m]! >>> 5;
        const last = first + (values[m]! & 31);
        const stop = charAt[at - from + lengths[m]!]!;
        // Only a NUL byte can lead yada off its keys; lindera then panics (its slicing of dict.vals
        // fails, or it slices the text inside a character at the next position).
        if (last > words.costs.length || (last > first && stop < 0)) throw new Error(`lindera's double array led to no word at byte ${at} (lindera-wasm panics there)`);
        pages.ensure(words.leftIds, first, last);
        pages.ensure(words.rightIds, first, last);
        pages.ensure(words.costs, first, last);
        for (let w = first; w < last; w++) {
          this.addEdge(i, stop, words.leftIds[w]!, words.rightIds[w]!, words.costs[w]!, lengths[m]!, kanjiEnd[i]! >= stop);
          found = true;
        }
      }
      const listStart = listStarts[list[i]!]!;
      const listEnd = listStarts[list[i]! + 1]!;
      for (let place = 0; place < listEnd - listStart; place++) {
        const category = categories[listStart + place]!;
        if (invoke[category] === 0 && found) continue;
        const stop = group[category] === 1 ? runEnd[place * chars + i]! : i + 1;
        for (let u = unknownStarts[category]!; u < unknownStarts[category + 1]!; u++) {
          const id = unknownIds[u]!;
          this.addEdge(i, stop, unknown.leftIds[id]!, unknown.rightIds[id]!, unknown.costs[id]!, byteAt[stop]! - byteAt[i]!, kanjiEnd[i]! >= stop);
        }
      }
    }
    // EOS: left context id 0.
    this.nextPosition();
    const { start, left } = this;
    const path: number[] = [];
    for (let edge = this.best(chars, 0); edge >= 0 && left[edge]! >= 0; edge = left[edge]!) path.push(byteAt[start[edge]!]!);
    for (let k = path.length - 1; k >= 0; k--) out.push(path[k]!);
    if (this.start.length > KEPT_EDGES) this.reserveEdges(0, true);
    if (this.charAt.length > KEPT_BYTES) this.reserveChars(0, true);
  }

  /** Fills the per-character tables for `bytes[from .. to]`; the count of characters. */
  private measure(bytes: Uint8Array, from: number, to: number): number {
    const length = to - from;
    this.reserveChars(length);
    const { byteAt, list, kanjiEnd, charAt } = this;
    const { boundaries } = this.dictionary.characters;
    charAt.fill(-1, 0, length + 1);
    let chars = 0;
    for (let at = from; at < to; chars++) {
      const lead = bytes[at]!;
      let codePoint = lead;
      let size = 1;
      if (lead >= 0xf0) {
        codePoint = ((lead & 0x07) << 18) | ((bytes[at + 1]! & 0x3f) << 12) | ((bytes[at + 2]! & 0x3f) << 6) | (bytes[at + 3]! & 0x3f);
        size = 4;
      } else if (lead >= 0xe0) {
        codePoint = ((lead & 0x0f) << 12) | ((bytes[at + 1]! & 0x3f) << 6) | (bytes[at + 2]! & 0x3f);
        size = 3;
      } else if (lead >= 0x80) {
        codePoint = ((lead & 0x1f) << 6) | (bytes[at + 1]! & 0x3f);
        size = 2;
      }
      byteAt[chars] = at - from;
      charAt[at - from] = chars;
      // LookupTable::eval: the last boundary at or below the code point.
      let low = 0;
      let high = boundaries.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >>> 1;
        if (boundaries[middle]! <= codePoint) low = middle;
        else high = middle - 1;
      }
      list[chars] = low;
      kanjiEnd[chars] = codePoint >= 0x4e00 && codePoint <= 0x9faf ? -1 : chars;
      at += size;
    }
    byteAt[chars] = length;
    charAt[length] = chars;
    // A kanji's run ends at the first character after it that is not one (whose end is itself).
    for (let i = chars - 1; i >= 0; i--) {
      if (kanjiEnd[i] === -1) kanjiEnd[i] = i + 1 < chars && kanjiEnd[i + 1]! > i + 1 ? kanjiEnd[i + 1]! : i + 1;
    }
    this.measureRuns(chars);
    return chars;
  }

  /** Per place in the category lists and character: where the run of its category at that place ends. */
  private measureRuns(chars: number): void {
    const { listStarts, categories, maxCategories } = this.dictionary.characters;
    if (this.runEnd.length < maxCategories * chars) this.runEnd = new Int32Array(grown(this.runEnd.length, maxCategories * chars));
    const { runEnd, list } = this;
    for (let place = 0; place < maxCategories; place++) {
      const row = place * chars;
      // the category at this place of the character after i (-1: its list is shorter)
      let after = -1;
      for (let i = chars - 1; i >= 0; i--) {
        const at = listStarts[list[i]!]! + place;
        const category = at < listStarts[list[i]! + 1]! ? categories[at]! : -1;
        runEnd[row + i] = i + 1 < chars && after === category ? runEnd[row + i + 1]! : i + 1;
        after = category;
      }
    }
  }

  /** Starts a new position for the per-left-id cache. */
  private nextPosition(): void {
    if (++this.position === I32_MAX) {
      this.stamp.fill(0);
      this.position = 1;
    }
  }

  /** The best word ending at `at` to come from into a word of left context id `leftId`, its cost cached; -1 if none. */
  private best(at: number, leftId: number): number {
    if (this.stamp[leftId] !== this.position) {
      const { rows } = this.dictionary;
      const { base, rowStart, next } = this;
      let cost = I32_MAX;
      let edge = -1;
      for (let e = this.head[at]!; e >= 0; e = next[e]!) {
        const candidate = (base[e]! + rows[rowStart[e]! + leftId]!) | 0;
        if (candidate < cost) {
          cost = candidate;
          edge = e;
        }
      }
      this.stamp[leftId] = this.position;
      this.bestCost[leftId] = cost;
      this.bestEdge[leftId] = edge;
    }
    return this.bestEdge[leftId]!;
  }

  /** Adds a word from character `from` to `stop` (the BOS at -1), its path through the best word ending at `from`. */
  private addEdge(from: number, stop: number, leftId: number, rightId: number, cost: number, bytes: number, kanjiOnly: boolean): void {
    if (this.count === this.start.length) this.reserveEdges(this.count + 1);
    const edge = this.count++;
    let pathCost = 0;
    let left = -1;
    if (from >= 0) {
      left = this.best(from, leftId);
      pathCost = left >= 0 ? (cost + this.bestCost[leftId]!) | 0 : I32_MAX;
    }
    this.start[edge] = from;
    this.left[edge] = left;
    const { rowOf, backwardSize, rows, pages } = this.dictionary;
    const rowStart = rowOf[rightId]! * backwardSize;
    // best() reads the row's costs from every word that follows
    pages.ensure(rows, rowStart, rowStart + backwardSize);
    this.rowStart[edge] = rowStart;
    this.base[edge] = (pathCost + penalty(bytes, kanjiOnly)) | 0;
    this.next[edge] = -1;
    if (this.head[stop]! < 0) this.head[stop] = edge;
    else this.next[this.tail[stop]!] = edge;
    this.tail[stop] = edge;
  }

  /** Room for `count` words, the words made kept; or, `release`, the buffers of a long sentence let go. */
  private reserveEdges(count: number, release = false): void {
    const size = release ? 0 : grown(this.start.length, count);
    const copy = <T extends Int32Array>(from: T, to: T): T => (release || to.set(from), to);
    this.start = copy(this.start, new Int32Array(size));
    this.left = copy(this.left, new Int32Array(size));
    this.next = copy(this.next, new Int32Array(size));
    this.rowStart = copy(this.rowStart, new Int32Array(size));
    this.base = copy(this.base, new Int32Array(size));
  }

  /** Room for a sentence of `bytes` bytes (so at most as many characters); or, `release`, the buffers of a long one let go. */
  private reserveChars(bytes: number, release = false): void {
    if (!release && this.charAt.length > bytes) return;
    const size = release ? 0 : grown(this.charAt.length, bytes + 1);
    if (release) this.runEnd = new Int32Array(0);
    this.head = new Int32Array(size);
    this.tail = new Int32Array(size);
    this.byteAt = new Int32Array(size);
    this.list = new Int32Array(size);
    this.kanjiEnd = new Int32Array(size);
    this.charAt = new Int32Array(size);
  }
}

/** mode.rs's Penalty::penalty for a word of `bytes` bytes. */
function penalty(bytes: number, kanjiOnly: boolean): number {
  const chars = Math.floor(bytes / 3);
  if (chars <= KANJI_THRESHOLD) return 0;
  if (kanjiOnly) return Math.imul(chars - KANJI_THRESHOLD, KANJI_PENALTY);
  return chars > OTHER_THRESHOLD ? Math.imul(chars - OTHER_THRESHOLD, OTHER_PENALTY) : 0;
}

function grown(current: number, needed: number): number {
  return Math.max(needed, current * 2, 1024);
}
