// Word postings kept between searches: shared by the searches of one index state, and never stale
// after the documents or the settings that shape the word index change.
import { afterEach, describe, expect, it } from 'vitest';

import { cachedPostings } from '../../../../src/engine/search/posting-cache.js';
import { readWordsVersion } from '../../../../src/engine/index-changes.js';
import { EMPTY_POSTING } from '../../../../src/engine/words/postings.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const store = (target: TestIndex) => cachedPostings(target.env, readWordsVersion(target.env)).words;

describe('posting cache', () => {
  it('keeps what one search stored for the next search of the same index state', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one two' } });
    store(index).set('one', EMPTY_POSTING);
    expect(store(index).get('one')).toBe(EMPTY_POSTING);
  });

  it('forgets the postings of the words a write changed, and keeps the others', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one two' } });
    expect(index.ids('one')).toEqual(['a']);
    expect(index.ids('two')).toEqual(['a']);
    expect(store(index).get('one')?.docids.length).toBe(1);
    const two = store(index).get('two');
    index.write({ b: { id: 'b', title: 'one three' } });
    expect(store(index).get('one')).toBeUndefined();
    expect(store(index).get('two')).toBe(two);
    expect(index.ids('one')).toEqual(['a', 'b']);
  });

  it('keeps prefix postings apart from word postings, and forgets a prefix once a word starting with it changes', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'quick fox' } });
    expect(index.ids('qu')).toEqual(['a']);
    const kept = cachedPostings(index.env, readWordsVersion(index.env));
    expect(kept.prefixes.get('qu')?.docids.length).toBe(1);
    expect(kept.words.get('qu')?.docids.length).toBe(0); // no word 'qu' is indexed
    index.write({ b: { id: 'b', title: 'quiet owl' } });
    expect(cachedPostings(index.env, readWordsVersion(index.env)).prefixes.get('qu')).toBeUndefined();
    expect(index.ids('qu')).toEqual(['a', 'b']);
  });

  it('keeps the split words found for a word, and finds them again once documents are written', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'sun flower' } });
    expect(index.ids('sunflower')).toEqual(['a']);
    expect(cachedPostings(index.env, readWordsVersion(index.env)).splits.get(['byWord', 'sunflower'].join('\u0000'))?.words).toEqual(['sun', 'flower']);
    index.write({ b: { id: 'b', title: 'a sun flower field' } });
    expect(index.ids('sunflower')).toEqual(['a', 'b']);
  });

  it('charges a kept posting the heap it holds, so that many one-document postings empty the budget', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one' } });
    const words = store(index);
    const oneDocument = () => {
      const all = new Uint32Array(3);
      return { id: 1, docids: all.subarray(0, 1), masks: all.subarray(1, 2), infos: all.subarray(2) };
    };
    // ~530 heap bytes each (~42 MB in all) against the 32 MiB budget; charged 76 each, they all fitted
    for (let i = 0; i < 80_000; i++) words.set(`word${i}`, oneDocument());
    expect(store(index).get('word0')).toBeUndefined();
    expect(store(index).get('word79999')).toBeDefined();
  });

  it('forgets every posting after a settings change rebuilt the word index', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'quick fox', body: 'lazy dog' } });
    expect(index.ids('lazy')).toEqual([]);
    index.reconfigure({ searchableAttributes: ['title', 'body'] });
    expect(index.ids('lazy')).toEqual(['a']);
  });
});
