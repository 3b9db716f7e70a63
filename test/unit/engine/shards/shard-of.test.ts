import { xxhash3 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { shardOf } from '../../../../src/engine/shards/shard-of.js';

/** The rendezvous winner computed the plain way: each pair's bytes hashed whole, scores as numbers. */
async function reference(docid: string, shards: readonly string[]): Promise<string> {
  let best = shards[0]!;
  let bestScore = -1n;
  for (const shard of shards) {
    const bytes = Buffer.concat([Buffer.from(shard), Buffer.of(0xff), Buffer.from(docid), Buffer.of(0xff)]);
    const score = BigInt(`0x${await xxhash3(bytes)}`);
    if (score >= bestScore) [best, bestScore] = [shard, score];
  }
  return best;
}

describe('shardOf', () => {
  it('puts documents on the shards v1.50 puts them (tests/search/multi/proxy.rs test vector)', () => {
    const shards = ['ms0', 'ms1', 'ms2'];
    expect(['A', 'B', 'C', 'D', 'E'].map((id) => shardOf(id, shards))).toEqual(['ms1', 'ms1', 'ms2', 'ms0', 'ms2']);
  });

  it('moves only the documents a new shard wins (rendezvous hashing)', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => String(i));
    const before = ids.map((id) => shardOf(id, ['a', 'b']));
    const after = ids.map((id) => shardOf(id, ['a', 'b', 'c']));
    const moved = ids.filter((_, i) => before[i] !== after[i]);
    expect(moved.every((id) => shardOf(id, ['a', 'b', 'c']) === 'c')).toBe(true);
    expect(moved.length).toBeGreaterThan(500);
    expect(moved.length).toBeLessThan(833);
  });

  it('hashes multi-byte, long and empty ids and shard names exactly as their UTF-8 bytes', async () => {
    const shards = ['ms0', 'é-shard', 'シャード', 'x'.repeat(300)];
    const ids = ['', 'é€😀', 'a'.repeat(1000), '😀'.repeat(200), ...Array.from({ length: 200 }, (_, i) => `id-${i}`)];
    for (const id of ids) expect(shardOf(id, shards)).toBe(await reference(id, shards));
  });

  it('answers the only shard when there is one', () => {
    expect(shardOf('anything', ['default'])).toBe('default');
  });
});
