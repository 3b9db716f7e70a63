// Reading a shard's documents (or given docids) for a topology change's export: stored objects
// with their primary key, in bounded chunks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { applyDocumentBatch } from '../../../../src/engine/indexer/document-batch.js';
import { shardOf, type Sharding } from '../../../../src/engine/shards/shard-of.js';
import { docidsOfShards, readDocumentChunks, readShardChunks } from '../../../../src/tasks/process/shard-documents.js';

let dir: string;
let envs: IndexEnvs;
let env: IndexEnv;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-shard-documents-'));
  envs = new IndexEnvs(dir);
  env = envs.get('index');
});
afterEach(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

const IDS = Array.from({ length: 300 }, (_, i) => `doc-${i}`);

function index(sharding: Sharding): void {
  const file = path.join(dir, 'payload.ndjson');
  writeFileSync(file, IDS.map((id, n) => JSON.stringify({ id, n })).join('\n'));
  applyDocumentBatch(env, [{ op: 'add', source: { file }, method: 'replace', primaryKey: 'id', skipMissing: false }], 'id', () => {}, undefined, undefined, false, undefined, sharding);
}

describe('shard documents', () => {
  it('reads the documents of shards or of given docids, with their primary key, in bounded chunks', () => {
    index({ shards: ['a', 'b'], owned: new Set(['a', 'b']) });
    const ofA = IDS.filter((id) => shardOf(id, ['a', 'b']) === 'a').sort();
    const chunks = [...readShardChunks(env, ['a'], 40)];
    expect(chunks.every((chunk) => chunk.length <= 40)).toBe(true);
    expect(chunks.flat().map((doc) => doc.id).sort()).toEqual(ofA);
    expect(chunks.flat()[0]).toHaveProperty('n');
    const docids = docidsOfShards(env, ['b', 'unknown']);
    expect([...readDocumentChunks(env, docids)].flat().length).toBe(IDS.length - ofA.length);
  });
});
