// The `locales` search parameter and the `localizedAttributes` setting on Latin-script text,
// through the real server with the `meilisearch` client and raw HTTP. In Meilisearch v1.50 they
// only steer the tokenizer's language detection (an allow-list per script), which for Latin text
// only matters to Swedish (å, ä and ö keep their marks); so without Swedish, hits, their order,
// their scores and their highlighting are the same whatever the locales, on POST and GET search
// and in multi-search. Chinese and Japanese are in cjk-locales.test.ts.
import { Meilisearch, type Index, type SearchParams } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Book {
  id: number;
  title_en: string;
  title_fr: string;
}

const BOOKS: Book[] = [
  { id: 1, title_en: 'The Little Prince', title_fr: 'Le Petit Prince' },
  { id: 2, title_en: 'The Stranger', title_fr: "L'Étranger" },
  { id: 3, title_en: 'Les Misérables', title_fr: 'Les Misérables' },
  { id: 4, title_en: 'The Count of Monte Cristo', title_fr: 'Le Comte de Monte-Cristo' },
  { id: 5, title_en: 'A Prince among Strangers', title_fr: 'Un prince parmi les étrangers' },
];

const QUERIES = ['prince', 'etranger', 'MISERABLES', 'monte cristo', 'pri'];
const OPTIONS: SearchParams = { attributesToHighlight: ['*'], showRankingScore: true, showRankingScoreDetails: true };

let server: TestServer;
let client: Meilisearch;
let index: Index<Book>;

/** What a search returns apart from its timing and request id. */
async function answer(q: string, locales?: string[]) {
  const { hits, estimatedTotalHits } = await index.search(q, { ...OPTIONS, ...(locales === undefined ? {} : { locales }) });
  return { hits, estimatedTotalHits };
}

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  index = client.index<Book>('books');
  await settle(client, (await index.addDocuments(BOOKS)).taskUid);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('locales on Latin-script text', () => {
  it('leave hits, order, scores and highlighting unchanged, whichever locales are forced', async () => {
    for (const q of QUERIES) {
      const plain = await answer(q);
      expect(plain.hits.length, q).toBeGreaterThan(0);
      for (const locales of [['fra'], ['en'], ['eng', 'fra'], ['jpn'], ['cmn', 'kor']]) {
        expect(await answer(q, locales), `${q} with ${locales.join(',')}`).toEqual(plain);
      }
    }
  });

  it('are accepted on GET search and in multi-search with the same results', async () => {
    const plain = await answer('prince');
    const get = await call(server, 'GET', '/indexes/books/search?q=prince&locales=fra,eng&showRankingScore=true&showRankingScoreDetails=true&attributesToHighlight=*');
    expect(get.status).toBe(200);
    expect(get.body.hits).toEqual(plain.hits);
    const multi = await client.multiSearch({ queries: [{ indexUid: 'books', q: 'prince', locales: ['fra'], ...OPTIONS }] });
    expect(multi.results[0]!.hits).toEqual(plain.hits);
  });

  it('leave results unchanged when localizedAttributes assign languages to the fields', async () => {
    const before = await Promise.all(QUERIES.map((q) => answer(q)));
    const rules = [
      { attributePatterns: ['*_fr'], locales: ['fra'] },
      { attributePatterns: ['title_en'], locales: ['eng'] },
    ];
    await settle(client, (await index.updateLocalizedAttributes(rules)).taskUid);
    expect(await index.getLocalizedAttributes()).toEqual(rules);
    const after = await Promise.all(QUERIES.map((q) => answer(q)));
    expect(after).toEqual(before);
    // restricting the searched fields (whose rules then give the query languages) changes nothing either
    const onFrench = await index.search('etranger', { attributesToSearchOn: ['title_fr'] });
    const onFrenchForced = await index.search('etranger', { attributesToSearchOn: ['title_fr'], locales: ['eng'] });
    expect(onFrenchForced.hits).toEqual(onFrench.hits);
    expect(onFrench.hits.map((hit) => hit.id).sort()).toEqual([2, 5]);
  });
});

describe('Swedish', () => {
  it('keeps å, ä and ö in the fields and queries whose only Latin-script locale is Swedish', async () => {
    const swedish = client.index<{ id: number; title_sv: string; title_de: string }>('swedish');
    await settle(client, (await swedish.updateLocalizedAttributes([{ attributePatterns: ['title_sv'], locales: ['swe'] }])).taskUid);
    await settle(client, (await swedish.addDocuments([{ id: 1, title_sv: 'Räksmörgås', title_de: 'Mädchen' }])).taskUid);
    const ids = async (q: string, params: SearchParams = {}) => (await swedish.search(q, params)).hits.map((hit) => hit.id);
    // the query takes the searched fields' locales: Swedish, as the field was indexed
    expect(await ids('räksmörgås', { attributesToSearchOn: ['title_sv'] })).toEqual([1]);
    expect(await ids('raksmorgas', { attributesToSearchOn: ['title_sv'], locales: ['eng'] })).toEqual([]);
    // the German field lost its marks, as Latin text does
    expect(await ids('madchen', { attributesToSearchOn: ['title_de'] })).toEqual([1]);
    const { hits } = await swedish.search('räksmörgås', { locales: ['swe'], attributesToHighlight: ['title_sv'] });
    expect(hits.map((hit) => hit._formatted?.title_sv)).toEqual(['<em>Räksmörgås</em>']);
  });
});

describe('German', () => {
  it('splits compound words in the fields and queries whose locales make their Latin text German (Meilisearch german_search)', async () => {
    const german = client.index<{ id: number; product: string }>('german');
    await settle(client, (await german.updateSettings({ searchableAttributes: ['product'], localizedAttributes: [{ attributePatterns: ['product'], locales: ['deu'] }] })).taskUid);
    await settle(
      client,
      (await german.addDocuments([
        { id: 1, product: 'Interkulturalität' },
        { id: 2, product: 'Wissensorganisation' },
        { id: 3, product: 'Der Dampfschifffahrtskapitän fährt 2024 über den Mittellandkanal' },
      ])).taskUid,
    );
    const ids = async (q: string, params: SearchParams = {}) => (await german.search(q, params)).hits.map((hit) => hit.id);
    expect(await ids('kulturalität')).toEqual([1]);
    expect(await ids('organisation')).toEqual([2]);
    expect(await ids('kapitän')).toEqual([3]);
    expect(await ids('mittellandkanal')).toEqual([3]);
    // a number stays whole
    expect(await ids('2024')).toEqual([3]);
    // the query is cut as the field was: both its words must match
    expect(await ids('Strombrücke', { matchingStrategy: 'all' })).toEqual([]);
    const { hits } = await german.search('kanal', { attributesToHighlight: ['product'], attributesToRetrieve: ['id'] });
    expect(hits.map((hit) => hit._formatted?.product)).toEqual(['Der Dampfschifffahrtskapitän fährt 2024 über den Mittelland<em>kanal</em>']);
  });

  it('splits compounds in the text whatlang calls German when the field locales let it choose among several', async () => {
    const mixed = client.index<{ id: number; text: string }>('german-english');
    await settle(client, (await mixed.updateLocalizedAttributes([{ attributePatterns: ['*'], locales: ['deu', 'eng'] }])).taskUid);
    await settle(
      client,
      (await mixed.addDocuments([
        { id: 1, text: 'Der Kapitän fährt mit dem Dampfschiff über den Mittellandkanal nach Magdeburg' },
        { id: 2, text: 'The captain steers the steamship along the Mittellandkanal to Magdeburg' },
      ])).taskUid,
    );
    const ids = async (q: string) => (await mixed.search(q)).hits.map((hit) => hit.id);
    // the German document's compound is cut, the English one's is not
    expect(await ids('kanal')).toEqual([1]);
    expect(await ids('mittellandkanal')).toContain(2);
  });

  it('leaves compounds whole without German locales', async () => {
    const plain = client.index<{ id: number; product: string }>('not-german');
    await settle(client, (await plain.addDocuments([{ id: 1, product: 'Wissensorganisation' }])).taskUid);
    expect((await plain.search('organisation')).hits).toEqual([]);
    expect((await plain.search('organisation', { locales: ['deu'] })).hits).toEqual([]);
    expect((await plain.search('wissensorganisation', { locales: ['deu'] })).hits.map((hit) => hit.id)).toEqual([1]);
  });
});
