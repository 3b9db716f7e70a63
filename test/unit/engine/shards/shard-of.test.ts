import { describe, expect, it } from 'vitest';
import { shardOf } from '../../../../src/engine/shards/shard-of.js';

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

  it('answers the only shard when there is one', () => {
    expect(shardOf('anything', ['default'])).toBe('default');
  });
});
