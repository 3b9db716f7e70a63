// An edition's replaced documents: held in memory while small, written to a file past the limit,
// read back by the index write as written (floats kept), and the file removed when discarded.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EditedPayload } from '../../../../src/tasks/process/edited-payload.js';
import { applyDocumentBatch } from '../../../../src/engine/indexer/document-batch.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import type { IndexEnv, IndexEnvs } from '../../../../src/engine/index-env.js';
import { closeBatchIndex, openBatchIndex } from '../../engine/indexer/batch-index.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'quarry-edited-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const texts = (n: number) => Array.from({ length: n }, (_, i) => `{"id":"d${i}","price":${i}.0,"text":"${'x'.repeat(100)}"}`);

describe('EditedPayload', () => {
  it('holds small payloads in memory, as NDJSON', () => {
    const payload = new EditedPayload(folder, 10_000);
    for (const text of texts(3)) payload.add(text);
    const source = payload.source();
    expect('bytes' in source && Buffer.from(source.bytes).toString()).toBe(`${texts(3).join('\n')}\n`);
    expect(payload.count).toBe(3);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('writes to a file in its folder once past its limit, and removes it when discarded', () => {
    const payload = new EditedPayload(folder, 1_000);
    for (const text of texts(50)) payload.add(text);
    expect(readdirSync(folder)).toHaveLength(1);
    const source = payload.source();
    expect('file' in source && readFileSync(source.file, 'utf8')).toBe(`${texts(50).join('\n')}\n`);
    payload.discard();
    expect('file' in source && existsSync(source.file)).toBe(false);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('an edition write (put) of a payload in a file', () => {
  let dir: string;
  let envs: IndexEnvs;
  let env: IndexEnv;
  beforeEach(() => {
    ({ dir, envs, env } = openBatchIndex('quarry-edited-put-', ['price']));
  });
  afterEach(() => closeBatchIndex({ dir, envs }));

  it('replaces each document by its id, keeps its text as written, and deletes the others', () => {
    const first = new EditedPayload(folder);
    first.add('{"id":"gone"}');
    applyDocumentBatch(env, [{ op: 'put', deletions: [], replacements: first.source(), primaryKey: 'id' }], null, () => {});
    expect(new DocumentStore(env).count()).toBe(1);
    const payload = new EditedPayload(folder, 1_000);
    for (const text of texts(50)) payload.add(text);
    const outcome = applyDocumentBatch(env, [{ op: 'put', deletions: ['gone'], replacements: payload.source(), primaryKey: 'id' }], 'id', () => {});
    payload.discard();
    expect(outcome.results).toEqual([{ count: 51 }]);
    const store = new DocumentStore(env);
    expect(store.count()).toBe(50);
    expect(store.get('d7')).toMatchObject({ id: 'd7', price: 7 });
    expect(env.documents.getBinary(store.docidOf('d7')!)!.toString()).toBe(texts(8)[7]);
  });
});
