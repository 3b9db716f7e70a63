// The bundle reader answers every read the engine's read path makes as LMDB answers it: point
// reads, ranges in both directions with every bound option, offsets and limits, counts, over
// string (ordered-binary), u32 and binary keys, msgpack values (keys named `__proto__` included)
// and compacted postings and word records; and a bundle refuses writes and foreign bytes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';

import { BundleFormatError, BundleReadOnlyError, openBundle } from '../../../../src/engine/bundle/reader.js';
import { writeBundle } from '../../../../src/engine/bundle/write.js';
import { IndexEnvs } from '../../../../src/engine/index-env.js';
import type { ReadDb, ReadRange } from '../../../../src/engine/index-read-env.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bundle-reader-'));
const envs = new IndexEnvs(dir);
afterAll(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

// keys LMDB orders in ways plain UTF-8 would not: control characters (ordered-binary escapes them),
// the empty string, long strings (another encoding path), astral characters
const STRING_KEYS = ['', '\u0001a', '\u001bz', 'a', 'ab', 'b\u0000c', 'caf\u00e9', '\u{1f600}', 'x'.repeat(70), 'x'.repeat(70) + '\u00e9', 'zz', '\u4e2d\u6587'];
const BINARY_KEYS = [[0], [0, 0], [0, 1], [1], [1, 255], [2, 0, 0, 0, 7], [255], [255, 255, 0]].map((bytes) => Buffer.from(bytes));
const U32_KEYS = [0, 1, 2, 7, 255, 256, 65_536, 0x7fffffff, 0xfffffffe];

const env = envs.get('index');
env.root.transactionSync(() => {
  STRING_KEYS.forEach((key, i) => env.main.putSync(key, { i, key, nested: [1.5, null, { deep: 'x'.repeat(i) }], bin: Buffer.from([i]) }));
  STRING_KEYS.forEach((key, i) => env.wordIds.putSync(key, Buffer.from([i, 0, 0, 0])));
  BINARY_KEYS.forEach((key, i) => env.facetDocids.putSync(key, Buffer.from([i, i, i])));
  // a key named `__proto__` (parsed: a literal's would set the prototype), which LMDB's values escape
  U32_KEYS.forEach((key, i) => env.documents.putSync(key, i === 5 ? JSON.parse(`{"id":${key},"__proto__":{"__proto_":1},"title":"doc 5"}`) : { id: key, title: `doc ${i}` }));
  // postings ([id, n, docids, masks, infos]) and word records (u32s), which the bundle compacts;
  // and values of a shape the codec keeps as they are
  STRING_KEYS.forEach((key, i) => env.wordDocids.putSync(key, posting(i)));
  env.wordDocids.putSync('odd', Buffer.from([1, 2, 3]));
  env.wordDocids.putSync('unsorted', Buffer.from(Uint32Array.of(0, 2, 9, 3, 0, 0, 0, 0).buffer));
  U32_KEYS.forEach((key, i) => env.docWords.putSync(key, Buffer.from(Uint32Array.from({ length: 3 * i }, (_, k) => (k * 0x9e3779b1) >>> 0).buffer)));
});

/** A posting of `n` documents with gaps, masks and infos of every size a varint takes. */
function posting(n: number): Buffer {
  const docids = Uint32Array.from({ length: n }, (_, k) => k * k * 1000 + (k === n - 1 ? 0xfffff000 - n * n * 1000 : 0));
  const masks = Uint32Array.from({ length: n }, (_, k) => (0x80000000 >>> k) >>> 0);
  const infos = Uint32Array.from({ length: n }, (_, k) => k * 70_000);
  return Buffer.from(Uint32Array.of(n === 3 ? 0x80000007 : n, n, ...docids, ...masks, ...infos).buffer);
}
const bundle = openBundle(
  writeBundle({ env, index: { uid: 'test', primaryKey: 'id', createdAt: 'c', updatedAt: 'u' }, features: {}, fields: null, distinctAttribute: null }, 'now'),
);

/** The `length` bytes of a fast read, copied (lmdb's buffer may view more). */
const fast = (bytes: Buffer | undefined) => (bytes === undefined ? undefined : Buffer.from(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)));

/** The same reads over both, as plain data (each read gets its own copy of the range: lmdb writes into it). */
function reads<V, K>(db: ReadDb<V, K>, keys: readonly K[], range: ReadRange<K>) {
  return {
    range: [...db.getRange({ ...range })],
    keys: [...db.getKeys({ ...range })],
    count: db.getCount(),
    gets: keys.map((key) => [db.get(key), db.getBinary(key), fast(db.getBinaryFast(key))]),
  };
}

/**
 * Ranges as the read path asks them (ReadRange): `exclusiveStart` only with a `start`,
 * `inclusiveEnd` only with an `end`, `reverse` only with an `end`.
 */
function rangeOf<K>(keys: fc.Arbitrary<K>): fc.Arbitrary<ReadRange<K>> {
  return fc
    .record({ start: keys, end: keys, reverse: fc.boolean(), exclusiveStart: fc.boolean(), inclusiveEnd: fc.boolean(), offset: fc.nat(4), limit: fc.nat(6) }, { requiredKeys: [] })
    .map(({ exclusiveStart, inclusiveEnd, reverse, ...range }) => ({
      ...range,
      ...(range.end !== undefined && reverse !== undefined ? { reverse } : {}),
      ...(range.start !== undefined && exclusiveStart !== undefined ? { exclusiveStart } : {}),
      ...(range.end !== undefined && inclusiveEnd !== undefined ? { inclusiveEnd } : {}),
    }));
}

describe('a bundle database', () => {
  it('reads string keys as LMDB does (ordered-binary order)', () => {
    const probes = fc.oneof(fc.constantFrom(...STRING_KEYS), fc.string({ maxLength: 4 }));
    fc.assert(
      fc.property(rangeOf(probes), fc.array(probes, { maxLength: 4 }), (range, keys) => {
        expect(reads(bundle.env.main, keys, range)).toEqual(reads(env.main, keys, range));
        expect(reads(bundle.env.wordIds, keys, range)).toEqual(reads(env.wordIds, keys, range));
        expect(reads(bundle.env.wordDocids, [...keys, 'odd', 'unsorted'], range)).toEqual(reads(env.wordDocids, [...keys, 'odd', 'unsorted'], range));
      }),
      { numRuns: 300 },
    );
  });

  it('reads binary keys as LMDB does (bytewise, shorter first)', () => {
    const probes = fc.oneof(
      fc.constantFrom(...BINARY_KEYS),
      fc.uint8Array({ minLength: 1, maxLength: 3 }).map((bytes) => Buffer.from(bytes)),
    );
    fc.assert(
      fc.property(rangeOf(probes), fc.array(probes, { maxLength: 4 }), (range, keys) => {
        expect(reads(bundle.env.facetDocids, keys, range)).toEqual(reads(env.facetDocids, keys, range));
      }),
      { numRuns: 300 },
    );
  });

  it('reads u32 keys as LMDB does (numeric order)', () => {
    const probes = fc.oneof(fc.constantFrom(...U32_KEYS), fc.nat(300));
    fc.assert(
      fc.property(rangeOf(probes), fc.array(probes, { maxLength: 4 }), (range, keys) => {
        expect(reads(bundle.env.documents, keys, range)).toEqual(reads(env.documents, keys, range));
        expect(reads(bundle.env.docWords, keys, range)).toEqual(reads(env.docWords, keys, range));
      }),
      { numRuns: 300 },
    );
  });

  it('stores postings in fewer bytes than LMDB holds', () => {
    const stored = [...env.wordDocids.getRange({})].reduce((sum, { value }) => sum + value.length, 0);
    expect(bundle.toc.dbs.wordDocids.values).toBe('posting');
    expect(bundle.toc.dbs.wordDocids.valueBytes.length).toBeLessThan(stored);
  });

  it('answers the empty databases as empty', () => {
    expect([...bundle.env.vectorLinks.getRange()]).toEqual([]);
    expect(bundle.env.geoPoints.get(1)).toBeUndefined();
    expect(bundle.env.postingBlocks.getCount()).toBe(0);
  });

  it('refuses every write', () => {
    const db = bundle.env.main as unknown as Record<'putSync' | 'removeSync' | 'clearSync', (...args: unknown[]) => unknown>;
    expect(() => db.putSync('a', 1)).toThrow(BundleReadOnlyError);
    expect(() => db.removeSync('a')).toThrow(BundleReadOnlyError);
    expect(() => db.clearSync()).toThrow(BundleReadOnlyError);
  });
});

describe('openBundle', () => {
  it('refuses bytes that are not a bundle, another format version, or a truncated one', () => {
    const bytes = writeBundle({ env, index: { uid: 'test', primaryKey: null, createdAt: 'c', updatedAt: 'u' }, features: {}, fields: null, distinctAttribute: null }, 'now');
    expect(() => openBundle(new TextEncoder().encode('{"hits": []}'))).toThrow(BundleFormatError);
    const future = bytes.slice();
    new DataView(future.buffer).setUint32(8, 99, true);
    expect(() => openBundle(future)).toThrow(/format 99/);
    expect(() => openBundle(bytes.slice(0, bytes.length - 8))).toThrow(/damaged/);
    expect(() => openBundle(bytes.slice(0, 40))).toThrow(BundleFormatError);
  });

  it('refuses a section whose offsets do not ascend to the end of its bytes', () => {
    const bytes = writeBundle({ env, index: { uid: 'test', primaryKey: null, createdAt: 'c', updatedAt: 'u' }, features: {}, fields: null, distinctAttribute: null }, 'now');
    const sections = 16 + new DataView(bytes.buffer).getUint32(12, true);
    const { valueEnds } = openBundle(bytes).toc.dbs.documents;
    const damaged = bytes.slice();
    new DataView(damaged.buffer).setUint32(sections + valueEnds.offset, 0xffffff, true);
    expect(() => openBundle(damaged)).toThrow("This index bundle's `documents` section is damaged.");
  });

  it('reads a bundle that is not 4-byte aligned in memory', () => {
    const bytes = writeBundle({ env, index: { uid: 'test', primaryKey: null, createdAt: 'c', updatedAt: 'u' }, features: {}, fields: null, distinctAttribute: null }, 'now');
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    expect(openBundle(shifted).env.documents.get(7)).toEqual({ id: 7, title: 'doc 3' });
  });
});
