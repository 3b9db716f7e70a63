// Facets on search through the real server: `facetDistribution` and `facetStats` with the
// `meilisearch` client and raw HTTP (POST and GET), counts over every matching document,
// `faceting` settings (maxValuesPerFacet, sortFacetValuesBy), original spellings, nested
// attributes, and the errors for facets that are not filterable.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const BOOKS = [
  { id: 1, title: 'Dune', genres: ['Science Fiction', 'Adventure'], year: 1965, price: 9.5, available: true, author: { name: 'Herbert' } },
  { id: 2, title: 'Dune Messiah', genres: ['science fiction'], year: 1969, price: 8, available: false, author: { name: 'Herbert' } },
  { id: 3, title: 'Neuromancer', genres: ['Science Fiction', 'Cyberpunk'], year: 1984, price: 12, available: true, author: { name: 'Gibson' } },
  { id: 4, title: 'Emma', genres: ['Romance'], year: 1815, price: 5.25, available: true, author: { name: 'Austen' } },
  { id: 5, title: 'Persuasion', genres: ['Romance'], year: 1817, available: false, author: { name: 'Austen' } },
  { id: 6, title: 'Untitled', genres: [], year: null },
];

let server: TestServer;
let client: Meilisearch;
let books: Index;

async function settle(taskUid: number): Promise<void> {
  const task = await client.tasks.waitForTask(taskUid, { interval: 20, timeout: 30_000 });
  expect(task.status).toBe('succeeded');
}

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  books = client.index('books');
  await settle((await books.addDocuments(BOOKS)).taskUid);
  await settle(
    (
      await books.updateSettings({
        filterableAttributes: ['genres', 'year', 'price', 'available', 'author', { attributePatterns: ['title'], features: { facetSearch: true, filter: { equality: false, comparison: false } } }],
      })
    ).taskUid,
  );
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('facetDistribution', () => {
  it('counts every matching document, not only the returned page', async () => {
    const res = await books.search('', { facets: ['genres'], limit: 1 });
    expect(res.hits).toHaveLength(1);
    // "Science Fiction" and "science fiction" are one value, shown with the first document's spelling.
    expect(res.facetDistribution).toEqual({ genres: { Adventure: 1, Cyberpunk: 1, Romance: 2, 'Science Fiction': 3 } });
    expect(res.facetStats).toEqual({});
  });

  it('counts over the query and the filter', async () => {
    const res = await books.search('dune', { facets: ['genres', 'year'], filter: 'year < 1968' });
    expect(res.facetDistribution).toEqual({ genres: { Adventure: 1, 'Science Fiction': 1 }, year: { '1965': 1 } });
    expect(res.facetStats).toEqual({ year: { min: 1965, max: 1965 } });
  });

  it('renders numbers in their shortest form, booleans as strings, and gives numeric stats', async () => {
    const res = await books.search('', { facets: ['price', 'available'] });
    expect(res.facetDistribution).toEqual({ available: { false: 2, true: 3 }, price: { '5.25': 1, '8': 1, '9.5': 1, '12': 1 } });
    // JS objects list integer-like keys first, so only the other keys' order is observable.
    expect(Object.keys(res.facetDistribution!.price!).filter((key) => key.includes('.'))).toEqual(['5.25', '9.5']);
    expect(res.facetStats).toEqual({ price: { min: 5.25, max: 12 } });
  });

  it('expands `*` to every filterable faceted attribute, keys sorted, nested paths included', async () => {
    const res = await books.search('', { facets: ['*'] });
    expect(Object.keys(res.facetDistribution!)).toEqual(['author', 'author.name', 'available', 'genres', 'price', 'year']);
    expect(res.facetDistribution!['author.name']).toEqual({ Austen: 2, Gibson: 1, Herbert: 2 });
    expect(res.facetDistribution!.author).toEqual({});
    expect(res.facetStats).toEqual({ price: { min: 5.25, max: 12 }, year: { min: 1815, max: 1984 } });
  });

  it('selects what a requested name or pattern matches and is filterable by its own rule, then the filterable fields below it, as v1.50 does', async () => {
    expect(Object.keys((await books.search('', { facets: ['author'] })).facetDistribution!)).toEqual(['author', 'author.name']);
    const nested = client.index('nested-rules');
    await settle((await nested.addDocuments([{ id: 1, n: { c: 'red', d: { e: 'x' } } }])).taskUid);
    await settle((await nested.updateFilterableAttributes([{ attributePatterns: ['n.*'], features: { facetSearch: false, filter: { equality: true, comparison: false } } }])).taskUid);
    const distribution = async (facets: string[]) => (await nested.search('', { facets })).facetDistribution;
    // `n` itself is only the parent of the rule's pattern: it selects nothing, nor its children
    expect(await distribution(['n'])).toEqual({});
    expect(await distribution(['n.*'])).toEqual({ 'n.c': { red: 1 }, 'n.d': {}, 'n.d.e': { x: 1 } });
    expect(await distribution(['n.d'])).toEqual({ 'n.d': {}, 'n.d.e': { x: 1 } });
  });

  it('maps attributes without values among the hits to {}', async () => {
    const res = await books.search('', { facets: ['price', 'genres'], filter: 'year = 1817' });
    expect(res.facetDistribution).toEqual({ genres: { Romance: 1 }, price: {} });
    expect(res.facetStats).toEqual({});
  });

  it('omits both keys when `facets` is empty or absent', async () => {
    for (const res of [await books.search('', { facets: [] }), await books.search('')]) {
      expect(res).not.toHaveProperty('facetDistribution');
      expect(res).not.toHaveProperty('facetStats');
    }
  });

  it('places the keys after pagination and before requestUid, in page mode too', async () => {
    const res = await call(server, 'POST', '/indexes/books/search', { facets: ['year'], hitsPerPage: 2 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['hits', 'query', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits', 'facetDistribution', 'facetStats', 'requestUid']);
  });

  it('works on GET with a comma-separated list', async () => {
    const res = await call(server, 'GET', '/indexes/books/search?facets=available,year&filter=year%20%3E%201900');
    expect(res.status).toBe(200);
    expect(res.body.facetDistribution).toEqual({ available: { false: 1, true: 2 }, year: { '1965': 1, '1969': 1, '1984': 1 } });
    expect(res.body.facetStats).toEqual({ year: { min: 1965, max: 1984 } });
  });
});

describe('faceting settings', () => {
  it('truncates to maxValuesPerFacet, numbers first, and sorts by count when asked', async () => {
    const index = client.index('faceting');
    await settle(
      (
        await index.addDocuments([
          { id: 1, tag: ['b', 'c', 2] },
          { id: 2, tag: ['c', 1] },
          { id: 3, tag: ['c', 'a'] },
          { id: 4, tag: ['b'] },
        ])
      ).taskUid,
    );
    await settle((await index.updateSettings({ filterableAttributes: ['tag'], faceting: { maxValuesPerFacet: 3 } })).taskUid);
    const alpha = await index.search('', { facets: ['tag'] });
    expect(Object.entries(alpha.facetDistribution!.tag!)).toEqual([
      ['1', 1],
      ['2', 1],
      ['a', 1],
    ]);

    await settle((await index.updateSettings({ faceting: { maxValuesPerFacet: 10, sortFacetValuesBy: { '*': 'alpha', tag: 'count' } } })).taskUid);
    const byCount = await index.search('', { facets: ['tag'] });
    expect(byCount.facetDistribution!.tag).toEqual({ c: 3, b: 2, '1': 1, '2': 1, a: 1 });
    // Integer-like keys always come first in a JS object: the order of the others shows the sort.
    expect(Object.keys(byCount.facetDistribution!.tag!).filter((key) => !/^\d+$/.test(key))).toEqual(['c', 'b', 'a']);

    await settle((await index.updateSettings({ faceting: { maxValuesPerFacet: 2 } })).taskUid);
    const truncated = await index.search('', { facets: ['tag'] });
    // Each kind keeps its most frequent values; the numbers take the budget first.
    expect(truncated.facetDistribution!.tag).toEqual({ '1': 1, '2': 1 });
  });
});

describe('alphabetical numbers', () => {
  it('keeps the first numbers by their printed form when few documents match, as v1.50 reads them from the documents', async () => {
    const index = client.index('prices');
    await settle((await index.addDocuments([9.5, 8, 12, 5.25, 100, 30].map((price, id) => ({ id, price })))).taskUid);
    await settle((await index.updateSettings({ filterableAttributes: ['price'], faceting: { maxValuesPerFacet: 3 } })).taskUid);
    const res = await index.search('', { facets: ['price'] });
    // "100" < "12" < "30" < "5.25" < "8" < "9.5", bytewise
    expect(res.facetDistribution).toEqual({ price: { '100': 1, '12': 1, '30': 1 } });
    expect(res.facetStats).toEqual({ price: { min: 5.25, max: 100 } });
  });
});

describe('facet errors', () => {
  it('rejects a pattern matching no filterable attribute', async () => {
    const res = await call(server, 'POST', '/indexes/books/search', { facets: ['doggo'] });
    expectError(res, 400, 'invalid_search_facets', 'Invalid facet distribution: Pattern `doggo` is not filterable. Available filterable attributes patterns are: `author, available, genres, price, year`.');
    await expect(books.search('', { facets: ['doggo'] })).rejects.toMatchObject({ cause: { code: 'invalid_search_facets' } });
  });

  it('rejects an attribute whose rule does not enable filtering', async () => {
    const res = await call(server, 'POST', '/indexes/books/search', { facets: ['title'] });
    expectError(
      res,
      400,
      'invalid_search_facets',
      'Invalid facet distribution: Attribute `title` matched rule #5 in filterableAttributes, but this rule does not enable filtering.\n' +
        'Hint: enable filtering in rule #5 by modifying the features.filter object\n' +
        'Hint: prepend another rule matching `title` with appropriate filter features before rule #5',
    );
  });

  it('names the first invalid pattern in request order, with the rule that shadows it when one does', async () => {
    const shadowed = await call(server, 'POST', '/indexes/books/search', { facets: ['title', 'genres', 'doggo'] });
    expectError(
      shadowed,
      400,
      'invalid_search_facets',
      'Invalid facet distribution: Attribute `title` matched rule #5 in filterableAttributes, but this rule does not enable filtering.\n' +
        'Hint: enable filtering in rule #5 by modifying the features.filter object\n' +
        'Hint: prepend another rule matching `title` with appropriate filter features before rule #5',
    );
    const unknown = await call(server, 'POST', '/indexes/books/search', { facets: ['genres', 'doggo', 'title'] });
    expectError(unknown, 400, 'invalid_search_facets', 'Invalid facet distribution: Pattern `doggo` is not filterable. Available filterable attributes patterns are: `author, available, genres, price, year`.');
  });

  it('checks nothing once `*` is requested', async () => {
    const res = await books.search('', { facets: ['*', 'doggo'], filter: 'year = 1817' });
    expect(res.facetDistribution!.genres).toEqual({ Romance: 1 });
  });

  it('says when the index has no filterable attributes', async () => {
    const index = client.index('plain');
    await settle((await index.addDocuments([{ id: 1, color: 'blue' }])).taskUid);
    const res = await call(server, 'GET', '/indexes/plain/search?facets=color');
    expectError(res, 400, 'invalid_search_facets', 'Invalid facet distribution: Pattern `color` is not filterable. This index does not have configured filterable attributes.');
  });

  it('rejects a wrongly typed `facets`', async () => {
    const res = await call(server, 'POST', '/indexes/books/search', { facets: 'genres' });
    expectError(res, 400, 'invalid_search_facets', 'Invalid value type at `.facets`: expected an array, but found a string: `"genres"`');
  });
});
