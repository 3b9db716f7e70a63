// facetDistribution and facetStats over a search's candidates (computeFacets): v1.50's two ways
// of building an alphabetical distribution (up to 3,000 candidates from their own values, numbers
// ordered by their printed form; above, from the values in order, numbers numerically), and the
// same counts whichever way the values are found (the field's value columns, read by candidate;
// the facet data walked in order, each value's documents looked up or intersected; the column
// instead of a walk above 3,000 candidates that would visit too many values; a walk of every
// value when a field's column is too big to keep).
import { afterEach, describe, expect, it } from 'vitest';
import { computeFacets } from '../../../../src/engine/facets/distribution.js';
import { FacetKind } from '../../../../src/engine/facets/extract.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { keptColumn } from '../../../../src/engine/facets/value-columns.js';
import type { DocSet } from '../../../../src/engine/docset.js';
import type { JsonObject } from '../../../../src/engine/document-id.js';
import { mulberry32 } from '../../../helpers/random.js';
import { TestIndex } from './fixture.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const range = (from: number, to: number) => Uint32Array.from({ length: to - from }, (_, k) => from + k);

function open(docs: JsonObject[], faceting: { maxValuesPerFacet?: number; sortFacetValuesBy?: Record<string, 'alpha' | 'count'> } = {}): TestIndex {
  const settings = TestIndex.create().settings;
  index = TestIndex.create({
    filterableAttributes: ['n', 'tag'],
    faceting: { ...settings.faceting, ...faceting },
  });
  index.write(docs);
  return index;
}

describe('alphabetical distribution', () => {
  it('orders and truncates numbers by their printed form up to 3,000 candidates, as v1.50 builds it from the documents', () => {
    const target = open([9, 10, 100, -5, 1.5, 2, 20].map((n, id) => ({ id, n })), { maxValuesPerFacet: 4 });
    const { distribution, stats } = computeFacets(target.env, target.settings, range(0, 7), ['n']);
    // "-5" < "1.5" < "10" < "100" < "2" < "20" < "9", bytewise
    expect(Object.keys(distribution.n!).sort()).toEqual(['-5', '1.5', '10', '100']);
    expect(stats.n).toEqual({ min: -5, max: 100 });
  });

  it('orders numbers numerically above 3,000 candidates, as v1.50 walks its facet values, and names strings by their first candidate', () => {
    const docs = Array.from({ length: 3001 }, (_, id) => ({ id, n: id % 12, tag: id % 2 === 0 ? (id < 10 ? 'Even' : 'even') : 'ODD' }));
    const target = open(docs, { maxValuesPerFacet: 3 });
    expect(computeFacets(target.env, target.settings, range(0, 3001), ['n']).distribution.n).toEqual({ '0': 251, '1': 250, '2': 250 });
    // the same documents, 3,000 of them: "0", "1", "10" in printed order
    expect(computeFacets(target.env, target.settings, range(0, 3000), ['n']).distribution.n).toEqual({ '0': 250, '1': 250, '10': 250 });
    expect(computeFacets(target.env, target.settings, range(0, 3001), ['tag']).distribution.tag).toEqual({ Even: 1501, ODD: 1500 });
    expect(computeFacets(target.env, target.settings, range(10, 3001), ['tag']).distribution.tag).toEqual({ even: 1496, ODD: 1495 });
  });

  it('counts a value a document holds twice once, and names a string by its first candidate’s spelling', () => {
    const fillers = Array.from({ length: 60 }, (_, k) => ({ id: 3 + k, tag: `filler ${k}`, n: 1000 + k }));
    const target = open(
      [
        { id: 0, tag: ['Red', 'RED', 'blue'], n: [7, 7] },
        { id: 1, tag: ['red', 'Blue'], n: 7 },
        { id: 2, tag: 'Blue', n: [8, 7.0] },
        ...fillers,
      ],
      { maxValuesPerFacet: 100 },
    );
    const few = computeFacets(target.env, target.settings, range(0, 3), ['tag', 'n']).distribution;
    expect(few).toEqual({ n: { '7': 3, '8': 1 }, tag: { blue: 3, Red: 2 } });
    expect(computeFacets(target.env, target.settings, range(1, 3), ['tag']).distribution.tag).toEqual({ Blue: 2, red: 1 });
    const all = computeFacets(target.env, target.settings, range(0, 63), ['tag', 'n']).distribution;
    expect(all.tag).toMatchObject({ blue: 3, Red: 2, 'filler 0': 1 });
    expect(all.n).toMatchObject({ '7': 3, '8': 1, '1000': 1 });
  });

  it('keeps a string’s spelling between distributions, and reads it again once its first document changes', () => {
    const docs = Array.from({ length: 50 }, (_, id) => ({ id, tag: id === 0 ? 'Love' : id === 1 ? 'LOVE' : `t${id}` }));
    const target = open(docs, { maxValuesPerFacet: 100 });
    const tags = (from = 0) => computeFacets(target.env, target.settings, range(from, 50), ['tag']).distribution.tag;
    expect(tags()).toMatchObject({ Love: 2 });
    expect(tags()).toMatchObject({ Love: 2 });
    // the same normalised value: its documents are unchanged, its first one spells it otherwise
    target.write([{ id: 0, tag: 'lOvE' }]);
    expect(tags()).toMatchObject({ lOvE: 2 });
    expect(tags(1)).toMatchObject({ LOVE: 1 });
    target.write([{ delete: 0 }]);
    expect(tags()).toMatchObject({ LOVE: 1 });
    expect(Object.keys(tags()!)).not.toContain('lOvE');
  });

  it('answers empty distributions and no stats for no candidates', () => {
    const target = open([{ id: 0, n: 1, tag: 'a' }]);
    expect(computeFacets(target.env, target.settings, new Uint32Array(0), ['n', 'tag'])).toEqual({ distribution: { n: {}, tag: {} }, stats: {} });
  });
});

/**
 * v1.50's answer worked out from the documents alone: per value the candidates holding it
 * (numbers keyed by their printed form, strings by their trimmed NFKD lower case with the first candidate's
 * spelling), numbers before strings, `alpha` in value order (numbers printed, bytewise, up to
 * 3,000 candidates, else numerically), `count` most frequent first, greater value first on ties.
 */
function reference(docs: JsonObject[], candidates: DocSet, maxValues: number, byCount: boolean): Record<string, number> {
  const numbers = new Map<number, Set<number>>();
  const strings = new Map<string, { spelling: string; docs: Set<number> }>();
  for (const docid of candidates) {
    for (const held of [docs[docid]!.tag].flat()) {
      const value = typeof held === 'boolean' ? String(held) : held;
      if (typeof value === 'number') numbers.set(value, (numbers.get(value) ?? new Set()).add(docid));
      else if (typeof value === 'string') {
        const normalized = value.trim().normalize('NFKD').toLowerCase();
        const entry = strings.get(normalized) ?? { spelling: value, docs: new Set<number>() };
        entry.docs.add(docid);
        strings.set(normalized, entry);
      }
    }
  }
  const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  let numberList = [...numbers].map(([value, holders]) => ({ value, key: String(value), count: holders.size }));
  numberList.sort((a, b) => a.value - b.value);
  if (!byCount && candidates.length <= 3000) numberList.sort((a, b) => bytewise(a.key, b.key));
  let stringList = [...strings].map(([value, { spelling, docs: holders }]) => ({ value, key: spelling, count: holders.size }));
  stringList.sort((a, b) => bytewise(a.value, b.value));
  if (byCount) {
    numberList = numberList.reverse().sort((a, b) => b.count - a.count);
    stringList = stringList.reverse().sort((a, b) => b.count - a.count);
  }
  const chosen = numberList.slice(0, maxValues).map(({ key, count }) => [key, count] as const);
  chosen.push(...stringList.slice(0, maxValues - chosen.length).map(({ key, count }) => [key, count] as const));
  return Object.fromEntries(chosen);
}

describe('the candidates’ values, from the columns or walked', () => {
  it('gives v1.50’s distribution and stats for any candidates, few or many, either order', async () => {
    const random = mulberry32(2026);
    // many distinct numbers, a few strings in varied case, booleans, nulls
    const docs: JsonObject[] = Array.from({ length: 400 }, (_, id) => {
      const tag: (number | string | boolean | null)[] = [];
      for (let k = Math.floor(random() * 4); k > 0; k--) {
        const pick = random();
        if (pick < 0.6) tag.push(Math.floor(random() * 300) - 20);
        else if (pick < 0.7) tag.push(Math.floor(random() * 300) / 4);
        else if (pick < 0.75) tag.push(random() < 0.5, null);
        else tag.push(['alpha', 'Alpha', 'beta', 'BETA', 'gamma', 'éclair', '10', ' True '][Math.floor(random() * 8)]!);
      }
      return { id, tag: tag.length === 1 ? tag[0]! : tag };
    });
    for (const byCount of [false, true]) {
      const target = open(docs, { maxValuesPerFacet: 25, sortFacetValuesBy: byCount ? { tag: 'count' } : {} });
      for (const size of [0, 1, 3, 10, 40, 150, 400]) {
        const candidates = Uint32Array.from(
          Array.from({ length: 400 }, (_, docid) => docid)
            .filter(() => random() < size / 400)
            .slice(0, size),
        );
        const { distribution, stats } = computeFacets(target.env, target.settings, candidates, ['tag']);
        const expected = reference(docs, candidates, 25, byCount);
        expect(distribution.tag, `${candidates.length} candidates, ${byCount ? 'count' : 'alpha'}`).toEqual(expected);
        expect(Object.keys(distribution.tag!), 'key order').toEqual(Object.keys(expected));
        const held = [...candidates].flatMap((docid) => [docs[docid]!.tag].flat().filter((value): value is number => typeof value === 'number'));
        expect(stats.tag).toEqual(held.length === 0 ? undefined : { min: Math.min(...held), max: Math.max(...held) });
      }
      await index!.close();
      index = undefined;
    }
  });

  it('above 3,000 candidates, reads the column instead of a walk that would visit too many values, with the walk’s answer', () => {
    // 6,000 distinct numbers and strings; the candidates hold only the last 3,500 of each
    const docs: JsonObject[] = Array.from({ length: 6000 }, (_, id) => ({ id, n: id, tag: `S${String(id).padStart(4, '0')}` }));
    const target = open(docs, { maxValuesPerFacet: 25 });
    const late = range(2500, 6000);
    const numbers = docs.map((doc) => ({ tag: doc.n! }));
    const fid = (field: string) => new FacetReader(target.env).fieldId(field)!;
    for (let run = 0; run < 2; run++) {
      // the first run gives its walks up and builds the columns, the second reads them straight away
      const { distribution, stats } = computeFacets(target.env, target.settings, late, ['n', 'tag']);
      expect(distribution.n).toEqual(reference(numbers, late, 25, false));
      expect(distribution.tag).toEqual(reference(docs, late, 25, false));
      expect(stats.n).toEqual({ min: 2500, max: 5999 });
    }
    expect(keptColumn(target.env, fid('n'), FacetKind.number)?.values.length).toBe(6000);
    expect(keptColumn(target.env, fid('tag'), FacetKind.string)?.values.length).toBe(6000);
  }, 60_000);

  it('above 3,000 candidates, a walk that fills the budget early builds no column', () => {
    const docs: JsonObject[] = Array.from({ length: 6000 }, (_, id) => ({ id, n: id, tag: `S${String(id).padStart(4, '0')}` }));
    const target = open(docs, { maxValuesPerFacet: 25 });
    // the first values and the last: both ends of the stats' walks are found at once
    const early = Uint32Array.from([...range(0, 3500), 5999]);
    const { distribution, stats } = computeFacets(target.env, target.settings, early, ['n', 'tag']);
    expect(distribution.n).toEqual(reference(docs.map((doc) => ({ tag: doc.n! })), early, 25, false));
    expect(stats.n).toEqual({ min: 0, max: 5999 });
    expect(keptColumn(target.env, new FacetReader(target.env).fieldId('n')!, FacetKind.number)).toBeUndefined();
  }, 60_000);

  it('above 3,000 candidates, finds the largest number from the column when walking down to it would cost too much', () => {
    const docs: JsonObject[] = Array.from({ length: 6000 }, (_, id) => ({ id, n: id }));
    const target = open(docs, { maxValuesPerFacet: 25 });
    // the first values fill the budget at once; the largest held is 2,500 values below the top
    const { distribution, stats } = computeFacets(target.env, target.settings, range(0, 3500), ['n']);
    expect(Object.keys(distribution.n!)).toHaveLength(25);
    expect(stats.n).toEqual({ min: 0, max: 3499 });
    expect(keptColumn(target.env, new FacetReader(target.env).fieldId('n')!, FacetKind.number)?.values.length).toBe(6000);
  }, 60_000);

  it('walks every value of a field whose column is too big to keep, with the same answer', () => {
    // 9,000 distinct strings of 468 bytes (the stored cap): a column of ~8.4 MiB, past a quarter of its budget
    const long = (k: number) => `${String(k).padStart(5, '0')}${'x'.repeat(463)}`;
    const docs: JsonObject[] = Array.from({ length: 9000 }, (_, id) => ({ id, tag: id % 3 === 0 ? long(id) : [long(id), 'shared'] }));
    const target = open(docs, { maxValuesPerFacet: 5, sortFacetValuesBy: { tag: 'count' } });
    const candidates = Uint32Array.from([3, 4, 5, 6, 8000]);
    expect(computeFacets(target.env, target.settings, candidates, ['tag']).distribution.tag).toEqual(reference(docs, candidates, 5, true));
  }, 60_000);
});
