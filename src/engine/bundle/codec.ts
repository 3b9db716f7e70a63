/**
 * The compact value encodings of an index bundle (format.ts) for the word index's databases
 * (words/postings.ts): postings (`posting`: their docids as varint gaps, masks and infos as
 * varints, about a third of the 12 bytes per document of the columns layout) and forward word
 * records (`u32-varint`: each u32 as a varint). Decoding gives back a posting in the columns
 * layout (a packed one is unpacked before encoding) and a record's exact bytes, which the read
 * path reads as it reads LMDB's. A value whose shape the codec does not expect is kept as it is.
 * No Node built-in here (`Buffer` is the global, as in the reader).
 */
import { PACKED, postingCount, postingFirstWord, unpackEntries } from '../words/postings.js';

/** How a bundle stores a database's values. */
export type ValueCoding = 'msgpack' | 'binary' | 'json' | 'posting' | 'u32-varint';

/** First byte of an encoded value. */
const enum Tag {
  /** the stored bytes follow as they are */
  Raw = 0,
  Coded = 1,
}

/** A growable byte buffer the encoder writes varints into. */
class Bytes {
  bytes = new Uint8Array(256);
  length = 0;

  byte(b: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(2 * this.bytes.length);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = b;
  }

  varint(n: number): void {
    while (n >= 0x80) {
      this.byte((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    this.byte(n);
  }

  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

function raw(stored: Uint8Array): Uint8Array {
  const out = new Uint8Array(stored.length + 1);
  out[0] = Tag.Raw;
  out.set(stored, 1);
  return out;
}

/** A packed posting in the columns layout (words/postings.ts), its first u32 without PACKED. */
function columnsOf(stored: Uint8Array): Uint8Array {
  const n = postingCount(stored);
  const words = new Uint32Array(2 + 3 * n);
  words[0] = postingFirstWord(stored) & ~PACKED;
  words[1] = n;
  unpackEntries(stored, n, words, 2, 2 + n, 2 + 2 * n);
  return new Uint8Array(words.buffer);
}

function u32sOf(stored: Uint8Array): Uint32Array {
  const out = new Uint32Array(stored.length >>> 2);
  new Uint8Array(out.buffer).set(stored.subarray(0, out.byteLength));
  return out;
}

/** The bundle's form of a stored value of a `posting` or `u32-varint` database. */
export function encodeValue(coding: 'posting' | 'u32-varint', stored: Uint8Array): Uint8Array {
  if (coding === 'posting' && stored.length >= 8 && (postingFirstWord(stored) & PACKED) !== 0) stored = columnsOf(stored);
  if (stored.length % 4 !== 0) return raw(stored);
  const words = u32sOf(stored);
  const out = new Bytes();
  out.byte(Tag.Coded);
  if (coding === 'u32-varint') {
    for (const word of words) out.varint(word);
    return out.done();
  }
  const n = words[1];
  if (n === undefined || words.length !== 2 + 3 * n) return raw(stored);
  out.varint(words[0]!);
  out.varint(n);
  for (let i = 0; i < n; i++) {
    const gap = words[2 + i]! - (i === 0 ? 0 : words[1 + i]!);
    // docids ascend: anything else is kept as stored
    if (i > 0 && gap <= 0) return raw(stored);
    out.varint(gap);
  }
  for (let i = 2 + n; i < 2 + 3 * n; i++) out.varint(words[i]!);
  return out.done();
}

/** A value that is not what `encodeValue` writes (a damaged bundle). */
export class DamagedValueError extends Error {
  constructor() {
    super('This index bundle holds a damaged value.');
  }
}

/**
 * The stored bytes of a value `encodeValue` encoded (`bytes`), as a Buffer of their own. Throws
 * `DamagedValueError` for bytes it did not write, never reading past them.
 */
export function decodeValue(coding: 'posting' | 'u32-varint', bytes: Uint8Array): Buffer {
  if (bytes[0] === Tag.Raw) return Buffer.from(bytes.subarray(1));
  let at = 1;
  const varint = (): number => {
    let n = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= bytes.length) break;
      const b = bytes[at++]!;
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
    }
    throw new DamagedValueError();
  };
  let words: Uint32Array;
  if (coding === 'u32-varint') {
    // at most one word per encoded byte
    const all = new Uint32Array(bytes.length - 1);
    let count = 0;
    while (at < bytes.length) all[count++] = varint();
    words = all.subarray(0, count);
  } else {
    const id = varint();
    const n = varint();
    // each document takes at least three bytes
    if (3 * n > bytes.length - at) throw new DamagedValueError();
    words = new Uint32Array(2 + 3 * n);
    words[0] = id;
    words[1] = n;
    let docid = 0;
    for (let i = 0; i < n; i++) words[2 + i] = docid += varint();
    for (let i = 2 + n; i < 2 + 3 * n; i++) words[i] = varint();
  }
  return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
}
