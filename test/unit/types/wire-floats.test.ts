// Float members of an HTTP answer written as v1.50's serde writes an f64 (`1.0`, `1e-6`), by
// stringifyReply only: every other reader sees the plain object and plain numbers.
import { describe, expect, it } from 'vitest';
import { orderedCounts } from '../../../src/types/ordered-counts.js';
import { stringifyReply } from '../../../src/types/reply-text.js';
import { withFloatItems, withFloatMembers } from '../../../src/types/wire-floats.js';

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
