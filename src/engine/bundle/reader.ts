/**
 * Opens an index bundle (format.ts) from its bytes: an `IndexReadEnv` whose databases are the
 * bundle's sorted keys with their values decoded on demand, read in place from the one buffer.
 * The engine's read path (search, facets, filters, formatting) runs over it as over LMDB: keys
 * order and compare as LMDB orders them, `get` decodes msgpack and JSON documents as lmdb does,
 * binary values and keys come back as Buffers viewing the bundle's bytes (postings and word records
 * decoded from their compact form, codec.ts; decoded postings are kept within a memory budget, as
 * LMDB's pages stay in the page cache). Nothing writes: a write asked of a database throws
 * `BundleReadOnlyError`.
 *
 * No Node built-in is imported: a browser build loads this module and gives it the bytes it
 * fetched (the read path uses `Buffer`, which a browser gets from the `buffer` package as
 * `globalThis.Buffer`).
 */
import { documentCodec } from '../../store/json-documents.js';
import { ProtoSafePackr } from '../../store/proto-safe-packr.js';
import { readKey, writeKey } from 'ordered-binary';
import { CacheBudget } from '../cache-budget.js';
import type { IndexReadEnv, ReadDb, ReadRange } from '../index-read-env.js';
import { decodeValue } from './codec.js';
import { BUNDLE_FORMAT_VERSION, BUNDLE_HEADER_BYTES, BUNDLE_MAGIC, compareBytes, type BundleDbName, type BundleDbToc, type BundleRegion, type BundleToc } from './format.js';

/** Bytes that are not an index bundle this version reads. */
export class BundleFormatError extends Error {}

/** A write asked of a bundle, which is read-only. */
export class BundleReadOnlyError extends Error {
  constructor() {
    super('An index bundle is read-only: export a new bundle from the index to change it.');
  }
}

/** An opened bundle: what it says of its index, and the storage the read path takes. */
export interface IndexBundle {
  readonly toc: BundleToc;
  readonly env: IndexReadEnv;
}

// lmdb decodes values with msgpackr and `copyBuffers` (open.js), through the codec that keeps
// `__proto__` keys (store/proto-safe-packr.ts); records carry their structures
const unpackr = new ProtoSafePackr({ copyBuffers: true });

/** Decoded postings kept, all bundles together (cache-budget.ts). */
const budget = new CacheBudget(32 * 1024 * 1024);

/** A Buffer viewing `length` bytes at `offset` of `bytes`, not a copy. */
function view(bytes: Uint8Array, offset: number, length: number): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset + offset, length);
}

function u32s(bytes: Uint8Array, offset: number, count: number): Uint32Array {
  return new Uint32Array(bytes.buffer, bytes.byteOffset + offset, count);
}

/** Where a key would go among the sorted keys: the first index whose key is ≥ (or > with `after`) it. */
type Bound = (probe: unknown, after: boolean) => number;
/** Whether the key at an index is the probe. */
type Equal = (i: number, probe: unknown) => boolean;

/** One database of a bundle, implementing the reads `ReadDb` names. */
class BundleDb<V, K> implements ReadDb<V, K> {
  private readonly count: number;
  private readonly valueEnds: Uint32Array;
  private readonly valueBase: number;
  private readonly bound: Bound;
  private readonly equal: Equal;
  private readonly keyAt: (i: number) => K;
  private scratch = new Uint8Array(1024);

  constructor(
    private readonly bytes: Uint8Array,
    private readonly toc: BundleDbToc,
    /** where the sections start: the offsets in `toc` count from there */
    sections: number,
  ) {
    this.count = toc.count;
    this.valueEnds = u32s(bytes, sections + toc.valueEnds.offset, toc.count);
    this.valueBase = sections + toc.valueBytes.offset;
    if (toc.keys === 'uint32') {
      const keys = u32s(bytes, sections + toc.keyIndex.offset, toc.count);
      this.keyAt = (i) => keys[i] as K;
      this.equal = (i, probe) => keys[i] === probe;
      this.bound = (probe, after) => {
        const key = probe as number;
        let lo = 0;
        let hi = this.count;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (keys[mid]! < key || (after && keys[mid] === key)) lo = mid + 1;
          else hi = mid;
        }
        return lo;
      };
    } else {
      const ends = u32s(bytes, sections + toc.keyIndex.offset, toc.count);
      const base = sections + toc.keyBytes!.offset;
      const start = (i: number) => base + (i === 0 ? 0 : ends[i - 1]!);
      this.keyAt =
        toc.keys === 'string'
          ? (i) => readKey(bytes, start(i), base + ends[i]!) as K
          : (i) => view(bytes, start(i), base + ends[i]! - start(i)) as K;
      this.equal = (i, probe) => compareBytes(bytes, start(i), base + ends[i]!, this.encodeKey(probe as K)) === 0;
      this.bound = (probe, after) => {
        const key = this.encodeKey(probe as K);
        let lo = 0;
        let hi = this.count;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          const order = compareBytes(bytes, start(mid), base + ends[mid]!, key);
          if (order < 0 || (after && order === 0)) lo = mid + 1;
          else hi = mid;
        }
        return lo;
      };
    }
  }

  /** A string or binary key's bytes as the section stores them. */
  private encodeKey(key: K): Uint8Array {
    if (this.toc.keys === 'binary') return key as Uint8Array;
    const text = key as string;
    // ordered-binary writes at most 3 bytes per UTF-16 unit, plus an escape byte
    if (this.scratch.length < 3 * text.length + 8) this.scratch = new Uint8Array(3 * text.length + 8);
    return this.scratch.subarray(0, writeKey(text, this.scratch, 0));
  }

  /** The index of `key`, or -1. */
  private find(key: K): number {
    const at = this.bound(key, false);
    return at < this.count && this.equal(at, key) ? at : -1;
  }

  /** decoded postings by index: the same words and prefixes come back query after query */
  private readonly decoded = new Map<number, Buffer>();

  /** The value's bytes as LMDB stores them: a view of the bundle, or decoded from its compact form. */
  private valueBytes(i: number): Buffer {
    const start = i === 0 ? 0 : this.valueEnds[i - 1]!;
    const stored = view(this.bytes, this.valueBase + start, this.valueEnds[i]! - start);
    const coding = this.toc.values;
    // word records are kept decoded by their reader (search/forward.ts)
    if (coding === 'u32-varint') return decodeValue(coding, stored);
    if (coding !== 'posting') return stored;
    let value = this.decoded.get(i);
    if (value === undefined) {
      value = decodeValue(coding, stored);
      budget.charge(this.decoded, value.length);
      this.decoded.set(i, value);
    }
    return value;
  }

  private value(i: number): V {
    const bytes = this.valueBytes(i);
    const coding = this.toc.values;
    return (coding === 'msgpack' ? unpackr.unpack(bytes) : coding === 'json' ? documentCodec.decode(bytes) : bytes) as V;
  }

  get(key: K): V | undefined {
    const at = this.find(key);
    return at < 0 ? undefined : this.value(at);
  }

  getBinary(key: K): Buffer | undefined {
    const at = this.find(key);
    return at < 0 ? undefined : this.valueBytes(at);
  }

  getBinaryFast(key: K): Buffer | undefined {
    return this.getBinary(key);
  }

  /** The indexes a range covers, in its order. */
  private *indexes(range: ReadRange<K> = {}): Generator<number> {
    const { start, end, reverse = false, exclusiveStart = false, inclusiveEnd = false } = range;
    let from: number;
    let to: number;
    let step: number;
    if (reverse) {
      from = start === undefined ? this.count - 1 : this.bound(start, !exclusiveStart) - 1;
      to = end === undefined ? -1 : this.bound(end, !inclusiveEnd) - 1;
      step = -1;
    } else {
      from = start === undefined ? 0 : this.bound(start, exclusiveStart);
      to = end === undefined ? this.count : this.bound(end, inclusiveEnd);
      step = 1;
    }
    let skip = range.offset ?? 0;
    let left = range.limit ?? Number.POSITIVE_INFINITY;
    for (let i = from; step > 0 ? i < to : i > to; i += step) {
      if (skip > 0) {
        skip--;
        continue;
      }
      if (left-- <= 0) return;
      yield i;
    }
  }

  *getRange(range?: ReadRange<K>): Generator<{ key: K; value: V }> {
    for (const i of this.indexes(range)) yield { key: this.keyAt(i), value: this.value(i) };
  }

  *getKeys(range?: ReadRange<K>): Generator<K> {
    for (const i of this.indexes(range)) yield this.keyAt(i);
  }

  getCount(): number {
    return this.count;
  }

  putSync(): never {
    throw new BundleReadOnlyError();
  }

  removeSync(): never {
    throw new BundleReadOnlyError();
  }

  clearSync(): never {
    throw new BundleReadOnlyError();
  }
}

/** The table of contents, and where the sections start. */
function readToc(bytes: Uint8Array): { toc: BundleToc; sections: number } {
  const magic = new TextDecoder().decode(bytes.subarray(0, BUNDLE_MAGIC.length));
  if (bytes.length < BUNDLE_HEADER_BYTES || magic !== BUNDLE_MAGIC) throw new BundleFormatError('These bytes are not a Quarry index bundle.');
  const header = new DataView(bytes.buffer, bytes.byteOffset, BUNDLE_HEADER_BYTES);
  const version = header.getUint32(8, true);
  if (version !== BUNDLE_FORMAT_VERSION) {
    throw new BundleFormatError(`This index bundle has format ${version}; this version of Quarry reads format ${BUNDLE_FORMAT_VERSION}.`);
  }
  const length = header.getUint32(12, true);
  if (BUNDLE_HEADER_BYTES + length > bytes.length) throw new BundleFormatError('This index bundle is truncated.');
  try {
    const toc = JSON.parse(new TextDecoder().decode(bytes.subarray(BUNDLE_HEADER_BYTES, BUNDLE_HEADER_BYTES + length))) as BundleToc;
    if (typeof toc?.index?.uid === 'string' && typeof toc.dbs === 'object' && toc.dbs !== null) return { toc, sections: BUNDLE_HEADER_BYTES + length };
  } catch {
    // refused below
  }
  throw new BundleFormatError("This index bundle's table of contents is damaged.");
}

/**
 * Every region a section names lies inside the bundle, its u32 arrays 4-byte aligned, and its
 * end offsets ascend to the end of their bytes: whatever the bytes, a read stays inside them.
 */
function checkSection(name: string, toc: BundleDbToc, bytes: Uint8Array, sections: number): void {
  const damaged = () => new BundleFormatError(`This index bundle's \`${name}\` section is damaged.`);
  const regions = [toc.keyIndex, toc.valueEnds, toc.valueBytes, ...(toc.keyBytes === undefined ? [] : [toc.keyBytes])];
  const fits = regions.every((r) => Number.isInteger(r.offset) && Number.isInteger(r.length) && r.offset >= 0 && r.length >= 0 && sections + r.offset + r.length <= bytes.length);
  const aligned = (sections + toc.keyIndex.offset) % 4 === 0 && (sections + toc.valueEnds.offset) % 4 === 0;
  const known = ['msgpack', 'binary', 'json', 'posting', 'u32-varint'].includes(toc.values) && ['string', 'uint32', 'binary'].includes(toc.keys);
  if (!fits || !aligned || !known || toc.keyIndex.length !== 4 * toc.count || toc.valueEnds.length !== 4 * toc.count || (toc.keys !== 'uint32') !== (toc.keyBytes !== undefined)) {
    throw damaged();
  }
  const ascending = (ends: BundleRegion, of: BundleRegion) => {
    const list = u32s(bytes, sections + ends.offset, toc.count);
    let previous = 0;
    for (const end of list) {
      if (end < previous) return false;
      previous = end;
    }
    return previous === of.length;
  };
  if (!ascending(toc.valueEnds, toc.valueBytes) || (toc.keyBytes !== undefined && !ascending(toc.keyIndex, toc.keyBytes))) throw damaged();
}

/**
 * Opens the bundle held by `data` (the whole file), which must not change afterwards: its values
 * are read in place. Throws `BundleFormatError` for bytes that are not a bundle of this format.
 */
export function openBundle(data: ArrayBuffer | Uint8Array, uuid: string = crypto.randomUUID()): IndexBundle {
  let bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  // the sections' u32 arrays are read in place, which needs the file 4-byte aligned in memory
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  if (new Uint8Array(Uint32Array.of(1).buffer)[0] !== 1) throw new BundleFormatError('Index bundles are read on little-endian machines only.');
  const { toc, sections } = readToc(bytes);
  const db = <V, K>(name: BundleDbName): ReadDb<V, K> => {
    const section = toc.dbs[name];
    if (section === undefined) throw new BundleFormatError(`This index bundle has no \`${name}\` section.`);
    checkSection(name, section, bytes, sections);
    return new BundleDb<V, K>(bytes, section, sections);
  };
  const env: IndexReadEnv = {
    // a fresh id per opening: caches keyed by it (vector graphs) never mix it with an LMDB index of the same uuid
    uuid,
    main: db('main'),
    documents: db('documents'),
    externalIds: db('externalIds'),
    facetDocids: db('facetDocids'),
    geoPoints: db('geoPoints'),
    // bundles written before shapes were indexed have none: a `_geojson` filter over them is refused
    ...(toc.dbs.geojsonShapes === undefined ? {} : { geojsonShapes: db<Buffer, number>('geojsonShapes') }),
    wordDocids: db('wordDocids'),
    prefixDocids: db('prefixDocids'),
    postingBlocks: db('postingBlocks'),
    docWords: db('docWords'),
    wordIds: db('wordIds'),
    vectorDocs: db('vectorDocs'),
    vectorItems: db('vectorItems'),
    vectorLinks: db('vectorLinks'),
  };
  return { toc, env };
}
