/**
 * Which shard a document belongs to (network.md §5): rendezvous hashing, as v1.50's
 * `milli::sharding` — the shard whose name maximises XXH3_64(name ‖ 0xFF ‖ docid ‖ 0xFF) (seed 0,
 * default secret; the bytes Rust's `Hash` writes for a `(&str, &str)` tuple). Adding a shard
 * therefore moves only the documents the new shard wins. Pure: the engine assigns shards while
 * indexing, the network service while routing and rebalancing.
 */
import { createXXHash3 } from 'hash-wasm';

const hasher = await createXXHash3();
const encoder = new TextEncoder();

/** The sharded network as one instance sees it: every shard's name and the ones it owns. */
export interface Sharding {
  /** every shard of the network, sorted by name */
  readonly shards: readonly string[];
  /** the shards this instance owns (`self` among their remotes) */
  readonly owned: ReadonlySet<string>;
}

function score(shard: Uint8Array, docid: Uint8Array): bigint {
  const bytes = new Uint8Array(shard.length + docid.length + 2);
  bytes.set(shard, 0);
  bytes[shard.length] = 0xff;
  bytes.set(docid, shard.length + 1);
  bytes[bytes.length - 1] = 0xff;
  hasher.init();
  hasher.update(bytes);
  return BigInt(`0x${hasher.digest('hex')}`);
}

/** The shard of the document whose primary-key value (as a string) is `docid`; `shards` non-empty. */
export function shardOf(docid: string, shards: readonly string[]): string {
  const id = encoder.encode(docid);
  let best = shards[0]!;
  let bestScore = -1n;
  for (const shard of shards) {
    const value = score(encoder.encode(shard), id);
    // on a tie Rust's `max_by_key` keeps the last maximum, and so does this
    if (value >= bestScore) {
      bestScore = value;
      best = shard;
    }
  }
  return best;
}
