/**
 * Step 1 of a topology change (network.md §6, v1.50's `rebalance_shards` + `balance_shards`):
 * gives every document of an index its shard in the new network. A shard the network no longer
 * has is forgotten and its documents are resharded; a new shard is added (empty) and takes the
 * documents it wins by rendezvous over the old shards; an unsharded document (indexed before the
 * network had a leader) gets the shard it hashes to. Every other document keeps its shard.
 * Without shards (the leader removed), the index forgets every shard.
 * Runs inside an index write transaction, in the index writer thread (an IndexWrite of kind
 * `reshard`, indexer/commit.ts); only `shard-docids` changes, documents are not touched.
 */
import { difference, EMPTY, fromUnsorted, has, union, unionAll, type DocSet } from '../docset.js';
import type { IndexEnv } from '../index-env.js';
import { readShardDocids, writeShardDocids } from './shard-docids.js';
import { shardOf, type Sharding } from './shard-of.js';
import type { AppliedBatch } from '../applied-batch.js';

/** The index write that reshards an index (workers/index-writer.ts `writeIndex` answers a ReshardOutcome). */
export interface ReshardWrite {
  readonly kind: 'reshard';
  /** only its shard names matter */
  readonly sharding: Pick<Sharding, 'shards'>;
  /** the batch this write applies, recorded with it */
  readonly applied?: AppliedBatch;
}

/** What resharding changed. */
export interface ReshardOutcome {
  /**
   * new shard → the internal docids that joined it (they changed shard, or had none): the
   * documents to export to the shard's new owners. Shards nothing joined are absent.
   */
  readonly moved: ReadonlyMap<string, DocSet>;
}

/**
 * The IndexWrite giving the index's documents their shard in `sharding` (the new network's shard
 * names; which are owned does not matter). Run it with `writeIndex` (workers/index-writer.ts) on
 * every index, before exporting what moved.
 */
export function reshardWrite(sharding: Pick<Sharding, 'shards'>): ReshardWrite {
  return { kind: 'reshard', sharding };
}

/**
 * Reshards the index in `env` to `sharding` (call inside its write transaction); `checkpoint`
 * throws to interrupt (the transaction then rolls back).
 */
export function reshardIndex(env: IndexEnv, sharding: Pick<Sharding, 'shards'>, checkpoint: () => void = () => {}): ReshardOutcome {
  // no shard left (the network lost its leader): every record is forgotten, v1.50's `remove_all_shards`
  if (sharding.shards.length === 0) {
    writeShardDocids(env, new Map());
    return { moved: new Map() };
  }
  const recorded = readShardDocids(env);
  const network = new Set(sharding.shards);
  const shards = new Map<string, DocSet>();
  const added = new Set<string>();
  // documents of shards that disappear, and documents no shard holds
  let unsharded: DocSet = EMPTY;
  for (const [name, docids] of recorded) {
    if (network.has(name)) shards.set(name, docids);
    else unsharded = union(unsharded, docids);
  }
  for (const name of sharding.shards) {
    if (shards.has(name)) continue;
    shards.set(name, EMPTY);
    added.add(name);
  }
  const all = fromUnsorted(env.externalIds.getRange({}).map(({ value }) => value));
  unsharded = union(difference(all, unionAll([...recorded.values()])), unsharded);
  const joined = new Map<string, number[]>();
  const left = new Map<string, number[]>();
  const push = (map: Map<string, number[]>, name: string, docid: number) => {
    let list = map.get(name);
    if (list === undefined) map.set(name, (list = []));
    list.push(docid);
  };
  if (unsharded.length > 0 || added.size > 0) {
    const isUnsharded = new Set(unsharded);
    // the shard of each document: the rendezvous winner among all shards of the new network
    let seen = 0;
    for (const { key: id, value: docid } of env.externalIds.getRange({})) {
      if (++seen % 20_000 === 0) checkpoint();
      if (isUnsharded.has(docid)) {
        push(joined, shardOf(id, sharding.shards), docid);
        continue;
      }
      if (added.size === 0) continue;
      const winner = shardOf(id, sharding.shards);
      if (!added.has(winner)) continue;
      // the document was in an old shard (the one it is recorded in): it moves to the new winner
      for (const [name, docids] of shards) {
        if (added.has(name) || !has(docids, docid)) continue;
        push(left, name, docid);
        break;
      }
      push(joined, winner, docid);
    }
  }
  for (const [name, docids] of left) shards.set(name, difference(shards.get(name)!, fromUnsorted(docids)));
  const moved = new Map<string, DocSet>();
  for (const [name, docids] of joined) {
    const set = fromUnsorted(docids);
    moved.set(name, set);
    shards.set(name, union(shards.get(name)!, set));
  }
  writeShardDocids(env, shards);
  return { moved };
}
