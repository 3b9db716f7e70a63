// What search keeps between requests follows small writes (index-changes.ts) and answers exactly as
// a search that keeps nothing: the same index read through a fresh environment object, which no
// cache knows.
import { afterEach, describe, expect, it } from 'vitest';

import type { JsonObject } from '../../../src/engine/document-id.js';
import { DocumentStore } from '../../../src/engine/documents/store.js';
import { computeFacets } from '../../../src/engine/facets/distribution.js';
import { searchFacetValues } from '../../../src/engine/facets/facet-search.js';
import { FacetKind } from '../../../src/engine/facets/extract.js';
import { facetKeyString } from '../../../src/engine/facets/store.js';
import { changesSince, readDocumentsVersion, wordChangesSince, readWordsVersion } from '../../../src/engine/index-changes.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../../../src/engine/index-read-env.js';
import { INDEX_UPDATERS } from '../../../src/engine/indexer/registry.js';
import { dictionaryOf } from '../../../src/engine/search/dictionary.js';
import { packWordList } from '../../../src/kernels/typo.js';
import { mulberry32 } from '../../helpers/random.js';
import { openTestIndex, searchEnv, type TestIndex } from './search/harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const VOCABULARY = ['sun', 'flower', 'sunflower', 'sunny', 'sunset', 'super', 'supper', 'moon', 'mood', 'moonlight', 'light', 'night', 'knight', 'the', 'dark', 'darker', 'river', 'rivers', 'über', 'été', 'star', 'stars', 'start', 'wars'];
const QUERIES = ['sun', 'su', 'sunflower', 'sun flower', 'supr', 'moon light', 'moonlight', 'the dark knight', 'nigt', 'star wars', 'st', 'rivers', 'ete', 'uber', 'zz', 'new', 'newword', 'sunflowr'];

/** Everything a search answers that a stale cache could change. */
function answers(env: IndexReadEnv, target: TestIndex) {
  return QUERIES.map((q) => {
    const outcome = searchEnv(env, target.settings, q, { exhaustive: true });
    const store = new DocumentStore(env);
    return {
      q,
      hits: outcome.hits.map((hit) => [hit.docid, hit.score]),
      docs: outcome.hits.map((hit) => store.sharedByDocid(hit.docid)),
      totalHits: outcome.totalHits,
      facets: computeFacets(env, target.settings, outcome.candidates, ['*']),
      // a facet value is named by the spelling of its first document (the column's `firsts`)
      facetSearch: [null, 'al'].map((query) => searchFacetValues(env, target.settings, outcome.candidates, 'genre', query)),
    };
  });
}

/** The dictionary but for the packing's longest word, a bound once words were deleted (checked apart). */
function dictionaryState(env: IndexReadEnv) {
  const { words, ids, idLimit, matcher } = dictionaryOf(env);
  return { words, ids: [...ids], idLimit, list: { ...matcher.list, longest: 0 } };
}

describe('search caches across writes', () => {
  it('answers after every small write exactly as a search that keeps nothing', () => {
    index = openTestIndex({ searchableAttributes: ['title', 'body'], filterableAttributes: ['genre', 'year'] });
    const random = mulberry32(20261129);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const text = (words: number) => Array.from({ length: words }, () => pick(VOCABULARY)).join(' ');
    const docs: Record<string, JsonObject | null> = {};
    // genres in several spellings of one value: which document comes first decides the one shown
    const genres = ['Alpha', 'alpha', 'ALPHA', 'b', 'c', 'Al Dente'];
    for (let i = 0; i < 30; i++) docs[`d${i}`] = { id: `d${i}`, title: text(3), body: text(8), genre: [pick(genres), pick(['b', 'd'])], year: 1990 + (i % 7) };
    index.write(docs);
    for (let round = 0; round < 60; round++) {
      // the caches fill under this state, then a few documents change
      expect(answers(index.env, index)).toEqual(answers({ ...index.env }, index));
      expect(dictionaryState(index.env)).toEqual(dictionaryState({ ...index.env }));
      expect(dictionaryOf(index.env).matcher.list.longest).toBeGreaterThanOrEqual(dictionaryOf({ ...index.env }).matcher.list.longest);
      const batch: Record<string, JsonObject | null> = {};
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
        const id = `d${Math.floor(random() * 40)}`;
        const roll = random();
        if (roll < 0.2) batch[id] = null;
        else {
          // new words appear (and disappear with the documents that held them)
          const fresh = roll < 0.5 ? ` newword${Math.floor(random() * 5)} sun${round}` : '';
          batch[id] = { id, title: text(2) + fresh, body: text(6), genre: [pick([...genres, 'e'])], year: roll < 0.7 ? 1990 + Math.floor(random() * 12) : null };
        }
      }
      index.write(batch);
    }
    expect(answers(index.env, index)).toEqual(answers({ ...index.env }, index));
    expect(dictionaryState(index.env)).toEqual(dictionaryState({ ...index.env }));
  });

  it('updates the typo dictionary with the words a write created and deleted, packed as a fresh packing', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'apple banana' }, b: { id: 'b', title: 'cherry' } });
    const before = dictionaryOf(index.env);
    index.write({ b: { id: 'b', title: 'cherry damson δέλτα' }, a: null, c: { id: 'c', title: 'banana' } });
    const after = dictionaryOf(index.env);
    expect(after).not.toBe(before);
    expect(after.words).toEqual(['banana', 'cherry', 'damson', 'δελτα']);
    expect({ ...after.matcher.list, longest: 0 }).toEqual({ ...packWordList(after.words), longest: 0 });
    expect(after.matcher.list.longest).toBeGreaterThanOrEqual(packWordList(after.words).longest);
    expect(dictionaryState(index.env)).toEqual(dictionaryState({ ...index.env }));
  });

  it('gives a word deleted and created again by later writes its new id', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'kiwi lime' } });
    const first = dictionaryOf(index.env);
    index.write({ a: { id: 'a', title: 'lime' } });
    index.write({ b: { id: 'b', title: 'kiwi' } });
    const after = dictionaryOf(index.env);
    expect(after.ids[after.words.indexOf('kiwi')]).not.toBe(first.ids[first.words.indexOf('kiwi')]);
    expect(dictionaryState(index.env)).toEqual(dictionaryState({ ...index.env }));
    expect(index.ids('kiwi')).toEqual(['b']);
  });
});

describe('the record of changes', () => {
  it('lists the documents and words of each write, from documents version to version', () => {
    index = openTestIndex({ searchableAttributes: ['title'], filterableAttributes: ['genre'] });
    index.write({ a: { id: 'a', title: 'red fox', genre: 'x' } });
    const version = readDocumentsVersion(index.env);
    index.write({ b: { id: 'b', title: 'red owl' } });
    index.write({ a: null });
    const chain = changesSince(index.env, version)!;
    expect(chain.map((c) => c.docids)).toEqual([[1], [0]]);
    expect(chain.map((c) => [...c.words!].sort())).toEqual([['owl', 'red'], ['fox', 'red']]);
    expect(chain[0]!.added!.map(([word]) => word)).toEqual(['owl']);
    expect(chain[1]!.removed).toEqual(['fox']);
    expect([...chain[1]!.facetKeys!].sort()).toEqual([facetKeyString(0, FacetKind.string, 'x'), facetKeyString(0, FacetKind.exists)].sort());
    expect(changesSince(index.env, readDocumentsVersion(index.env))).toEqual([]);
  });

  it('holds the last 8 writes: a cache older than that starts over', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one' } });
    const old = readDocumentsVersion(index.env);
    const words = readWordsVersion(index.env);
    for (let i = 0; i < 9; i++) index.write({ [`w${i}`]: { id: `w${i}`, title: `word${i}` } });
    expect(changesSince(index.env, old)).toBeNull();
    expect(wordChangesSince(index.env, words)).toBeNull();
    expect(wordChangesSince(index.env, words + 1)).toHaveLength(8);
  });

  it('lets the oldest writes go once the writes kept list too much together', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'start' } });
    const versions: (string | null)[] = [];
    for (let w = 0; w < 3; w++) {
      versions.push(readDocumentsVersion(index.env));
      const title = Array.from({ length: 6_000 }, (_, i) => `w${w}x${i}`).join(' ');
      index.write({ [`d${w}`]: { id: `d${w}`, title } });
    }
    // each write lists 6,000 words twice (changed, created): three hold more than 32,768 items
    expect(changesSince(index.env, versions[0]!)).toBeNull();
    expect(changesSince(index.env, versions[1]!)).toHaveLength(2);
  });

  it('keeps no list for a write that rebuilt the index: every cache starts over', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one two' } });
    const version = readDocumentsVersion(index.env);
    const words = readWordsVersion(index.env);
    index.reconfigure({ searchableAttributes: ['title', 'body'] });
    const [rebuild] = changesSince(index.env, version)!;
    expect(rebuild!.docids).toBeNull();
    expect(rebuild!.words).toBeNull();
    expect(wordChangesSince(index.env, words)).toBeNull();
  });

  it('reads a record written before the last write had a key of its own, and goes on from it', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'red fox' } });
    const version = readDocumentsVersion(index.env);
    index.write({ b: { id: 'b', title: 'red owl' } });
    index.write({ a: null });
    const chain = changesSince(index.env, version);
    // every entry under `index-changes`, as before the split
    const { main, root } = index.env;
    root.transactionSync(() => {
      const last = main.get(INDEX_MAIN_KEYS.lastIndexChange) as { entry: unknown };
      main.putSync(INDEX_MAIN_KEYS.indexChanges, [...(main.get(INDEX_MAIN_KEYS.indexChanges) as unknown[]), last.entry]);
      main.removeSync(INDEX_MAIN_KEYS.lastIndexChange);
    });
    expect(changesSince(index.env, version)).toEqual(chain);
    index.write({ c: { id: 'c', title: 'blue jay' } });
    const after = changesSince(index.env, version)!;
    expect(after.slice(0, 2)).toEqual(chain);
    expect(after.map((c) => c.docids)).toEqual([[1], [0], [0]]);
  });

  it('rewrites the earlier writes only at a write\'s first step, or when its own entry outgrows what they may hold with it', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'start' } });
    // earlier writes listing 10,000 words (changed and created: 20,000 items)
    const before = readDocumentsVersion(index.env);
    index.write({ w: { id: 'w', title: Array.from({ length: 10_000 }, (_, i) => `w${i}`).join(' ') } });
    const afterLarge = readDocumentsVersion(index.env);
    const { main, root } = index.env;
    const olderBytes = () => (main.getBinary(INDEX_MAIN_KEYS.indexChanges) as Buffer).toString('hex');
    root.transactionSync(() => {
      const store = new DocumentStore(index!.env);
      const small = store.apply(new Map([['s', { id: 's', title: 'small' }]]), false);
      for (const updater of INDEX_UPDATERS) updater.apply(index!.env, index!.settings, small);
      const first = olderBytes();
      // a second chunk of the same write, small: the earlier writes stay as its first step left them
      const second = store.apply(new Map([['t', { id: 't', title: 'tiny' }]]), false);
      for (const updater of INDEX_UPDATERS) updater.apply(index!.env, index!.settings, second);
      expect(olderBytes()).toBe(first);
      // a third one lists 7,000 more words: with the earlier 20,000 items, over 32,768 together
      const large = store.apply(new Map([['u', { id: 'u', title: Array.from({ length: 7_000 }, (_, i) => `u${i}`).join(' ') }]]), false);
      for (const updater of INDEX_UPDATERS) updater.apply(index!.env, index!.settings, large);
      expect(olderBytes()).not.toBe(first);
    });
    // the 10,000-word write went; the chain from the one after it still holds
    expect(changesSince(index.env, before)).toBeNull();
    expect(changesSince(index.env, afterLarge)!.map((c) => c.docids)).toEqual([[2, 3, 4]]);
  });

  it('keeps no list longer than its bound', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    const version = readDocumentsVersion(index.env);
    const docs: Record<string, JsonObject> = {};
    for (let i = 0; i < 4100; i++) docs[`d${i}`] = { id: `d${i}`, title: 'same words' };
    index.write(docs);
    const [write] = changesSince(index.env, version)!;
    expect(write!.docids).toBeNull();
    expect([...write!.words!].sort()).toEqual(['same', 'words']);
  });
});
