/**
 * A compiled dictionary's arrays read in from its file a page at a time, as segmentation first
 * reaches them. The arrays are views over one zero-filled buffer of their size, which the
 * allocator maps without touching it: a page costs memory only once read, so a corpus with a
 * handful of Chinese, Japanese or Korean words (movies has four) holds a few pages of each
 * dictionary instead of its 4 to 30 MB, and a corpus written in those scripts reads in the pages
 * its words lead to.
 *
 * Readers call `ensure` before reading elements of an array (once per range: a word's entries, a
 * row of connection costs, a step of a lookup). Once a dictionary has read READ_ALL_AFTER pages, or
 * its guards have checked pages CHECKS_BEFORE_READ_ALL times, it is in real use, and the rest is
 * read at once: a guard then costs one compare, where guards that find pages to check made
 * segmenting 2 to 6 times slower (a corpus of few distinct words never reached the page count:
 * 5,000 documents of the same Chinese sentences took 12.7 s to index, the segmenter thread
 * spending 3.9 s of its ~10 s in the guards). The file stays open until every page is read or
 * the dictionary is closed (the segmenter thread closes its dictionaries before it ends); a page
 * asked for after `close` is an error, never zeros read as data. The build writes the file once
 * and replaces it by a rename, so the open file is the one the arrays came from.
 */
import { closeSync } from 'node:fs';
import { readFully } from '../wasm-file.js';

/** The typed arrays a compiled dictionary holds. */
export type DictionaryArray = Uint8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float64Array;

const PAGE_SHIFT = 12;
const PAGE_BYTES = 1 << PAGE_SHIFT;
/**
 * Pages read one range at a time, at most, before the rest is read at once (or an eighth of the
 * pages, if fewer): a dictionary in real use (a few sentences of its language) has reached that
 * many, and from then on a guard costs one compare. A word reaches 30 to 150 pages of ko-dic's
 * 7,212 or IPADIC's 2,724.
 */
const READ_ALL_AFTER = 1024;

/**
 * Guarded reads after which the rest is read at once, however few pages they reached: some 5 to
 * 10 ms of guards, the work of segmenting a few thousand characters.
 */
const CHECKS_BEFORE_READ_ALL = 1_000_000;

export class DictionaryPages {
  /** Per page: 1 once read. */
  private readonly loaded: Uint8Array;
  private unread: number;
  /** guarded reads so far */
  private checks = 0;

  /**
   * `fd`: the file, owned from here on (null: every page is already in memory); `data`: the
   * buffer the arrays are views over; `position`: where `data`'s first byte lies in the file.
   */
  constructor(
    private fd: number | null,
    private readonly data: ArrayBuffer,
    private readonly position: number,
  ) {
    const pages = Math.ceil(data.byteLength / PAGE_BYTES);
    this.loaded = new Uint8Array(pages).fill(fd === null ? 1 : 0);
    this.unread = fd === null ? 0 : pages;
  }

  /** Pages of a dictionary whose arrays are all in memory (read from its package). */
  static resident(): DictionaryPages {
    return new DictionaryPages(null, new ArrayBuffer(0), 0);
  }

  /** Makes elements [from, to) of `array`, a view over this dictionary's buffer, readable. */
  ensure(array: DictionaryArray, from: number, to: number): void {
    // small enough to be inlined into the lookups' loops: all that is left once every page is read
    if (this.unread !== 0) this.check(array, from, to);
  }

  private check(array: DictionaryArray, from: number, to: number): void {
    if (++this.checks >= CHECKS_BEFORE_READ_ALL && this.fd !== null) return this.read(0, this.loaded.length - 1);
    if (to <= from) return;
    const first = (array.byteOffset + from * array.BYTES_PER_ELEMENT) >>> PAGE_SHIFT;
    const last = (array.byteOffset + to * array.BYTES_PER_ELEMENT - 1) >>> PAGE_SHIFT;
    for (let page = first; page <= last; page++) {
      if (this.loaded[page] === 0) {
        this.read(page, last);
        return;
      }
    }
  }

  /** Whether every page is read: a lookup that sees it need not guard its reads. */
  get complete(): boolean {
    return this.unread === 0;
  }

  /** Makes all of `array` readable. */
  ensureAll(array: DictionaryArray): void {
    this.ensure(array, 0, array.length);
  }

  /** Pages read so far, and in all. */
  get residentPages(): { read: number; total: number } {
    return { read: this.loaded.length - this.unread, total: this.loaded.length };
  }

  /** Closes the file; pages not read by then cannot be any more. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** Reads the unread pages of [first, last], in runs of consecutive ones. */
  private read(first: number, last: number): void {
    if (this.fd === null) throw new Error('a compiled dictionary was read after it was closed');
    for (let page = first; page <= last; ) {
      if (this.loaded[page] === 1) {
        page++;
        continue;
      }
      let end = page;
      while (end <= last && this.loaded[end] === 0) end++;
      const start = page * PAGE_BYTES;
      const length = Math.min(end * PAGE_BYTES, this.data.byteLength) - start;
      if (readFully(this.fd, new Uint8Array(this.data, start, length), this.position + start) < length) {
        throw new Error('a compiled dictionary file ended early: it changed while in use');
      }
      this.loaded.fill(1, page, end);
      this.unread -= end - page;
      page = end;
    }
    if (this.unread > 0 && this.loaded.length - this.unread >= Math.min(READ_ALL_AFTER, this.loaded.length >>> 3)) this.read(0, this.loaded.length - 1);
    if (this.unread === 0) this.close();
  }
}
