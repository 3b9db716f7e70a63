/**
 * Writes an index bundle (format.ts) from an index's LMDB environment: every database the read
 * path reads, copied entry by entry in LMDB's key order with the stored value bytes as they are
 * (postings and word records in a compact form that decodes to them, codec.ts), so that the
 * bundle reader (reader.ts) answers every read as LMDB does. Documents (their JSON text) can be
 * projected to some fields (`fields`), which then are all a search over the bundle shows.
 * Synchronous from the first read to the last, so every database is read in the same snapshot.
 * No file IO: the caller writes the bytes.
 */
import { writeKey } from 'ordered-binary';
import { stringifyReply } from '../../types/reply-text.js';
import type { IndexEnv } from '../index-env.js';
import { INDEX_DB_KEYS, INDEX_DB_VALUES, INDEX_DBS } from '../index-read-env.js';
import { projectDocument } from '../documents/project.js';
import type { JsonObject } from '../document-id.js';
import { encodeValue, type ValueCoding } from './codec.js';
import { BUNDLE_FORMAT_VERSION, BUNDLE_HEADER_BYTES, BUNDLE_MAGIC, compareBytes, type BundleDbName, type BundleDbToc, type BundleIndexInfo, type BundleToc } from './format.js';

export interface BundleSource {
  readonly env: IndexEnv;
  readonly index: BundleIndexInfo;
  readonly features: Readonly<Record<string, boolean | null>>;
  /**
   * Document fields to keep (as the documents route's `fields`: dot paths select nested
   * fields), null for whole documents. The primary key, the distinct attribute and `_geo` are
   * kept whatever the list, since search reads them.
   */
  readonly fields: readonly string[] | null;
  /** the distinct attribute of the index's settings */
  readonly distinctAttribute: string | null;
}

/** How the bundle stores each database's values: postings and word records compacted (codec.ts). */
const CODINGS: Record<BundleDbName, ValueCoding> = {
  ...INDEX_DB_VALUES,
  wordDocids: 'posting',
  prefixDocids: 'posting',
  postingBlocks: 'posting',
  docWords: 'u32-varint',
};

/** One database's entries as they go into its section. */
interface Entries {
  readonly keys: Uint8Array[] | number[];
  readonly values: Uint8Array[];
}

const align8 = (n: number) => (n + 7) & ~7;

/**
 * A copy of the `length` bytes of an lmdb buffer: a fast read's buffer reports the value's length
 * but may view lmdb's whole shared region, which copying by iteration would take in.
 */
function copy(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length).slice();
}

/** A database's entries: keys in the bytes the section stores, values copied out of LMDB. */
function readEntries(name: BundleDbName, env: IndexEnv, project: ((doc: JsonObject) => JsonObject) | null): Entries {
  const db = env[name] as unknown as { getKeys(range: object): Iterable<unknown>; getBinaryFast(key: unknown): Buffer | undefined; get(key: unknown): unknown };
  const kind = INDEX_DB_KEYS[name];
  const keys: (Uint8Array | number)[] = [];
  const values: Uint8Array[] = [];
  const scratch = new Uint8Array(4096);
  for (const key of db.getKeys({})) {
    let keyBytes: Uint8Array | number;
    if (kind === 'uint32') keyBytes = key as number;
    else if (kind === 'binary') keyBytes = copy(key as Uint8Array);
    else keyBytes = scratch.slice(0, writeKey(key as string, scratch, 0));
    const previous = keys[keys.length - 1];
    // the bundle's lookups find keys by bisection: the order must be the one LMDB kept
    if (previous !== undefined && (kind === 'uint32' ? (previous as number) >= (keyBytes as number) : compareBytes(previous as Uint8Array, 0, (previous as Uint8Array).length, keyBytes as Uint8Array) >= 0)) {
      throw new Error(`the keys of \`${INDEX_DBS[name]}\` are not in the order the bundle expects`);
    }
    keys.push(keyBytes);
    const coding = CODINGS[name];
    if (project !== null) values.push(Buffer.from(stringifyReply(project(db.get(key) as JsonObject))));
    else if (coding === 'posting' || coding === 'u32-varint') values.push(encodeValue(coding, copy(db.getBinaryFast(key)!)));
    else values.push(copy(db.getBinaryFast(key)!));
  }
  return { keys, values } as Entries;
}

/** The bundle's bytes: the index's databases as of one read snapshot of `source.env`. */
export function writeBundle(source: BundleSource, exportedAt: string): Uint8Array {
  const { fields } = source;
  const kept = fields === null ? null : [...new Set([...fields, ...(source.index.primaryKey === null ? [] : [source.index.primaryKey]), ...(source.distinctAttribute === null ? [] : [source.distinctAttribute]), '_geo'])];
  const project = kept === null ? null : (doc: JsonObject) => projectDocument(doc, kept);

  const names = Object.keys(INDEX_DBS) as BundleDbName[];
  const entries = new Map(names.map((name) => [name, readEntries(name, source.env, name === 'documents' ? project : null)]));

  // sections laid out after the table, their offsets counted from its end (format.ts)
  let at = 0;
  const place = (length: number) => {
    const region = { offset: at, length };
    at = align8(at + length);
    return region;
  };
  const dbs = {} as Record<BundleDbName, BundleDbToc>;
  for (const name of names) {
    const { keys, values } = entries.get(name)!;
    const kind = INDEX_DB_KEYS[name];
    const keyIndex = place(4 * keys.length);
    const keyBytes = kind === 'uint32' ? undefined : place((keys as Uint8Array[]).reduce((sum, key) => sum + key.length, 0));
    const valueEnds = place(4 * values.length);
    const valueBytes = place(values.reduce((sum, value) => sum + value.length, 0));
    if (valueBytes.length > 0xffffffff || (keyBytes?.length ?? 0) > 0xffffffff) throw new Error(`\`${INDEX_DBS[name]}\` is too large for an index bundle (4 GiB per section)`);
    dbs[name] = { keys: kind, values: CODINGS[name], count: keys.length, keyIndex, ...(keyBytes === undefined ? {} : { keyBytes }), valueEnds, valueBytes };
  }
  const toc: BundleToc = { index: source.index, features: source.features, exportedAt, fields: kept, dbs };
  const tocJson = new TextEncoder().encode(JSON.stringify(toc));
  const tocLength = align8(tocJson.length);
  const base = BUNDLE_HEADER_BYTES + tocLength;

  const out = new Uint8Array(base + at);
  out.set(new TextEncoder().encode(BUNDLE_MAGIC), 0);
  const header = new DataView(out.buffer);
  header.setUint32(8, BUNDLE_FORMAT_VERSION, true);
  header.setUint32(12, tocLength, true);
  out.set(tocJson, BUNDLE_HEADER_BYTES);
  out.fill(0x20, BUNDLE_HEADER_BYTES + tocJson.length, base);
  for (const name of names) {
    const { keys, values } = entries.get(name)!;
    const section = dbs[name];
    const index = new DataView(out.buffer, base + section.keyIndex.offset, section.keyIndex.length);
    if (section.keys === 'uint32') {
      (keys as number[]).forEach((key, i) => index.setUint32(4 * i, key, true));
    } else {
      let end = 0;
      (keys as Uint8Array[]).forEach((key, i) => {
        out.set(key, base + section.keyBytes!.offset + end);
        end += key.length;
        index.setUint32(4 * i, end, true);
      });
    }
    const ends = new DataView(out.buffer, base + section.valueEnds.offset, section.valueEnds.length);
    let end = 0;
    values.forEach((value, i) => {
      out.set(value, base + section.valueBytes.offset + end);
      end += value.length;
      ends.setUint32(4 * i, end, true);
    });
  }
  return out;
}
