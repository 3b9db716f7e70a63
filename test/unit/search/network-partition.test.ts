// The partition of a networked query (network.md §7.1): by remote without a leader, by shard
// with one (owned shards to this instance, others to a random available owner, none available
// skips the shard), shard names escaped as Rust's escape_default, filters fused as v1.50's.
import { describe, expect, it } from 'vitest';
import { escapeDefault, networkCopies } from '../../../src/search/network-partition.js';

const remotes = { ms0: {}, ms1: {}, ms2: {}, ms3: {} };
const all = (_name: string) => true;

describe('networkCopies', () => {
  it('makes one copy per remote, by name, without a leader', () => {
    expect(networkCopies({ self: 'ms1', remotes: { ms2: {}, ms0: {}, ms1: {} }, shards: { s: ['ms0'] } }, all)).toEqual([
      { remote: 'ms0', shardFilter: null },
      { remote: 'ms1', shardFilter: null },
      { remote: 'ms2', shardFilter: null },
    ]);
    expect(networkCopies({ self: null, remotes: {}, shards: {}, leader: null }, all)).toEqual([]);
  });

  it('sends each shard to this instance when it owns it, else to an owner, filtered on the shard', () => {
    const network = { self: 'ms0', remotes, shards: { b: ['ms0', 'ms1'], a: ['ms2'] }, leader: 'ms0' };
    expect(networkCopies(network, all)).toEqual([
      { remote: 'ms2', shardFilter: '_shard = "a"' },
      { remote: 'ms0', shardFilter: '_shard = "b"' },
    ]);
  });

  it('picks the owner at random among the available ones, and skips a shard none of whose owners is available', () => {
    const network = { self: 'ms0', remotes, shards: { s: ['ms3', 'ms1', 'ms2'], t: ['ms2'] }, leader: 'ms0' };
    const pick = (random: number, available = all) => networkCopies(network, available, () => random).map(({ remote }) => remote);
    // owners in name order: ms1, ms2, ms3
    expect(pick(0)).toEqual(['ms1', 'ms2']);
    expect(pick(0.5)).toEqual(['ms2', 'ms2']);
    expect(pick(0.99)).toEqual(['ms3', 'ms2']);
    const notMs2 = (name: string) => name !== 'ms2';
    expect(pick(0, notMs2)).toEqual(['ms1']);
    expect(pick(0.99, notMs2)).toEqual(['ms3']);
    expect(networkCopies(network, () => false)).toEqual([]);
  });

  it('escapes shard names inside the filter, ordered by their escaped form', () => {
    const network = { self: 'ms0', remotes, shards: { 'é': ['ms0'], 'q"\\': ['ms0'] }, leader: 'ms0' };
    expect(networkCopies(network, all).map(({ shardFilter }) => shardFilter)).toEqual(['_shard = "\\u{e9}"', '_shard = "q\\"\\\\"']);
  });
});

describe('escapeDefault', () => {
  it('escapes as Rust str::escape_default', () => {
    expect(escapeDefault('plain-shard_1 ~')).toBe('plain-shard_1 ~');
    expect(escapeDefault('a\tb\rc\nd')).toBe('a\\tb\\rc\\nd');
    expect(escapeDefault(`'"\\`)).toBe(`\\'\\"\\\\`);
    expect(escapeDefault('\u0000\u007f€😀')).toBe('\\u{0}\\u{7f}\\u{20ac}\\u{1f600}');
  });
});
