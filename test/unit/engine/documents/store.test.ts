// DocumentStore's shared reads for search pages: each document is decoded once per documents
// version, and every batch that writes documents starts a new version.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import type { JsonObject } from '../../../../src/engine/document-id.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-document-store-'));
let envs = new IndexEnvs(dir);

afterEach(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
  envs = new IndexEnvs(dir);
});

function storeWith(docs: JsonObject[]): DocumentStore {
  const env = envs.get('index');
  const store = new DocumentStore(env);
  write(store, env, new Map(docs.map((doc) => [String(doc.id), doc])));
  return store;
}

function write(store: DocumentStore, env: IndexEnv, changes: Map<string, JsonObject | null>): void {
  env.root.transactionSync(() => store.apply(changes, false));
}

describe('DocumentStore.sharedByDocid', () => {
  it('decodes a document once and shares it while no batch writes it', () => {
    const store = storeWith([{ id: 1, title: 'Batman' }]);
    const docid = store.docidOf('1')!;
    const first = store.sharedByDocid(docid);
    expect(first).toEqual({ id: 1, title: 'Batman' });
    expect(store.sharedByDocid(docid)).toBe(first);
    expect(new DocumentStore(envs.get('index')).sharedByDocid(docid)).toBe(first);
  });

  it('keeps sharing the documents a batch did not write', () => {
    const store = storeWith([{ id: 1, title: 'Batman' }, { id: 2, title: 'Alien' }]);
    const env = envs.get('index');
    const kept = store.sharedByDocid(store.docidOf('2')!);
    write(store, env, new Map<string, JsonObject | null>([['1', { id: 1, title: 'Batman Returns' }]]));
    expect(store.sharedByDocid(store.docidOf('2')!)).toBe(kept);
    expect(store.sharedByDocid(store.docidOf('1')!)).toEqual({ id: 1, title: 'Batman Returns' });
  });

  it('shows what the last batch wrote: replaced and deleted documents', () => {
    const store = storeWith([{ id: 1, title: 'Batman' }, { id: 2, title: 'Alien' }]);
    const env = envs.get('index');
    const [one, two] = [store.docidOf('1')!, store.docidOf('2')!];
    expect(store.sharedByDocid(one)).toEqual({ id: 1, title: 'Batman' });
    expect(store.sharedByDocid(two)).toEqual({ id: 2, title: 'Alien' });
    write(store, env, new Map<string, JsonObject | null>([['1', { id: 1, title: 'Batman Returns' }], ['2', null]]));
    expect(store.sharedByDocid(one)).toEqual({ id: 1, title: 'Batman Returns' });
    expect(store.sharedByDocid(two)).toBeUndefined();
  });
});

describe('DocumentStore.apply field limit', () => {
  /** A document with `id` and the numbered fields from `from` up to `to` (excluded). */
  const wide = (id: string, from: number, to: number): JsonObject => {
    const doc: JsonObject = { id };
    for (let i = from; i < to; i++) doc[String(i)] = 'I am a text!';
    return doc;
  };

  it('holds 65,536 distinct fields (u16 field ids) and refuses a 65,537th with max_fields_limit_exceeded', () => {
    const store = storeWith([wide('full', 0, 65_535)]);
    const env = envs.get('index');
    expect(store.fieldIds()).toHaveLength(65_536);
    expect(() => write(store, env, new Map([['one more', { id: 'one more', extra: 1 }]]))).toThrow(
      expect.objectContaining({ code: 'max_fields_limit_exceeded', message: 'A document cannot contain more than 65,535 fields.' }),
    );
    // the transaction rolled back: neither the document nor its field was kept
    expect(store.fieldIds()).toHaveLength(65_536);
    expect(store.get('one more')).toBeUndefined();
    write(store, env, new Map([['known', { id: 'known', 0: 'only known fields' }]]));
    expect(store.get('known')).toEqual({ 0: 'only known fields', id: 'known' });
  });
});

describe('DocumentStore field order', () => {
  it('stores a document in field-id order, a `__proto__` field kept as a field of its own', () => {
    const first = JSON.parse('{"id": 1, "title": "a", "__proto__": {"x": 1}}') as JsonObject;
    // the same fields in another order: stored reordered
    const second = JSON.parse('{"__proto__": [2], "title": "b", "id": 2}') as JsonObject;
    const store = storeWith([first, second]);
    const stored = store.byDocid(store.docidOf('2')!)!;
    expect(Object.keys(stored)).toEqual(['id', 'title', '__proto__']);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(stored, '__proto__')?.value).toEqual([2]);
  });
});

describe('DocumentStore.apply with the documents\' JSON text', () => {
  it('stores a payload line\'s bytes when its keys are in field-id order, and its members laid in that order when they are not', () => {
    const env = envs.get('index');
    const store = new DocumentStore(env);
    const lines = ['{"id":1, "title":"a"}', '{"price": 1.0, "title":"b","id":2}'].map((line) => Buffer.from(line));
    const docs = lines.map((line) => JSON.parse(line.toString()) as JsonObject);
    env.root.transactionSync(() => store.apply(new Map([['1', docs[0]!], ['2', docs[1]!]]), false, undefined, new Map([['1', lines[0]!], ['2', lines[1]!]])));
    expect(env.documents.getBinary(store.docidOf('1')!)).toEqual(lines[0]);
    expect(env.documents.getBinary(store.docidOf('2')!)!.toString()).toBe('{"id":2,"title":"b","price": 1.0}');
    expect(Object.keys(store.get('2')!)).toEqual(['id', 'title', 'price']);
    expect(store.get('2')).toEqual({ id: 2, title: 'b', price: 1 });
  });

  it('encodes the document again when a line\'s members cannot be matched to its keys (a repeated key)', () => {
    const env = envs.get('index');
    const store = new DocumentStore(env);
    const lines = ['{"id":1,"title":"a"}', '{"title":"b","id":2,"title":"c"}'].map((line) => Buffer.from(line));
    const docs = lines.map((line) => JSON.parse(line.toString()) as JsonObject);
    env.root.transactionSync(() => store.apply(new Map([['1', docs[0]!], ['2', docs[1]!]]), false, undefined, new Map([['1', lines[0]!], ['2', lines[1]!]])));
    expect(env.documents.getBinary(store.docidOf('2')!)!.toString()).toBe('{"id":2,"title":"c"}');
  });
});

describe('DocumentStore.apply page use', () => {
  it('fills the documents\' leaf pages with a load of new documents, and keeps replacing and adding after it', () => {
    const env = envs.get('index');
    const store = new DocumentStore(env);
    const docs = Array.from({ length: 3000 }, (_, id) => ({ id, text: 'x'.repeat(300 + (id % 400)) }));
    write(store, env, new Map(docs.map((doc) => [String(doc.id), doc])));
    const bytes = docs.reduce((sum, doc) => sum + JSON.stringify(doc).length + 16, 0);
    // appended: 1.08 times the pages these bytes need; put one by one past the last key: 1.27 times
    expect((env.documents.getStats() as { treeLeafPageCount: number }).treeLeafPageCount).toBeLessThan((bytes / 4096) * 1.15);
    write(store, env, new Map<string, JsonObject | null>([['5', { id: 5, text: 'replaced' }], ['3000', { id: 3000, text: 'added' }]]));
    expect(store.get('5')).toEqual({ id: 5, text: 'replaced' });
    expect(store.get('3000')).toEqual({ id: 3000, text: 'added' });
    expect(store.get('2999')).toEqual(docs[2999]);
  });
});
