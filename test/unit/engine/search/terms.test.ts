// Synonym derivations (terms.ts) on a real index: multi-word keys matched as n-grams of adjacent
// query words, multi-word values matched as phrases, both directions, their typo cost, how keys
// and values are normalised, and milli's per-word limits. Also the numbers `disableOnNumbers`
// keeps from typos and n-grams.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultTypoTolerance } from '../../../../src/types/settings.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

const CITIES = {
  '1': { id: 1, title: 'cheap flights to sf' },
  '2': { id: 2, title: 'the san francisco bay' },
  '3': { id: 3, title: 'san diego zoo' },
  '4': { id: 4, title: 'francisco and his friend san' },
  '5': { id: 5, title: 'new york city lights' },
  '6': { id: 6, title: 'city of new york' },
  '7': { id: 7, title: 'nyc subway map' },
};

describe('multi-word synonyms', () => {
  it('matches a multi-word key in the query against its one-word value, as a 2-typo n-gram', () => {
    index = openTestIndex({ synonyms: { 'San Francisco': ['SF'] } });
    index.write(CITIES);
    expect(index.ids('san francisco', { matchingStrategy: 'all' })).toEqual([2, 4, 1]);
    const viaSynonym = index.search('san francisco', { matchingStrategy: 'all' }).hits[2]!;
    expect(viaSynonym.details).toContainEqual(expect.objectContaining({ kind: 'typo', count: 2 }));
    expect(viaSynonym.details).toContainEqual({ kind: 'exactWords', matching: 0, max: 2 });
  });

  it('counts the key words as matched in the words rule, above documents holding one of them', () => {
    index = openTestIndex({ synonyms: { 'san francisco': ['sf'] } });
    index.write(CITIES);
    const ids = index.ids('san francisco');
    expect(ids.indexOf(1)).toBeLessThan(ids.indexOf(3));
    expect(index.search('san francisco').hits.find((hit) => hit.details[0]!.kind === 'words' && hit.details[0]!.matching === 1)).toBeDefined();
  });

  it('matches the words of a multi-word value consecutively, as a phrase', () => {
    index = openTestIndex({ synonyms: { nyc: ['New York City'] } });
    index.write(CITIES);
    expect(index.ids('nyc')).toEqual([7, 5]);
  });

  it('works both ways when both directions are declared, and only one way otherwise', () => {
    index = openTestIndex({ synonyms: { sf: ['san francisco'], 'san francisco': ['sf'] } });
    index.write(CITIES);
    // wordPosition puts the phrase (position 1) before `sf` itself (position 3)
    expect(index.ids('sf')).toEqual([2, 1]);
    expect(index.ids('san francisco', { matchingStrategy: 'all' })).toEqual([2, 4, 1]);
    index.reconfigure({ synonyms: { sf: ['san francisco'] } });
    expect(index.ids('san francisco', { matchingStrategy: 'all' })).toEqual([2, 4]);
  });

  it('looks three adjacent words up as a key, but not words apart or out of order', () => {
    index = openTestIndex({ synonyms: { 'new york city': ['nyc'] } });
    index.write(CITIES);
    expect(index.ids('new york city', { matchingStrategy: 'all' })).toEqual([5, 6, 7]);
    expect(index.ids('york new city', { matchingStrategy: 'all' })).toEqual([5, 6]);
    expect(index.ids('new "york" city', { matchingStrategy: 'all' })).toEqual([5, 6]);
  });

  it('drops stop words from keys and values, as the index tokenizer does', () => {
    index = openTestIndex({ stopWords: ['the', 'of'], synonyms: { 'the big apple': ['city of new york'] } });
    index.write(CITIES);
    // key `big apple`, value `city new york`: the stop word is not a hole, the words must be adjacent
    expect(index.ids('big apple', { matchingStrategy: 'all' })).toEqual([]);
    index.reconfigure({ synonyms: { 'the big apple': ['new york'] } });
    expect(index.ids('big apple', { matchingStrategy: 'all' })).toEqual([5, 6]);
  });

  it('keeps the first 50 synonyms of a word in sorted order', () => {
    const values = Array.from({ length: 60 }, (_, i) => `v${String(59 - i).padStart(2, '0')}`);
    index = openTestIndex({ synonyms: { x: values } });
    index.write({ '1': { id: 1, title: 'v05' }, '2': { id: 2, title: 'v49' }, '3': { id: 3, title: 'v50' } });
    expect(index.ids('x')).toEqual([1, 2]);
  });
});

describe('disableOnNumbers', () => {
  const NUMBERS = { '1': { id: 1, t: '123456' }, '2': { id: 2, t: '12345a' }, '3': { id: 3, t: '3.5 12 34' }, '4': { id: 4, t: '1234' } };
  const numbers = () => {
    index = openTestIndex({ typoTolerance: { ...defaultTypoTolerance(), disableOnNumbers: true }, rankingRules: ['words', 'typo'] });
    index.write(NUMBERS);
    return index;
  };

  it('keeps a number in a document from typo derivations, not a word with a letter', () => {
    expect(numbers().ids('12345a')).toEqual([2]);
    expect(index.ids('123455 ')).toEqual([2]);
  });

  it('leaves the query word its typo budget, and a number its exact and prefix matches', () => {
    const [hit] = numbers().search('123456 ').hits;
    expect(hit!.details[1]).toEqual({ kind: 'typo', count: 0, max: 1 });
    // its prefixes at no typo, then its split into `12 34` (1 typo)
    expect(index.ids('1234')).toEqual([1, 2, 4, 3]);
  });

  it('keeps a number from the concatenation of query words', () => {
    expect(numbers().ids('12 34 ', { matchingStrategy: 'all' })).toEqual([3]);
  });
});
