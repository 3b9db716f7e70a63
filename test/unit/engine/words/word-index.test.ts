// The word index on a real environment: postings, prefix postings and forward records stay
// exactly what a rebuild from the stored documents would produce, through additions, updates
// and deletions.
import { afterEach, describe, expect, it } from 'vitest';

import { INFO_WHOLE_FIELD } from '../../../../src/engine/words/postings.js';
import { readSearchFields } from '../../../../src/engine/words/word-index.js';
import { openTestIndex, wordIndexSnapshot as snapshot, type TestIndex } from '../search/harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

describe('word index', () => {
  it('records fields, lowest positions, whole-field words and value gaps', () => {
    index = openTestIndex();
    index.write({ a: { id: 'a', title: 'Dragon', tags: ['red dragon', 'fire'] } });
    const fields = readSearchFields(index.env);
    expect(fields).toEqual(['id', 'title', 'tags']);
    const { words, forward } = snapshot(index.env);
    expect(words.dragon).toEqual([[0, 'title+tags', 0 | INFO_WHOLE_FIELD]]);
    expect(words.red).toEqual([[0, 'tags', 0]]);
    expect(words.fire).toEqual([[0, 'tags', 9]]);
    expect(forward[0]!.fields).toEqual({ id: 1, title: 1, tags: 3 });
    expect(forward[0]!.tokens).toEqual(['a@id:0', 'dragon@tags:1', 'dragon@title:0', 'fire@tags:9', 'red@tags:0']);
  });

  it('indexes only the searchable attributes and keeps 1–3 character prefixes', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'Égout', hidden: 'secret' } });
    const { words, prefixes } = snapshot(index.env);
    expect(Object.keys(words)).toEqual(['egout']);
    expect(Object.keys(prefixes)).toEqual(['e', 'eg', 'ego']);
  });

  it('stays equal to a rebuild after additions, updates and deletions', () => {
    index = openTestIndex();
    index.write({
      a: { id: 'a', title: 'the red dragon', year: 1990 },
      b: { id: 'b', title: 'blue dragons fly', cast: ['Ann', 'Bob'] },
      c: { id: 'c', title: 'red river' },
    });
    index.write({ a: { id: 'a', title: 'a green dragon' }, c: null, d: { id: 'd', nested: { title: 'red sun' } } });
    index.write({ b: null, e: { id: 'e', title: 'dragon' } });
    const incremental = snapshot(index.env);
    expect(incremental.dictionary).not.toContain('river');
    expect(incremental.dictionary).not.toContain('fly');
    index.reconfigure({});
    const rebuilt = snapshot(index.env);
    // word ids differ after a rebuild; everything they denote must not
    expect(incremental.words).toEqual(rebuilt.words);
    expect(incremental.prefixes).toEqual(rebuilt.prefixes);
    expect(incremental.forward).toEqual(rebuilt.forward);
  });

  it('does not index stop words but keeps their positions', () => {
    index = openTestIndex({ stopWords: ['the'] });
    index.write({ a: { id: 'a', title: 'the red The dragon' } });
    const { words } = snapshot(index.env);
    expect(words.the).toEqual([[0, 'title', 2]]);
    expect(words.dragon).toEqual([[0, 'title', 3]]);
  });

  it('builds no prefix postings when prefix search is disabled', () => {
    index = openTestIndex({ prefixSearch: 'disabled' });
    index.write({ a: { id: 'a', title: 'dragon' } });
    expect(snapshot(index.env).prefixes).toEqual({});
  });

  it('fills the forward records\' leaf pages with a load of new documents', () => {
    index = openTestIndex();
    const words = (n: number) => Array.from({ length: 20 + ((n * 37) % 90) }, (_, i) => `w${(n * 7 + i * 13) % 4999}`).join(' ');
    index.write(Object.fromEntries(Array.from({ length: 2000 }, (_, n) => [`d${n}`, { id: `d${n}`, text: words(n) }])));
    let bytes = 0;
    for (const { value } of index.env.docWords.getRange({})) bytes += value.length + 16;
    // appended: 1.07 times the pages these bytes need; put one by one past the last key: 1.31 times
    expect((index.env.docWords.getStats() as { treeLeafPageCount: number }).treeLeafPageCount).toBeLessThan((bytes / 4096) * 1.15);
  });
});
