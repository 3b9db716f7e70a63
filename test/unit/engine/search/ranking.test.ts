// The time budget of the bucket sort (ranking.ts) on a real index: where the ranking stops once
// `timeUp` answers true, the order and `skipped` details of what is left, and when the search
// counts as degraded. `timeUp` is answered by a counter, so each case stops after a known number
// of buckets, as Meilisearch's own cutoff tests do. Also the grouping of a step's documents by
// cost (`byCost`) against a plain sort, on random costs inside and outside its counted range, and
// the wordPosition cost of a query word matched through a multi-word synonym or a split word, and
// the typo levels attributeRank and wordPosition read with and without a typo step before them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { parseSortCriterion } from '../../../../src/engine/facets/sort.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { byCost, rankingSteps, scoreOf } from '../../../../src/engine/search/ranking.js';
import { withScratch } from '../../../../src/engine/search/scratch.js';
import { nextReadSnapshot, readerSlots } from '../../../helpers/lmdb-readers.js';
import { mulberry32 } from '../../../helpers/random.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

/** Time is up from the (n+1)-th question on. */
const upAfter = (n: number) => {
  let asked = 0;
  return () => asked++ >= n;
};

/** Inserted last-id-first, so docids run opposite to ids and docid order is visible. */
function openPuppies(): TestIndex {
  const puppies = openTestIndex({ rankingRules: ['words', 'typo'] });
  puppies.write({
    p4: { id: 'p4', text: 'hella puppo kefir' },
    p3: { id: 'p3', text: 'hella puppy kefir' },
    p2: { id: 'p2', text: 'hello' },
    p1: { id: 'p1', text: 'hello puppy' },
    p0: { id: 'p0', text: 'hello puppy kefir' },
  });
  return puppies;
}

function ranked(q: string, timeUp: () => boolean, need = 4) {
  const outcome = index.search(q, { need, timeUp });
  const store = new DocumentStore(index.env);
  return {
    ids: outcome.hits.map((hit) => store.byDocid(hit.docid)!.id),
    details: outcome.hits.map((hit) => hit.details),
    scores: outcome.hits.map((hit) => hit.score),
    degraded: outcome.degraded,
    totalHits: outcome.totalHits,
  };
}

const WORDS_3 = { kind: 'words', matching: 3, max: 3 };
const SKIPPED = { kind: 'skipped' };

describe('bucket sort under a time budget', () => {
  it('ranks fully and is not degraded when time never runs out', () => {
    index = openPuppies();
    const result = ranked('hello puppy kefir', () => false);
    expect(result.ids).toEqual(['p0', 'p3', 'p4', 'p1']);
    expect(result.degraded).toBe(false);
    expect(result.details.flat()).not.toContainEqual(SKIPPED);
  });

  it('with no time at all, returns the matches in docid order, every one skipped at score 0', () => {
    index = openPuppies();
    const result = ranked('hello puppy kefir', () => true, 20);
    expect(result.ids).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
    expect(result.details).toEqual(Array(5).fill([SKIPPED]));
    expect(result.scores).toEqual(Array(5).fill(0));
    expect(result.totalHits).toBe(5);
    expect(result.degraded).toBe(true);
  });

  it('after the first bucket, emits that bucket unrefined, then the rest of the first step', () => {
    index = openPuppies();
    const result = ranked('hello puppy kefir', upAfter(1));
    // the 3-word bucket in docid order, then what the words step had not reached
    expect(result.ids).toEqual(['p4', 'p3', 'p0', 'p2']);
    expect(result.details).toEqual([[WORDS_3, SKIPPED], [WORDS_3, SKIPPED], [WORDS_3, SKIPPED], [SKIPPED]]);
    expect(result.scores.map((score) => score.toFixed(4))).toEqual(['0.6667', '0.6667', '0.6667', '0.0000']);
    expect(result.degraded).toBe(true);
  });

  it('keeps what was fully ranked before the budget ran out in front', () => {
    index = openPuppies();
    const result = ranked('hello puppy kefir', upAfter(2));
    expect(result.ids).toEqual(['p0', 'p4', 'p3', 'p2']);
    expect(result.details[0]).toEqual([WORDS_3, { kind: 'typo', count: 0, max: 3 }]);
    expect(result.details.slice(1)).toEqual([[WORDS_3, SKIPPED], [WORDS_3, SKIPPED], [SKIPPED]]);
  });

  it('is not degraded when the first step had nothing left once the page was full', () => {
    index = openPuppies();
    const result = ranked('hello puppy kefir', upAfter(5));
    expect(result.ids).toEqual(['p0', 'p3', 'p4', 'p1']);
    expect(result.details[3]).toEqual([{ kind: 'words', matching: 2, max: 3 }, SKIPPED]);
    expect(result.degraded).toBe(false);
  });

  it('still applies the filter when no ranking step may run', () => {
    index = openPuppies();
    const store = new DocumentStore(index.env);
    const kept = Uint32Array.from(['p0', 'p1'].map((id) => store.docidOf(id)!)).sort();
    const outcome = index.search('hello puppy kefir', { timeUp: () => true, filters: [kept] });
    expect(outcome.hits.map((hit) => store.byDocid(hit.docid)!.id)).toEqual(['p1', 'p0']);
    expect(outcome.totalHits).toBe(2);
  });

  it('skips the sort of a placeholder search, and leaves one without sort steps alone', () => {
    index = openTestIndex({ rankingRules: ['words', 'year:desc'] });
    index.write({ a: { id: 'a', year: 1990 }, b: { id: 'b', year: 2020 } });
    const sorted = index.search('', { timeUp: () => true });
    expect(sorted.hits.map((hit) => hit.details)).toEqual([[SKIPPED], [SKIPPED]]);
    expect(sorted.degraded).toBe(true);
    index.reconfigure({ rankingRules: ['words'] });
    const unsorted = index.search('', { timeUp: () => true });
    expect(unsorted.hits.map((hit) => hit.details)).toEqual([[], []]);
    expect(unsorted.degraded).toBe(false);
  });

  it('sorts through 10,000 sort rules without running out of stack, each rule a detail', () => {
    const sorts = Array.from({ length: 10_000 }, (_, i) => `f${i}:asc`);
    index = openTestIndex({ rankingRules: ['words', ...sorts, 'typo'] });
    index.write({ a: { id: 'a', title: 'batman', f9999: 2 }, b: { id: 'b', title: 'batman', f9999: 1 } });
    const outcome = index.search('batman');
    // only the last rule's field has values: it decides the order
    expect(outcome.hits.map((hit) => hit.details.length)).toEqual([10_002, 10_002]);
    expect(outcome.hits.map((hit) => hit.details[10_000])).toMatchObject([{ kind: 'sort', value: 1 }, { kind: 'sort', value: 2 }]);
  });

  it('passes 2,000 documents through 10,000 sort rules on absent fields without converting them at each rule', () => {
    const sorts = Array.from({ length: 10_000 }, (_, i) => `f${i}:asc`);
    index = openTestIndex({ rankingRules: [...sorts, 'words', 'year:desc'] });
    index.write(Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`d${i}`, { id: `d${i}`, title: 'batman', year: i }])));
    const started = performance.now();
    // with no time budget: each search walks the 10,000 levels down and back up (6 s each before)
    for (let round = 0; round < 3; round++) {
      const outcome = index.search('batman', { timeUp: () => false });
      expect(outcome.hits.slice(0, 2).map((hit) => hit.details.at(-1))).toMatchObject([{ kind: 'sort', value: 1999 }, { kind: 'sort', value: 1998 }]);
      expect(outcome.hits[0]!.details[0]).toMatchObject({ kind: 'sort', value: null });
    }
    expect(performance.now() - started).toBeLessThan(9_000);
  }, 60_000);

  it('scores a skipped step as rank 0 of 1 after the ranks before it', () => {
    expect(scoreOf([{ kind: 'words', matching: 2, max: 3 }, { kind: 'skipped' }])).toBeCloseTo(1 / 3);
    expect(scoreOf([{ kind: 'skipped' }])).toBe(0);
  });
});

describe('many sort rules on absent fields', () => {
  const absentRules = (n: number) => Array.from({ length: n }, (_, i) => `missing${i}:${i % 2 === 0 ? 'asc' : 'desc'}`);

  it('reads the ranking rules once per rules array and request shape, the sort parameter in place of `sort`', () => {
    const rules = ['year:desc', 'sort', 'words', ...absentRules(1_000), 'title:asc', 'year:asc'];
    const steps = rankingSteps(rules, [], 'last', false);
    expect(rankingSteps(rules, [], 'last', false)).toBe(steps);
    expect(rankingSteps([...rules], [], 'last', false)).not.toBe(steps);
    expect(steps.map((step) => (step.kind === 'sort' && step.criterion.kind === 'field' ? step.criterion.field : step.kind)).slice(0, 3)).toEqual(['year', 'words', 'missing0']);
    expect(steps.at(-1)).toEqual({ kind: 'sort', criterion: { kind: 'field', field: 'title', descending: false } });
    // a field an earlier rule sorts is not sorted again by the parameter; a later rule's is sorted by the parameter only
    const sorted = rankingSteps(rules, [{ kind: 'field', field: 'year', descending: false }, { kind: 'field', field: 'title', descending: true }], 'last', true);
    expect(sorted.map((step) => (step.kind === 'sort' && step.criterion.kind === 'field' ? `${step.criterion.field}:${step.criterion.descending}` : step.kind))).toEqual([
      'year:true',
      'title:true',
      ...absentRules(1_000).map((rule, i) => `${rule.split(':')[0]}:${i % 2 === 1}`),
    ]);
  });

  it('passes a group through a run of them at once, each rule still a detail of every hit, the score unchanged', () => {
    index = openTestIndex({ rankingRules: ['words', ...absentRules(10_000), 'year:desc', ...absentRules(20_000).slice(10_000), 'typo'] });
    index.write(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`d${i}`, { id: `d${i}`, title: i % 2 === 0 ? 'batman' : 'batman begins', year: i }])));
    const fieldId = vi.spyOn(FacetReader.prototype, 'fieldId');
    const outcome = index.search('batman begins', { need: 30 });
    // a level per rule asked for the field of each (20,000 per group before)
    expect(fieldId.mock.calls.length).toBeLessThan(100);
    fieldId.mockRestore();
    expect(outcome.hits.map((hit) => hit.details.length)).toEqual(Array(30).fill(20_003));
    const [first, second] = outcome.hits;
    expect(first!.details[0]).toMatchObject({ kind: 'words', matching: 2 });
    expect(first!.details[1]).toEqual({ kind: 'sort', criterion: { kind: 'field', field: 'missing0', descending: false }, value: null });
    expect(first!.details[10_001]).toMatchObject({ kind: 'sort', value: 49 });
    expect(second!.details[10_001]).toMatchObject({ kind: 'sort', value: 47 });
    expect(first!.details[20_001]).toEqual({ kind: 'sort', criterion: { kind: 'field', field: 'missing19999', descending: true }, value: null });
    expect(first!.details[20_002]).toMatchObject({ kind: 'typo' });
    for (const hit of outcome.hits) expect(hit.score).toBe(scoreOf(hit.details));
    expect(outcome.hits.slice(25).map((hit) => hit.details[0])).toMatchObject(Array(5).fill({ kind: 'words', matching: 1 }));
  });

  it("copies a run's details into a hit only when its details are read", () => {
    index = openTestIndex({ rankingRules: ['words', 'year:desc', ...absentRules(10_000)] });
    index.write(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`d${i}`, { id: `d${i}`, title: 'batman', year: i }])));
    const hits = index.search('batman').hits;
    expect(hits.map((hit) => Object.getOwnPropertyDescriptor(hit, 'details')?.get)).not.toContain(undefined);
    expect(hits[3]!.details).toBe(hits[3]!.details);
    expect(hits[3]!.details).toHaveLength(10_002);
  });
});

describe('grouping a step\'s documents by cost', () => {
  /** The groups a plain sort gives: each distinct cost ascending, with its indices in group order. */
  const plain = (group: Uint32Array, costs: Int32Array) =>
    [...new Set(costs)].sort((a, b) => a - b).map((cost) => [cost, [...group].filter((_, k) => costs[k] === cost)]);

  it('groups indices by ascending cost in group order, for small, large and negative costs alike, one call after another', () => {
    const next = mulberry32(2026_11_29);
    const rand = (n: number) => Math.floor(next() * n);
    for (let round = 0; round < 2000; round++) {
      const n = 1 + rand(60);
      const spread = [5, 1030, 5000, 1][rand(4)]!;
      const base = [0, 1020, -3][rand(3)]!;
      const costs = Int32Array.from({ length: n }, () => base + rand(spread));
      const group = Uint32Array.from({ length: n }, (_, k) => 3 * k + 1);
      // byCost's arrays live in a ranking's scratch: copied out before it closes
      expect(withScratch(() => byCost(group, costs).map(([cost, indices]) => [cost, [...indices]]))).toEqual(plain(group, costs));
    }
  });

  it('hands a group whose costs are all equal back as is', () => {
    const group = Uint32Array.from([4, 9, 12]);
    const [[cost, indices]] = byCost(group, Int32Array.from([7, 7, 7])) as [[number, Uint32Array]];
    expect(cost).toBe(7);
    expect(indices).toBe(group);
  });
});

describe('wordPosition of a query word matched as a phrase', () => {
  // `hello` at 0, then the phrase's first word: at 1, at 34 (bucketed 64: cost 7 of 10), at 1 again
  // with the phrase itself further on, which milli's position graph accepts (any place of the
  // first word, in a document holding the phrase)
  const texts = ['hello {}', 'hello ' + 'x '.repeat(33) + '{}', 'hello {0} ' + 'x '.repeat(30) + '{}'];

  function positions(q: string, phrase: string, settings: Parameters<typeof openTestIndex>[0] = {}) {
    index = openTestIndex({ rankingRules: ['words', 'wordPosition'], ...settings });
    const [first] = phrase.split(' ');
    index.write(Object.fromEntries(texts.map((t, k) => [String(k + 1), { id: k + 1, t: t.replace('{0}', first!).replace('{}', phrase) }])));
    const store = new DocumentStore(index.env);
    return index.search(q).hits.map((hit) => [store.byDocid(hit.docid)!.id, hit.details[1]]);
  }

  it("places a multi-word synonym at its first word's places", () => {
    expect(positions('hello usa', 'united states', { synonyms: { usa: ['united states'] } })).toEqual([
      [1, { kind: 'position', rank: 21, max: 21, unified: false }],
      [3, { kind: 'position', rank: 21, max: 21, unified: false }],
      [2, { kind: 'position', rank: 14, max: 21, unified: false }],
    ]);
  });

  it("places a split word at its first part's places", () => {
    expect(positions('hello sunflower', 'sun flower')).toEqual([
      [1, { kind: 'position', rank: 21, max: 21, unified: false }],
      [3, { kind: 'position', rank: 21, max: 21, unified: false }],
      [2, { kind: 'position', rank: 14, max: 21, unified: false }],
    ]);
  });
});

describe('attributeRank and wordPosition without a typo step before them', () => {
  const far = 'x '.repeat(33);
  const details = (rules: string[], docs: Record<string, unknown>[], settings: Parameters<typeof openTestIndex>[0] = {}) => {
    index = openTestIndex({ rankingRules: rules, ...settings });
    index.write(Object.fromEntries(docs.map((doc, k) => [String(k + 1), { id: k + 1, ...doc }])));
    return index.search('hello').hits.map((hit) => hit.details.at(-1));
  };

  it('place a word at its typo derivations too', () => {
    const docs = [{ t: `helo ${far}hello` }, { t: `${far}hello` }];
    expect(details(['words', 'wordPosition'], docs)).toEqual([
      { kind: 'position', rank: 11, max: 11, unified: false },
      { kind: 'position', rank: 4, max: 11, unified: false },
    ]);
    // after a typo step, the bucket of exact words leaves the typo at the start out
    expect(details(['words', 'typo', 'wordPosition'], docs).map((d) => d && 'rank' in d && d.rank)).toEqual([4, 4]);
  });

  it('weigh a word by the field of its typo derivations too', () => {
    const docs = [{ a: 'helo', b: 'hello' }, { a: 'x', b: 'hello' }];
    expect(details(['words', 'attributeRank'], docs, { searchableAttributes: ['a', 'b'] })).toEqual([
      { kind: 'fid', rank: 2, max: 2, unified: false },
      { kind: 'fid', rank: 1, max: 2, unified: false },
    ]);
  });
});

describe('a sort step left before its last bucket', () => {
  it('leaves no read transaction pinned behind the search', async () => {
    index = openTestIndex({ sortableAttributes: ['n'] });
    index.write(Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`d${n}`, { id: `d${n}`, text: 'hello puppy', n }])));
    const sort = [parseSortCriterion('n:desc', 'invalid_search_sort')];
    // a page of one hit stops each sort step at its first value; between two, a commit: an open
    // value walk pinned each commit's snapshot, and the 126 reader slots ran out (MDB_READERS_FULL)
    let most = 0;
    for (let round = 0; round < 150; round++) {
      expect(index.ids('', { sort, need: 1 })).toEqual(['d29']);
      expect(index.ids('hello', { sort, need: 1 })).toEqual(['d29']);
      index.write({ extra: { id: 'extra', text: 'kefir', n: -round } });
      await nextReadSnapshot();
      most = Math.max(most, readerSlots(index.env.root));
    }
    expect(most).toBeLessThanOrEqual(2);
  });
});
