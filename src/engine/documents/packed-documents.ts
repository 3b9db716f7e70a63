/**
 * Documents packed as the document store writes them, off the index writer's thread: an
 * extraction worker packs the documents of its part (words/extract-ahead.ts) and the store puts
 * those bytes as they are (`asBinary`) for a document stored exactly as its payload line holds
 * it, instead of packing it again on the one writer thread.
 *
 * The store's LMDB encoder is msgpackr with records defined inline in every value (no shared
 * structures: `openDB` is given no `sharedStructuresKey`), so a value's bytes depend on the
 * value alone and a Packr of the same options in another thread writes the same bytes
 * (test/unit/engine/documents/packed-documents.test.ts holds the two to each other).
 */
import { Packr } from 'msgpackr';
import type { JsonObject } from '../document-id.js';

export interface PackedDocuments {
  /** per document (count + 1 entries): where its bytes start in `bytes` */
  readonly starts: Int32Array;
  readonly bytes: Uint8Array;
}

const packr = new Packr();

export function packDocuments(docs: readonly JsonObject[]): PackedDocuments {
  // copied at once: the Packr writes the next value into the buffer it answered the last one in
  const packed = docs.map((doc) => Uint8Array.prototype.slice.call(packr.pack(doc)));
  const starts = new Int32Array(docs.length + 1);
  packed.forEach((bytes, i) => (starts[i + 1] = starts[i]! + bytes.length));
  const bytes = new Uint8Array(starts[docs.length]!);
  packed.forEach((part, i) => bytes.set(part, starts[i]!));
  return { starts, bytes };
}

/** Document `index`'s bytes. */
export function packedAt(packed: PackedDocuments, index: number): Uint8Array {
  return packed.bytes.subarray(packed.starts[index]!, packed.starts[index + 1]!);
}
