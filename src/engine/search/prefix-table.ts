/**
 * A batch's word prefixes (the 1–3 character prefixes of `word-prefix-docids`) as ids, and each
 * document's prefix entries: per prefix, the fields of the document's words that start with it
 * and their lowest position. The word-index updater aggregates them per document; extraction
 * workers aggregate them ahead and ship them, for the write to adopt.
 */
import type { DocWords } from './extract.js';
import type { ShippedPrefixes } from './shipped-words.js';

/** Prefixes cached in `word-prefix-docids`, in characters. */
export const PREFIX_MAX_CHARS = 3;

/** The prefixes of 1 to PREFIX_MAX_CHARS characters of a word key (latin1 of UTF-8). */
export function prefixKeys(key: string): string[] {
  const out: string[] = [];
  let chars = 0;
  for (let i = 1; i <= key.length && chars < PREFIX_MAX_CHARS; i++) {
    // a character ends where the next byte is not a continuation byte
    if (i === key.length || (key.charCodeAt(i) & 0xc0) !== 0x80) {
      chars++;
      out.push(key.slice(0, i));
    }
  }
  return out;
}

/** The batch's prefixes: each vocabulary word's 1–3 character prefixes as prefix ids. */
export class PrefixTable {
  readonly keys: string[] = [];
  private readonly ids = new Map<string, number>();
  // per vocabulary word: its prefix ids (PREFIX_MAX_CHARS slots each) and how many, -1 until known
  private readonly prefixIds: Int32Array;
  private readonly prefixCounts: Int8Array;
  // per prefix id (at most PREFIX_MAX_CHARS per word): the document (serial) that last
  // aggregated it, and the aggregate; typed so that millions of updates allocate nothing
  private readonly seenBy: Int32Array;
  readonly masks: Uint32Array;
  readonly positions: Uint32Array;
  private readonly current: number[] = [];
  private serial = 0;
  // per adopted shipment: its prefix ids → ours (-1 until seen)
  private readonly adopted = new WeakMap<ShippedPrefixes, Int32Array>();

  constructor(private readonly vocabulary: readonly string[]) {
    this.prefixIds = new Int32Array(PREFIX_MAX_CHARS * vocabulary.length);
    this.prefixCounts = new Int8Array(vocabulary.length).fill(-1);
    this.seenBy = new Int32Array(PREFIX_MAX_CHARS * vocabulary.length);
    this.masks = new Uint32Array(this.seenBy.length);
    this.positions = new Uint32Array(this.seenBy.length);
  }

  private idOf(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
    }
    return id;
  }

  /** How many prefixes vocabulary word `word` has; its ids start at `word * PREFIX_MAX_CHARS` in prefixIds. */
  private prefixCount(word: number): number {
    let count = this.prefixCounts[word]!;
    if (count < 0) {
      const keys = prefixKeys(this.vocabulary[word]!);
      keys.forEach((key, k) => (this.prefixIds[word * PREFIX_MAX_CHARS + k] = this.idOf(key)));
      count = keys.length;
      this.prefixCounts[word] = count;
    }
    return count;
  }

  /**
   * Aggregates a document's prefix entries: returns its prefix ids, whose `masks` and
   * `positions` (lowest) hold its aggregate; both valid until the next call.
   */
  aggregate(doc: DocWords): readonly number[] {
    const serial = ++this.serial;
    const ids = this.current;
    ids.length = 0;
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
          ids.push(id);
        } else {
          this.masks[id] = this.masks[id]! | mask;
          if (position < this.positions[id]!) this.positions[id] = position;
        }
      }
    }
    return ids;
  }

  /**
   * A shipped document's prefix entries, aggregated by the shipping thread's table, as
   * `aggregate` would answer them here: every prefix of a shipped word is a prefix of a word of
   * this vocabulary, which the document's adoption added.
   */
  adopt(shipped: ShippedPrefixes, index: number): readonly number[] {
    let map = this.adopted.get(shipped);
    if (map === undefined) this.adopted.set(shipped, (map = new Int32Array(shipped.keys.length).fill(-1)));
    const ids = this.current;
    ids.length = 0;
    for (let at = shipped.starts[index]!; at < shipped.starts[index + 1]!; at++) {
      const from = shipped.ids[at]!;
      let id = map[from]!;
      if (id < 0) map[from] = id = this.idOf(shipped.keys[from]!);
      this.masks[id] = shipped.masks[at]!;
      this.positions[id] = shipped.positions[at]!;
      ids.push(id);
    }
    return ids;
  }

  /** The prefix entries of `docs` (extracted against this table's vocabulary), packed to ship. */
  ship(docs: readonly DocWords[]): ShippedPrefixes {
    const starts = new Int32Array(docs.length + 1);
    const ids: number[] = [];
    const masks: number[] = [];
    const positions: number[] = [];
    docs.forEach((doc, i) => {
      for (const id of this.aggregate(doc)) {
        ids.push(id);
        masks.push(this.masks[id]!);
        positions.push(this.positions[id]!);
      }
      starts[i + 1] = ids.length;
    });
    return { keys: [...this.keys], starts, ids: Int32Array.from(ids), masks: Uint32Array.from(masks), positions: Uint32Array.from(positions) };
  }
}
