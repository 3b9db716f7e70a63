// Resharding an index for a new network (network.md §6 step 1): exactly the documents a new shard
// wins move, unsharded documents and those of removed shards get their shard, the rest stay; and
// deleting what is no longer owned (step 4).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { applyIndexWrite } from '../../../../src/engine/indexer/commit.js';
import { applyDocumentBatch, type DocumentOp } from '../../../../src/engine/indexer/document-batch.js';
import { deletedCount, deleteUnownedWrite } from '../../../../src/engine/shards/delete-unowned.js';
import { reshardWrite, type ReshardOutcome } from '../../../../src/engine/shards/reshard.js';
import { readShardDocids } from '../../../../src/engine/shards/shard-docids.js';
import { shardOf, type Sharding } from '../../../../src/engine/shards/shard-of.js';
import { closeBatchIndex, openBatchIndex } from '../indexer/batch-index.js';

let dir: string;
let envs: IndexEnvs;
let env: IndexEnv;

beforeEach(() => {
  ({ dir, envs, env } = openBatchIndex('quarry-reshard-', ['n']));
});
afterEach(() => closeBatchIndex({ dir, envs }));

const IDS = Array.from({ length: 300 }, (_, i) => `doc-${i}`);

function index(sharding: Sharding | null, ids = IDS): void {
  const file = path.join(dir, `update-${Math.random()}.ndjson`);
  writeFileSync(file, ids.map((id, n) => JSON.stringify({ id, n })).join('\n'));
  const op: DocumentOp = { op: 'add', source: { file }, method: 'replace', primaryKey: 'id', skipMissing: false };
  applyDocumentBatch(env, [op], 'id', () => {}, undefined, undefined, false, undefined, sharding);
}

const owningAll = (...shards: string[]): Sharding => ({ shards, owned: new Set(shards) });
/** shard → its external ids, sorted */
function recorded(): Record<string, string[]> {
  const byDocid = new Map([...env.externalIds.getRange({})].map(({ key, value }) => [value, key]));
  return Object.fromEntries([...readShardDocids(env)].map(([name, docids]) => [name, [...docids].map((docid) => byDocid.get(docid)!).sort()]));
}
function movedIds(outcome: ReshardOutcome): Record<string, string[]> {
  const byDocid = new Map([...env.externalIds.getRange({})].map(({ key, value }) => [value, key]));
  return Object.fromEntries([...outcome.moved].map(([name, docids]) => [name, [...docids].map((docid) => byDocid.get(docid)!).sort()]));
}
const expectedShards = (shards: string[]) => {
  const out: Record<string, string[]> = Object.fromEntries(shards.map((name) => [name, []]));
  for (const id of IDS) out[shardOf(id, shards)]!.push(id);
  for (const name of shards) out[name]!.sort();
  return out;
};

describe('reshardIndex', () => {
  it('moves exactly the documents a new shard wins, and keeps every other document where it was', () => {
    index(owningAll('a', 'b'));
    expect(recorded()).toEqual(expectedShards(['a', 'b']));
    const outcome = applyIndexWrite(env, reshardWrite(owningAll('a', 'b', 'c')));
    const winners = IDS.filter((id) => shardOf(id, ['a', 'b', 'c']) === 'c').sort();
    expect(winners.length).toBeGreaterThan(50);
    expect(movedIds(outcome)).toEqual({ c: winners });
    expect(recorded()).toEqual(expectedShards(['a', 'b', 'c']));
  });

  it('gives unsharded documents (indexed without a leader) their shard, all of them counted as moved', () => {
    index(null);
    expect(recorded()).toEqual({});
    const outcome = applyIndexWrite(env, reshardWrite(owningAll('x', 'y')));
    const expected = expectedShards(['x', 'y']);
    expect(movedIds(outcome)).toEqual(expected);
    expect(recorded()).toEqual(expected);
  });

  it('reshards the documents of a shard the network no longer has among the remaining ones', () => {
    index(owningAll('a', 'b', 'c'));
    const outcome = applyIndexWrite(env, reshardWrite(owningAll('a', 'b')));
    const formerC = expectedShards(['a', 'b', 'c']).c!;
    const moved = movedIds(outcome);
    expect(Object.values(moved).flat().sort()).toEqual(formerC);
    expect(recorded()).toEqual(expectedShards(['a', 'b']));
  });

  it('changes nothing when the shards are the same', () => {
    index(owningAll('a', 'b'));
    const outcome = applyIndexWrite(env, reshardWrite({ shards: ['a', 'b'] }));
    expect(outcome.moved.size).toBe(0);
    expect(recorded()).toEqual(expectedShards(['a', 'b']));
  });

  it('makes every shard known to an empty index', () => {
    applyIndexWrite(env, reshardWrite(owningAll('a', 'b')));
    expect(recorded()).toEqual({ a: [], b: [] });
  });
});

describe('deleteUnownedWrite', () => {
  it('deletes the documents of every shard not owned, through the deletion path, and counts them', () => {
    index(owningAll('a', 'b', 'c'));
    const expected = expectedShards(['a', 'b', 'c']);
    const outcome = applyIndexWrite(env, deleteUnownedWrite({ owned: new Set(['b']) }, 'id'));
    expect(deletedCount(outcome)).toBe(expected.a!.length + expected.c!.length);
    expect([...new DocumentStore(env).all()].map((doc) => doc.id).sort()).toEqual(expected.b);
    expect(recorded()).toEqual({ a: [], b: expected.b, c: [] });
    // the facet index forgot them too
    const byFilter = applyDocumentBatch(env, [{ op: 'deleteByFilter', filter: 'n >= 0', indexUid: 'index' }], 'id', () => {});
    expect(byFilter.results).toEqual([{ count: expected.b!.length }]);
  });
});
