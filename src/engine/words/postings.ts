/**
 * The binary forms of the word index, shared by the updater that writes them (word-index.ts) and
 * the search that reads them (../search/):
 *
 * - Posting (`word-docids` value, keyed by the normalised word; `word-prefix-docids` value, keyed
 *   by a 1–3 character prefix; a block of either in `posting-blocks`): a u32 LE holding the word's
 *   stable id (0 in prefix postings and blocks) and flags, the entry count n (u32 LE), then the
 *   entries with docids ascending. Per document:
 *   - mask: bit f = the word occurs in search field f (fields ≥ 31 share bit 31);
 *   - info: lowest position of the word over its fields (INFO_POSITION), plus INFO_WHOLE_FIELD
 *     when some field holds this word and nothing else (exactness of a one-word query).
 *   Two layouts, told apart by the PACKED flag:
 *   - packed (storage format 3, store/env.ts): per entry three LEB128 varints, its docid's gap
 *     from the previous one (the first: the docid), its mask, and its info with the whole-field
 *     bit moved to bit 0. About 3.4 bytes per entry on movies against 12: the posting tables were
 *     45 % of an index's pages.
 *   - columns (every posting written before): docids × n, masks × n, infos × n, as u32 LE. Still
 *     read; a posting is packed when a batch next rewrites it.
 * - Forward record (`docid-words` value, keyed by docid): [nFields, (field << 16 | wordCount) ×
 *   nFields, nTokens, (wordId, field << 16 | position) × nTokens], tokens grouped by word id,
 *   ascending, in text order within a word: the positions proximity, phrases and multi-word
 *   exactness need.
 * Pure codecs; no I/O.
 */
import type { DocSet } from '../docset.js';

export const INFO_POSITION = 0xffff;
export const INFO_WHOLE_FIELD = 1 << 16;
/** Search fields from this id on share the last mask bit. */
export const MASK_BITS = 32;

export function fieldBit(field: number): number {
  return (1 << Math.min(field, MASK_BITS - 1)) >>> 0;
}

export interface Posting {
  readonly id: number;
  readonly docids: DocSet;
  readonly masks: Uint32Array;
  readonly infos: Uint32Array;
}

export const EMPTY_POSTING: Posting = { id: 0, docids: new Uint32Array(0), masks: new Uint32Array(0), infos: new Uint32Array(0) };

/** Set in a posting's first u32 when its entries are packed (varints) rather than u32 columns. */
export const PACKED = 0x40000000;
/** Bytes before a posting's entries, in either layout: first u32, count. */
const HEADER = 8;
/** The most bytes a packed entry takes: three varints of up to 5 bytes. */
const MAX_ENTRY_BYTES = 15;

/** Copies stored bytes into an aligned array (LMDB values are not 4-byte aligned). */
function toU32(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length >>> 2);
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.byteLength));
  return out;
}

function u32At(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/** A stored posting's first u32: its id with its flags (PACKED, posting-blocks.ts's CONTINUED). */
export function postingFirstWord(bytes: Uint8Array): number {
  return u32At(bytes, 0);
}

/**
 * A stored posting's entry count, bounded by what its bytes can hold (each entry takes at least
 * 3 bytes packed, 12 in columns), so a damaged value never makes a reader allocate more.
 */
export function postingCount(bytes: Uint8Array): number {
  if (bytes.length < HEADER) return 0;
  const n = u32At(bytes, 4);
  const packed = (u32At(bytes, 0) & PACKED) !== 0;
  return Math.min(n, Math.floor((bytes.length - HEADER) / (packed ? 3 : 12)));
}

/** The info as packed: whole-field bit first, so a typical info takes one or two bytes. */
function packInfo(info: number): number {
  return ((info & 0xfffe0000) | ((info & INFO_POSITION) << 1) | ((info >>> 16) & 1)) >>> 0;
}

function unpackInfo(packed: number): number {
  return ((packed & 0xfffe0000) | ((packed >>> 1) & INFO_POSITION) | ((packed & 1) << 16)) >>> 0;
}

/** Where `longVarint` left off (module scope: it answers two numbers without an allocation). */
let cursor = 0;

/** The varint at `at` whose first byte is 0x80 or more; sets `cursor` past it. */
function longVarint(bytes: Uint8Array, at: number): number {
  let value = bytes[at++]! & 0x7f;
  let b = bytes[at++]!;
  if (b >= 0x80) {
    value |= (b & 0x7f) << 7;
    b = bytes[at++]!;
    if (b >= 0x80) {
      value |= (b & 0x7f) << 14;
      b = bytes[at++]!;
      if (b >= 0x80) {
        value |= (b & 0x7f) << 21;
        cursor = at + 1;
        return value + (bytes[at]! & 0x0f) * 2 ** 28;
      }
      cursor = at;
      return value | (b << 21);
    }
    cursor = at;
    return value | (b << 14);
  }
  cursor = at;
  return value | (b << 7);
}

/**
 * Writes the entries of a stored posting (either layout, `count` of them: postingCount) into
 * `into`: docids from index `docids` on, masks from `masks`, infos from `infos`.
 */
export function unpackEntries(bytes: Uint8Array, count: number, into: Uint32Array, docids: number, masks: number, infos: number): void {
  if ((u32At(bytes, 0) & PACKED) === 0) {
    const target = new Uint8Array(into.buffer, into.byteOffset);
    for (let column = 0; column < 3; column++) {
      const to = column === 0 ? docids : column === 1 ? masks : infos;
      target.set(bytes.subarray(8 + 4 * count * column, 8 + 4 * count * (column + 1)), 4 * to);
    }
    return;
  }
  // one-byte varints (most gaps, masks and infos) are read inline: a helper that sets `cursor`
  // for every varint decoded postings ~40 % slower
  let at = HEADER;
  let docid = 0;
  for (let i = 0; i < count; i++) {
    let value = bytes[at++]!;
    if (value >= 0x80) {
      value = longVarint(bytes, at - 1);
      at = cursor;
    }
    into[docids + i] = docid += value;
    value = bytes[at++]!;
    if (value >= 0x80) {
      value = longVarint(bytes, at - 1);
      at = cursor;
    }
    into[masks + i] = value;
    value = bytes[at++]!;
    if (value >= 0x80) {
      value = longVarint(bytes, at - 1);
      at = cursor;
    }
    into[infos + i] = unpackInfo(value);
  }
}

/** The last docid of the posting `scanEntries` last scanned (module scope, as `cursor`). */
let scannedLast = 0;

/**
 * Where the `count` entries of a packed posting end, reading only their docid gaps (its last
 * docid goes to `scannedLast`); -1 when its bytes end first (a damaged value).
 */
function scanEntries(bytes: Uint8Array, count: number): number {
  let at = HEADER;
  let docid = 0;
  for (let i = 0; i < count; i++) {
    // the gap, read inline as unpackEntries reads it
    let value = bytes[at++]!;
    if (value >= 0x80) {
      value = longVarint(bytes, at - 1);
      at = cursor;
    }
    docid += value;
    // the mask and the info, skipped
    while (bytes[at++]! >= 0x80);
    while (bytes[at++]! >= 0x80);
  }
  if (at > bytes.length) return -1;
  scannedLast = docid;
  return at;
}

export function decodePosting(bytes: Uint8Array | undefined): Posting {
  if (bytes === undefined || bytes.length < HEADER) return EMPTY_POSTING;
  const n = postingCount(bytes);
  const all = new Uint32Array(3 * n);
  unpackEntries(bytes, n, all, 0, n, 2 * n);
  return { id: (postingFirstWord(bytes) & ~PACKED) >>> 0, docids: all.subarray(0, n), masks: all.subarray(n, 2 * n), infos: all.subarray(2 * n) };
}

/** Writes `value` (below 2^32) as a LEB128 varint at `at`; answers where the next byte goes. */
function putVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}

/** A growable byte buffer the packed postings are written into, reused from one value to the next. */
export class PackedWriter {
  private bytes = new Uint8Array(1 << 14);

  /**
   * Entries [from, to) of `all` (docids from index `docids` on, masks from `masks`, infos from
   * `infos`) as a packed posting whose first u32 is `first` | PACKED. Valid until the next call.
   */
  pack(first: number, all: Uint32Array, docids: number, masks: number, infos: number, from: number, to: number): Buffer {
    const n = to - from;
    if (this.bytes.length < HEADER + MAX_ENTRY_BYTES * n) this.bytes = new Uint8Array(Math.max(HEADER + MAX_ENTRY_BYTES * n, 2 * this.bytes.length));
    const out = this.bytes;
    const view = new DataView(out.buffer);
    view.setUint32(0, (first | PACKED) >>> 0, true);
    view.setUint32(4, n, true);
    let at = HEADER;
    let previous = 0;
    for (let i = from; i < to; i++) {
      const docid = all[docids + i]!;
      at = putVarint(out, at, docid - previous);
      at = putVarint(out, at, all[masks + i]!);
      at = putVarint(out, at, packInfo(all[infos + i]!));
      previous = docid;
    }
    return Buffer.from(out.buffer, 0, at);
  }

  /**
   * The packed posting of a stored packed posting's `count` entries (its bytes up to `end`, its
   * last docid `last`) followed by `added` (docids above `last`), first u32 `first` | PACKED:
   * the stored entries copied as they are, the bytes packing them all would give. Valid until
   * the next call.
   */
  append(first: number, stored: Uint8Array, end: number, count: number, last: number, added: PostingColumns): Buffer {
    const n = added.docids.length;
    const size = end + MAX_ENTRY_BYTES * n;
    if (this.bytes.length < size) this.bytes = new Uint8Array(Math.max(size, 2 * this.bytes.length));
    const out = this.bytes;
    const view = new DataView(out.buffer);
    view.setUint32(0, (first | PACKED) >>> 0, true);
    view.setUint32(4, count + n, true);
    out.set(stored.subarray(HEADER, end), HEADER);
    let at = end;
    let previous = last;
    for (let i = 0; i < n; i++) {
      const docid = added.docids[i]!;
      at = putVarint(out, at, docid - previous);
      at = putVarint(out, at, added.masks[i]!);
      at = putVarint(out, at, packInfo(added.infos[i]!));
      previous = docid;
    }
    return Buffer.from(out.buffer, 0, at);
  }
}

/** Entries to write into a posting: parallel columns, docids ascending. */
export interface PostingColumns {
  readonly docids: Uint32Array;
  readonly masks: Uint32Array;
  readonly infos: Uint32Array;
}

/**
 * A growable u32 buffer reused for every value a batch writes: LMDB copies a value during
 * `putSync`, and a long-lived buffer spares an allocation and lmdb's address lookup per put.
 */
export class ValueBuffer {
  array = new Uint32Array(1 << 12);

  /** The buffer, grown to at least `n` elements; its contents are not kept when it grows. */
  ensure(n: number): Uint32Array {
    if (this.array.length < n) this.array = new Uint32Array(Math.max(n, 2 * this.array.length));
    return this.array;
  }

  /** The first `n` elements as bytes, valid until the buffer is next used. */
  bytes(n: number): Buffer {
    return Buffer.from(this.array.buffer, 0, 4 * n);
  }
}

/**
 * Rewrites stored postings with a chunk's changes, one at a time, into reused buffers: the
 * stored entries are unpacked once into aligned columns and the merged posting is packed
 * straight from them. The word-index updater merges every touched key this way.
 * Documents added after every stored one (a bulk load's every batch after the first) are
 * appended instead: the stored posting's bytes are only scanned for its last docid, and copied
 * as they are when the merged posting is packed whole; its columns are unpacked only when
 * asked for (`columns`, or part of it packed: a posting split into blocks). That stored value is
 * held until then, so nothing may read the database in between (lmdb reuses a fast read's buffer).
 */
export class PostingMerger {
  private readonly base = new ValueBuffer();
  private readonly out = new ValueBuffer();
  private readonly packer = new PackedWriter();
  /** id and document count of the posting last merged, as stored */
  baseId = 0;
  baseCount = 0;
  /** document count after the merge */
  count = 0;
  /** the merge appended to: the stored posting, where its entries end, its last docid, what it appends */
  private appending: { stored: Uint8Array; end: number; last: number; added: PostingColumns } | null = null;

  /**
   * Merges `stored` (a posting's bytes, either layout, or undefined) without the `removed`
   * docids and with `upserts` (each replacing the stored entry of the same document).
   */
  merge(stored: Uint8Array | undefined, removed: readonly number[], upserts: PostingColumns): this {
    this.appending = null;
    const nb = stored === undefined ? 0 : postingCount(stored);
    if (removed.length === 0 && nb > 0 && upserts.docids.length > 0 && (postingFirstWord(stored!) & PACKED) !== 0) {
      const end = scanEntries(stored!, nb);
      if (end !== -1 && upserts.docids[0]! > scannedLast) {
        this.appending = { stored: stored!, end, last: scannedLast, added: upserts };
        this.baseId = (postingFirstWord(stored!) & ~PACKED) >>> 0;
        this.baseCount = nb;
        this.count = nb + upserts.docids.length;
        return this;
      }
    }
    return this.mergeColumns(stored, nb, removed, upserts);
  }

  /** The merge through columns: the stored entries unpacked, merged and held for packing. */
  private mergeColumns(stored: Uint8Array | undefined, nb: number, removed: readonly number[], upserts: PostingColumns): this {
    const base = this.base.ensure(2 + 3 * nb);
    this.baseId = nb === 0 ? 0 : (postingFirstWord(stored!) & ~PACKED) >>> 0;
    base[1] = nb;
    if (nb > 0) unpackEntries(stored!, nb, base, 2, 2 + nb, 2 + 2 * nb);
    const n = upserts.docids.length;
    this.baseCount = nb;
    const size = nb + n;
    const out = this.out.ensure(2 + 3 * size);
    let k: number;
    if (removed.length === 0 && (nb === 0 || n === 0 || upserts.docids[0]! > base[1 + nb]!)) {
      // new documents after the stored ones (the usual addition): two block copies per column
      for (let column = 0; column < 3; column++) {
        out.set(base.subarray(2 + column * nb, 2 + (column + 1) * nb), 2 + column * size);
        out.set(column === 0 ? upserts.docids : column === 1 ? upserts.masks : upserts.infos, 2 + column * size + nb);
      }
      k = size;
    } else {
      k = mergeColumns(base, nb, removed, upserts, out, size);
    }
    out[1] = k;
    this.count = k;
    return this;
  }

  /** The merged posting as [unused, count, docids, masks, infos], valid until the next merge. */
  columns(): Uint32Array {
    this.unpackAppended();
    return this.out.array;
  }

  /** The merged posting packed with word id `id`, valid until the next merge. */
  encoded(id: number): Buffer {
    return this.pack(id, 0, this.count);
  }

  /** Entries [from, to) of the merged posting packed with first u32 `first`, valid until the next call. */
  pack(first: number, from: number, to: number): Buffer {
    const appending = this.appending;
    if (appending !== null && from === 0 && to === this.count) return this.packer.append(first, appending.stored, appending.end, this.baseCount, appending.last, appending.added);
    this.unpackAppended();
    const k = this.count;
    return this.packer.pack(first, this.out.array, 2, 2 + k, 2 + 2 * k, from, to);
  }

  /** An appending merge's columns, made when they are needed after all. */
  private unpackAppended(): void {
    const appending = this.appending;
    if (appending === null) return;
    this.appending = null;
    this.mergeColumns(appending.stored, this.baseCount, [], appending.added);
  }
}

/**
 * The general merge of `merge`: writes the entries into `out` laid out for `size` entries, then
 * closes the gaps removals and replacements left. Returns the entry count.
 */
function mergeColumns(base: Uint32Array, nb: number, removed: readonly number[], upserts: PostingColumns, out: Uint32Array, size: number): number {
  const gone = removed.length === 0 ? null : new Set(removed);
  const n = upserts.docids.length;
  const masks = 2 + size;
  const infos = 2 + 2 * size;
  let k = 0;
  let u = 0;
  const take = (docid: number, mask: number, info: number) => {
    out[2 + k] = docid;
    out[masks + k] = mask;
    out[infos + k++] = info;
  };
  for (let i = 0; i < nb; i++) {
    const docid = base[2 + i]!;
    while (u < n && upserts.docids[u]! < docid) take(upserts.docids[u]!, upserts.masks[u]!, upserts.infos[u++]!);
    if (u < n && upserts.docids[u] === docid) continue; // replaced below
    if (gone !== null && gone.has(docid)) continue;
    take(docid, base[2 + nb + i]!, base[2 + 2 * nb + i]!);
  }
  while (u < n) take(upserts.docids[u]!, upserts.masks[u]!, upserts.infos[u++]!);
  out.copyWithin(2 + k, masks, masks + k);
  out.copyWithin(2 + 2 * k, infos, infos + k);
  return k;
}

/** A decoded forward record. */
export interface ForwardRecord {
  /** search field id → word count of the field in this document */
  readonly fieldWords: Map<number, number>;
  /** word ids, ascending (one per occurrence) */
  readonly wordIds: Uint32Array;
  /** field << 16 | position, parallel to wordIds */
  readonly places: Uint32Array;
}

/**
 * Encodes forward records from a document's distinct word ids and its tokens (slot of the
 * token's word, field << 16 | position), tokens grouped by word id, ascending, in text order
 * within a word. Scratch arrays are reused from one document to the next and small documents
 * sort their words by insertion: per-document allocations and typed-array sorts cost more than
 * the tokens themselves.
 */
export class ForwardEncoder {
  private readonly out = new ValueBuffer();
  /** slots in ascending word id order */
  private order = new Int32Array(256);
  /** per slot: first output token of its word */
  private next = new Int32Array(256);
  /** per slot: its word id */
  private slotIds = new Uint32Array(256);

  /**
   * The record's bytes, valid until the next call: `fieldPairs` holds (field, word count)
   * pairs, and slot `s` is the word whose id is `wordIds[slotWords[s]]`.
   */
  encode(fieldPairs: ArrayLike<number>, slotWords: ArrayLike<number>, wordIds: Uint32Array, tokenSlots: ArrayLike<number>, places: ArrayLike<number>): Buffer {
    const n = slotWords.length;
    if (this.order.length < n) {
      this.order = new Int32Array(2 * n);
      this.next = new Int32Array(2 * n);
      this.slotIds = new Uint32Array(2 * n);
    }
    const { order, next, slotIds } = this;
    for (let slot = 0; slot < n; slot++) slotIds[slot] = wordIds[slotWords[slot]!]!;
    sortSlots(slotIds, order, n);
    for (let i = 0; i < n; i++) next[i] = 0;
    for (let t = 0; t < tokenSlots.length; t++) next[tokenSlots[t]!]!++;
    let offset = 0;
    for (let i = 0; i < n; i++) {
      const slot = order[i]!;
      const count = next[slot]!;
      next[slot] = offset;
      offset += count;
    }
    const fieldCount = fieldPairs.length >>> 1;
    const length = 2 + fieldCount + 2 * tokenSlots.length;
    const all = this.out.ensure(length);
    let at = 0;
    all[at++] = fieldCount;
    for (let p = 0; p < fieldPairs.length; p += 2) all[at++] = (fieldPairs[p]! << 16) | Math.min(fieldPairs[p + 1]!, 0xffff);
    all[at++] = tokenSlots.length;
    for (let t = 0; t < tokenSlots.length; t++) {
      const slot = tokenSlots[t]!;
      const to = at + 2 * next[slot]!++;
      all[to] = slotIds[slot]!;
      all[to + 1] = places[t]!;
    }
    return this.out.bytes(length);
  }
}

let scratchKeys = new Float64Array(256);

/** Fills `order[0, n)` with the slots 0..n-1 sorted by their (distinct) ids. */
function sortSlots(ids: Uint32Array, order: Int32Array, n: number): void {
  if (n <= 48) {
    for (let i = 0; i < n; i++) {
      const slot = i;
      const id = ids[slot]!;
      let j = i;
      while (j > 0 && ids[order[j - 1]!]! > id) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = slot;
    }
    return;
  }
  // ids below 2^32 and slots below 2^21 pack exactly into one double: a numeric sort, no comparator
  if (n < 1 << 21) {
    const keys = (scratchKeys = scratchKeys.length >= n ? scratchKeys : new Float64Array(2 * n)).subarray(0, n);
    for (let slot = 0; slot < n; slot++) keys[slot] = ids[slot]! * 2 ** 21 + slot;
    keys.sort();
    for (let i = 0; i < n; i++) order[i] = keys[i]! % 2 ** 21;
    return;
  }
  const sorted = Array.from({ length: n }, (_, slot) => slot).sort((a, b) => ids[a]! - ids[b]!);
  for (let i = 0; i < n; i++) order[i] = sorted[i]!;
}

export function decodeForward(bytes: Uint8Array): ForwardRecord {
  const all = toU32(bytes);
  const nFields = all[0]!;
  const fieldWords = new Map<number, number>();
  for (let i = 0; i < nFields; i++) fieldWords.set(all[1 + i]! >>> 16, all[1 + i]! & 0xffff);
  const n = all[1 + nFields]!;
  const wordIds = new Uint32Array(n);
  const places = new Uint32Array(n);
  let at = 2 + nFields;
  for (let i = 0; i < n; i++) {
    wordIds[i] = all[at++]!;
    places[i] = all[at++]!;
  }
  return { fieldWords, wordIds, places };
}
