// `personalize` (features/mod.rs `search_with_personalization_without_enabling_the_feature`): with no
// personalization service, a search that asks for one fails with `feature_not_enabled` once the
// search itself ran (its own errors come first): `/search` (POST and GET), each non-federated
// `/multi-search` query (prefixed by its position) and `federation.personalize` (unprefixed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const MESSAGE = 'reranking search results requires enabling the `personalization` experimental feature. See https://github.com/orgs/meilisearch/discussions/866';
const personalize = { userContext: 'I love science fiction movies' };

function expectRefused(reply: { status: number; body: any }, message = MESSAGE): void {
  expect(reply.status).toBe(400);
  expect(reply.body).toEqual({ message, code: 'feature_not_enabled', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#feature_not_enabled' });
}

beforeAll(async () => {
  server = await startServer();
  await succeed(server, 'POST', '/indexes/movies/documents', [
    { id: 1, title: 'The Dark Knight', genre: 'Action' },
    { id: 2, title: 'Inception', genre: 'Sci-Fi' },
    { id: 3, title: 'The Matrix', genre: 'Sci-Fi' },
  ]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('personalize without a personalization service', () => {
  it('fails a search with feature_not_enabled, POST and GET', async () => {
    expectRefused(await call(server, 'POST', '/indexes/movies/search', { q: 'movie', personalize }));
    expectRefused(await call(server, 'GET', `/indexes/movies/search?q=matrix&personalizeUserContext=${encodeURIComponent(personalize.userContext)}`));
    expect((await call(server, 'POST', '/indexes/movies/search', { q: 'matrix', personalize: null })).status).toBe(200);
  });

  it("fails a multi-search at the query that asks for it, and a federated one that asks for it in `federation`", async () => {
    expectRefused(await call(server, 'POST', '/multi-search', { queries: [{ indexUid: 'movies', q: 'matrix' }, { indexUid: 'movies', q: 'movie', personalize }] }), `Inside \`.queries[1]\`: ${MESSAGE}`);
    expectRefused(await call(server, 'POST', '/multi-search', { federation: { personalize }, queries: [{ indexUid: 'movies', q: 'movie' }] }));
  });

  it("answers the search's own errors first", async () => {
    const missing = await call(server, 'POST', '/indexes/nope/search', { q: 'movie', personalize });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('index_not_found');
    const filter = await call(server, 'POST', '/indexes/movies/search', { q: 'movie', filter: 'genre = Action', personalize });
    expect(filter.status).toBe(400);
    expect(filter.body.code).toBe('invalid_search_filter');
  });
});
