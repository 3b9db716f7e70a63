/**
 * An index's record of which shard each document belongs to (network.md §5): the
 * `shard-docids` database, shard name → DocSet, as v1.50's `DbShardDocids`. A shard is "known"
 * to an index when it has an entry, even empty: a `_shard` filter naming any other is refused
 * (shard-filter.ts). Documents indexed without a sharded network are recorded nowhere
 * ("unsharded"); a topology change gives them a shard (reshard.ts).
 *
 * Reads work on any LMDB environment (a bundle has no such database: no shard); `ShardRecorder`
 * keeps the record in step with a document batch, inside the batch's write transaction.
 */
import { decode, difference, EMPTY, encode, fromUnsorted, union, type DocSet } from '../docset.js';
import type { DocumentChange } from '../updater.js';
import type { IndexEnv } from '../index-env.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { shardOf, type Sharding } from './shard-of.js';

/** Every shard the index knows, by name (ascending), with its documents. */
export function readShardDocids(env: IndexReadEnv): Map<string, DocSet> {
  const shards = new Map<string, DocSet>();
  if (env.shardDocids === undefined) return shards;
  for (const { key, value } of env.shardDocids.getRange({})) shards.set(key, decode(value));
  return shards;
}

/** The documents of `shard`, or undefined when the index does not know that shard. */
export function shardDocidsOf(env: IndexReadEnv, shard: string): DocSet | undefined {
  const bytes = env.shardDocids?.getBinary(shard);
  return bytes === undefined ? undefined : decode(bytes);
}

/** Replaces the record with `shards` (inside a write transaction). */
export function writeShardDocids(env: IndexEnv, shards: ReadonlyMap<string, DocSet>): void {
  env.shardDocids.clearSync();
  for (const [name, docids] of shards) env.shardDocids.putSync(name, encode(docids));
}

/** Makes every shard of `shards` known to the index, empty when new (an index v1.50 creates with a sharded network); inside a write transaction. */
export function addShards(env: IndexEnv, shards: readonly string[]): void {
  for (const name of shards) if (env.shardDocids.getBinary(name) === undefined) env.shardDocids.putSync(name, encode(EMPTY));
}

/**
 * Keeps `shard-docids` in step with one document batch: documents the batch creates join the
 * shard `sharding` gives their id (with a sharded network only), deleted ones leave whichever
 * shard held them, a clear empties every shard (keeping the shards, as v1.50's). Changes are
 * noted after each write of the document store and saved once, before the batch commits.
 */
export class ShardRecorder {
  /** the record as the batch changes it; loaded on first need */
  private shards: Map<string, DocSet> | null = null;
  private dirty = false;

  constructor(
    private readonly env: IndexEnv,
    private readonly sharding: Sharding | null,
  ) {
    // a sharded write knows every shard of the network, as an index v1.50 creates with shards
    if (sharding !== null) {
      const shards = this.load();
      for (const name of sharding.shards) {
        if (shards.has(name)) continue;
        shards.set(name, EMPTY);
        this.dirty = true;
      }
    }
  }

  /** Whether the document whose id is `id` belongs to a shard this instance does not own (dropped when sharded). */
  dropped(id: string): boolean {
    return this.sharding !== null && !this.sharding.owned.has(shardOf(id, this.sharding.shards));
  }

  /**
   * Notes what a write of the document store did: `changes` the net changes it was given (by
   * external id), `applied` what it answered.
   */
  note(changes: ReadonlyMap<string, unknown>, applied: readonly DocumentChange[]): void {
    const removed: number[] = [];
    const created = new Set<number>();
    for (const change of applied) {
      if (change.after === undefined) removed.push(change.docid);
      else if (change.before === undefined) created.add(change.docid);
    }
    if (removed.length > 0 && (this.shards !== null || this.env.shardDocids.getCount() > 0)) {
      const gone = fromUnsorted(removed);
      const shards = this.load();
      for (const [name, docids] of shards) {
        const kept = difference(docids, gone);
        if (kept.length === docids.length) continue;
        shards.set(name, kept);
        this.dirty = true;
      }
    }
    if (this.sharding === null || created.size === 0) return;
    const joining = new Map<string, number[]>();
    for (const [id, doc] of changes) {
      if (doc === null) continue;
      const docid = this.env.externalIds.get(id);
      if (docid === undefined || !created.has(docid)) continue;
      const shard = shardOf(id, this.sharding.shards);
      let list = joining.get(shard);
      if (list === undefined) joining.set(shard, (list = []));
      list.push(docid);
    }
    const shards = this.load();
    for (const [name, docids] of joining) shards.set(name, union(shards.get(name) ?? EMPTY, fromUnsorted(docids)));
    if (joining.size > 0) this.dirty = true;
  }

  /** Every document was deleted: every known shard is emptied. */
  cleared(): void {
    const shards = this.load();
    for (const name of shards.keys()) shards.set(name, EMPTY);
    this.dirty = shards.size > 0 || this.dirty;
  }

  /** Writes the record if the batch changed it (inside the batch's transaction). */
  save(): void {
    if (!this.dirty || this.shards === null) return;
    for (const [name, docids] of this.shards) this.env.shardDocids.putSync(name, encode(docids));
    this.dirty = false;
  }

  private load(): Map<string, DocSet> {
    this.shards ??= readShardDocids(this.env);
    return this.shards;
  }
}
