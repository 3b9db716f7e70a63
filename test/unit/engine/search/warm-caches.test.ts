// The search caches built right after a write: a small index's dictionary and facet value columns
// are there before its first search, which then reads neither again, and a search of one of its
// words has run, whose hit's document is kept (not in an index of many documents); a larger one's
// are left to its first search.
import { afterEach, describe, expect, it } from 'vitest';
import { FacetKind } from '../../../../src/engine/facets/extract.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { keptColumn } from '../../../../src/engine/facets/value-columns.js';
import type { IndexEnv } from '../../../../src/engine/index-env.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { searchSettings } from '../../../../src/engine/index-settings.js';
import { dictionaryOf } from '../../../../src/engine/search/dictionary.js';
import { synonymTableBuild } from '../../../../src/engine/search/synonym-table.js';
import { warmSearchCaches } from '../../../../src/engine/search/warm-caches.js';
import { openTestIndex, searchEnv, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const DATA = {
  '1': { id: 1, title: 'Alice In Wonderland', genres: ['adventure'], year: 1865 },
  '2': { id: 2, title: 'Le Rouge et le Noir', genres: 'romance', year: 1830 },
  '3': { id: 3, title: 'Pride and Prejudice', genres: ['romance', 'action'], year: 1813 },
};

/**
 * `env` with the calls of `method` on its database `db` counted: the word list's `getRange` (each
 * dictionary built from scratch reads it once), the documents' `get`.
 */
function counted(env: IndexEnv, db: 'wordIds' | 'documents', method: string): { env: IndexEnv; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(env[db], {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key === method) reads++;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { env: { ...env, [db]: proxy }, reads: () => reads };
}

describe('search caches built after a write', () => {
  it("hold a small index's dictionary and facet value columns before its first search", () => {
    index = openTestIndex({ filterableAttributes: ['genres', 'year'] });
    index.write(DATA);
    const { env, reads } = counted(index.env, 'wordIds', 'getRange');
    const reader = new FacetReader(env);
    const genres = reader.fieldId('genres')!;
    const year = reader.fieldId('year')!;
    expect(keptColumn(env, genres, FacetKind.string)).toBeUndefined();
    warmSearchCaches(env);
    expect(reads()).toBe(1);
    expect(keptColumn(env, genres, FacetKind.string)!.values).toEqual(['action', 'adventure', 'romance']);
    expect(keptColumn(env, year, FacetKind.number)!.values).toEqual([1813, 1830, 1865]);
    // the search's dictionary is the one built, not read again
    expect(dictionaryOf(env).words).toContain('wonderland');
    expect(reads()).toBe(1);
  });

  it("run a search of the index's first word, so the first search finds that hit's document decoded", () => {
    index = openTestIndex({});
    index.write(DATA);
    const { env, reads } = counted(index.env, 'documents', 'get');
    warmSearchCaches(env);
    expect(reads()).toBe(1);
    const { hits } = searchEnv(env, searchSettings(env), 'alice', { need: 1 });
    expect(new DocumentStore(env).sharedByDocid(hits[0]!.docid)).toMatchObject({ title: 'Alice In Wonderland' });
    expect(reads()).toBe(1);
  });

  it('search no word ahead in an index of more documents than the bound, however few its words', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ '1': { id: 1, title: 'alice' }, '2': { id: 2, title: 'alice' }, '3': { id: 3, title: 'alice' } });
    const { env, reads } = counted(index.env, 'documents', 'get');
    warmSearchCaches(env, 2);
    expect(dictionaryOf(env).words).toEqual(['alice']);
    expect(reads()).toBe(0);
  });

  it('search no word ahead when the synonyms are too many for a table built at once, leaving it to the first search in slices', () => {
    const synonyms: Record<string, string[]> = {};
    for (let i = 0; i < 5_000; i++) synonyms[`word${i}`] = [`other${i}`];
    index = openTestIndex({ synonyms });
    index.write(DATA);
    const { env, reads } = counted(index.env, 'documents', 'get');
    warmSearchCaches(env);
    expect(dictionaryOf(env).words).toContain('wonderland');
    expect(reads()).toBe(0);
    const build = synonymTableBuild(searchSettings(env));
    expect(build).toBeDefined();
    expect(build!.step()).toBe(false);
  });

  it('leave an index of more words or facet keys than the bound to its first search', () => {
    index = openTestIndex({ filterableAttributes: ['genres'] });
    index.write(DATA);
    const { env, reads } = counted(index.env, 'wordIds', 'getRange');
    warmSearchCaches(env, 3);
    expect(reads()).toBe(0);
    expect(keptColumn(env, new FacetReader(env).fieldId('genres')!, FacetKind.string)).toBeUndefined();
    dictionaryOf(env);
    expect(reads()).toBe(1);
  });
});
