/**
 * The index bundle's file format, shared by its writer (write.ts) and its reader (reader.ts): one
 * file holding every database of an index a search reads, so the engine's read path can run over
 * it in a browser as it runs over LMDB.
 *
 *   bytes 0–7    magic `QRYBNDL\0`
 *   bytes 8–11   format version (u32 LE)
 *   bytes 12–15  length T of the table of contents (u32 LE)
 *   bytes 16–    the table of contents (JSON, UTF-8), padded with spaces to a multiple of 8
 *   then         each database's section, 8-byte aligned, at the offsets the table gives
 *                (counted from the end of the padded table)
 *
 * A section holds `count` entries in lmdb's key order. Its keys: for `uint32` keys, `count` u32
 * LE; for `string` and `binary` keys, `count` u32 LE end offsets then the keys' bytes back to back
 * (string keys as lmdb's ordered-binary encodes them, so they compare bytewise as LMDB compares
 * them). Its values: `count` u32 LE end offsets, then the values' bytes: as LMDB stores them
 * (msgpack, JSON text for documents, or raw bytes), or for postings and word records in the
 * compact forms of codec.ts.
 * No Node built-in here.
 */
import type { INDEX_DBS } from '../index-read-env.js';
import type { ValueCoding } from './codec.js';

export const BUNDLE_MAGIC = 'QRYBNDL\0';
export const BUNDLE_FORMAT_VERSION = 1;
/** magic, version, table length */
export const BUNDLE_HEADER_BYTES = 16;

export type BundleDbName = keyof typeof INDEX_DBS;

/** Where one byte region lies in the file. */
export interface BundleRegion {
  readonly offset: number;
  readonly length: number;
}

/** One database's section. */
export interface BundleDbToc {
  readonly keys: 'string' | 'uint32' | 'binary';
  /** as LMDB stores them (`msgpack`, `binary`, `json`), or in a compact form of the bytes LMDB stores (codec.ts) */
  readonly values: ValueCoding;
  readonly count: number;
  /** the u32 keys, or the keys' end offsets */
  readonly keyIndex: BundleRegion;
  /** the keys' bytes (absent for u32 keys) */
  readonly keyBytes?: BundleRegion;
  readonly valueEnds: BundleRegion;
  readonly valueBytes: BundleRegion;
}

/** What the bundle says of the index it was made from. */
export interface BundleIndexInfo {
  readonly uid: string;
  readonly primaryKey: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface BundleToc {
  readonly index: BundleIndexInfo;
  /** the instance's experimental features when the bundle was made (filters may need some) */
  readonly features: Readonly<Record<string, boolean | null>>;
  /** RFC 3339 time of the export */
  readonly exportedAt: string;
  /** the document fields kept (`--fields`), null for whole documents */
  readonly fields: readonly string[] | null;
  readonly dbs: Readonly<Record<BundleDbName, BundleDbToc>>;
}

/** Bytewise comparison of `a[aStart, aEnd)` with `b`, as LMDB compares keys (memcmp, then length). */
export function compareBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array): number {
  const n = Math.min(aEnd - aStart, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[aStart + i]! - b[i]!;
    if (d !== 0) return d;
  }
  return aEnd - aStart - b.length;
}
