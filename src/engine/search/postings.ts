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
 *   nFields, nTokens, (wordId, field << 16 | position) × nTokens], tokens sorted by word id then
 *   field and position: the positions proximity, phrases and multi-word exactness need.
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

/** One document's entry in a posting. */
export interface PostingEntry {
  docid: number;
  mask: number;
  info: number;
}

/**
 * `base` without the `removed` docids and with `upserts` (ascending docids, each replacing the
 * base entry of the same document). Returns the merged columns.
 */
export function mergePosting(
  base: Posting,
  removed: readonly number[],
  upserts: readonly PostingEntry[],
): { docids: Uint32Array; masks: Uint32Array; infos: Uint32Array } {
  const docids = new Uint32Array(base.docids.length + upserts.length);
  const masks = new Uint32Array(docids.length);
  const infos = new Uint32Array(docids.length);
  const gone = removed.length === 0 ? null : new Set(removed);
  let k = 0;
  let u = 0;
  for (let i = 0; i < base.docids.length; i++) {
    const docid = base.docids[i]!;
    while (u < upserts.length && upserts[u]!.docid < docid) {
      const e = upserts[u++]!;
      docids[k] = e.docid;
      masks[k] = e.mask;
      infos[k++] = e.info;
    }
    if (u < upserts.length && upserts[u]!.docid === docid) continue; // replaced below
    if (gone !== null && gone.has(docid)) continue;
    docids[k] = docid;
    masks[k] = base.masks[i]!;
    infos[k++] = base.infos[i]!;
  }
  while (u < upserts.length) {
    const e = upserts[u++]!;
    docids[k] = e.docid;
    masks[k] = e.mask;
    infos[k++] = e.info;
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

export function encodeForward(fieldWords: ReadonlyMap<number, number>, tokens: readonly [number, number][]): Buffer {
  const sorted = [...tokens].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const all = new Uint32Array(2 + fieldWords.size + 2 * sorted.length);
  let at = 0;
  all[at++] = fieldWords.size;
  for (const [field, count] of fieldWords) all[at++] = ((field << 16) | Math.min(count, 0xffff)) >>> 0;
  all[at++] = sorted.length;
  for (const [id, place] of sorted) {
    all[at++] = id;
    all[at++] = place;
  }
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
