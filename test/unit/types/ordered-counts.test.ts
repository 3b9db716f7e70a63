// Facet counts written in their order in an HTTP answer: integer-like keys, which a JavaScript
// object lists ascending, keep the order given; everything else about the record and the text is
// what JSON.stringify gives.
import { describe, expect, it } from 'vitest';
import { orderedCounts } from '../../../src/types/ordered-counts.js';
import { stringifyReply } from '../../../src/types/reply-text.js';

/** The keys of the object written at `"field":{...}` in `text`, in the text's order. */
const keysIn = (text: string, field: string) => [...new RegExp(`"${field}":\\{([^}]*)\\}`).exec(text)![1]!.matchAll(/"([^"]*)":/g)].map((m) => m[1]);

describe('orderedCounts and stringifyReply', () => {
  it('writes integer-like keys in the order given, anywhere in the answer, and the same counts', () => {
    const year = orderedCounts([['2020', 5], ['1999', 3], ['10', 2], ['x', 1]]);
    const answer = { hits: [{ id: 1 }], facetDistribution: { year, other: orderedCounts([['9', 1], ['10', 1]]) }, results: [{ facetDistribution: { year } }] };
    const text = stringifyReply(answer);
    expect(keysIn(text, 'year')).toEqual(['2020', '1999', '10', 'x']);
    expect(keysIn(text, 'other')).toEqual(['9', '10']);
    // parsed back, the same values as JSON.stringify's text
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(answer)));
    // the second occurrence too
    expect(text.match(/"2020":5,"1999":3,"10":2,"x":1/g)).toHaveLength(2);
  });

  it('is an ordinary record for every other reader, and for any other serialization', () => {
    const counts = orderedCounts([['2', 1], ['1', 2], ['1', 3]]);
    expect(Object.keys(counts)).toEqual(['1', '2']);
    expect(counts).toEqual({ 1: 3, 2: 1 });
    expect(JSON.stringify({ counts })).toBe('{"counts":{"1":3,"2":1}}');
    expect({ ...counts }).toEqual({ 1: 3, 2: 1 });
  });

  it('keeps a key given twice at its first place with its last count', () => {
    expect(stringifyReply(orderedCounts([['3', 1], ['1', 1], ['3', 7]]))).toBe('{"3":7,"1":1}');
  });

  it('leaves a record whose order JavaScript keeps as a plain one, and one holding a `toJSON` count', () => {
    const plain = orderedCounts([['b', 1], ['a', 2]]);
    expect(Object.getOwnPropertyNames(plain)).toEqual(['b', 'a']);
    expect(stringifyReply(plain)).toBe('{"b":1,"a":2}');
    expect(stringifyReply(orderedCounts([['2', 1], ['toJSON', 4], ['1', 1]]))).toBe('{"1":1,"2":1,"toJSON":4}');
  });

  it('does not take an answer string that looks like a marker for one, and escapes keys as JSON does', () => {
    const answer = { q: '\u0000abc#0', counts: orderedCounts([['2', 1], ['1"\\\u0000', 2], ['1', 3]]) };
    const text = stringifyReply(answer);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(answer)));
    expect(text).toContain('"q":"\\u0000abc#0"');
    expect(text).toContain('{"2":1,"1\\"\\\\\\u0000":2,"1":3}');
  });

  it('writes 64-bit integers of documents as their digits beside ordered counts', () => {
    const text = stringifyReply({ hits: [{ id: 2n ** 63n }], facetDistribution: { n: orderedCounts([['5', 1], ['4', 1]]) } });
    expect(text).toBe('{"hits":[{"id":9223372036854775808}],"facetDistribution":{"n":{"5":1,"4":1}}}');
  });
});
