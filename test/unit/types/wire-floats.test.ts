// Float members of an HTTP answer written as v1.50's serde writes an f64 (`1.0`, `1e-6`), by
// stringifyReply only: every other reader sees the plain object and plain numbers; copies carry
// the marks only through withFloatsOf.
import { describe, expect, it } from 'vitest';
import { orderedCounts } from '../../../src/types/ordered-counts.js';
import { stringifyReply } from '../../../src/types/reply-text.js';
import { isFloatMember, withFloatItems, withFloatMember, withFloatMembers, withFloatsOf } from '../../../src/types/wire-floats.js';

describe('withFloatMembers', () => {
  it('writes the integral and tiny float members as ryu does, in their place, and nothing else', () => {
    const hit = withFloatMembers({ id: 1, score: 1, _rankingScore: 1, tiny: 0.0000015, big: 1e17, half: 0.5 }, ['_rankingScore', 'tiny', 'big', 'half']);
    expect(stringifyReply({ hits: [hit] })).toBe('{"hits":[{"id":1,"score":1,"_rankingScore":1.0,"tiny":1.5e-6,"big":1e17,"half":0.5}]}');
  });

  it('stays a plain object with numbers for every other reader', () => {
    const stats = withFloatMembers({ min: 0, max: 2 }, ['min', 'max']);
    expect(JSON.stringify(stats)).toBe('{"min":0,"max":2}');
    expect({ ...stats }).toEqual({ min: 0, max: 2 });
    expect(Object.keys(stats)).toEqual(['min', 'max']);
    expect(stats.max * 2).toBe(4);
  });

  it('writes -0 as -0.0 and leaves missing and non-number members out of it', () => {
    const holder = withFloatMembers({ a: -0, b: 'x', c: null }, ['a', 'b', 'c', 'd']);
    expect(stringifyReply(holder)).toBe('{"a":-0.0,"b":"x","c":null}');
  });

  it('works beside ordered counts in one answer', () => {
    const answer = { facetDistribution: { year: orderedCounts([['2000', 1], ['1999', 2]]) }, facetStats: { year: withFloatMembers({ min: 1999, max: 2000 }, ['min', 'max']) } };
    expect(stringifyReply(answer)).toBe('{"facetDistribution":{"year":{"2000":1,"1999":2}},"facetStats":{"year":{"min":1999.0,"max":2000.0}}}');
  });
});

describe('withFloatItems', () => {
  it('writes a vector with ryu where its items need it, and as it is otherwise', () => {
    expect(stringifyReply({ v: withFloatItems([0, 1, 0.5, -2]) })).toBe('{"v":[0.0,1.0,0.5,-2.0]}');
    expect(stringifyReply({ v: withFloatItems([0.25, 0.5]) })).toBe('{"v":[0.25,0.5]}');
    const plain = withFloatItems([1, 2]);
    expect(JSON.stringify(plain)).toBe('[1,2]');
    expect(Array.isArray(plain) && plain.length === 2 && Object.keys(plain)).toEqual(['0', '1']);
  });
});

describe('marks that grow and copy', () => {
  it('adds members to a holder already marked, as a hit holding a document float gains its score', () => {
    const hit = withFloatMembers({ r: 9, _rankingScore: 1 }, ['r']);
    withFloatMembers(hit, ['_rankingScore']);
    expect(stringifyReply(hit)).toBe('{"r":9.0,"_rankingScore":1.0}');
  });

  it('marks single array items, leaving the others and nested holders as they write themselves', () => {
    const inner = withFloatMembers({ w: 3 }, ['w']);
    const list = [1, 2, inner];
    withFloatMember(list, 0);
    expect(isFloatMember(list, 0)).toBe(true);
    expect(isFloatMember(list, 1)).toBe(false);
    expect(stringifyReply({ list })).toBe('{"list":[1.0,2,{"w":3.0}]}');
    expect(JSON.stringify(list)).toBe('[1,2,{"w":3}]');
  });

  it('copies marks to a copy for the members it holds, but not those a merge took from elsewhere', () => {
    const base = withFloatMembers({ a: 1, b: 2, c: 3 }, ['a', 'b', 'c']);
    const update = { b: 2 };
    const { c: _dropped, ...rest } = base;
    const merged = withFloatsOf(base, { ...rest, ...update }, update);
    expect(stringifyReply(merged)).toBe('{"a":1.0,"b":2}');
    expect(isFloatMember(withFloatsOf(base, {}), 'a')).toBe(false);
  });
});
