// milli's `search/new/tests/stop_words.rs` (v1.50) ported: stop words are not indexed, are
// case-sensitive, are dropped from queries unless last (a prefix), are holes inside phrases (not
// counted by the words rule), and a query of stop words only is a placeholder search. The
// documents and queries are milli's; the expected orders and details are v1.50's snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import { openTestIndex, wordIndexSnapshot, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

const TITLES = [
  'Shazam!',
  'Captain Marvel',
  'Escape Room',
  'How to Train Your Dragon: The Hidden World',
  'Gläss',
  'How to Attempt to Train Your Dragon',
  'How to Train Your Dragon: the Hidden World',
];

function createIndex(): TestIndex {
  const created = openTestIndex({ searchableAttributes: ['title'], stopWords: ['to', 'The', 'xyz'] });
  created.write(Object.fromEntries(TITLES.map((title, id) => [String(id), { id, title }])));
  return created;
}

/** v1.50's details with the default ranking rules, as Quarry's step details. */
type Pair = readonly [number, number];
function details(d: { words: Pair; typo: Pair; proximity: Pair; position: Pair; exact: string; exactWords: Pair }) {
  return [
    { kind: 'words', matching: d.words[0], max: d.words[1] },
    { kind: 'typo', count: d.typo[0], max: d.typo[1] },
    { kind: 'proximity', rank: d.proximity[0], max: d.proximity[1] },
    { kind: 'fid', rank: 1, max: 1, unified: false },
    { kind: 'position', rank: d.position[0], max: d.position[1], unified: false },
    { kind: 'exactAttribute', match: d.exact },
    { kind: 'exactWords', matching: d.exactWords[0], max: d.exactWords[1] },
  ];
}

describe('milli stop_words.rs: stop words in documents and queries', () => {
  it('indexes no stop word, matching them case-sensitively (test_stop_words_not_indexed)', () => {
    index = createIndex();
    const snapshot = wordIndexSnapshot(index.env);
    expect(snapshot.dictionary).not.toContain('to');
    // "The" is a stop word, "the" is not: only the lowercase one (document 6) is indexed
    expect(snapshot.words['the']!.map(([docid]) => docid)).toHaveLength(1);
    expect(snapshot.dictionary).toEqual(expect.arrayContaining(['how', 'train', 'your', 'dragon', 'hidden', 'world', 'attempt', 'glass', 'shazam']));
  });

  it('drops stop words from the query unless last, where they are prefixes (test_ignore_stop_words)', () => {
    index = createIndex();
    const hits = (q: string) => index.search(q).hits.map((hit) => hit.details);
    const first = { words: [1, 1], typo: [0, 1], proximity: [1, 1], position: [9, 11], exact: 'noExactMatch', exactWords: [1, 1] } as const;
    // `the` is the last word, so a prefix: kept
    expect(index.ids('xyz to the')).toEqual([6]);
    expect(hits('xyz to the')).toEqual([details(first)]);
    // `xyz` is the last word, so a prefix: kept, matching nothing
    expect(index.ids('to the xyz')).toEqual([6]);
    expect(hits('to the xyz')).toEqual([details({ ...first, words: [1, 2] })]);
    // a trailing space: `xyz` is no prefix and is dropped
    expect(index.ids('to the xyz ')).toEqual([6]);
    expect(hits('to the xyz ')).toEqual([details(first)]);
    expect(index.ids('to the dragon xyz')).toEqual([6]);
    expect(hits('to the dragon xyz')).toEqual([details({ ...first, words: [2, 3], typo: [0, 2], proximity: [3, 4], position: [17, 21], exactWords: [2, 2] })]);
  });

  it('keeps stop words in a phrase as holes the words rule does not count (test_stop_words_in_phrase)', () => {
    index = createIndex();
    const hits = (q: string) => index.search(q).hits.map((hit) => hit.details);
    expect(index.ids('"how to train your dragon"')).toEqual([3, 6]);
    const phrase = details({ words: [4, 4], typo: [0, 0], proximity: [1, 1], position: [11, 11], exact: 'matchesStart', exactWords: [1, 1] });
    expect(hits('"how to train your dragon"')).toEqual([phrase, phrase]);

    // `"to"` is a phrase of stop words only: dropped; `"the` runs to the end as a phrase
    expect(index.ids('how "to" train "the')).toEqual([6]);
    expect(hits('how "to" train "the')).toEqual([
      details({ words: [3, 3], typo: [0, 2], proximity: [2, 4], position: [29, 31], exact: 'noExactMatch', exactWords: [3, 3] }),
    ]);

    const dragon = { words: [3, 3], typo: [0, 2], proximity: [1, 1], exact: 'noExactMatch', exactWords: [3, 3] } as const;
    expect(index.ids('how "to" train "The dragon')).toEqual([3, 6, 5]);
    expect(hits('how "to" train "The dragon')).toEqual([
      details({ ...dragon, position: [31, 31] }),
      details({ ...dragon, position: [31, 31] }),
      details({ ...dragon, position: [27, 31] }),
    ]);

    // only stop words: a placeholder search, without score details
    expect(index.ids('"to"')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(hits('"to"')).toEqual(Array(7).fill([]));
  });
});
