/**
 * Which shard a document belongs to (network.md §5): rendezvous hashing, as v1.50's
 * `milli::sharding` — the shard whose name maximises XXH3_64(name ‖ 0xFF ‖ docid ‖ 0xFF) (seed 0,
 * default secret; the bytes Rust's `Hash` writes for a `(&str, &str)` tuple). Adding a shard
 * therefore moves only the documents the new shard wins. Pure: the engine assigns shards while
 * indexing, the network service while routing and rebalancing.
 */
import xxhash3 from 'hash-wasm/dist/xxhash3.umd.min.js';

// its own bundle (xxhash3-bundle.d.ts says why)
const hasher = await xxhash3.createXXHash3();
const encoder = new TextEncoder();

/** The sharded network as one instance sees it: every shard's name and the ones it owns. */
export interface Sharding {
  /** every shard of the network, sorted by name */
  readonly shards: readonly string[];
  /** the shards this instance owns (`self` among their remotes) */
  readonly owned: ReadonlySet<string>;
}

/** Shard names as UTF-8, encoded once. */
const encodedNames = new Map<string, Uint8Array>();
/** The bytes hashed for one (shard, document) pair, reused between calls. */
let scratch = new Uint8Array(256);

/** XXH3_64(shard ‖ 0xFF ‖ docid ‖ 0xFF) as its 8 big-endian bytes, which compare as the number does. */
function score(shard: string, docid: string): Uint8Array {
  let name = encodedNames.get(shard);
  if (name === undefined) encodedNames.set(shard, (name = encoder.encode(shard)));
  // a UTF-16 unit never takes more than 3 UTF-8 bytes
  const most = name.length + docid.length * 3 + 2;
  if (scratch.length < most) scratch = new Uint8Array(most * 2);
  scratch.set(name, 0);
  scratch[name.length] = 0xff;
  const end = name.length + 1 + encoder.encodeInto(docid, scratch.subarray(name.length + 1)).written;
  scratch[end] = 0xff;
  hasher.init();
  hasher.update(scratch.subarray(0, end + 1));
  return hasher.digest('binary');
}

function compare(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Whether this instance owns the document whose primary-key value (as a string) is `docid`. */
export function ownsDocument(sharding: Sharding, docid: string): boolean {
  return sharding.owned.has(shardOf(docid, sharding.shards));
}

/** The shard of the document whose primary-key value (as a string) is `docid`; `shards` non-empty. */
export function shardOf(docid: string, shards: readonly string[]): string {
  let best = shards[0]!;
  let bestScore: Uint8Array | null = null;
  for (const shard of shards) {
    const value = score(shard, docid);
    // on a tie Rust's `max_by_key` keeps the last maximum, and so does this
    if (bestScore === null || compare(value, bestScore) >= 0) {
      bestScore = value;
      best = shard;
    }
  }
  return best;
}
