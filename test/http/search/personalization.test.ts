// `personalize` (features/mod.rs `search_with_personalization_without_enabling_the_feature`): with no
// personalization service, a search that asks for one fails with `feature_not_enabled` once the
// search itself ran (its own errors come first): `/search` (POST and GET), each non-federated
// `/multi-search` query (prefixed by its position) and `federation.personalize` (unprefixed).
// With `--experimental-personalization-api-key`, the hits are reranked by a mock of Cohere's rerank
// API on loopback (`--experimental-personalization-url`): what it is sent, the order it answers,
// its errors, its retries and the search's deadline.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
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

interface Reranked {
  headers: IncomingHttpHeaders;
  body: { query: string; documents: string[]; model: string };
}

describe('personalize with a personalization service', () => {
  let reranking: TestServer;
  let cohere: Server;
  const received: Reranked[] = [];
  /** the mock's next answers, one per request (the last one repeats): reversed order unless set */
  let answers: { status: number; body?: string }[] = [];

  beforeAll(async () => {
    cohere = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Reranked['body'];
        received.push({ headers: req.headers, body });
        const answer = answers.length > 1 ? answers.shift()! : answers[0];
        res.statusCode = answer?.status ?? 200;
        res.end(answer?.body ?? JSON.stringify({ results: body.documents.map((_, i) => ({ index: body.documents.length - 1 - i, relevance_score: 0.5 })) }));
      });
    });
    await new Promise<void>((resolve) => cohere.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(cohere.address() as { port: number }).port}/v1/rerank`;
    reranking = await startServer({
      args: ['--experimental-personalization-api-key', 'cohere-key', '--experimental-personalization-url', url, '--experimental-allowed-ip-networks', 'any', '--experimental-enable-metrics'],
    });
    await succeed(reranking, 'POST', '/indexes/movies/documents', [
      { id: 1, title: 'The Matrix', genre: 'Sci-Fi' },
      { id: 2, title: 'The Matrix Reloaded', genre: 'Sci-Fi' },
      { id: 3, title: 'The Matrix Revolutions', genre: 'Sci-Fi' },
    ]);
  }, 60_000);
  afterAll(async () => {
    await reranking?.dispose();
    await new Promise((resolve) => cohere.close(resolve));
  });

  const last = () => received[received.length - 1]!;
  const ids = (reply: { body: any }) => reply.body.hits.map((hit: { id: number }) => hit.id);

  it("reranks the page in the reranker's order, sending the prompt and each hit's document, POST and GET", async () => {
    answers = [];
    const plain = await call(reranking, 'POST', '/indexes/movies/search', { q: 'matrix' });
    const reply = await call(reranking, 'POST', '/indexes/movies/search', { q: 'matrix', personalize, attributesToHighlight: ['title'], showRankingScore: true });
    expect(reply.status).toBe(200);
    expect(ids(reply)).toEqual([...ids(plain)].reverse());
    expect(reply.body.hits[0]._formatted).toBeDefined();
    expect(last().headers.authorization).toBe('Bearer cohere-key');
    expect(last().body.query).toBe(`User Context: ${personalize.userContext}\nQuery: matrix`);
    expect(last().body.model).toBe('rerank-english-v3.0');
    // the documents as shown, without their formatting or scores
    expect(last().body.documents.map((text) => JSON.parse(text))).toEqual(plain.body.hits);
    const get = await call(reranking, 'GET', `/indexes/movies/search?q=matrix&personalizeUserContext=${encodeURIComponent(personalize.userContext)}`);
    expect(ids(get)).toEqual([...ids(plain)].reverse());
    // a placeholder search's prompt has no query line
    await call(reranking, 'POST', '/indexes/movies/search', { personalize });
    expect(last().body.query).toBe(`User Context: ${personalize.userContext}`);
    const metrics = await (await fetch(`${reranking.url}/metrics`)).text();
    expect(metrics).toMatch(/^meilisearch_personalized_search_requests 3$/m);
  });

  it('reranks a multi-search query, and a federated search\'s merged page with the queries joined', async () => {
    answers = [];
    const multi = await call(reranking, 'POST', '/multi-search', { queries: [{ indexUid: 'movies', q: 'reloaded' }, { indexUid: 'movies', q: 'matrix', personalize }] });
    expect(multi.status).toBe(200);
    expect(ids({ body: multi.body.results[1] })).toEqual([3, 2, 1]);
    const federated = await call(reranking, 'POST', '/multi-search', { federation: { personalize }, queries: [{ indexUid: 'movies', q: 'reloaded' }, { indexUid: 'movies', q: 'revolutions' }] });
    expect(federated.status).toBe(200);
    expect(last().body.query).toBe(`User Context: ${personalize.userContext}\nQuery: reloaded, revolutions`);
    const sent = last().body.documents.map((text) => JSON.parse(text).id);
    expect([...sent].sort()).toEqual([2, 3]);
    expect(ids(federated)).toEqual([...sent].reverse());
  });

  it('reranks a federated page with pins as v1.50: the organic hits up to the page\'s end, then the pins placed, then the page cut', async () => {
    expect((await call(reranking, 'PATCH', '/experimental-features', { dynamicSearchRules: true })).status).toBe(200);
    const rule = { active: true, conditions: { query: { words: 'matrix' } }, actions: [{ selector: { indexUid: 'movies', id: '3' }, action: { type: 'pin', position: 1 } }] };
    await succeed(reranking, 'PATCH', '/dynamic-search-rules/pin-three', rule);
    try {
      const plain = await call(reranking, 'POST', '/multi-search', { federation: { limit: 2 }, queries: [{ indexUid: 'movies', q: 'matrix' }] });
      const pinnedAt = ids(plain).indexOf(3);
      expect(pinnedAt).toBeGreaterThanOrEqual(0);
      const organic = ids(plain).filter((id: number) => id !== 3);
      answers = [];
      const federated = await call(reranking, 'POST', '/multi-search', { federation: { limit: 2, personalize }, queries: [{ indexUid: 'movies', q: 'matrix' }] });
      // the reranker got both organic hits of the page's span, not the page's one organic hit
      expect(last().body.documents.map((text) => JSON.parse(text).id)).toEqual([1, 2, 3].filter((id) => id !== 3).slice(0, 2));
      const reranked = [2, 1];
      const expected = [...reranked];
      expected.splice(pinnedAt, 0, 3);
      expect(ids(federated)).toEqual(expected.slice(0, 2));
      expect(organic.length).toBe(1);
      // a reranker answering more indices than it was sent: the page is still cut at the limit
      answers = [{ status: 200, body: JSON.stringify({ results: [0, 0, 0, 1].map((index) => ({ index, relevance_score: 0.5 })) }) }];
      expect(ids(await call(reranking, 'POST', '/multi-search', { federation: { limit: 2, personalize }, queries: [{ indexUid: 'movies', q: 'matrix' }] }))).toHaveLength(2);
    } finally {
      await succeed(reranking, 'DELETE', '/dynamic-search-rules/pin-three');
    }
  });

  it("fails with v1.50's codes when the reranker refuses: 401, 400 and other 4xx at once", async () => {
    const cases: [number, number, string, string][] = [
      [401, 403, 'remote_invalid_api_key', 'Personalization service: Unauthorized: invalid API key'],
      [400, 400, 'remote_bad_request', 'Personalization service: Bad request: {"message":"bad"}'],
      [404, 502, 'remote_bad_response', 'Personalization service: Cohere API error: Status 404: {"message":"bad"}'],
    ];
    for (const [sent, status, code, message] of cases) {
      answers = [{ status: sent, body: '{"message":"bad"}' }];
      const before = received.length;
      const reply = await call(reranking, 'POST', '/indexes/movies/search', { q: 'matrix', personalize });
      expect(reply.status).toBe(status);
      expect(reply.body).toMatchObject({ code, message });
      expect(received.length - before).toBe(1);
    }
  });

  it('retries a failed attempt, and past the deadline answers the hits in their own order', async () => {
    answers = [{ status: 500, body: 'down' }, { status: 200, body: '{"results":[{"index":2},{"index":0},{"index":1}]}' }];
    const plain = ids(await call(reranking, 'POST', '/indexes/movies/search', { q: 'matrix' }));
    let before = received.length;
    const retried = await call(reranking, 'POST', '/indexes/movies/search', { q: 'matrix', personalize });
    expect(received.length - before).toBe(2);
    expect(ids(retried)).toEqual([plain[2], plain[0], plain[1]]);
    // an answer that is not a rerank is retried too, as a failure
    answers = [{ status: 500, body: 'down' }];
    await run(reranking, 'PATCH', '/indexes/movies/settings', { searchCutoffMs: 150 });
    before = received.length;
    const late = await call(reranking, 'POST', '/indexes/movies/search', { q: 'matrix', personalize });
    expect(late.status).toBe(200);
    expect(ids(late)).toEqual(plain);
    expect(received.length - before).toBeGreaterThan(1);
    await run(reranking, 'PATCH', '/indexes/movies/settings', { searchCutoffMs: null });
  });
});
