// The document batch on a real index environment: task-order semantics across chunks, per-op
// failures that change nothing, and an interrupted batch that rolls back whole.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { writeSettings } from '../../../../src/engine/index-settings.js';
import { applyDocumentBatch, type DocumentOp } from '../../../../src/engine/indexer/document-batch.js';
import { defaultSettings } from '../../../../src/types/settings.js';

let dir: string;
let envs: IndexEnvs;
let env: IndexEnv;
let files = 0;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-doc-batch-'));
  envs = new IndexEnvs(dir);
  env = envs.get('index');
  env.root.transactionSync(() => writeSettings(env, { ...defaultSettings(), filterableAttributes: ['genre'] }));
});
afterEach(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

function add(docs: object[], method: 'replace' | 'update' = 'replace', primaryKey: string | null = null): DocumentOp {
  const file = path.join(dir, `update-${files++}.ndjson`);
  writeFileSync(file, docs.map((doc) => JSON.stringify(doc)).join('\n'));
  return { op: 'add', source: { file }, method, primaryKey, skipMissing: false };
}

const never = () => {};
const store = () => new DocumentStore(env);

describe('applyDocumentBatch', () => {
  it('applies operations in task order, merging updates across chunks of a large payload', () => {
    const many = Array.from({ length: 45_000 }, (_, i) => ({ id: i % 30_000, [`v${Math.floor(i / 30_000)}`]: i }));
    const outcome = applyDocumentBatch(env, [add([{ id: 1, genre: 'a' }]), add(many, 'update'), { op: 'delete', ids: ['2', '2', 'missing'] }], null, never);
    expect(outcome.primaryKey).toBe('id');
    expect(outcome.results).toEqual([{ count: 1 }, { count: 30_000 }, { count: 1 }]);
    expect(store().get('1')).toEqual({ id: 1, genre: 'a', v0: 1, v1: 30_001 });
    expect(store().get('2')).toBeUndefined();
    expect(store().count()).toBe(29_999);
  });

  it('applies a payload kept as bytes (a small request) like one in a file, across the batch', () => {
    const bytes = { op: 'add', source: { bytes: new Uint8Array(Buffer.from('{"id":1,"a":1}\n{"id":2}\n')) }, method: 'update', primaryKey: null, skipMissing: false } as const;
    const outcome = applyDocumentBatch(env, [add([{ id: 1, b: 2 }]), bytes], null, never);
    expect(outcome.results).toEqual([{ count: 1 }, { count: 2 }]);
    expect(store().get('1')).toEqual({ id: 1, a: 1, b: 2 });
    expect(store().count()).toBe(2);
  });

  it('fails only the addition with a bad payload, which changes nothing', () => {
    const outcome = applyDocumentBatch(env, [add([{ id: 1 }]), add([{ id: 2 }, { id: 'bad id' }]), add([{ id: 3 }])], null, never);
    expect(outcome.results[0]).toEqual({ count: 1 });
    expect(outcome.results[1]).toMatchObject({ error: { code: 'invalid_document_id' } });
    expect(outcome.results[2]).toEqual({ count: 1 });
    expect(store().get('2')).toBeUndefined();
    expect(store().count()).toBe(2);
  });

  it('refuses a second primary key and keeps the first', () => {
    const outcome = applyDocumentBatch(env, [add([{ id: 1, ref: 'x' }], 'replace', 'id'), add([{ id: 2, ref: 'y' }], 'replace', 'ref')], null, never);
    expect(outcome.results[1]).toMatchObject({ error: { code: 'index_primary_key_already_exists', message: 'Index already has a primary key: `id`.' } });
    expect(outcome.primaryKey).toBe('id');
  });

  it('deletes by filter what earlier operations of the batch wrote, and fails a refused filter alone', () => {
    const outcome = applyDocumentBatch(
      env,
      [add([{ id: 1, genre: 'a' }, { id: 2, genre: 'b' }]), { op: 'deleteByFilter', filter: 'genre = a', indexUid: 'index' }, { op: 'deleteByFilter', filter: 'year > 2', indexUid: 'index' }],
      null,
      never,
    );
    expect(outcome.results[1]).toEqual({ count: 1 });
    expect(outcome.results[2]).toMatchObject({ error: { code: 'invalid_document_filter' } });
    expect((outcome.results[2] as { error: { message: string } }).error.message).toMatch(/^Index `index`: Attribute `year` is not filterable/);
    expect(store().count()).toBe(1);
  });

  it('counts a clear as the documents it removed', () => {
    applyDocumentBatch(env, [add([{ id: 1 }, { id: 2 }])], null, never);
    const outcome = applyDocumentBatch(env, [{ op: 'clear' }, add([{ id: 3 }])], 'id', never);
    expect(outcome.results).toEqual([{ count: 2 }, { count: 1 }]);
    expect(store().count()).toBe(1);
  });

  it('rolls the whole batch back when interrupted', () => {
    applyDocumentBatch(env, [add([{ id: 1 }])], null, never);
    let calls = 0;
    const interrupt = () => {
      if (++calls > 3) throw new Error('interrupted');
    };
    const many = Array.from({ length: 50_000 }, (_, i) => ({ id: i + 10 }));
    expect(() => applyDocumentBatch(env, [{ op: 'delete', ids: ['1'] }, add(many)], 'id', interrupt)).toThrow('interrupted');
    expect(store().count()).toBe(1);
    expect(store().get('1')).toEqual({ id: 1 });
  });
});
