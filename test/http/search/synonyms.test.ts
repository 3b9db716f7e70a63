// The `synonyms` setting in search, through the real server with the `meilisearch` client
// (`updateSynonyms`, `search`) and raw HTTP: multi-word keys matched by adjacent query words,
// multi-word values matched as phrases, one-way and mutual synonyms, their ranking below the
// original words, highlighting, and changes applying without reindexing.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Place {
  id: number;
  title: string;
}

const PLACES: Place[] = [
  { id: 1, title: 'Cheap flights to SF' },
  { id: 2, title: 'The San Francisco Bay' },
  { id: 3, title: 'San Diego Zoo' },
  { id: 4, title: 'Francisco and his friend San' },
  { id: 5, title: 'New York City lights' },
  { id: 6, title: 'City of New York' },
  { id: 7, title: 'NYC subway map' },
  { id: 8, title: 'York, New City' },
];

let server: TestServer;
let client: Meilisearch;
let index: Index<Place>;

async function ids(q: string, matchingStrategy: 'all' | 'last' = 'all'): Promise<number[]> {
  const { hits } = await index.search(q, { matchingStrategy });
  return hits.map((hit) => hit.id);
}

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  index = client.index<Place>('places');
  await settle(client, (await index.addDocuments(PLACES)).taskUid);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('multi-word synonyms', () => {
  it('match a multi-word key in the query, both ways when both are declared', async () => {
    await settle(client, (await index.updateSynonyms({ 'san francisco': ['sf'], sf: ['san francisco'] })).taskUid);
    expect(await index.getSynonyms()).toEqual({ 'san francisco': ['sf'], sf: ['san francisco'] });
    // the words themselves first, then the synonym (an n-gram costs as many typos as it has words)
    expect(await ids('San Francisco')).toEqual([2, 4, 1]);
    // `sf` → the phrase `san francisco`: documents with both words apart do not match
    expect((await ids('sf')).sort()).toEqual([1, 2]);
  });

  it('are one-way: a key matches its values, a value does not match its key', async () => {
    await settle(client, (await index.updateSynonyms({ sf: ['san francisco'] })).taskUid);
    expect(await ids('san francisco')).toEqual([2, 4]);
    expect((await ids('sf')).sort()).toEqual([1, 2]);
  });

  it('match a one-word key against the words of a multi-word value in order, next to each other', async () => {
    await settle(client, (await index.updateSynonyms({ nyc: ['new york city'] })).taskUid);
    expect(await ids('nyc')).toEqual([7, 5]);
  });

  it('match three adjacent query words as a key, and no longer once the words are apart', async () => {
    await settle(client, (await index.updateSynonyms({ 'new york city': ['nyc'] })).taskUid);
    expect(await ids('new york city')).toEqual([5, 6, 8, 7]);
    expect((await ids('new, york city')).sort()).toEqual([5, 6, 8]);
  });

  it('rank a synonym match below the original words, without counting it as exact', async () => {
    await settle(client, (await index.updateSynonyms({ 'san francisco': ['sf'] })).taskUid);
    const { hits } = await index.search('san francisco', { matchingStrategy: 'all', showRankingScoreDetails: true });
    const viaSynonym = hits.find((hit) => hit.id === 1)!;
    expect(viaSynonym._rankingScoreDetails!.typo).toMatchObject({ typoCount: 2 });
    expect(viaSynonym._rankingScoreDetails!.exactness).toMatchObject({ matchType: 'noExactMatch', matchingWords: 0, maxMatchingWords: 2 });
    expect(hits[0]!._rankingScoreDetails!.typo).toMatchObject({ typoCount: 0 });
  });

  it('highlight the synonym the document holds', async () => {
    await settle(client, (await index.updateSynonyms({ 'san francisco': ['sf'], nyc: ['new york city'] })).taskUid);
    const sf = await call(server, 'POST', '/indexes/places/search', { q: 'san francisco', attributesToHighlight: ['title'], matchingStrategy: 'all' });
    expect(sf.body.hits.find((hit: Place) => hit.id === 1)._formatted.title).toBe('Cheap flights to <em>SF</em>');
    const nyc = await call(server, 'POST', '/indexes/places/search', { q: 'nyc', attributesToHighlight: ['title'] });
    // a phrase match is one span (search.md §8.4)
    expect(nyc.body.hits.find((hit: Place) => hit.id === 5)._formatted.title).toBe('<em>New York City</em> lights');
  });

  it('stop applying once reset, without reindexing', async () => {
    await settle(client, (await index.resetSynonyms()).taskUid);
    expect(await index.getSynonyms()).toEqual({});
    expect(await ids('nyc')).toEqual([7]);
    expect(await ids('san francisco')).toEqual([2, 4]);
  });

  it('apply from a table of thousands of keys, built in slices at the first search, while /health answers', async () => {
    const synonyms: Record<string, string[]> = {};
    for (let i = 0; i < 5_000; i++) synonyms[`alias${i}`] = [`other${i}`, `third${i}`];
    synonyms['Bay Area'] = ['San Francisco'];
    await settle(client, (await index.updateSynonyms(synonyms)).taskUid);
    const [hits, health] = await Promise.all([ids('bay area'), call(server, 'GET', '/health')]);
    expect(hits.sort()).toEqual([2]);
    expect(health.status).toBe(200);
    // a change of another setting keeps the same synonyms applying
    await settle(client, (await index.updateStopWords(['of'])).taskUid);
    expect((await ids('bay area')).sort()).toEqual([2]);
    await settle(client, (await index.resetStopWords()).taskUid);
  });
});
