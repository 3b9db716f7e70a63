// milli's ngram_split_words.rs (v1.50): 2- and 3-word n-grams of the query (their concatenation as one
// indexed word, with its own typo budget and prefix), split words, and what disables them. The data
// and queries are milli's; the expected docids are its snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultTypoTolerance } from '../../../../src/types/settings.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

const TEXTS = [
  'the sun flowers are pretty',
  'the sun flower is tall',
  'the sunflowers are pretty',
  'the sunflower is tall',
  'the sunflawer is tall',
  'sunflowering is not a verb',
  'xy z',
];

function createIndex(typos = true): TestIndex {
  const created = openTestIndex({
    searchableAttributes: ['text'],
    rankingRules: ['words'],
    typoTolerance: { ...defaultTypoTolerance(), enabled: typos },
  });
  created.write(Object.fromEntries(TEXTS.map((text, id) => [String(id), { id, text }])));
  return created;
}

const all = (q: string) => index.ids(q, { matchingStrategy: 'all' });

describe('milli ngram_split_words.rs', () => {
  it('2gram_simple: two query words also match their concatenation, as a prefix when last', () => {
    index = createIndex(false);
    expect(all('sun flower')).toEqual([0, 1, 2, 3, 5]);
    // the only rule is Words with the All strategy: no score details
    expect(index.search('sun flower', { matchingStrategy: 'all' }).hits.map((hit) => hit.details)).toEqual([[], [], [], [], []]);
  });

  it('3gram_simple: three query words match their concatenation', () => {
    index = createIndex(false);
    expect(all('sun flower s are')).toEqual([0, 2]);
  });

  it('2gram_typo: a 2-gram of 9 characters or more takes one typo', () => {
    index = createIndex();
    expect(all('sun flawer')).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('no_disable_ngrams: disabling typos leaves n-grams on; a trailing space ends the prefix', () => {
    index = createIndex(false);
    expect(all('sun flower ')).toEqual([1, 3]);
  });

  it('2gram_prefix: a 2-gram ending the query is a prefix', () => {
    index = createIndex(false);
    expect(all('sun flow')).toEqual([0, 1, 2, 3, 5]);
  });

  it('3gram_prefix: a 3-gram ending the query is a prefix', () => {
    index = createIndex(false);
    expect(all('su nf l')).toEqual([2, 3, 4, 5]);
  });

  it('split_words: a word also matches its split into two adjacent words', () => {
    index = createIndex();
    expect(all('sunflower ')).toEqual([1, 2, 3, 4]);
  });

  it('disable_split_words: with typos disabled a word still matches its split', () => {
    index = createIndex(false);
    expect(all('sunflower ')).toEqual([1, 3]);
  });

  it('2gram_split_words: a 2-gram may be split into two adjacent words', () => {
    index = createIndex();
    expect(all('sunf lower')).toEqual([1, 2, 3, 4, 5]);
  });

  it('3gram_no_split_words: a 3-gram may be split too, and takes no typo', () => {
    index = createIndex();
    expect(all('sunf lo wer')).toEqual([1, 2, 3, 5]);
  });

  it('3gram_no_typos: a 3-gram takes no typo', () => {
    index = createIndex();
    expect(all('sunf la wer')).toEqual([4]);
  });

  it('no_ngram_phrases: a phrase never joins an n-gram', () => {
    index = createIndex();
    expect(all('"sun" flower')).toEqual([0, 1]);
    expect(all('"sun" "flower"')).toEqual([1]);
  });

  it('short_split_words: a short word is split too', () => {
    index = createIndex();
    expect(all('xyz')).toEqual([6]);
  });

  it('split_words_never_disabled: exact words and exact attributes leave split words on', () => {
    index = createIndex();
    index.reconfigure({ typoTolerance: { ...defaultTypoTolerance(), disableOnWords: ['sunflower'], disableOnAttributes: ['text'] } });
    expect(all('the sunflower is tall')).toEqual([1, 3]);
  });
});
