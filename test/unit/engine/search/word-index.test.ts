// The word index on a real environment: postings, prefix postings and forward records stay
// exactly what a rebuild from the stored documents would produce, through additions, updates
// and deletions.
import { afterEach, describe, expect, it } from 'vitest';

import { prefixPostings, readPosting, wordPostings } from '../../../../src/engine/search/posting-blocks.js';
import { decodeForward, INFO_WHOLE_FIELD, type Posting } from '../../../../src/engine/search/postings.js';
import { readSearchFields } from '../../../../src/engine/search/word-index.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

/** Every stored structure of the word index as plain data, ids replaced by words and field names. */
function snapshot(target: TestIndex) {
  const { env } = target;
  const words = new Map<number, string>();
  for (const { key, value } of env.wordIds.getRange()) words.set(value.readUInt32LE(0), key);
  const fields = readSearchFields(env);
  const maskNames = (mask: number) => fields.filter((_, f) => (mask & (1 << f)) !== 0).join('+');
  const posting = (p: Posting) => {
    return Array.from(p.docids, (docid, i) => [docid, maskNames(p.masks[i]!), p.infos[i]]);
  };
  return {
    words: Object.fromEntries([...env.wordDocids.getKeys()].map((key) => [key, posting(readPosting(wordPostings(env), key))])),
    prefixes: Object.fromEntries([...env.prefixDocids.getKeys()].map((key) => [key, posting(readPosting(prefixPostings(env), key))])),
    forward: Object.fromEntries(
      [...env.docWords.getRange()].map(({ key, value }) => {
        const record = decodeForward(value);
        const tokens = Array.from(record.wordIds, (id, i) => `${words.get(id)}@${fields[record.places[i]! >>> 16]}:${record.places[i]! & 0xffff}`).sort();
        return [key, { fields: Object.fromEntries([...record.fieldWords].map(([f, n]) => [fields[f], n])), tokens }];
      }),
    ),
    dictionary: [...words.values()].sort(),
  };
}

describe('word index', () => {
  it('records fields, lowest positions, whole-field words and value gaps', () => {
    index = openTestIndex();
    index.write({ a: { id: 'a', title: 'Dragon', tags: ['red dragon', 'fire'] } });
    const fields = readSearchFields(index.env);
    expect(fields).toEqual(['id', 'title', 'tags']);
    const { words, forward } = snapshot(index);
    expect(words.dragon).toEqual([[0, 'title+tags', 0 | INFO_WHOLE_FIELD]]);
    expect(words.red).toEqual([[0, 'tags', 0]]);
    expect(words.fire).toEqual([[0, 'tags', 9]]);
    expect(forward[0]!.fields).toEqual({ id: 1, title: 1, tags: 3 });
    expect(forward[0]!.tokens).toEqual(['a@id:0', 'dragon@tags:1', 'dragon@title:0', 'fire@tags:9', 'red@tags:0']);
  });

  it('indexes only the searchable attributes and keeps 1–3 character prefixes', () => {
    index = openTestIndex({ searchableAttributes: ['title'] });
    index.write({ a: { id: 'a', title: 'Égout', hidden: 'secret' } });
    const { words, prefixes } = snapshot(index);
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
    const incremental = snapshot(index);
    expect(incremental.dictionary).not.toContain('river');
    expect(incremental.dictionary).not.toContain('fly');
    index.reconfigure({});
    const rebuilt = snapshot(index);
    // word ids differ after a rebuild; everything they denote must not
    expect(incremental.words).toEqual(rebuilt.words);
    expect(incremental.prefixes).toEqual(rebuilt.prefixes);
    expect(incremental.forward).toEqual(rebuilt.forward);
  });

  it('does not index stop words but keeps their positions', () => {
    index = openTestIndex({ stopWords: ['the'] });
    index.write({ a: { id: 'a', title: 'the red The dragon' } });
    const { words } = snapshot(index);
    expect(words.the).toEqual([[0, 'title', 2]]);
    expect(words.dragon).toEqual([[0, 'title', 3]]);
  });

  it('builds no prefix postings when prefix search is disabled', () => {
    index = openTestIndex({ prefixSearch: 'disabled' });
    index.write({ a: { id: 'a', title: 'dragon' } });
    expect(snapshot(index).prefixes).toEqual({});
  });
});
