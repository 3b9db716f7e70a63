/**
 * msgpack for LMDB values that keeps a key named `__proto__`. msgpackr's decoder renames that
 * key to `__proto_` (to keep it from setting a prototype), so a document field `__proto__`, at
 * any depth, came back from the store as `__proto_`, where Meilisearch keeps it as sent.
 *
 * Keys `__proto` followed by n ≥ 1 underscores are written with n + 2 (so no stored key is
 * ever `__proto__`) and read back with n − 2; keys of n ≤ 2 read as they are (older data: a
 * `__proto_` there may have been either). Only values whose bytes hold such a key pay for it:
 * a native byte search decides, then the value is walked and packed again.
 * lmdb builds it as a database's encoder (`openDB({ ...PROTO_SAFE_VALUES })`; a root's encoder is
 * not inherited) with the options it gives its own msgpack encoder, so every other value's bytes
 * are unchanged.
 *
 * An object of more than 64 keys is written as a plain map, not as one of msgpackr's records: a
 * record's keys become a structure the encoder keeps (a transition object per key) and the
 * decoder compiles a reader for, which a settings update of 100,000 synonyms paid at each read
 * and write of its task (its PATCH answered in 0.99-1.03 s with records, 0.80-0.82 s without).
 * Both forms read back alike, so values written either way stay readable; a map reads back as an
 * object (no value Quarry stores holds a Map), as records-off msgpackr reads it.
 */
import { Packr, REUSE_BUFFER_MODE, type Options } from 'msgpackr';

/** What msgpackr answers in REUSE_BUFFER_MODE: its whole buffer, the value between start and end. */
type Reused = Buffer & { start: number; end: number };

const PREFIX = '__proto';
/** In a value's bytes, any key that needs escaping... */
const NEEDS_ESCAPE = Buffer.from(`${PREFIX}_`);
/** ...and any escaped key. */
const ESCAPED = Buffer.from(`${PREFIX}___`);

/** The underscores after `__proto` when `key` is `__proto` and underscores only, else 0. */
function underscoresOf(key: string): number {
  if (!key.startsWith(PREFIX)) return 0;
  for (let at = PREFIX.length; at < key.length; at++) if (key.charCodeAt(at) !== 0x5f) return 0;
  return key.length - PREFIX.length;
}

/** `value` with every object key renamed by `rename` (a copy wherever a key changed, shared elsewhere). */
function renamed(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, rename));
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof Date) return value;
  // fromEntries defines each key as data: an assignment of `__proto__` would set the prototype
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renamed(item, rename)]));
}

const escape = (key: string) => (underscoresOf(key) > 0 ? `${key}__` : key);
const unescape = (key: string) => (underscoresOf(key) > 2 ? key.slice(0, -2) : key);

/** The most keys an object written as a record has. */
const RECORD_KEYS_MAX = 64;

/**
 * Whether `object` has at most RECORD_KEYS_MAX keys. V8 lists all the keys of an object of many
 * (a dictionary-mode one) before a `for…in` yields the first, as `Object.keys` does (both took
 * 0.3–0.48 s for 900,000 keys): no count stops early there (this one does for a small object, which
 * has its keys cached), so a large object is kept out of stored values instead (an edition's
 * context is stored as text, tasks/record-codecs.ts).
 */
function fewKeys(object: object): boolean {
  let keys = 0;
  for (const key in object) if (Object.hasOwn(object, key) && ++keys > RECORD_KEYS_MAX) return false;
  return true;
}

export class ProtoSafePackr extends Packr {
  constructor(options?: Options) {
    // a plain map of 65,536 keys or more needs msgpackr's variable map size; with records on,
    // msgpackr would read a plain map as a Map
    super({ ...options, ...(options?.useRecords === false ? {} : { useRecords: fewKeys, variableMapSize: true, mapsAsObjects: true }) });
    // msgpackr sets pack and encode as own properties of each instance
    const encode = this.encode.bind(this) as (value: unknown, mode?: number) => Buffer;
    this.pack = this.encode = ((value: unknown, mode?: number) => {
      const bytes = encode(value, mode);
      // lmdb's writes ask for REUSE_BUFFER_MODE: the whole buffer comes back, the value in [start, end)
      const written = mode !== undefined && (mode & REUSE_BUFFER_MODE) !== 0 ? bytes.subarray((bytes as Reused).start, (bytes as Reused).end) : bytes;
      return written.indexOf(NEEDS_ESCAPE) === -1 ? bytes : encode(renamed(value, escape), mode);
    }) as Packr['encode'];
  }

  // msgpackr's decode reads through unpack
  override unpack(source: Buffer | Uint8Array, options?: Parameters<Packr['unpack']>[1]): unknown {
    const value: unknown = super.unpack(source, options);
    // lmdb's fast reads hand over a large shared buffer whose `length` property it sets to the
    // value's size, which msgpackr reads and a native search would not: a view of that size then
    const own = Buffer.isBuffer(source) && source.length === source.byteLength;
    const bytes = own ? source : Buffer.from(source.buffer, source.byteOffset, source.length);
    return bytes.indexOf(ESCAPED) === -1 ? value : renamed(value, unescape);
  }
}

/** The `openDB` option that makes a database's msgpack values keep `__proto__` keys. */
export const PROTO_SAFE_VALUES = { encoder: { Encoder: ProtoSafePackr } };
