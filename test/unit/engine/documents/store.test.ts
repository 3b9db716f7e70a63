// DocumentStore's shared reads for search pages: each document is decoded once per documents
// version, and every batch that writes documents starts a new version.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import type { JsonObject } from '../../../../src/engine/documents/document-id.js';
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
  it('decodes a document once and shares it while no batch writes documents', () => {
    const store = storeWith([{ id: 1, title: 'Batman' }]);
    const docid = store.docidOf('1')!;
    const first = store.sharedByDocid(docid);
    expect(first).toEqual({ id: 1, title: 'Batman' });
    expect(store.sharedByDocid(docid)).toBe(first);
    expect(new DocumentStore(envs.get('index')).sharedByDocid(docid)).toBe(first);
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
