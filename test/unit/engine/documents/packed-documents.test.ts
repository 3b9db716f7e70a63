// Documents packed off the writer thread are the bytes the store's own encoder writes, so the
// store can put them as they are.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import type { JsonObject } from '../../../../src/engine/document-id.js';
import { packDocuments, packedAt } from '../../../../src/engine/documents/packed-documents.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs } from '../../../../src/engine/index-env.js';
import { parseJson } from '../../../../src/types/json-text.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-packed-documents-'));
const envs = new IndexEnvs(dir);

afterAll(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

const docs: JsonObject[] = [
  { id: 1, title: 'Batman', genres: ['Action', 'Crime'], rating: 7.5, nested: { a: 1, b: [true, null] } },
  { id: 2, title: 'Amélie', genres: [], rating: -3, nested: { a: 'x' } },
  { id: 'big', n: 12345678901234567890, deep: [[[{ k: 'v' }]]], empty: {} },
  parseJson('{"id":3,"__proto__":{"x":1},"text":"日本語 とテキスト"}') as JsonObject,
];

describe('packDocuments', () => {
  it("packs each document into the store encoder's bytes, whatever was packed before", () => {
    // lmdb's typings leave out the encoder a database writes its values with
    const { encoder } = envs.get('bytes').documents as unknown as { encoder: { encode(value: unknown): Uint8Array } };
    const packed = packDocuments(docs);
    docs.forEach((doc, i) => expect(Buffer.from(packedAt(packed, i))).toEqual(Buffer.from(encoder.encode(doc))));
    // a second run over other documents first still packs each the same
    const again = packDocuments([...docs].reverse());
    for (let i = 0; i < docs.length; i++) expect(packedAt(again, docs.length - 1 - i)).toEqual(packedAt(packed, i));
  });

  it('stores what the store writes itself, asking for the bytes of documents stored unchanged only', () => {
    const env = envs.get('store');
    const store = new DocumentStore(env);
    const reference = new DocumentStore(envs.get('reference'));
    const packed = packDocuments(docs);
    const asked: JsonObject[] = [];
    // keys out of field-id order are stored reordered: the store packs those itself
    const reordered = { title: 'Reordered', id: 9 };
    const changes = new Map<string, JsonObject | null>([...docs.map((doc): [string, JsonObject] => [String(doc.id), doc]), ['9', reordered]]);
    env.root.transactionSync(() =>
      store.stage(changes, false).write((doc) => {
        asked.push(doc);
        const i = docs.indexOf(doc);
        return i === -1 ? undefined : packedAt(packed, i);
      }),
    );
    envs.get('reference').root.transactionSync(() => reference.apply(changes, false));
    expect(asked).toEqual(docs);
    for (const id of changes.keys()) expect(env.documents.getBinary(store.docidOf(id)!)).toEqual(envs.get('reference').documents.getBinary(reference.docidOf(id)!));
    expect(store.get('1')).toEqual(docs[0]);
    expect(Object.keys(store.get('9')!)).toEqual(['id', 'title']);
  });
});
