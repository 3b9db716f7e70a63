// The search engine on a real index environment: relevance rules, matching strategies, scores
// (ranking.md's worked examples), incremental updates and placeholder search.
import { afterEach, describe, expect, it } from 'vitest';

import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const MOVIES = {
  '1': { id: 1, title: 'How to Train Your Dragon: The Hidden World', overview: 'Hiccup and Toothless discover a hidden world.' },
  '2': { id: 2, title: 'Batman Returns', overview: 'The Penguin rises from the sewers of Gotham.' },
  '3': { id: 3, title: 'Batman', overview: 'The Dark Knight of Gotham City begins his war on crime.' },
  '4': { id: 4, title: 'The Lego Batman Movie', overview: 'Batman must learn to work with others.' },
  '5': { id: 5, title: 'Dragonheart', overview: 'A knight and a dragon fight a tyrant king.' },
  '6': { id: 6, title: 'Train to Busan', overview: 'Passengers on a train fight zombies.' },
};

describe('search engine', () => {
  it('computes the ranking score of a prefix match in a later array value as ranking.md', () => {
    index = openTestIndex();
    index.write({ '1': { id: 1, cattos: ['simba', 'pestiféré'] } });
    const { hits } = index.search('pésti');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.score).toBe(0.7803030303030303);
  });

  it('computes the details of "train dragon" as ranking.md', () => {
    index = openTestIndex();
    index.write({ '1': MOVIES['1'] });
    const [hit] = index.search('train dragon').hits;
    expect(hit!.details).toEqual([
      { kind: 'words', matching: 2, max: 2 },
      { kind: 'typo', count: 0, max: 2 },
      { kind: 'proximity', rank: 3, max: 4 },
      { kind: 'fid', rank: 1, max: 1, unified: false },
      { kind: 'position', rank: 17, max: 21, unified: false },
      { kind: 'exactAttribute', match: 'noExactMatch' },
      { kind: 'exactWords', matching: 2, max: 2 },
    ]);
  });

  it('ranks the exact title first, then titles starting with the query', () => {
    index = openTestIndex({ searchableAttributes: ['title', 'overview'] });
    index.write(MOVIES);
    expect(index.ids('batman')).toEqual([3, 2, 4]);
  });

  it('finds words with a typo and words the last query word starts', () => {
    index = openTestIndex({ searchableAttributes: ['title', 'overview'] });
    index.write(MOVIES);
    // a typo match is never exact, so the titles starting with batman tie and keep insertion order
    expect(index.ids('batmn')).toEqual([2, 3, 4]);
    expect(index.ids('drag')).toEqual([5, 1]);
    expect(index.ids('dragon ')).toEqual([1, 5]);
  });

  it('drops query words from the end with the last strategy, and requires all with all', () => {
    index = openTestIndex({ searchableAttributes: ['title', 'overview'] });
    index.write(MOVIES);
    expect(index.ids('batman penguin')).toEqual([2, 3, 4]);
    expect(index.ids('batman penguin', { matchingStrategy: 'all' })).toEqual([2]);
    expect(index.ids('zzzzz batman')).toEqual([]);
    // batman sits at query position 1: no exact-attribute bonus, and "Batman Returns" came first
    expect(index.ids('zzzzz batman', { matchingStrategy: 'frequency' })).toEqual([2, 3, 4]);
  });

  it('orders the frequency strategy by the whole index, not by the filtered documents', () => {
    index = openTestIndex({ rankingRules: ['words'] });
    const texts = ['a b c', 'a b', 'a', 'b c', 'c', 'a d', 'a e', 'b e'];
    index.write(Object.fromEntries(texts.map((t, i) => [String(i + 1), { id: i + 1, t }])));
    const store = new DocumentStore(index.env);
    const filtered = Uint32Array.from([4, 5, 6, 7, 8].map((id) => store.docidOf(String(id))!)).sort();
    // a (5 documents) goes first, then b (4); within the filter each of a, b, c is in 2 documents,
    // which would tie them and drop nothing
    expect(index.ids('a b c', { matchingStrategy: 'frequency', filters: [filtered] })).toEqual([4, 5]);
  });

  it('counts the documents of the n-grams joining a word in its frequency', () => {
    index = openTestIndex({ rankingRules: ['words'] });
    const texts = ['sun sunflower', 'sun sunflower', 'sun', 'sunflower', 'flower', 'flower'];
    index.write(Object.fromEntries(texts.map((t, i) => [String(i + 1), { id: i + 1, t }])));
    // sun alone is in 3 documents, flower in 2, but with sunflower sun counts 4 and flower 5:
    // flower goes first and sun stays
    expect(index.ids('sun flower', { matchingStrategy: 'frequency' })).toEqual([1, 2, 4, 3]);
  });

  it('prefers documents where the query words are close together', () => {
    index = openTestIndex({ searchableAttributes: ['overview'] });
    index.write({
      '1': { id: 1, overview: 'a dragon that can fight well' },
      '2': { id: 2, overview: 'the fight of a dragon' },
      '3': { id: 3, overview: 'dragon fight' },
    });
    // adjacent first; three apart in order beats three apart reversed
    expect(index.ids('dragon fight')).toEqual([3, 1, 2]);
  });

  it('matches phrases word pair by word pair and excludes negated words', () => {
    index = openTestIndex({ searchableAttributes: ['title', 'overview'] });
    index.write(MOVIES);
    expect(index.ids('"dark knight"')).toEqual([3]);
    expect(index.ids('knight')).toEqual([5, 3]);
    expect(index.ids('batman -penguin')).toEqual([3, 4]);
    expect(index.ids('-batman')).toEqual([1, 5, 6]);
  });

  it('answers a placeholder search in insertion order, or by a sort rule', () => {
    index = openTestIndex({ rankingRules: ['year:desc', 'words'] });
    index.write({ a: { id: 'a', year: 1990 }, b: { id: 'b', year: 2010 }, c: { id: 'c' } });
    expect(index.ids('')).toEqual(['b', 'a', 'c']);
    expect(index.search('').hits.every((hit) => hit.score === 1)).toBe(true);
  });

  it('keeps the index exact through updates and deletions', () => {
    index = openTestIndex();
    index.write(MOVIES);
    index.write({ '3': { id: 3, title: 'Joker' }, '2': null });
    expect(index.ids('batman')).toEqual([4]);
    expect(index.ids('joker')).toEqual([3]);
    expect(index.ids('penguin')).toEqual([]);
    index.write({ '9': { id: 9, title: 'Batman Begins' } });
    expect(index.ids('batman')).toEqual([9, 4]);
  });

  it('searches only the attributes asked for, and weighs attributes in their order', () => {
    index = openTestIndex({ searchableAttributes: ['title', 'overview'] });
    index.write(MOVIES);
    expect(index.ids('knight', { attributesToSearchOn: ['title'] })).toEqual([]);
    expect(index.ids('gotham', { attributesToSearchOn: ['overview'] })).toEqual([3, 2]);
  });

  it('drops hits below the ranking score threshold from hits and count', () => {
    index = openTestIndex({ searchableAttributes: ['title', 'overview'] });
    index.write(MOVIES);
    const all = index.search('batman');
    const strict = index.search('batman', { rankingScoreThreshold: all.hits[0]!.score });
    expect(strict.hits.map((h) => h.docid)).toEqual([all.hits[0]!.docid]);
    expect(strict.totalHits).toBe(1);
  });

  it('counts under a threshold as v1.50\'s bucket sort: exactly once every candidate was ranked or dropped, all but the dropped when the page filled first', () => {
    index = openTestIndex({ pagination: { maxTotalHits: 10 } });
    // 8 exact matches above the threshold, then 30 with a typo under it: more than maxTotalHits match
    const docs: Record<string, { id: number; title: string }> = {};
    for (let id = 0; id < 38; id++) docs[String(id)] = { id, title: id < 8 ? 'apple' : 'appel' };
    index.write(docs);
    const strict = { rankingScoreThreshold: 0.99 };
    expect(index.search('apple').totalHits).toBe(38);
    // a page of 10 never fills: every typo'd bucket is dropped, and the count is exact
    const offsetMode = index.search('apple', { ...strict, need: 10 });
    expect(offsetMode.hits.length).toBe(8);
    expect(offsetMode.totalHits).toBe(8);
    expect(index.search('apple', { ...strict, need: 1, exhaustive: true }).totalHits).toBe(8);
    // a page of 5 fills from the exact matches before any bucket is under the threshold
    const full = index.search('apple', { ...strict, need: 5 });
    expect(full.hits.length).toBe(5);
    expect(full.totalHits).toBe(38);
  });

  it('keeps the best-ranked document per distinct value and counts the others out', () => {
    index = openTestIndex({ filterableAttributes: ['saga'] });
    index.write({
      '1': { id: 1, title: 'Batman', saga: 'dc' },
      '2': { id: 2, title: 'Batman Returns', saga: ['dc', 'burton'] },
      '3': { id: 3, title: 'Batman Begins' },
      '4': { id: 4, title: 'The Batman', saga: 'reeves' },
    });
    const outcome = index.search('batman', { distinct: 'saga' });
    expect(index.ids('batman', { distinct: 'saga' })).toEqual([1, 3, 4]);
    expect(outcome.totalHits).toBe(3);
  });

  it('counts page mode by distinct over the candidates in docid order once the page is ranked, as v1.50', () => {
    index = openTestIndex({ filterableAttributes: ['tags'] });
    // ranked: 2 and 3 (exact matches) before 1; in docid order, 1 holds both values first
    index.write({ '1': { id: 1, title: 'bar baz', tags: ['x', 'y'] }, '2': { id: 2, title: 'bar', tags: ['x'] }, '3': { id: 3, title: 'bar', tags: ['y'] } });
    expect(index.ids('bar', { distinct: 'tags' })).toEqual([2, 3]);
    const counted = index.search('bar', { distinct: 'tags', need: 0, exhaustive: true });
    expect(counted.totalHits).toBe(1);
    expect([...counted.candidates]).toEqual([index.search('baz').hits[0]!.docid]);
    expect(index.search('bar', { distinct: 'tags', need: 1, exhaustive: true }).totalHits).toBe(2);
  });

  it('takes out of the estimate what shares a value with the rest of the last bucket, as milli applies distinct to whole buckets', () => {
    index = openTestIndex({ filterableAttributes: ['tags'] });
    index.write({ '1': { id: 1, title: 'bar', tags: 'a' }, '2': { id: 2, title: 'bar', tags: 'b' }, '3': { id: 3, title: 'bar', tags: 'b' } });
    const outcome = index.search('bar', { distinct: 'tags', need: 1 });
    expect(outcome.hits).toHaveLength(1);
    expect(outcome.totalHits).toBe(2);
  });

  it('does not rank a bucket wholly before the offset: distinct takes its documents in docid order, as milli', () => {
    index = openTestIndex({ filterableAttributes: ['tags'] });
    index.write({
      '1': { id: 1, title: 'the batman', tags: ['x'] },
      '2': { id: 2, title: 'batman', tags: ['x', 'y'] },
      '3': { id: 3, title: 'batmen', tags: ['y'] },
      '4': { id: 4, title: 'batmen', tags: ['z'] },
      '5': { id: 5, title: 'batmen', tags: ['w'] },
    });
    // ranked, 2 (exact, first position) beats 1 and takes y from 3
    expect(index.ids('batman', { distinct: 'tags', need: 4 })).toEqual([2, 4, 5]);
    // the typo step's first bucket {1, 2} lies before offset 3: 1 comes first and takes only x
    const paged = index.search('batman', { distinct: 'tags', need: 4, rankFrom: 3 });
    expect(index.ids('batman', { distinct: 'tags', need: 4, rankFrom: 3 })).toEqual([1, 3, 4, 5]);
    expect(paged.totalHits).toBe(4);
    // a bucket reaching the offset is ranked: offset 2 ranks {1, 2}
    expect(index.ids('batman', { distinct: 'tags', need: 4, rankFrom: 2 })).toEqual([2, 4, 5]);
    // without distinct the page after the offset is the same either way
    expect(index.ids('batman', { need: 5, rankFrom: 3 }).slice(3)).toEqual(index.ids('batman', { need: 5 }).slice(3));
  });

  it('expands a word with its synonyms, one word or several, at no typo cost but not exact', () => {
    index = openTestIndex({ synonyms: { NYC: ['new york'], movie: ['film'] } });
    index.write({
      '1': { id: 1, title: 'a film in new york' },
      '2': { id: 2, title: 'nyc movie' },
      '3': { id: 3, title: 'york new' },
    });
    expect(index.ids('nyc')).toEqual([2, 1]);
    expect(index.ids('movie')).toEqual([2, 1]);
    expect(index.search('movie').hits[1]!.details).toContainEqual({ kind: 'exactWords', matching: 0, max: 1 });
  });

  it('matches a word split in two, and adjacent words written as one, as typos', () => {
    index = openTestIndex();
    index.write({
      '1': { id: 1, title: 'Spider-Man' },
      '2': { id: 2, title: 'The Amazing Spiderman' },
      '3': { id: 3, title: 'a man and a spider' },
    });
    expect(index.ids('spiderman')).toEqual([2, 1]);
    const split = index.search('spiderman').hits[1]!;
    expect(split.details).toContainEqual({ kind: 'typo', count: 1, max: 2 });
    expect(index.ids('spider man', { matchingStrategy: 'all' })).toEqual([1, 3, 2]);
    const joined = index.search('spider man', { matchingStrategy: 'all' }).hits[2]!;
    // the 2-gram costs 2 + its typos; typo, the first graph rule, sees every cut: spiderman's 2 + 1
    expect(joined.details).toContainEqual({ kind: 'typo', count: 2, max: 3 });
  });

  it('answers a search of no hits (need 0) with the candidates, count and matching words of a ranked one', () => {
    index = openTestIndex();
    index.write(MOVIES);
    for (const q of ['batman', 'dragon train', 'gotham knight', 'trian', 'zebra', '']) {
      for (const matchingStrategy of ['last', 'all'] as const) {
        const ranked = index.search(q, { matchingStrategy });
        const none = index.search(q, { matchingStrategy, need: 0 });
        expect(none.hits).toEqual([]);
        expect(Array.from(none.candidates)).toEqual(Array.from(ranked.candidates));
        expect(none.totalHits).toBe(ranked.totalHits);
        expect(none.matchingWords).toEqual(ranked.matchingWords);
      }
    }
  });
});
