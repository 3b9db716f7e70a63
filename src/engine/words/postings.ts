/**
 * The binary forms of the word index (all little-endian u32 arrays), shared by the updater that
 * writes them (word-index.ts) and the search that reads them (../search/):
 *
 * - Posting (`word-docids` value, keyed by the normalised word; `word-prefix-docids` value, keyed
 *   by a 1–3 character prefix): [id, n, docids × n, masks × n, infos × n]. `id` is the word's
 *   stable id (0 in prefix postings); docids ascend. Per document:
 *   - mask: bit f = the word occurs in search field f (fields ≥ 31 share bit 31);
 *   - info: lowest position of the word over its fields (INFO_POSITION), plus INFO_WHOLE_FIELD
 *     when some field holds this word and nothing else (exactness of a one-word query).
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

/** Copies stored bytes into an aligned array (LMDB values are not 4-byte aligned). */
function toU32(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length >>> 2);
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.byteLength));
  return out;
}

export function decodePosting(bytes: Uint8Array | undefined): Posting {
  if (bytes === undefined || bytes.length < 8) return EMPTY_POSTING;
  const all = toU32(bytes);
  const n = all[1]!;
  return { id: all[0]!, docids: all.subarray(2, 2 + n), masks: all.subarray(2 + n, 2 + 2 * n), infos: all.subarray(2 + 2 * n, 2 + 3 * n) };
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
 * stored bytes are read in place (aligned once) and the merged posting is encoded directly,
 * without intermediate columns. The word-index updater merges every touched key this way.
 */
export class PostingMerger {
  private readonly base = new ValueBuffer();
  private readonly out = new ValueBuffer();
  private length = 0;
  /** id and document count of the posting last merged, as stored */
  baseId = 0;
  baseCount = 0;
  /** document count after the merge */
  count = 0;

  /**
   * Merges `stored` (a posting's bytes, or undefined) without the `removed` docids and with
   * `upserts` (each replacing the stored entry of the same document).
   */
  merge(stored: Uint8Array | undefined, removed: readonly number[], upserts: PostingColumns): this {
    const words = stored === undefined || stored.length < 8 ? 0 : stored.length >>> 2;
    const base = this.base.ensure(words);
    if (words > 0) new Uint8Array(base.buffer, 0, 4 * words).set(stored!.subarray(0, 4 * words));
    const nb = words === 0 ? 0 : base[1]!;
    const n = upserts.docids.length;
    this.baseId = words === 0 ? 0 : base[0]!;
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
    this.length = 2 + 3 * k;
    return this;
  }

  /** The merged posting as [id, count, docids, masks, infos], valid until the next merge. */
  columns(): Uint32Array {
    return this.out.array;
  }

  /** The merged posting's bytes with word id `id`, valid until the next merge. */
  encoded(id: number): Buffer {
    this.out.array[0] = id;
    return this.out.bytes(this.length);
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
