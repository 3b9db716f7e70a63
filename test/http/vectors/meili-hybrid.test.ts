// Port of Meilisearch's crates/meilisearch/tests/search/hybrid.rs: hybrid search over a
// userProvided embedder of two dimensions — keyword, semantic and mixed rankings by
// `semanticRatio`, `semanticHitCount`, limit and offset, the embedder's `distribution`, highlighting
// (none on a purely semantic hit), placeholder and vector-only combinations, distinct, and the
// errors of a bad ratio, a wrong dimension, a missing `hybrid`, and text to embed with a
// userProvided embedder.
//
// Skipped: `simple_search_hf`, `issue_5976_missing_docs_hf` and `retrieve_vectors`, which embed
// with a Hugging Face model downloaded at test time.
// Ranking scores are compared to 1e-12: the snapshots hold what serde_json's default float parser
// (not correctly rounded) read back, e.g. 0.9848484848484848 for 65/66 = 0.9848484848484849.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid, waitTask } from '../../helpers/api.js';
import { succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.dispose();
});

const SIMPLE_SEARCH_DOCUMENTS_VEC = [
  { title: 'Shazam!', desc: 'a Captain Marvel ersatz', id: '1', _vectors: { default: [1.0, 3.0] } },
  { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", id: '2', _vectors: { default: [1.0, 2.0] } },
  { title: 'Captain Marvel', desc: 'a Shazam ersatz', id: '3', _vectors: { default: [2.0, 3.0] } },
];

const TEST_DISTINCT_DOCUMENTS = [
  { id: 0, search: 'Captain Planet', desc: '#2 for keyword search, #3 for hybrid search', _vectors: { default: [-1.0, 0.0] }, distinct: 0 },
  { id: 1, search: 'Captain Marvel', desc: '#1 for keyword search, #4 for hybrid search', _vectors: { default: [-1.0, -1.0] }, distinct: 1 },
  { id: 2, search: 'Some Captain at least', desc: '#3 for keyword search, #1 for hybrid search', _vectors: { default: [1.0, 1.0] }, distinct: 0 },
  { id: 3, search: 'Irrelevant Capitaine', desc: '#4 for keyword search, #2 for hybrid search', _vectors: { default: [1.0, 0.0] }, distinct: 1 },
];

/** `index_with_documents_user_provided`: a new index with a 2-dimension userProvided embedder `default`, then the documents. */
async function userProvided(documents: unknown[]): Promise<string> {
  const uid = uniqueUid('hybrid');
  await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { source: 'userProvided', dimensions: 2 } } });
  await succeed(server, 'POST', `/indexes/${uid}/documents`, documents);
  return uid;
}

async function search(uid: string, body: Record<string, unknown>): Promise<any> {
  const reply = await call(server, 'POST', `/indexes/${uid}/search`, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** A userProvided hit as shown with `retrieveVectors`. */
const vectors = (embedding: number[]) => ({ default: { embeddings: [embedding], regenerate: false } });
const SHAZAM = { title: 'Shazam!', desc: 'a Captain Marvel ersatz', id: '1' };
const PLANET = { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", id: '2' };
const MARVEL = { title: 'Captain Marvel', desc: 'a Shazam ersatz', id: '3' };
const withVectors = (hit: typeof SHAZAM) => ({ ...hit, _vectors: vectors(hit === SHAZAM ? [1, 3] : hit === PLANET ? [1, 2] : [2, 3]) });

/**
 * Deep equality with the same key order, as an insta snapshot checks, but `_rankingScore` to 1e-12
 * (the snapshots' floats went through serde_json's parser, which is not correctly rounded).
 */
function expectHits(actual: any[], expected: any[]): void {
  const keys = (value: unknown): unknown => (Array.isArray(value) ? value.map(keys) : value !== null && typeof value === 'object' ? Object.entries(value).map(([k, v]) => [k, keys(v)]) : typeof value);
  expect(keys(actual)).toEqual(keys(expected));
  const scores = (hits: any[]) => hits.map((hit) => hit._rankingScore);
  const [got, want] = [scores(actual), scores(expected)];
  got.forEach((score, i) => (want[i] === undefined ? expect(score).toBeUndefined() : expect(score).toBeCloseTo(want[i], 12)));
  const strip = (hits: any[]) => hits.map(({ _rankingScore, ...hit }) => hit);
  expect(strip(actual)).toStrictEqual(strip(expected));
}

describe('hybrid search (search/hybrid.rs)', () => {
  it('simple_search: the semantic ratio moves hits between keyword and vector ranking, counted by semanticHitCount', async () => {
    const uid = await userProvided(SIMPLE_SEARCH_DOCUMENTS_VEC);
    const low = await search(uid, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.2, embedder: 'default' }, retrieveVectors: true });
    expect(Object.keys(low)).toEqual(['hits', 'query', 'queryVector', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid', 'semanticHitCount']);
    expectHits(low.hits, [withVectors(PLANET), withVectors(MARVEL), withVectors(SHAZAM)]);
    expect(low).toMatchObject({ query: 'Captain', queryVector: [1, 1], limit: 20, offset: 0, estimatedTotalHits: 3, semanticHitCount: 0 });

    const half = await search(uid, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.5, embedder: 'default' }, showRankingScore: true, retrieveVectors: true });
    expectHits(half.hits, [
      { ...withVectors(MARVEL), _rankingScore: 0.990290343761444 },
      { ...withVectors(PLANET), _rankingScore: 0.9848484848484848 },
      { ...withVectors(SHAZAM), _rankingScore: 0.9472135901451112 },
    ]);
    expect(half.semanticHitCount).toBe(2);

    const high = await search(uid, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.8, embedder: 'default' }, showRankingScore: true, retrieveVectors: true });
    expectHits(high.hits, [
      { ...withVectors(MARVEL), _rankingScore: 0.990290343761444 },
      { ...withVectors(PLANET), _rankingScore: 0.974341630935669 },
      { ...withVectors(SHAZAM), _rankingScore: 0.9472135901451112 },
    ]);
    expect(high.semanticHitCount).toBe(3);
  });

  it('limit_offset: offset and limit cut the merged list', async () => {
    const uid = await userProvided(SIMPLE_SEARCH_DOCUMENTS_VEC);
    const keyword = await search(uid, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.2, embedder: 'default' }, retrieveVectors: true, offset: 1, limit: 1 });
    expectHits(keyword.hits, [withVectors(MARVEL)]);
    expect(keyword.semanticHitCount).toBe(0);
    const semantic = await search(uid, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.9, embedder: 'default' }, retrieveVectors: true, offset: 1, limit: 1 });
    expectHits(semantic.hits, [withVectors(PLANET)]);
    expect(semantic.semanticHitCount).toBe(1);
  });

  it('distribution_shift: an embedder distribution rescales the semantic scores', async () => {
    const uid = await userProvided(SIMPLE_SEARCH_DOCUMENTS_VEC);
    const body = { q: 'Captain', vector: [1.0, 1.0], showRankingScore: true, hybrid: { embedder: 'default', semanticRatio: 1.0 }, retrieveVectors: true };
    expectHits((await search(uid, body)).hits, [
      { ...withVectors(MARVEL), _rankingScore: 0.990290343761444 },
      { ...withVectors(PLANET), _rankingScore: 0.974341630935669 },
      { ...withVectors(SHAZAM), _rankingScore: 0.9472135901451112 },
    ]);
    const reply = await call(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { distribution: { mean: 0.998, sigma: 0.01 } } } });
    expect(reply.status).toBe(202);
    const task = await waitTask(server, reply.body.taskUid);
    expect(task.status).toBe('succeeded');
    expect(task.details).toEqual({ embedders: { default: { distribution: { mean: 0.998, sigma: 0.01 } } } });
    expectHits((await search(uid, body)).hits, [
      { ...withVectors(MARVEL), _rankingScore: 0.19161224365234375 },
      { ...withVectors(PLANET), _rankingScore: 1.1920928955078125e-7 },
      { ...withVectors(SHAZAM), _rankingScore: 1.1920928955078125e-7 },
    ]);
  });

  it('highlighter: keyword hits are highlighted, semantic ones are not, and _vectors never', async () => {
    const uid = await userProvided(SIMPLE_SEARCH_DOCUMENTS_VEC);
    const tags = { highlightPreTag: '**BEGIN**', highlightPostTag: '**END**' };
    const formatted = (hit: typeof SHAZAM, desc = hit.desc) => ({ ...withVectors(hit), _formatted: { ...hit, desc } });
    const keyword = await search(uid, {
      q: 'Captain Marvel',
      vector: [1.0, 1.0],
      hybrid: { embedder: 'default', semanticRatio: 0.2 },
      retrieveVectors: true,
      attributesToHighlight: ['desc', '_vectors'],
      ...tags,
    });
    expectHits(keyword.hits, [
      formatted(MARVEL),
      formatted(SHAZAM, 'a **BEGIN**Captain**END** **BEGIN**Marvel**END** ersatz'),
      formatted(PLANET, "He's not part of the **BEGIN**Marvel**END** Cinematic Universe"),
    ]);
    expect(keyword.semanticHitCount).toBe(0);

    const mixed = await search(uid, {
      q: 'Captain Marvel',
      vector: [1.0, 1.0],
      hybrid: { embedder: 'default', semanticRatio: 0.8 },
      retrieveVectors: true,
      showRankingScore: true,
      attributesToHighlight: ['desc'],
      ...tags,
    });
    expectHits(mixed.hits, [
      { ...formatted(MARVEL), _rankingScore: 0.990290343761444 },
      { ...formatted(PLANET, "He's not part of the **BEGIN**Marvel**END** Cinematic Universe"), _rankingScore: 0.974341630935669 },
      { ...formatted(SHAZAM, 'a **BEGIN**Captain**END** **BEGIN**Marvel**END** ersatz'), _rankingScore: 0.9472135901451112 },
    ]);
    expect(mixed.semanticHitCount).toBe(3);

    const semantic = await search(uid, {
      q: 'Captain Marvel',
      vector: [1.0, 1.0],
      hybrid: { embedder: 'default', semanticRatio: 1.0 },
      retrieveVectors: true,
      showRankingScore: true,
      attributesToHighlight: ['desc'],
      ...tags,
    });
    expectHits(semantic.hits, [
      { ...formatted(MARVEL), _rankingScore: 0.990290343761444 },
      { ...formatted(PLANET), _rankingScore: 0.974341630935669 },
      { ...formatted(SHAZAM), _rankingScore: 0.9472135901451112 },
    ]);
    expect(semantic.semanticHitCount).toBe(3);
  });

  it('invalid_semantic_ratio: a ratio outside 0..1 is invalid_search_semantic_ratio, in POST and GET', async () => {
    const uid = await userProvided(SIMPLE_SEARCH_DOCUMENTS_VEC);
    const body = 'the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.';
    for (const ratio of [1.2, -0.8]) {
      const reply = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'Captain', vector: [1.0, 1.0], hybrid: { embedder: 'default', semanticRatio: ratio } });
      expectError(reply, 400, 'invalid_search_semantic_ratio', `Invalid value at \`.hybrid.semanticRatio\`: ${body}`);
    }
    for (const ratio of ['1.2', '-0.2']) {
      const reply = await call(server, 'GET', `/indexes/${uid}/search?q=Captain&vector=1.0,1.0&hybridEmbedder=default&hybridSemanticRatio=${ratio}`);
      expectError(reply, 400, 'invalid_search_semantic_ratio', `Invalid value in parameter \`hybridSemanticRatio\`: ${body}`);
    }
  });

  it('single_document: a vector-only search of a one-document index scores it 1', async () => {
    const uid = await userProvided(SIMPLE_SEARCH_DOCUMENTS_VEC.slice(0, 1));
    const answer = await search(uid, { vector: [1.0, 3.0], hybrid: { semanticRatio: 1.0, embedder: 'default' }, showRankingScore: true, retrieveVectors: true });
    expectHits([answer.hits[0]], [{ ...withVectors(SHAZAM), _rankingScore: 1.0 }]);
    expect(answer.semanticHitCount).toBe(1);
  });

  it('query_combination: placeholder, vector-only, keyword-only and missing-vector combinations', async () => {
    const uid = await userProvided(SIMPLE_SEARCH_DOCUMENTS_VEC);
    const placeholder = [
      { ...withVectors(SHAZAM), _rankingScore: 1.0 },
      { ...withVectors(PLANET), _rankingScore: 1.0 },
      { ...withVectors(MARVEL), _rankingScore: 1.0 },
    ];
    // no query and no vector, hybrid or not: still a placeholder search, no semanticHitCount
    for (const semanticRatio of [1.0, 0.76]) {
      const answer = await search(uid, { hybrid: { embedder: 'default', semanticRatio }, showRankingScore: true, retrieveVectors: true });
      expectHits(answer.hits, placeholder);
      expect(answer.semanticHitCount).toBeUndefined();
    }

    const wrongDimensions = await call(server, 'POST', `/indexes/${uid}/search`, { vector: [1.0, 0.0, 1.0], hybrid: { embedder: 'default', semanticRatio: 1.0 }, showRankingScore: true, retrieveVectors: true });
    expectError(wrongDimensions, 400, 'invalid_vector_dimensions', 'Invalid vector dimensions: expected: `2`, found: `3`.');

    const fullVector = await search(uid, { vector: [1.0, 0.0], hybrid: { embedder: 'default', semanticRatio: 1.0 }, showRankingScore: true, retrieveVectors: true });
    expectHits(fullVector.hits, [
      { ...withVectors(MARVEL), _rankingScore: 0.7773500680923462 },
      { ...withVectors(PLANET), _rankingScore: 0.7236068248748779 },
      { ...withVectors(SHAZAM), _rankingScore: 0.6581138968467712 },
    ]);
    expect(fullVector.semanticHitCount).toBe(3);

    const fullKeyword = await search(uid, { vector: [1.0, 0.0], hybrid: { embedder: 'default', semanticRatio: 0.0 }, showRankingScore: true, retrieveVectors: true });
    expectHits(fullKeyword.hits, placeholder);
    expect(fullKeyword.semanticHitCount).toBeUndefined();

    const keyword = await search(uid, { q: 'Captain', vector: [1.0, 0.0], hybrid: { embedder: 'default', semanticRatio: 0.0 }, showRankingScore: true, retrieveVectors: true });
    expectHits(keyword.hits, [
      { ...withVectors(PLANET), _rankingScore: 0.9848484848484848 },
      { ...withVectors(MARVEL), _rankingScore: 0.9848484848484848 },
      { ...withVectors(SHAZAM), _rankingScore: 0.9242424242424242 },
    ]);
    expect(keyword.semanticHitCount).toBeUndefined();

    const noHybrid = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'Captain', vector: [1.0, 0.0], showRankingScore: true, retrieveVectors: true });
    expectError(noHybrid, 400, 'missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.');

    const noVector = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'Captain', hybrid: { semanticRatio: 1.0, embedder: 'default' }, showRankingScore: true, retrieveVectors: true });
    expectError(
      noVector,
      400,
      'vector_embedding_error',
      'Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - `Captain`',
    );

    // hybrid without a vector and below a ratio of 1: keyword only
    const planet = await search(uid, { q: 'Planet', hybrid: { semanticRatio: 0.99, embedder: 'default' }, showRankingScore: true, retrieveVectors: true });
    expectHits(planet.hits, [{ ...withVectors(PLANET), _rankingScore: 0.9242424242424242 }]);
    expect(planet.semanticHitCount).toBe(0);
  });

  it('distinct_is_applied: distinct holds in keyword, semantic and hybrid rankings (issue 5526)', async () => {
    const uid = await userProvided(TEST_DISTINCT_DOCUMENTS);
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { distinctAttribute: 'distinct' });
    const shown = (i: number) => {
      const { _vectors, ...rest } = TEST_DISTINCT_DOCUMENTS[i]!;
      return rest;
    };
    const cases: [number, number[], number | undefined][] = [
      [0.0, [1, 0], undefined],
      [1.0, [2, 3], 2],
      [0.5, [2, 1], 1],
    ];
    for (const [semanticRatio, ids, count] of cases) {
      const answer = await search(uid, { q: 'Captain Marvel', vector: [1.0, 1.0], hybrid: { semanticRatio, embedder: 'default' } });
      expectHits(answer.hits, ids.map(shown));
      expect(answer.semanticHitCount).toBe(count);
      expect(answer.estimatedTotalHits).toBe(2);
    }
  });
});
