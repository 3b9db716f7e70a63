// Port of Meilisearch's crates/meilisearch/tests/search/matching_strategy.rs: which documents each
// matchingStrategy keeps, and in which order, for a query with a typo and one with an unknown word
// (ranking.md §3). Each request goes through POST and GET, as there.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectJson, searchBoth, seed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const SIMPLE_SEARCH_DOCUMENTS = [
  { title: 'Shazam!', id: '1' },
  { title: 'Captain Planet', id: '2' },
  { title: 'Captain Marvel', id: '3' },
  { title: 'a Captain Marvel ersatz', id: '4' },
  { title: "He's not part of the Marvel Cinematic Universe", id: '5' },
  { title: 'a Shazam ersatz, but better than Captain Planet', id: '6' },
  { title: 'Capitain CAAAAAVEEERNE!!!!', id: '7' },
];

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await seed(server, 'test', SIMPLE_SEARCH_DOCUMENTS);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

function expectIds(q: string, matchingStrategy: string, ids: string[]): Promise<void> {
  return searchBoth(server, 'test', { q, matchingStrategy, attributesToRetrieve: ['id'] }, (answer) => expectJson(answer.hits, ids.map((id) => ({ id }))));
}

describe('simple_search', () => {
  it('last drops the last word, ranking documents with both words first', () => expectIds('Captain Marvel', 'last', ['3', '4', '2', '6', '7']));
  it('all requires both words', () => expectIds('Captain Marvel', 'all', ['3', '4']));
  it('frequency drops the most frequent word first', () => expectIds('Captain Marvel', 'frequency', ['3', '4', '5']));
});

describe('search_with_typo', () => {
  it('last matches the typo word with and without its typo', () => expectIds('Capitain Marvel', 'last', ['3', '4', '7', '2', '6']));
  it('all requires both words, one through a typo', () => expectIds('Capitain Marvel', 'all', ['3', '4']));
  it('frequency keeps the rarer word', () => expectIds('Capitain Marvel', 'frequency', ['3', '4', '5']));
});

describe('search_with_unknown_word', () => {
  it('last drops words from the end, the unknown middle word included', () => expectIds('Captain Supercopter Marvel', 'last', ['2', '3', '4', '6', '7']));
  it('all finds nothing when a word is unknown', () => expectIds('Captain Supercopter Marvel', 'all', []));
  it('frequency drops the unknown word first', () => expectIds('Captain Supercopter Marvel', 'frequency', ['3', '4', '5']));
});
