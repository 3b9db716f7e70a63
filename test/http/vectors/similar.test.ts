// `POST` and `GET /indexes/{uid}/similar` through the real server, as Meilisearch's tests/similar
// run them: the order by similarity to the target's own embedding, scores and details, filters,
// limit/offset, rankingScoreThreshold with its hit count, and each bad input; then the meilisearch
// client's `searchSimilarDocuments`.
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let uid: string;

const DOCUMENTS = [
  { title: 'Shazam!', release_year: 2019, id: '287947', _vectors: { manual: [0.8, 0.4, -0.5] } },
  { title: 'Captain Marvel', release_year: 2019, id: '299537', _vectors: { manual: [0.6, 0.8, -0.2] } },
  { title: 'Escape Room', release_year: 2019, id: '522681', _vectors: { manual: [0.1, 0.6, 0.8] } },
  { title: 'How to Train Your Dragon: The Hidden World', release_year: 2019, id: '166428', _vectors: { manual: [0.7, 0.7, -0.4] } },
  { title: 'All Quiet on the Western Front', release_year: 1930, id: '143', _vectors: { manual: [-0.5, 0.3, 0.85] } },
];

beforeAll(async () => {
  server = await startServer();
  uid = uniqueUid('similar');
  expect(
    (await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { source: 'userProvided', dimensions: 3 } }, filterableAttributes: ['title', 'release_year'] })).status,
  ).toBe('succeeded');
  expect((await run(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS)).status).toBe('succeeded');
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

async function similar(body: Record<string, unknown>) {
  const reply = await call(server, 'POST', `/indexes/${uid}/similar`, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

const ids = (body: { hits: { id: string }[] }) => body.hits.map((hit) => hit.id);

describe('similar documents', () => {
  it('orders the other documents by similarity to the target, answering the id as a string', async () => {
    const body = await similar({ id: 143, embedder: 'manual', retrieveVectors: true });
    expect(Object.keys(body)).toEqual(['hits', 'id', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits']);
    expect(ids(body)).toEqual(['522681', '299537', '166428', '287947']);
    expect(body.hits[0]).toEqual({
      title: 'Escape Room',
      release_year: 2019,
      id: '522681',
      _vectors: { manual: { embeddings: [[0.10000000149011612, 0.6000000238418579, 0.800000011920929]], regenerate: false } },
    });
    expect(body).toMatchObject({ id: '143', limit: 20, offset: 0, estimatedTotalHits: 4 });
  });

  it('shows the similarity as the ranking score and its vectorSort details', async () => {
    const body = await similar({ id: '143', embedder: 'manual', showRankingScore: true, showRankingScoreDetails: true, attributesToRetrieve: ['id'] });
    expect(body.hits[0]).toEqual({ id: '522681', _rankingScore: 0.890957772731781, _rankingScoreDetails: { vectorSort: { order: 0, similarity: 0.890957772731781 } } });
    expect(body.hits.map((hit: { _rankingScore: number }) => hit._rankingScore)).toEqual([0.890957772731781, 0.39060014486312866, 0.2819308042526245, 0.1662663221359253]);
  });

  it('stops at the first hit under rankingScoreThreshold, counting only what it saw', async () => {
    const cut = async (rankingScoreThreshold: number) => {
      const body = await similar({ id: 143, embedder: 'manual', rankingScoreThreshold });
      return [ids(body), body.estimatedTotalHits];
    };
    expect(await cut(0.2)).toEqual([['522681', '299537', '166428'], 3]);
    expect(await cut(0.6)).toEqual([['522681'], 1]);
    expect(await cut(0.9)).toEqual([[], 0]);
  });

  it('keeps the candidates the filter matches', async () => {
    expect(ids(await similar({ id: 522681, embedder: 'manual', filter: 'release_year = 2019' }))).toEqual(['299537', '166428', '287947']);
    expect(ids(await similar({ id: 522681, embedder: 'manual', filter: 'release_year < 2000' }))).toEqual(['143']);
  });

  it('pages with limit and offset', async () => {
    expect(ids(await similar({ id: 143, embedder: 'manual', limit: 1 }))).toEqual(['522681']);
    expect(ids(await similar({ id: 143, embedder: 'manual', limit: 1, offset: 1 }))).toEqual(['299537']);
  });

  it('takes the same parameters in the GET form', async () => {
    const reply = await call(server, 'GET', `/indexes/${uid}/similar?id=143&embedder=manual&limit=2&attributesToRetrieve=id`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.hits).toEqual([{ id: '522681' }, { id: '299537' }]);
  });

  it('answers through the meilisearch client', async () => {
    const client = new Meilisearch({ host: server.url });
    const body = await client.index(uid).searchSimilarDocuments({ id: '143', embedder: 'manual', limit: 2 });
    expect(body.hits.map((hit) => hit.id)).toEqual(['522681', '299537']);
    // the client types the answer as a search response, which has no `id`
    expect((body as unknown as { id: string }).id).toBe('143');
  });
});

describe('similar documents errors', () => {
  const post = (body: unknown) => call(server, 'POST', `/indexes/${uid}/similar`, body);
  const get = (query: string) => call(server, 'GET', `/indexes/${uid}/similar${query}`);
  const ID_RULE =
    'is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.';

  it('refuses an unknown index', async () => {
    expectError(await call(server, 'POST', '/indexes/nowhere/similar', { id: 1, embedder: 'manual' }), 404, 'index_not_found', 'Index `nowhere` not found.');
  });

  it('refuses an id that is not a document identifier', async () => {
    expectError(await post({ id: ['doggo'], embedder: 'manual' }), 400, 'invalid_similar_id', `Invalid value at \`.id\`: Document identifier \`["doggo"]\` ${ID_RULE}`);
    expectError(await post({ id: 'http://invalid-docid/', embedder: 'manual' }), 400, 'invalid_similar_id', `Invalid value at \`.id\`: Document identifier \`"http://invalid-docid/"\` ${ID_RULE}`);
  });

  it('refuses an unknown document', async () => {
    expectError(await post({ id: 'definitely-doesnt-exist', embedder: 'manual' }), 400, 'not_found_similar_id', 'Document `definitely-doesnt-exist` not found.');
  });

  it('refuses an unknown or missing embedder', async () => {
    expectError(await post({ id: 287947, embedder: 'auto' }), 400, 'invalid_similar_embedder', 'Cannot find embedder with name `auto`.');
    expectError(await post({ id: 287947, embedder: 42 }), 400, 'invalid_similar_embedder', 'Invalid value type at `.embedder`: expected a string, but found a positive integer: `42`');
    expectError(await post({ id: 287947 }), 400, 'bad_request', 'Missing field `embedder`');
    expectError(await get('?id=287947'), 400, 'bad_request', 'Missing parameter `embedder`');
  });

  it('refuses bad offsets and limits', async () => {
    expectError(await post({ id: 287947, offset: 'doggo', embedder: 'manual' }), 400, 'invalid_similar_offset', 'Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`');
    expectError(await get('?id=287947&offset=doggo&embedder=manual'), 400, 'invalid_similar_offset', 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer');
    expectError(await post({ id: 287947, limit: 'doggo', embedder: 'manual' }), 400, 'invalid_similar_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"doggo"`');
  });

  it('refuses a bad rankingScoreThreshold', async () => {
    expectError(await post({ rankingScoreThreshold: ['doggo'] }), 400, 'invalid_similar_ranking_score_threshold', 'Invalid value type at `.rankingScoreThreshold`: expected a number, but found an array: `["doggo"]`');
    expectError(
      await post({ rankingScoreThreshold: 42 }),
      400,
      'invalid_similar_ranking_score_threshold',
      'Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.',
    );
  });

  it('refuses a bad retrieveVectors', async () => {
    expectError(await post({ retrieveVectors: 'doggo', embedder: 'manual' }), 400, 'invalid_similar_retrieve_vectors', 'Invalid value type at `.retrieveVectors`: expected a boolean, but found a string: `"doggo"`');
    expectError(await get('?retrieveVectors='), 400, 'invalid_similar_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `` as a boolean, expected either `true` or `false`');
  });

  it('refuses a bad filter without the index prefix', async () => {
    expectError(await post({ id: 287947, filter: true, embedder: 'manual' }), 400, 'invalid_similar_filter', 'Invalid syntax for the filter parameter: `expected String, Array, found: true`.');
    const reply = await post({ id: 287947, filter: 'many = Glass', embedder: 'manual' });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_similar_filter');
    expect(reply.body.message).toMatch(/^Attribute `many` is not filterable\. .*\n1:5 many = Glass$/s);
  });

  it('refuses an unknown parameter', async () => {
    const reply = await post({ id: 287947, marin: 'hello' });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('bad_request');
  });
});
