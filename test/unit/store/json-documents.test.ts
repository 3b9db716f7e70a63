// The documents database's values: JSON text, a document's own bytes taken as they are, and the
// msgpack documents of indexes written before read back as they were.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentCodec, JSON_DOCUMENT_VALUES } from '../../../src/store/json-documents.js';
import { PROTO_SAFE_VALUES } from '../../../src/store/proto-safe-packr.js';
import { parseJson, stringifyJson } from '../../../src/types/json-text.js';

const TEXT = '{"id":1,"__proto__":{"a":[1,2]},"big":18446744073709551615,"t":"é🙂"}';

let dir: string;
let root: RootDatabase;
let documents: Database<Record<string, unknown>, number>;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-json-documents-'));
  root = open({ path: dir, maxDbs: 4, compression: false });
  documents = root.openDB<Record<string, unknown>, number>({ name: 'documents', keyEncoding: 'uint32', ...JSON_DOCUMENT_VALUES });
});

afterEach(async () => {
  await root.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('documentCodec', () => {
  it('stores a document as its JSON text and reads it back with 64-bit integers and `__proto__` keys as sent', () => {
    const doc = parseJson(TEXT) as Record<string, unknown>;
    root.transactionSync(() => documents.putSync(1, doc));
    expect(documents.getBinary(1)!.toString('utf8')).toBe(stringifyJson(doc));
    const back = documents.get(1)!;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['id', '__proto__', 'big', 't']);
    expect(back.big).toBe(18446744073709551615n);
    expect(stringifyJson(back)).toBe(TEXT);
  });

  it('keeps given JSON bytes as they are, spacing included', () => {
    const text = Buffer.from('{ "id": 2,  "n": 1.50 }');
    // the codec takes the bytes as they are, which the database's type (documents) does not say
    root.transactionSync(() => (documents as unknown as Database<Uint8Array, number>).putSync(2, text));
    expect(documents.getBinary(2)).toEqual(text);
    expect(documents.get(2)).toEqual({ id: 2, n: 1.5 });
  });

  it('reads every value of a range, whatever the read buffer held before', () => {
    root.transactionSync(() => {
      for (let id = 0; id < 50; id++) documents.putSync(id, { id, text: 'x'.repeat(50 - id) });
    });
    expect(Array.from(documents.getRange({}), ({ value }) => value)).toEqual(Array.from({ length: 50 }, (_, id) => ({ id, text: 'x'.repeat(50 - id) })));
  });

  it('reads the msgpack documents an index held before, `__proto__` keys included', () => {
    const older = root.openDB<Record<string, unknown>, number>({ name: 'documents-before', keyEncoding: 'uint32', ...PROTO_SAFE_VALUES });
    const doc = parseJson(TEXT) as Record<string, unknown>;
    root.transactionSync(() => older.putSync(1, doc));
    const bytes = older.getBinary(1)!;
    expect(bytes[0]).not.toBe(0x7b);
    expect(stringifyJson(documentCodec.decode(bytes))).toBe(TEXT);
  });
});
