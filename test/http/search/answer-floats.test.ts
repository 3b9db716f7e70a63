// Scores and facet stats written as v1.50 writes an f64 (`1.0`, not `1`): the Dart SDK casts
// `_rankingScore` and score details' `score` to `double`, which an integer fails on the Dart VM.
// Raw answer text of a search, a multi-search, a federated search and similar documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await run(server, 'PATCH', '/indexes/movies/settings', {
    filterableAttributes: ['year', 'rating', '_geo'],
    sortableAttributes: ['_geo'],
    embedders: { manual: { source: 'userProvided', dimensions: 2 } },
  });
  await run(server, 'POST', '/indexes/movies/documents', [
    { id: 1, title: 'Alien', year: 1979, rating: 8.5, _geo: { lat: 1, lng: 2 }, _vectors: { manual: [1, 0] } },
    { id: 2, title: 'Aliens', year: 1986, rating: 8, _geo: { lat: 1.5, lng: 2 }, _vectors: { manual: [1, 1] } },
  ]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('floats in search answers', () => {
  it('writes the integral scores, score details and facet stats of a search with a decimal point', async () => {
    const { status, text } = await call(server, 'POST', '/indexes/movies/search', { q: 'alien', showRankingScore: true, showRankingScoreDetails: true, facets: ['year', 'rating'] });
    expect(status).toBe(200);
    expect(text).toContain('"title":"Alien","year":1979,"rating":8.5,"_geo":{"lat":1,"lng":2},"_rankingScore":1.0,');
    expect(text).toContain('"words":{"order":0,"matchingWords":1,"maxMatchingWords":1,"score":1.0}');
    expect(text).toContain('"facetStats":{"rating":{"min":8.0,"max":8.5},"year":{"min":1979.0,"max":1986.0}}');
    // the document's own numbers stay as sent
    expect(text).toContain('"rating":8,');
  });

  it('writes the point and distance of a geo sort as floats', async () => {
    const { text } = await call(server, 'POST', '/indexes/movies/search', { sort: ['_geoPoint(1, 2):asc'], showRankingScoreDetails: true });
    // the rule's name prints the point as Rust's Display does: `1`, not `1.0`
    expect(text).toContain('"_geoPoint(1, 2):asc":{"order":0,"value":{"lat":1.0,"lng":2.0},"distance":0.0}');
  });

  it('writes multi-search results and federated weights as floats', async () => {
    const multi = await call(server, 'POST', '/multi-search', { queries: [{ indexUid: 'movies', q: 'alien', showRankingScore: true, limit: 1 }] });
    expect(multi.text).toContain('"_rankingScore":1.0}');
    const federated = await call(server, 'POST', '/multi-search', { federation: { limit: 1 }, queries: [{ indexUid: 'movies', q: 'alien', showRankingScore: true }] });
    expect(federated.text).toContain('"_federation":{"indexUid":"movies","queriesPosition":0,"weightedRankingScore":1.0},"_rankingScore":1.0}');
  });

  it('writes vectors as floats: hits, documents and the query vector echoed back', async () => {
    const searched = await call(server, 'POST', '/indexes/movies/search', { vector: [1, 0], hybrid: { embedder: 'manual', semanticRatio: 1 }, retrieveVectors: true, limit: 1 });
    expect(searched.status, searched.text).toBe(200);
    expect(searched.text).toContain('"_vectors":{"manual":{"embeddings":[[1.0,0.0]],"regenerate":false}}');
    expect(searched.text).toContain('"queryVector":[1.0,0.0]');
    const fetched = await call(server, 'GET', '/indexes/movies/documents/1?retrieveVectors=true');
    expect(fetched.text).toContain('"embeddings":[[1.0,0.0]]');
    const listed = await call(server, 'POST', '/indexes/movies/documents/fetch', { retrieveVectors: true });
    expect(listed.text).toContain('"embeddings":[[1.0,1.0]]');
  });

  it('writes the scores of similar documents as floats', async () => {
    const { status, text } = await call(server, 'POST', '/indexes/movies/similar', { id: 2, embedder: 'manual', showRankingScore: true, showRankingScoreDetails: true });
    expect(status, text).toBe(200);
    expect(text).toMatch(/"_rankingScore":\d\.\d+/);
    expect(text).not.toMatch(/"(_rankingScore|similarity)":\d[,}]/);
  });
});
