// Long answers written in pieces: the pieces make the text JSON.stringify (with 64-bit integers)
// writes, whatever the values, and only answers of more than STREAMED_ITEMS_FROM hits, or holding
// a megabyte of strings, are streamed.
import { describe, expect, it } from 'vitest';
import { STREAMED_ITEMS_FROM, streamedWhenLong } from '../../../src/search/streamed-answer.js';
import { stringifyJson } from '../../../src/types/json-text.js';
import { jsonTextObject } from '../../../src/types/json-text-object.js';
import { orderedCounts } from '../../../src/types/ordered-counts.js';
import { stringifyReply } from '../../../src/types/reply-text.js';
import { StreamedJson } from '../../../src/types/streamed-json.js';
import { mulberry32 } from '../../helpers/random.js';

async function text(value: Record<string, unknown>): Promise<string> {
  const answer = streamedWhenLong(value, STREAMED_ITEMS_FROM + 1);
  expect(answer).toBeInstanceOf(StreamedJson);
  return (answer as StreamedJson).text();
}

describe('streamedWhenLong', () => {
  it('writes the text JSON.stringify writes: omitted members, nulls in arrays, toJSON, BigInt, __proto__ keys', async () => {
    const proto = JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as Record<string, unknown>;
    const value = {
      results: [
        { indexUid: 'movies', hits: [{ id: 1n << 60n, title: 'x' }, { id: 2, nested: { deep: [1, { deeper: [2] }] } }], gone: undefined, when: new Date(0) },
        { indexUid: 'empty', hits: [], facetDistribution: {} },
        proto,
      ],
      list: [undefined, () => 1, null, 'é\u2028"'],
      empty: {},
      nothing: null,
    };
    expect(await text(value)).toBe(stringifyJson(value));
  });

  it('writes facet counts in their order, as a whole answer writes them, at any depth', async () => {
    const counts = () => orderedCounts([['10', 3], ['9', 2], ['100', 1]]);
    const value = { results: [{ hits: [], facetDistribution: { year: counts() } }], facetDistribution: { year: counts() } };
    const written = await text(value);
    expect(written).toBe(stringifyReply(value));
    expect(written).toContain('"year":{"10":3,"9":2,"100":1}');
  });

  it('writes random answers of nested lists and objects as JSON.stringify does', async () => {
    const next = mulberry32(20_261_203);
    const random = { int: (n: number) => Math.floor(next() * n) };
    const leaf = (): unknown => [1.5, -0, 'a"b', null, true, undefined, 10n ** 19n, 'ü'.repeat(random.int(70_000))][random.int(8)];
    const make = (depth: number): unknown => {
      if (depth > 5 || random.int(4) === 0) return leaf();
      if (random.int(2) === 0) return Array.from({ length: random.int(6) }, () => make(depth + 1));
      return Object.fromEntries(Array.from({ length: random.int(6) }, (_, i) => [`k${i}`, make(depth + 1)]));
    };
    for (let round = 0; round < 50; round++) {
      const value = { hits: Array.from({ length: random.int(30) }, () => make(1)), results: make(1) };
      expect(await text(value)).toBe(stringifyJson(value));
    }
  });

  it('streams only answers of more than STREAMED_ITEMS_FROM hits, or of a megabyte of strings', () => {
    const answer = { hits: [{ id: 1, text: 'x'.repeat(1024 * 1024 - 20) }] };
    expect(streamedWhenLong(answer, STREAMED_ITEMS_FROM)).toBe(answer);
    expect(streamedWhenLong(answer, STREAMED_ITEMS_FROM + 1)).toBeInstanceOf(StreamedJson);
    // the strings of every hit and field count, nested ones too
    const long = { hits: [{ id: 1, text: 'x'.repeat(1024 * 1024 - 20) }, { id: 2, _formatted: { tags: ['abcdefghij'] } }] };
    expect(streamedWhenLong(long, 2)).toBeInstanceOf(StreamedJson);
  });

  it('takes a list or object of more members than it looks at for long without reading them (450,000 synonyms)', async () => {
    let read = 0;
    const synonyms = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`w${i}`, [`v${i}`]]));
    const counted = new Proxy(synonyms, { get: (target, key) => (read++, Reflect.get(target, key)) });
    const stopWords = Array.from({ length: 100_000 }, (_, i) => `s${i}`);
    const countedWords = new Proxy(stopWords, { get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) && read++, Reflect.get(target, key)) });
    expect(streamedWhenLong({ synonyms: counted }, 0)).toBeInstanceOf(StreamedJson);
    expect(streamedWhenLong({ stopWords: countedWords }, 0)).toBeInstanceOf(StreamedJson);
    expect(read).toBe(0);
    const answer = { synonyms, stopWords: stopWords.slice(0, 10) };
    expect(await (streamedWhenLong(answer, 0) as StreamedJson).text()).toBe(JSON.stringify(answer));
  });

  it("counts keys' strings too: a facet distribution's long value streams the answer", async () => {
    const answer = { hits: [], facetDistribution: { tag: orderedCounts([['k'.repeat(1024 * 1024), 1], ['b', 2]]) } };
    const streamed = streamedWhenLong(answer, 0);
    expect(streamed).toBeInstanceOf(StreamedJson);
    expect(await (streamed as StreamedJson).text()).toBe(stringifyReply(answer));
  });

  it('counts an object read from its text by that text, and writes the text unparsed', async () => {
    // not JSON: parsing it would throw
    const long = 'x'.repeat(1024 * 1024);
    const answer = { results: [{ uid: 1, details: jsonTextObject([['synonyms', long]]) }] };
    const streamed = streamedWhenLong(answer, 1);
    expect(streamed).toBeInstanceOf(StreamedJson);
    expect(await (streamed as StreamedJson).text()).toBe(`{"results":[{"uid":1,"details":{"synonyms":${long}}}]}`);
    const short = { results: [{ uid: 1, details: jsonTextObject([['a', '1']]) }] };
    expect(streamedWhenLong(short, 1)).toBe(short);
  });

  it('writes a long string in slices, never parting a surrogate pair or an escape', async () => {
    // pairs and characters JSON escapes at every offset around the 64 Ki slice bounds
    for (const [filler, at] of [['😀', 0], ['😀', 1], ['"\\\n\u0001', 0], ['a\uD800b', 3]] as const) {
      const value = { hits: [{ text: 'é'.repeat(at) + filler.repeat(600_000), _formatted: { text: `<em>${filler.repeat(40_000)}</em>` } }] };
      const answer = streamedWhenLong(value, 1);
      expect(answer).toBeInstanceOf(StreamedJson);
      expect(await (answer as StreamedJson).text()).toBe(stringifyJson(value));
    }
  });
});
