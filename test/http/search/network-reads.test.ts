// Facet search and document reads over a network without a leader (network.md §7.1, §7.3), with
// real instances on loopback: ms0 holds the odd books, ms1 the even ones, and a third instance
// holds them all to compare with. Facet hits merge by value with their counts summed; document
// lists merge by sort values (unsorted: ms0's then ms1's), totals summed; a single document is
// asked of the network only when it is not found here; a remote that is down shows in
// `remoteErrors` while the others still answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, errorBody, run } from '../../helpers/api.js';
import { freePort, startServer, type TestServer } from '../../helpers/server.js';

const ALL = [
  { id: 1, title: 'Carol', genre: 'drama', year: 1990 },
  { id: 2, title: 'Carol and the cat', genre: 'comedy', year: 2005 },
  { id: 3, title: 'The carol singers', genre: 'drama', year: 1975 },
  { id: 4, title: 'A christmas carol', genre: 'drama', year: 2010 },
  { id: 5, title: 'Carols', genre: 'music', year: 1990 },
  { id: 6, title: 'Cat tales', genre: 'comedy', year: 1980 },
];
const SETTINGS = { filterableAttributes: ['genre', 'year'], sortableAttributes: ['year'] };

let a: TestServer; // ms0: the instance asked
let b: TestServer; // ms1
let whole: TestServer; // every book on one instance

beforeAll(async () => {
  // one after the other: three processes starting at once on a busy machine may miss the ready deadline
  a = await startServer({ args: ['--experimental-allowed-ip-networks', 'any'], env: { MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS: '2' } });
  b = await startServer();
  whole = await startServer();
  const load = async (server: TestServer, docs: typeof ALL) => {
    await run(server, 'PATCH', '/indexes/books/settings', SETTINGS);
    await run(server, 'POST', '/indexes/books/documents', docs);
  };
  await Promise.all([load(a, ALL.filter(({ id }) => id % 2 === 1)), load(b, ALL.filter(({ id }) => id % 2 === 0)), load(whole, ALL)]);
});
afterAll(async () => {
  await Promise.all([a, b, whole].filter((server) => server !== undefined).map((server) => server.dispose()));
});

const gate = errorBody('feature_not_enabled', 'passing `useNetwork` in a search query requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805');
const ids = (docs: { id: number }[]) => docs.map(({ id }) => id);

describe('without the network feature', () => {
  it('refuses useNetwork, even false, on facet search and document reads', async () => {
    expect(await call(a, 'POST', '/indexes/books/facet-search', { facetName: 'genre', useNetwork: false })).toMatchObject({ status: 400, body: gate });
    expect(await call(a, 'POST', '/indexes/books/documents/fetch', { useNetwork: false })).toMatchObject({ status: 400, body: gate });
    expect(await call(a, 'GET', '/indexes/books/documents?useNetwork=false')).toMatchObject({ status: 400, body: gate });
    expect(await call(a, 'GET', '/indexes/books/documents/1?useNetwork=false')).toMatchObject({ status: 400, body: gate });
  });

  it('refuses a useNetwork that is not a boolean with the document code', async () => {
    const body = await call(a, 'POST', '/indexes/books/documents/fetch', { useNetwork: 'yes' });
    expect(body).toMatchObject({ status: 400, body: { code: 'invalid_document_use_network' } });
    expect((await call(a, 'GET', '/indexes/books/documents?useNetwork=yes')).body.code).toBe('invalid_document_use_network');
    expect((await call(a, 'GET', '/indexes/books/documents/1?useNetwork=yes')).body.code).toBe('invalid_document_use_network');
  });
});

describe('with the network feature', () => {
  beforeAll(async () => {
    await Promise.all([a, b].map((server) => call(server, 'PATCH', '/experimental-features', { network: true })));
    await call(a, 'PATCH', '/network', { self: 'ms0', remotes: { ms0: { url: a.url }, ms1: { url: b.url } } });
  });

  describe('facet search', () => {
    it('sums the counts of every instance, as one instance holding everything counts them', async () => {
      for (const request of [{ facetName: 'genre' }, { facetName: 'genre', filter: 'year > 1985' }, { facetName: 'genre', facetQuery: 'dr' }]) {
        const [network, alone] = await Promise.all([call(a, 'POST', '/indexes/books/facet-search', { ...request, useNetwork: true }), call(whole, 'POST', '/indexes/books/facet-search', request)]);
        expect(network.status).toBe(200);
        expect(network.body.facetHits).toEqual(alone.body.facetHits);
        expect(network.body.facetQuery).toBe(alone.body.facetQuery);
        expect(Object.keys(network.body)).toEqual(['facetHits', 'facetQuery', 'processingTimeMs', 'remoteErrors']);
        expect(network.body.remoteErrors).toEqual({});
      }
      expect((await call(a, 'POST', '/indexes/books/facet-search', { facetName: 'genre' })).body).toEqual({ facetHits: [{ value: 'drama', count: 2 }, { value: 'music', count: 1 }], facetQuery: null, processingTimeMs: expect.any(Number) });
    });

    it('orders the merged values by their total count when the facet is sorted by count', async () => {
      await Promise.all([a, b, whole].map((server) => run(server, 'PATCH', '/indexes/books/settings', { faceting: { sortFacetValuesBy: { genre: 'count' } } })));
      try {
        const network = await call(a, 'POST', '/indexes/books/facet-search', { facetName: 'genre', useNetwork: true });
        expect(network.body.facetHits).toEqual([
          { value: 'drama', count: 3 },
          { value: 'comedy', count: 2 },
          { value: 'music', count: 1 },
        ]);
        expect(network.body.facetHits).toEqual((await call(whole, 'POST', '/indexes/books/facet-search', { facetName: 'genre' })).body.facetHits);
      } finally {
        await Promise.all([a, b, whole].map((server) => run(server, 'PATCH', '/indexes/books/settings', { faceting: { sortFacetValuesBy: { genre: 'alpha' } } })));
      }
    });
  });

  describe('document reads', () => {
    it('merges sorted lists by their sort values, as one instance sorts them, with totals summed', async () => {
      for (const sort of [['year:asc'], ['year:desc']]) {
        const query = { sort, offset: 1, limit: 4 };
        const [network, alone] = await Promise.all([call(a, 'POST', '/indexes/books/documents/fetch', { ...query, useNetwork: true }), call(whole, 'POST', '/indexes/books/documents/fetch', query)]);
        expect(network.status).toBe(200);
        expect(network.body).toEqual(alone.body);
      }
      const get = await call(a, 'GET', '/indexes/books/documents?useNetwork=true&sort=year:desc&limit=2&fields=id,year&filter=genre%20%3D%20drama');
      expect(get.body).toEqual({ results: [{ id: 4, year: 2010 }, { id: 1, year: 1990 }], offset: 0, limit: 2, total: 3 });
    });

    it('concatenates unsorted lists in partition order, then cuts the window', async () => {
      const all = await call(a, 'POST', '/indexes/books/documents/fetch', { useNetwork: true, fields: ['id'] });
      expect(all.body).toEqual({ results: [1, 3, 5, 2, 4, 6].map((id) => ({ id })), offset: 0, limit: 20, total: 6 });
      const window = await call(a, 'POST', '/indexes/books/documents/fetch', { useNetwork: true, offset: 2, limit: 3 });
      expect(ids(window.body.results)).toEqual([5, 2, 4]);
      expect(window.body.results[0]).toEqual(ALL[4]);
      expect((await call(a, 'POST', '/indexes/books/documents/fetch', { useNetwork: false })).body.total).toBe(3);
    });

    it('asks the network for a single document only when it is not found here', async () => {
      expect(await call(a, 'GET', '/indexes/books/documents/2?useNetwork=true&fields=title')).toMatchObject({ status: 200, body: { title: 'Carol and the cat' } });
      expect(await call(a, 'GET', '/indexes/books/documents/1?useNetwork=true')).toMatchObject({ status: 200, body: ALL[0] });
      expect(await call(a, 'GET', '/indexes/books/documents/2')).toMatchObject({ status: 404, body: errorBody('document_not_found', 'Document `2` not found.') });
      expect(await call(a, 'GET', '/indexes/books/documents/99?useNetwork=true')).toMatchObject({ status: 404, body: errorBody('document_not_found', 'Document `99` not found.') });
      expect((await call(a, 'GET', '/indexes/nothing/documents/2?useNetwork=true')).body.code).toBe('index_not_found');
    });

    it('gives each document of a proxied fetch its sort values, last', async () => {
      const headers = { 'content-type': 'application/json', 'meili-proxy-search': 'true' };
      const sorted = await callRaw(b, 'POST', '/indexes/books/documents/fetch', JSON.stringify({ sort: ['year:desc'], fields: ['title'] }), headers);
      expect(sorted.body.results[0]).toEqual({ title: 'A christmas carol', _federation: { weightedScoreValues: [{ sort: { asc: false, value: 2010 } }] } });
      expect(Object.keys(sorted.body.results[0])).toEqual(['title', '_federation']);
      const unsorted = await callRaw(b, 'POST', '/indexes/books/documents/fetch', JSON.stringify({ limit: 1 }), headers);
      expect(unsorted.body.results).toEqual([{ ...ALL[1], _federation: { weightedScoreValues: [] } }]);
      expect((await call(b, 'POST', '/indexes/books/documents/fetch', { limit: 1 })).body.results).toEqual([ALL[1]]);
    });
  });

  it('accepts the bodies a v1.50 leader sends, every field serialized', async () => {
    const facets = {
      facetQuery: null,
      facetName: 'genre',
      q: null,
      vector: null,
      media: null,
      hybrid: null,
      filter: ['genre = drama'],
      matchingStrategy: 'last',
      attributesToSearchOn: null,
      rankingScoreThreshold: null,
      locales: null,
      exhaustiveFacetCount: null,
      useNetwork: false,
    };
    expect((await call(b, 'POST', '/indexes/books/facet-search', facets)).body.facetHits).toEqual([{ value: 'drama', count: 1 }]);
    const fetch = { offset: 0, limit: 20, fields: null, retrieveVectors: false, ids: null, filter: null, sort: null, useNetwork: false };
    expect((await call(b, 'POST', '/indexes/books/documents/fetch', fetch)).body.total).toBe(3);
  });

  it('reports a remote that is down in remoteErrors and answers with the others', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    await call(a, 'PATCH', '/network', { remotes: { down: { url: down } } });
    try {
      const failure = errorBody('remote_could_not_send_request', 'error sending request', 'system');
      const facets = await call(a, 'POST', '/indexes/books/facet-search', { facetName: 'genre', useNetwork: true });
      expect(facets.body.facetHits).toEqual([
        { value: 'comedy', count: 2 },
        { value: 'drama', count: 3 },
        { value: 'music', count: 1 },
      ]);
      expect(facets.body.remoteErrors).toEqual({ down: failure });
      const documents = await call(a, 'POST', '/indexes/books/documents/fetch', { useNetwork: true, fields: ['id'] });
      expect(documents.body).toEqual({ results: [1, 3, 5, 2, 4, 6].map((id) => ({ id })), offset: 0, limit: 20, total: 6, remoteErrors: { down: failure } });
      // a network without shards marks no remote unavailable, even after a search it failed
      expect((await call(a, 'POST', '/indexes/books/search', { q: 'carol', useNetwork: true })).body.remoteErrors).toEqual({ down: failure });
      expect((await call(a, 'GET', '/network')).body.remotes.down.status).toBe('available');
    } finally {
      await call(a, 'PATCH', '/network', { remotes: { down: null } });
    }
  });
});
