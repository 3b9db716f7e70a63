/**
 * How a query sent to the whole network is split (network.md §7.1, v1.50's `Partition`): without
 * a leader, one copy per registered remote ("by remote"); with one (the enterprise edition's
 * sharding), one copy per shard, each restricted to its shard by a `_shard` filter and sent to
 * this instance when it owns the shard, else to a random available owner (a shard with none is
 * skipped). A request computes its partition once and applies it to each of its queries. Pure:
 * the callers read the network and the availability table.
 */
import { compareBytes } from '../types/bytes.js';

/** What the partition reads of the stored network (network/network.ts `Saved`). */
export interface PartitionedNetwork {
  readonly self: string | null;
  readonly remotes: Readonly<Record<string, unknown>>;
  readonly shards: Readonly<Record<string, readonly string[]>>;
  readonly leader?: string | null;
}

/** One copy of a networked query: where it goes, and the shard it is restricted to (null: by remote). */
export interface NetworkCopy {
  readonly remote: string;
  readonly shardFilter: string | null;
}

/**
 * The copies of a networked query, in v1.50's order: remotes by name, or shards by (escaped) name.
 * `available(name)` says whether a remote may be picked for a shard; `random()` is in [0, 1).
 */
export function networkCopies(network: PartitionedNetwork, available: (remote: string) => boolean, random: () => number = Math.random): NetworkCopy[] {
  if ((network.leader ?? null) === null) {
    return Object.keys(network.remotes)
      .sort(compareBytes)
      .map((remote) => ({ remote, shardFilter: null }));
  }
  const copies: { shard: string; remote: string }[] = [];
  for (const [name, owners] of Object.entries(network.shards)) {
    const shard = escapeDefault(name);
    if (network.self !== null && owners.includes(network.self)) {
      copies.push({ shard, remote: network.self });
      continue;
    }
    const candidates = [...owners].sort(compareBytes).filter(available);
    // no owner to ask: the shard is left out of the answer, as v1.50 leaves it (with a warning)
    if (candidates.length === 0) continue;
    copies.push({ shard, remote: candidates[Math.floor(random() * candidates.length)]! });
  }
  return copies.sort((a, b) => compareBytes(a.shard, b.shard)).map(({ shard, remote }) => ({ remote, shardFilter: `_shard = "${shard}"` }));
}

/** Rust's `str::escape_default`: `\t \r \n \' \" \\` escaped, printable ASCII kept, anything else `\u{hex}`. */
export function escapeDefault(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (char === '\n') out += '\\n';
    else if (char === "'" || char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code <= 0x7e) out += char;
    else out += `\\u{${code.toString(16)}}`;
  }
  return out;
}

