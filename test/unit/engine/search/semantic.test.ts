// The semantic ranking (src/engine/search/semantic.ts) over a real index, with the vector store
// replaced by an exact nearest-neighbour scan of fixed 2-d vectors: the vector step where the first
// relevancy rule is, sort rules around it, documents without a vector last, filters, distinct,
// rankingScoreThreshold and the time budget.
import { afterEach, describe, expect, it } from 'vitest';
import { fromSorted, has } from '../../../../src/engine/docset.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { parseSortCriterion } from '../../../../src/engine/facets/sort.js';
import { executeSemanticSearch, type NearestVectors, type SemanticRequest } from '../../../../src/engine/search/semantic.js';
import type { IndexSettings } from '../../../../src/types/settings.js';
import { nextReadSnapshot, readerSlots } from '../../../helpers/lmdb-readers.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const DOCS = [
  { id: 'a', price: 3, group: 'x', v: [1, 0] },
  { id: 'b', price: 1, group: 'x', v: [0.8, 0.6] },
  { id: 'c', price: 3, group: 'y', v: [0, 1] },
  { id: 'd', price: 2, group: 'y', v: [-1, 0] },
  { id: 'e', price: 1, group: 'z', v: null },
];

function open(settings: Partial<IndexSettings> = {}): TestIndex {
  index = openTestIndex(settings);
  index.write(Object.fromEntries(DOCS.map(({ v: _v, ...doc }) => [doc.id, doc])));
  return index;
}

/** Exact cosine nearest neighbours of `query` among the documents that have a vector. */
function exactNearest(idx: TestIndex, query: [number, number], calls: number[] = []): NearestVectors {
  const store = new DocumentStore(idx.env);
  const vectors = new Map(DOCS.filter((doc) => doc.v !== null).map((doc) => [store.docidOf(doc.id)!, doc.v!]));
  return (candidates, limit) => {
    calls.push(limit);
    return [...vectors]
      .filter(([docid]) => has(candidates, docid))
      .map(([docid, [x, y]]) => {
        const cos = (x * query[0] + y * query[1]) / Math.hypot(...query);
        const distance = (1 - cos) / 2;
        return { docid, distance, score: 1 - distance };
      })
      .sort((p, q) => p.distance - q.distance)
      .slice(0, limit);
  };
}

function run(idx: TestIndex, request: Partial<SemanticRequest> & { nearest: NearestVectors }) {
  const outcome = executeSemanticSearch(idx.env, idx.settings, { need: 20, filters: [], sort: [], rankingScoreThreshold: null, distinct: null, exhaustive: false, ...request });
  const store = new DocumentStore(idx.env);
  return { ...outcome, ids: outcome.hits.map((hit) => store.byDocid(hit.docid)!.id) };
}

describe('executeSemanticSearch', () => {
  it('ranks by similarity, documents without a vector last with a null similarity, all of them counted', () => {
    const idx = open();
    const result = run(idx, { nearest: exactNearest(idx, [1, 0]) });
    expect(result.ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(result.hits[0]!.details).toEqual([{ kind: 'vector', similarity: 1 }]);
    expect(result.hits[1]!.score).toBe(Math.fround(0.9));
    expect(result.hits[4]!.details).toEqual([{ kind: 'vector', similarity: null }]);
    expect(result.hits[4]!.score).toBe(0);
    expect(result.totalHits).toBe(5);
  });

  it('asks the store for `need` documents at a time and asks again for the rest', () => {
    const idx = open();
    const calls: number[] = [];
    const result = run(idx, { need: 2, nearest: exactNearest(idx, [1, 0], calls) });
    expect(result.ids).toEqual(['a', 'b']);
    expect(calls).toEqual([2]);
    const all = run(idx, { need: 3, nearest: exactNearest(idx, [0, -1], calls) });
    expect(all.ids).toEqual(['a', 'd', 'b']);
  });

  it('keeps a sort rule placed before the relevancy rules in front of the similarity', () => {
    const idx = open({ rankingRules: ['price:asc', 'words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'], sortableAttributes: ['price'] });
    const result = run(idx, { nearest: exactNearest(idx, [1, 0]) });
    expect(result.ids).toEqual(['b', 'e', 'd', 'a', 'c']);
    expect(result.hits[0]!.details.map((detail) => detail.kind)).toEqual(['sort', 'vector']);
  });

  it('sorts through 10,000 sort rules without running out of stack', () => {
    const sorts = Array.from({ length: 10_000 }, (_, i) => `f${i}:asc`);
    const idx = open({ rankingRules: [...sorts, 'price:asc', 'words', 'typo'], sortableAttributes: ['price'] });
    const result = run(idx, { nearest: exactNearest(idx, [1, 0]) });
    expect(result.ids).toEqual(['b', 'e', 'd', 'a', 'c']);
    expect(result.hits[0]!.details).toHaveLength(10_002);
  });

  it('applies the sort parameter where the `sort` rule is', () => {
    const idx = open({ rankingRules: ['sort', 'words', 'typo'], sortableAttributes: ['price'] });
    const result = run(idx, { sort: [parseSortCriterion('price:desc', 'invalid_search_sort')], nearest: exactNearest(idx, [0, 1]) });
    expect(result.ids).toEqual(['c', 'a', 'd', 'b', 'e']);
  });

  it('ranks only the documents of the filters', () => {
    const idx = open();
    const store = new DocumentStore(idx.env);
    const only = fromSorted(['c', 'd', 'e'].map((id) => store.docidOf(id)!).sort((a, b) => a - b));
    const result = run(idx, { filters: [only], nearest: exactNearest(idx, [1, 0]) });
    expect(result.ids).toEqual(['c', 'd', 'e']);
    expect(result.totalHits).toBe(3);
  });

  it('drops the hits below rankingScoreThreshold from the hits and the count', () => {
    const idx = open();
    const result = run(idx, { rankingScoreThreshold: 0.6, nearest: exactNearest(idx, [1, 0]) });
    expect(result.ids).toEqual(['a', 'b']);
    expect(result.totalHits).toBe(2);
  });

  it('counts under a threshold what v1.50\'s bucket sort does not drop, past maxTotalHits too', () => {
    const idx = open({ pagination: { maxTotalHits: 2 } });
    // only `a` scores 0.95: the page never fills, and every other candidate leaves the count
    const exact = run(idx, { need: 2, rankingScoreThreshold: 0.95, nearest: exactNearest(idx, [1, 0]) });
    expect(exact.ids).toEqual(['a']);
    expect(exact.totalHits).toBe(1);
    expect(run(idx, { need: 1, exhaustive: true, rankingScoreThreshold: 0.95, nearest: exactNearest(idx, [1, 0]) }).totalHits).toBe(1);
    // `a` and `b` fill a page of 2 before any bucket is under 0.6: nothing was dropped
    const full = run(idx, { need: 2, rankingScoreThreshold: 0.6, nearest: exactNearest(idx, [1, 0]) });
    expect(full.ids).toEqual(['a', 'b']);
    expect(full.totalHits).toBe(5);
  });

  it('keeps one hit per distinct value', () => {
    const idx = open({ filterableAttributes: ['group'] });
    const result = run(idx, { distinct: 'group', nearest: exactNearest(idx, [1, 0]) });
    expect(result.ids).toEqual(['a', 'c', 'e']);
  });

  it('counts in page mode only what the ranking excluded, as v1.50 counts a vector search with distinct', () => {
    const idx = open({ filterableAttributes: ['group'] });
    const result = run(idx, { distinct: 'group', need: 1, exhaustive: true, nearest: exactNearest(idx, [1, 0]) });
    expect(result.ids).toEqual(['a']);
    // b shares a's value; c and d, both of group y, are still counted
    expect(result.totalHits).toBe(4);
  });

  it('stops ranking once the time budget is spent, the rest marked skipped', () => {
    const idx = open();
    const result = run(idx, { timeUp: () => true, nearest: exactNearest(idx, [1, 0]) });
    expect(result.ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(result.hits[0]!.details).toEqual([{ kind: 'skipped' }]);
    expect(result.degraded).toBe(true);
  });
});

describe('a sort step of a semantic search left before its last bucket', () => {
  it('leaves no read transaction pinned behind the search', async () => {
    const idx = open({ rankingRules: ['sort', 'words', 'typo'], sortableAttributes: ['price'] });
    const sort = [parseSortCriterion('price:desc', 'invalid_search_sort')];
    let most = 0;
    for (let round = 0; round < 150; round++) {
      expect(run(idx, { sort, need: 1, nearest: exactNearest(idx, [0, 1]) }).ids).toEqual(['c']);
      idx.write({ f: { id: 'f', price: 0, group: 'z' } });
      await nextReadSnapshot();
      most = Math.max(most, readerSlots(idx.env.root));
    }
    expect(most).toBeLessThanOrEqual(2);
  });
});
