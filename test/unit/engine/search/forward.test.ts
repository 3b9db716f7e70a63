// Forward records as searches read them: kept between searches, and never stale after the
// documents or the settings that shape the word index change.
import { afterEach, describe, expect, it } from 'vitest';

import { ForwardReader } from '../../../../src/engine/search/forward.js';
import { readWordsVersion } from '../../../../src/engine/words/word-index.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const tokenCount = (target: TestIndex, docid: number) => {
  const tokens = new ForwardReader(target.env, readWordsVersion(target.env)).read(docid);
  return tokens === null ? null : (tokens.end - tokens.start) / 2;
};

describe('forward reader', () => {
  it('reads a record again after its document is replaced', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'one two' } });
    expect(tokenCount(index, 0)).toBe(2);
    index.write({ a: { id: 'a', title: 'one two three' } });
    expect(tokenCount(index, 0)).toBe(3);
  });

  it('reads records again after a settings change rebuilt the word index', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'quick brown fox', body: 'the lazy dog sleeps' } });
    expect(tokenCount(index, 0)).toBe(3);
    index.reconfigure({ searchableAttributes: ['title', 'body'] });
    expect(tokenCount(index, 0)).toBe(7);
    // and the search sees the rebuilt positions
    expect(index.ids('lazy dog')).toEqual(['a']);
  });

  it('answers null for a docid without a record, and a record once the document exists', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'x' } });
    expect(tokenCount(index, 1)).toBeNull();
    index.write({ b: { id: 'b', title: 'y z' } });
    expect(tokenCount(index, 1)).toBe(2);
  });
});
