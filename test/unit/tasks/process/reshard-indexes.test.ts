// A topology change's first step on this instance: every index, through the real index writer
// thread, gets its documents' shards in the new network; no shard forgets them all.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexEnvs as IndexEnvsType } from '../../../../src/engine/index-env.js';
import type { IndexRegistry as IndexRegistryType } from '../../../../src/indexes/registry.js';
import type { InstanceStore } from '../../../../src/store/env.js';
import type { WorkerPools as WorkerPoolsType } from '../../../../src/workers/pool.js';
import type { reshardIndexes as ReshardIndexes } from '../../../../src/tasks/process/reshard-indexes.js';
import type { readShardDocids as ReadShardDocids } from '../../../../src/engine/shards/shard-docids.js';
import type { applyDocumentBatch as ApplyDocumentBatch } from '../../../../src/engine/indexer/document-batch.js';
import type { writeIndex as WriteIndex } from '../../../../src/workers/index-writer.js';
import type { IndexWriter } from '../../../../src/tasks/process/context.js';
import { shardOf } from '../../../../src/engine/shards/shard-of.js';

/** The built modules: the index writer thread runs dist/, whose classes the results are checked against. */
const dist = (file: string) => import(new URL(`../../../../dist/src/${file}`, import.meta.url).href);

let dir: string;
let store: InstanceStore;
let workers: WorkerPoolsType;
let envs: IndexEnvsType;
let indexes: IndexRegistryType;
let reshardIndexes: typeof ReshardIndexes;
let readShardDocids: typeof ReadShardDocids;
let applyDocumentBatch: typeof ApplyDocumentBatch;
let writeIndex: typeof WriteIndex;

beforeEach(async () => {
  const [env, pool, index, registry, process, docids, batch, writer] = await Promise.all([
    dist('store/env.js'),
    dist('workers/pool.js'),
    dist('engine/index-env.js'),
    dist('indexes/registry.js'),
    dist('tasks/process/reshard-indexes.js'),
    dist('engine/shards/shard-docids.js'),
    dist('engine/indexer/document-batch.js'),
    dist('workers/index-writer.js'),
  ]);
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-reshard-indexes-'));
  store = env.openInstanceStore(dir, '0.0.0');
  workers = new pool.WorkerPools(1);
  envs = new index.IndexEnvs(dir);
  indexes = new registry.IndexRegistry(store);
  reshardIndexes = process.reshardIndexes;
  readShardDocids = docids.readShardDocids;
  applyDocumentBatch = batch.applyDocumentBatch;
  writeIndex = writer.writeIndex;
});
afterEach(async () => {
  await workers.close();
  await envs.closeAll();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An index holding `ids`, indexed without a sharded network. */
function indexWith(uid: string, ids: string[]): string {
  const record = indexes.newRecord(uid, 'id', '2026-01-01T00:00:00Z' as never);
  indexes.put(record);
  const file = path.join(dir, `${uid}.ndjson`);
  writeFileSync(file, ids.map((id) => JSON.stringify({ id })).join('\n'));
  applyDocumentBatch(envs.get(record.uuid), [{ op: 'add', source: { file }, method: 'replace', primaryKey: 'id', skipMissing: false }], 'id', () => {});
  return record.uuid;
}

/** shard → how many documents it records, as committed by the writer thread (this thread's read transaction renewed) */
function sizes(uuid: string): Record<string, number> {
  const env = envs.get(uuid);
  env.root.resetReadTxn();
  return Object.fromEntries([...readShardDocids(env)].map(([name, docids]) => [name, docids.length]));
}

describe('reshardIndexes', () => {
  it('gives the documents of every index their shard, answering what moved per index', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `d${i}`);
    const books = indexWith('books', ids);
    const films = indexWith('films', ids.slice(0, 10));
    const signal = new AbortController().signal;
    const ctx = { indexes, writeIndex: ((uuid, write) => writeIndex(workers, envs, uuid, write, signal)) as IndexWriter };
    const outcomes = await reshardIndexes(ctx, ['s0', 's1']);
    const inS0 = ids.filter((id) => shardOf(id, ['s0', 's1']) === 's0').length;
    expect(sizes(books)).toEqual({ s0: inS0, s1: 100 - inS0 });
    expect(sizes(films).s0! + sizes(films).s1!).toBe(10);
    expect([...outcomes.keys()].sort()).toEqual(['books', 'films']);
    expect(outcomes.get('books')!.moved.get('s0')!.length).toBe(inS0);
    await reshardIndexes(ctx, []);
    expect(sizes(books)).toEqual({});
  });
});
