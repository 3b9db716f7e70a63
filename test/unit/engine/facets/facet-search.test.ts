// facetQuery matching (search.md §11) against a full edit-distance table: the facet search computes
// only the band of cells its typo budget can reach, and must find exactly what the full table finds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFacetValues } from '../../../../src/engine/facets/facet-search.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { MAX_FACET_VALUE_BYTES } from '../../../../src/engine/facets/values.js';
import { mulberry32 } from '../../../helpers/random.js';
import { TestIndex } from './fixture.js';

/** Distance from `query` to the closest prefix of `value` (adjacent transpositions cost 1), every cell computed. */
function fullPrefixDistance(query: readonly string[], value: readonly string[]): number {
  const d = Array.from({ length: value.length + 1 }, (_, j) => Array.from({ length: query.length + 1 }, (_, i) => (j === 0 ? i : i === 0 ? j : 0)));
  let best = d[0]![query.length]!;
  for (let j = 1; j <= value.length; j++) {
    for (let i = 1; i <= query.length; i++) {
      let v = Math.min(d[j - 1]![i]! + 1, d[j]![i - 1]! + 1, d[j - 1]![i - 1]! + (query[i - 1] === value[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && query[i - 1] === value[j - 2] && query[i - 2] === value[j - 1]) v = Math.min(v, d[j - 2]![i - 2]! + 1);
      d[j]![i] = v;
    }
    best = Math.min(best, d[j]![query.length]!);
  }
  return best;
}

let seed = 11;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const word = (min: number, spread: number) => Array.from({ length: min + rand(spread) }, () => 'abc'[rand(3)]).join('');
/** Up to three random edits (substitution, insertion, deletion, transposition) of a text. */
const edit = (text: string) => {
  const chars = [...text];
  for (let e = rand(4); e > 0 && chars.length > 1; e--) {
    const at = rand(chars.length - 1);
    const kind = rand(4);
    if (kind === 0) chars[at] = 'abc'[rand(3)]!;
    else if (kind === 1) chars.splice(at, 0, 'abc'[rand(3)]!);
    else if (kind === 2) chars.splice(at, 1);
    else [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!];
  }
  return chars.join('');
};

let index: TestIndex;
const tags = new Set<string>();

beforeAll(() => {
  index = TestIndex.create({ filterableAttributes: ['tag'] });
  while (tags.size < 80) tags.add(word(1, 14));
  index.write([...tags].map((tag, id) => ({ id, tag })));
});
afterAll(async () => {
  await index.close();
});

describe('facetQuery', () => {
  it('matches exactly the values a full edit-distance table matches, with the budget of its byte length', () => {
    const candidates = new FacetReader(index.env).allDocids();
    let typoMatches = 0;
    for (let round = 0; round < 200; round++) {
      // a value's start, edited, or any text
      const tag = [...tags][rand(tags.size)]!;
      const query = rand(3) === 0 ? word(1, 16) : edit(tag.slice(0, tag.length - rand(4)));
      if (query === '') continue;
      const budget = query.length < 5 ? 0 : query.length < 9 ? 1 : 2;
      const expected = [...tags].filter((tag) => fullPrefixDistance([...query], [...tag]) <= budget).sort();
      const found = searchFacetValues(index.env, index.settings, candidates, 'tag', query).map((hit) => hit.value);
      expect(found.sort(), query).toEqual(expected);
      if (budget > 0) typoMatches += expected.length;
    }
    expect(typoMatches).toBeGreaterThan(100);
  });

  it('matches a long value whose closest prefix is as many letters longer than the query as its typos', async () => {
    const long = TestIndex.create({ filterableAttributes: ['tag'] });
    const tail = ' and a description of many more words'.repeat(8);
    const values = ['xabcdefgh' + tail, 'xyabcdefgh' + tail, 'xyzabcdefgh' + tail];
    long.write(values.map((tag, id) => ({ id, tag })));
    const search = (query: string) => searchFacetValues(long.env, long.settings, new FacetReader(long.env).allDocids(), 'tag', query).map((hit) => hit.value);
    try {
      // one typo (5 to 8 bytes): the prefix within it ends at the value's sixth letter; with two
      // typos (9 bytes on), at its twelfth
      expect(search('abcde')).toEqual([values[0]]);
      expect(search('abcdefgh a')).toEqual([values[0], values[1]]);
    } finally {
      await long.close();
    }
  });

  it('rejects a query far longer than every value at once', () => {
    const candidates = new FacetReader(index.env).allDocids();
    expect(searchFacetValues(index.env, index.settings, candidates, 'tag', 'a'.repeat(1_000_000))).toEqual([]);
  });

  it('reads a query no further than 4 × MAX_FACET_VALUE_BYTES characters, as if it ended there', () => {
    const candidates = new FacetReader(index.env).allDocids();
    // accents fold away: read whole, this query is `azzzz`; read to the bound, `a`
    const query = `a${'\u0301'.repeat(4 * MAX_FACET_VALUE_BYTES)}zzzz`;
    const found = searchFacetValues(index.env, index.settings, candidates, 'tag', query);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(searchFacetValues(index.env, index.settings, candidates, 'tag', 'a'));
  });
});

describe('the values the candidates hold', () => {
  it('are the same read from the field’s column as walked, for any candidates, query and order', () => {
    const random = mulberry32(7);
    const pick = (n: number) => Math.floor(random() * n);
    // more documents holding one to three of the same values, some in upper case: counts and spellings vary
    const list = [...tags];
    index.write(Array.from({ length: 120 }, (_, k) => ({ id: 1000 + k, tag: Array.from({ length: 1 + pick(3) }, () => list[pick(list.length)]!).map((tag) => (pick(3) === 0 ? tag.toUpperCase() : tag)) })));
    const all = [...new FacetReader(index.env).allDocids()];
    for (const order of ['alpha', 'count'] as const) {
      const settings = { ...index.settings, faceting: { ...index.settings.faceting, maxValuesPerFacet: 7, sortFacetValuesBy: { '*': order } } };
      for (let round = 0; round < 40; round++) {
        // candidates among the added documents mostly, whose spellings differ from the values' first documents'
        const candidates = Uint32Array.from(all.filter((docid) => random() < (docid < tags.size ? 0.05 : 0.4)));
        const tag = list[pick(list.length)]!;
        const query = round % 3 === 0 ? null : tag.slice(0, 1 + pick(tag.length));
        // an explicit count takes the walk; without one, the column
        const walked = searchFacetValues(index.env, settings, candidates, 'tag', query, { count: (held) => held.length });
        expect(searchFacetValues(index.env, settings, candidates, 'tag', query), `${order} ${query}`).toEqual(walked);
        if (round === 0) expect(walked.length).toBeGreaterThan(0);
      }
    }
  });
});
