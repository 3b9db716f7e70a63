// Phrase cases of milli's v1.50 tests, ported: `tests/search/phrase_search.rs` (stop words inside
// a phrase, over milli's tests/assets/test_set.ndjson), `search/new/tests/typo.rs` (no typo inside
// a phrase), `ngram_split_words.rs` (no n-gram across a phrase) and `proximity.rs` (a phrase next
// to a word). The documents and queries are milli's; the expected hits are v1.50's snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

/** The searchable part (title, description) of milli's tests/assets/test_set.ndjson. */
const TEST_SET: [string, string, string][] = [
  ['A', 'hell o', 'hell o is the fourteenth episode of the american television series glee performing songs with this word'],
  ['B', 'hello', 'hello is a song recorded by english singer songwriter adele'],
  ['C', 'hell on earth', 'hell on earth is the third studio album by american hip hop duo mobb deep'],
  ['D', 'hell on wheels tv series', 'the construction of the first transcontinental railroad across the united states in the world'],
  ['E', 'hello kitty', 'also known by her full name kitty white is a fictional character produced by the japanese company sanrio'],
  ['F', 'laptop orchestra', 'a laptop orchestra lork or lo is a chamber music ensemble consisting primarily of laptops like helo huddersfield experimental laptop orchestra'],
  ['G', 'hello world film', 'hello world is a 2019 japanese animated sci fi romantic drama film directed by tomohiko ito and produced by graphinica'],
  ['H', 'world hello day', 'holiday observed on november 21 to express that conflicts should be resolved through communication rather than the use of force'],
  ['I', 'hello world song', 'hello world is a song written by tom douglas tony lane and david lee and recorded by american country music group lady antebellum'],
  ['J', 'hello cruel world', 'hello cruel world is an album by new zealand band tall dwarfs'],
  ['K', 'hallo creation system', 'in few word hallo was a construction toy created by the american company mattel to engage girls in construction play'],
  ['L', 'good morning world', 'good morning world is an american sitcom broadcast on cbs tv during the 1967 1968 season'],
  ['M', 'hello world america', 'a perfect match for a perfect engine using the query hello world america'],
  ['N', 'hello world america unleashed', 'a very good match for a very good engine using the query hello world america'],
  ['O', 'a perfect match for a perfect engine using the query hello world america', 'hello world america'],
  ['P', 'a very good match for a very good engine using the query hello world america', 'hello world america unleashed'],
  ['Q', 'hello world', 'a hello world program generally is a computer program that outputs or displays the message hello world'],
];

/** milli's `setup_search_index_with_criteria` (tests/search/mod.rs), searchable part only. */
function createTestSetIndex(rankingRules: string[]): TestIndex {
  const created = openTestIndex({
    searchableAttributes: ['title', 'description'],
    rankingRules,
    synonyms: { hello: ['good morning'], world: ['earth'], america: ['the united states'] },
  });
  created.write(Object.fromEntries(TEST_SET.map(([id, title, description]) => [id, { id, title, description }])));
  return created;
}

function createTextIndex(texts: Record<number, string>, rankingRules: string[]): TestIndex {
  const created = openTestIndex({ searchableAttributes: ['text'], rankingRules });
  created.write(Object.fromEntries(Object.entries(texts).map(([id, text]) => [id, { id: Number(id), text }])));
  return created;
}

const ALL = { matchingStrategy: 'all' } as const;

describe('milli phrase cases', () => {
  for (const [name, rankingRules] of [
    ['no_criteria', []],
    ['all_criteria', ['proximity', 'attribute', 'exactness']],
  ] as const) {
    it(`a phrase with stop words inside matches with them as holes (phrase_search.rs test_phrase_search_with_stop_words_${name})`, () => {
      index = createTestSetIndex([...rankingRules]);
      index.reconfigure({ stopWords: ['a', 'an', 'the', 'of'] });
      expect(index.ids('"the use of force"', { ...ALL, need: 10 })).toEqual(['H']);
    });
  }

  it('takes no typo inside a phrase (typo.rs test_phrase_no_typo_allowed)', () => {
    index = createTextIndex(
      {
        0: 'the quick brown fox jumps over the lazy dog',
        1: 'the quick brown foxes jump over the lazy dog',
        2: 'the quick brown fax sends a letter to the dog',
        3: 'the quickest brownest fox jumps over the laziest dog',
      },
      ['words'],
    );
    expect(index.ids('the "quick brewn" fox jumps over the lazy dog', ALL)).toEqual([]);
  });

  it('forms no n-gram with a phrase (ngram_split_words.rs test_no_ngram_phrases)', () => {
    index = createTextIndex(
      {
        0: 'the sun flowers are pretty',
        1: 'the sun flower is tall',
        2: 'the sunflowers are pretty',
        3: 'the sunflower is tall',
        4: 'the sunflawer is tall',
        5: 'sunflowering is not a verb',
        6: 'xy z',
      },
      ['words'],
    );
    expect(index.ids('"sun" flower', ALL)).toEqual([0, 1]);
    expect(index.ids('"sun" "flower"', ALL)).toEqual([1]);
  });
});
