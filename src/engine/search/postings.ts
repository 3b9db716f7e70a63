/**
 * The binary forms of the word index (all little-endian u32 arrays), shared by the updater that
 * writes them (word-index.ts) and the search that reads them (context.ts):
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
export function toU32(bytes: Uint8Array): Uint32Array {
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

export function encodePosting(id: number, docids: ArrayLike<number>, masks: ArrayLike<number>, infos: ArrayLike<number>): Buffer {
  const n = docids.length;
  const all = new Uint32Array(2 + 3 * n);
  all[0] = id;
  all[1] = n;
  all.set(docids, 2);
  all.set(masks, 2 + n);
  all.set(infos, 2 + 2 * n);
  return Buffer.from(all.buffer, all.byteOffset, all.byteLength);
}

/** Entries to write into a posting: parallel columns, docids ascending. */
export interface PostingColumns {
  readonly docids: ArrayLike<number>;
  readonly masks: ArrayLike<number>;
  readonly infos: ArrayLike<number>;
}

/**
 * `base` without the `removed` docids and with `upserts` (each replacing the base entry of the
 * same document). Returns the merged columns.
 */
export function mergePosting(base: Posting, removed: readonly number[], upserts: PostingColumns): { docids: Uint32Array; masks: Uint32Array; infos: Uint32Array } {
  const n = upserts.docids.length;
  const docids = new Uint32Array(base.docids.length + n);
  const masks = new Uint32Array(docids.length);
  const infos = new Uint32Array(docids.length);
  const gone = removed.length === 0 ? null : new Set(removed);
  let k = 0;
  let u = 0;
  for (let i = 0; i < base.docids.length; i++) {
    const docid = base.docids[i]!;
    while (u < n && upserts.docids[u]! < docid) {
      docids[k] = upserts.docids[u]!;
      masks[k] = upserts.masks[u]!;
      infos[k++] = upserts.infos[u++]!;
    }
    if (u < n && upserts.docids[u] === docid) continue; // replaced below
    if (gone !== null && gone.has(docid)) continue;
    docids[k] = docid;
    masks[k] = base.masks[i]!;
    infos[k++] = base.infos[i]!;
  }
  while (u < n) {
    docids[k] = upserts.docids[u]!;
    masks[k] = upserts.masks[u]!;
    infos[k++] = upserts.infos[u++]!;
  }
  return { docids: docids.subarray(0, k), masks: masks.subarray(0, k), infos: infos.subarray(0, k) };
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
 * A forward record from a document's distinct word ids and its tokens (slot of the token's word,
 * field << 16 | position). Tokens are grouped by word id, ascending, with a counting pass rather
 * than a comparison sort of every token.
 */
export function encodeForward(fieldWords: ReadonlyMap<number, number>, slotIds: readonly number[], tokenSlots: readonly number[], places: readonly number[]): Buffer {
  const slots = Array.from(slotIds.keys()).sort((a, b) => slotIds[a]! - slotIds[b]!);
  const start = new Array<number>(slotIds.length).fill(0);
  for (const slot of tokenSlots) start[slot]!++;
  let offset = 0;
  for (const slot of slots) {
    const n = start[slot]!;
    start[slot] = offset;
    offset += n;
  }
  const all = new Uint32Array(2 + fieldWords.size + 2 * tokenSlots.length);
  let at = 0;
  all[at++] = fieldWords.size;
  for (const [field, count] of fieldWords) all[at++] = ((field << 16) | Math.min(count, 0xffff)) >>> 0;
  all[at++] = tokenSlots.length;
  tokenSlots.forEach((slot, i) => {
    const to = at + 2 * start[slot]!++;
    all[to] = slotIds[slot]!;
    all[to + 1] = places[i]!;
  });
  return Buffer.from(all.buffer, all.byteOffset, all.byteLength);
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
