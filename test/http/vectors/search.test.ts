// Semantic and hybrid search through the real server with a userProvided embedder, as Meilisearch's
// tests/search/hybrid.rs and tests/vector/mod.rs run them: the hybrid merge at several ratios
// (scores, order, semanticHitCount, queryVector), pure semantic search and its score details, the
// search kinds that stay keyword searches, the keyword fallback when the query cannot be embedded,
// distinct, filters and facets over semantic hits, sort, rankingScoreThreshold, pagination, the GET
// form, multi-search and federation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

const CAPTAINS = [
  { title: 'Shazam!', desc: 'a Captain Marvel ersatz', id: '1', _vectors: { default: [1.0, 3.0] } },
  { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", id: '2', _vectors: { default: [1.0, 2.0] } },
  { title: 'Captain Marvel', desc: 'a Shazam ersatz', id: '3', _vectors: { default: [2.0, 3.0] } },
];

/** A fresh index with a 2-d userProvided embedder `default`, the documents and optional settings. */
async function indexWith(documents: unknown[], settings: Record<string, unknown> = {}): Promise<string> {
  const uid = uniqueUid('hybrid');
  expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { source: 'userProvided', dimensions: 2 } }, ...settings })).status).toBe('succeeded');
  expect((await run(server, 'POST', `/indexes/${uid}/documents`, documents)).status).toBe('succeeded');
  return uid;
}

let captains: string;

beforeAll(async () => {
  server = await startServer();
  captains = await indexWith(CAPTAINS);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

async function search(uid: string, body: Record<string, unknown>) {
  const reply = await call(server, 'POST', `/indexes/${uid}/search`, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

const ids = (body: { hits: { id: string }[] }) => body.hits.map((hit) => hit.id);

/**
 * The hits' ids and ranking scores, the scores to 14 decimals: Meilisearch's hybrid snapshots print
 * some similarities one f64 unit away from the f32 value (0.990290343761444 for f32 0.99029034).
 */
function scored(body: { hits: { id: string; _rankingScore: number }[] }, expected: [string, number][]): void {
  expect(ids(body)).toEqual(expected.map(([id]) => id));
  body.hits.forEach((hit, i) => expect(hit._rankingScore).toBeCloseTo(expected[i]![1], 14));
}
const vectorsOf = (embedding: number[]) => ({ default: { embeddings: [embedding], regenerate: false } });

describe('hybrid search', () => {
  it('keeps the keyword order at semanticRatio 0.2, with the query vector and semanticHitCount last', async () => {
    const body = await search(captains, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.2, embedder: 'default' }, retrieveVectors: true });
    expect(Object.keys(body)).toEqual(['hits', 'query', 'queryVector', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid', 'semanticHitCount']);
    expect(body.hits).toEqual([
      { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", id: '2', _vectors: vectorsOf([1, 2]) },
      { title: 'Captain Marvel', desc: 'a Shazam ersatz', id: '3', _vectors: vectorsOf([2, 3]) },
      { title: 'Shazam!', desc: 'a Captain Marvel ersatz', id: '1', _vectors: vectorsOf([1, 3]) },
    ]);
    expect(body).toMatchObject({ query: 'Captain', queryVector: [1, 1], estimatedTotalHits: 3, semanticHitCount: 0 });
  });

  it('interleaves keyword and semantic hits at 0.5, each with the score of its own list', async () => {
    const body = await search(captains, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.5, embedder: 'default' }, showRankingScore: true });
    scored(body, [
      ['3', 0.990290343761444],
      ['2', 0.9848484848484848],
      ['1', 0.9472135901451112],
    ]);
    expect(body.semanticHitCount).toBe(2);
  });

  it('takes the semantic order at 0.8', async () => {
    const body = await search(captains, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.8, embedder: 'default' }, showRankingScore: true });
    scored(body, [
      ['3', 0.990290343761444],
      ['2', 0.974341630935669],
      ['1', 0.9472135901451112],
    ]);
    expect(body.semanticHitCount).toBe(3);
  });

  it('pages the merged list with offset and limit', async () => {
    const keywordSide = await search(captains, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.2, embedder: 'default' }, offset: 1, limit: 1 });
    expect(ids(keywordSide)).toEqual(['3']);
    expect(keywordSide.semanticHitCount).toBe(0);
    const semanticSide = await search(captains, { q: 'Captain', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.9, embedder: 'default' }, offset: 1, limit: 1 });
    expect(ids(semanticSide)).toEqual(['2']);
    expect(semanticSide.semanticHitCount).toBe(1);
  });

  it('answers with the keyword hits alone, semanticHitCount 0, when the query cannot be embedded', async () => {
    const body = await search(captains, { q: 'Planet', hybrid: { semanticRatio: 0.99, embedder: 'default' }, showRankingScore: true, retrieveVectors: true });
    expect(body.hits).toEqual([
      { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", id: '2', _vectors: vectorsOf([1, 2]), _rankingScore: 0.9242424242424242 },
    ]);
    expect(body.semanticHitCount).toBe(0);
    expect(body).not.toHaveProperty('queryVector');
  });

  it('answers with the keyword hits alone when they are all good enough', async () => {
    // one hit asked for, scoring 0.98 at ratio 0.5: 0.49 ≥ 0.45
    const body = await search(captains, { q: 'Captain Planet', vector: [1.0, 1.0], hybrid: { semanticRatio: 0.5, embedder: 'default' }, limit: 1, retrieveVectors: true });
    expect(ids(body)).toEqual(['2']);
    expect(body.semanticHitCount).toBe(0);
    expect(body).not.toHaveProperty('queryVector');
  });
});

describe('highlighting', () => {
  const highlight = { attributesToHighlight: ['desc', '_vectors'], highlightPreTag: '**', highlightPostTag: '**', retrieveVectors: true };

  it("highlights a hybrid search's hits with the keyword query's words, keeping _vectors out of _formatted", async () => {
    const body = await search(captains, { q: 'Captain Marvel', vector: [1.0, 1.0], hybrid: { embedder: 'default', semanticRatio: 0.8 }, ...highlight });
    expect(body.hits.map((hit: { id: string }) => hit.id)).toEqual(['3', '2', '1']);
    expect(body.hits[0]).toEqual({
      title: 'Captain Marvel',
      desc: 'a Shazam ersatz',
      id: '3',
      _vectors: vectorsOf([2, 3]),
      _formatted: { title: 'Captain Marvel', desc: 'a Shazam ersatz', id: '3' },
    });
    expect(body.hits[2]._formatted.desc).toBe('a **Captain** **Marvel** ersatz');
  });

  it('highlights nothing in a semantic search', async () => {
    const body = await search(captains, { q: 'Captain Marvel', vector: [1.0, 1.0], hybrid: { embedder: 'default', semanticRatio: 1 }, ...highlight });
    expect(body.hits[2]._formatted).toEqual({ title: 'Shazam!', desc: 'a Captain Marvel ersatz', id: '1' });
  });
});

describe('semantic search', () => {
  it('ranks by similarity at semanticRatio 1.0, with vectorSort details', async () => {
    const body = await search(captains, { vector: [1.0, 0.0], hybrid: { embedder: 'default', semanticRatio: 1.0 }, showRankingScore: true, showRankingScoreDetails: true });
    expect(body.hits.map((hit: { id: string; _rankingScore: number }) => [hit.id, hit._rankingScore])).toEqual([
      ['3', 0.7773500680923462],
      ['2', 0.7236068248748779],
      ['1', 0.6581138968467712],
    ]);
    expect(body.hits[0]._rankingScoreDetails).toEqual({ vectorSort: { order: 0, similarity: 0.7773500680923462 } });
    expect(body.semanticHitCount).toBe(3);
  });

  it('is semantic without q whatever the ratio, and scores its own vector 1', async () => {
    const body = await search(captains, { vector: [1.0, 3.0], hybrid: { embedder: 'default' }, showRankingScore: true });
    expect(body.hits[0]).toMatchObject({ id: '1', _rankingScore: 1 });
    expect(body.semanticHitCount).toBe(3);
  });

  it("shifts the similarity by the embedder's distribution", async () => {
    const uid = await indexWith(CAPTAINS);
    expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { distribution: { mean: 0.998, sigma: 0.01 } } } })).status).toBe('succeeded');
    const body = await search(uid, { q: 'Captain', vector: [1.0, 1.0], hybrid: { embedder: 'default', semanticRatio: 1.0 }, showRankingScore: true });
    scored(body, [
      ['3', 0.19161224365234375],
      ['2', 1.1920928955078125e-7],
      ['1', 1.1920928955078125e-7],
    ]);
  });

  it('refuses to embed q with a userProvided embedder', async () => {
    const reply = await call(server, 'POST', `/indexes/${captains}/search`, { q: 'Captain', hybrid: { semanticRatio: 1.0, embedder: 'default' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: 'vector_embedding_error',
      message: 'Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - `Captain`',
    });
  });

  it('ranks a document without a vector last, similarity null, still a semantic hit', async () => {
    const uid = await indexWith([...CAPTAINS, { title: 'Nobody', desc: 'no vector', id: '4', _vectors: { default: null } }]);
    const body = await search(uid, { vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, showRankingScore: true, showRankingScoreDetails: true });
    expect(ids(body)).toEqual(['3', '2', '1', '4']);
    expect(body.hits[3]).toMatchObject({ _rankingScore: 0, _rankingScoreDetails: { vectorSort: { order: 0, similarity: null } } });
    expect(body.semanticHitCount).toBe(4);
  });

  it('ranks a vector holding a component beyond f32 (its similarity NaN, shown null) after every other, as v1.50 orders NaN', async () => {
    // the scan that found it used to order it anywhere: first, on a query it cannot be near
    const uid = await indexWith([{ id: '1', _vectors: { default: [1e39, 1] } }, ...CAPTAINS.map((captain) => ({ ...captain, id: `${Number(captain.id) + 1}` }))]);
    const body = await search(uid, { vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, showRankingScore: true });
    expect(ids(body)).toEqual(['4', '3', '2', '1']);
    expect(body.hits[3]._rankingScore).toBeNull();
  });

  it('filters on the documents having vectors with `_vectors` filters', async () => {
    const uid = await indexWith([...CAPTAINS, { title: 'Nobody', desc: 'no vector', id: '4', _vectors: { default: null } }]);
    expect((await call(server, 'PATCH', '/experimental-features', { multimodal: true })).status).toBe(200);
    try {
      const having = await search(uid, { vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, filter: '_vectors.default EXISTS' });
      expect(ids(having)).toEqual(['3', '2', '1']);
      expect(ids(await search(uid, { filter: 'NOT _vectors.default EXISTS' }))).toEqual(['4']);
      // `null` is a user-provided opt-out: the document has no vector, yet its status is user-provided
      expect(ids(await search(uid, { filter: '_vectors.default.userProvided EXISTS' }))).toEqual(['1', '2', '3', '4']);
    } finally {
      await call(server, 'PATCH', '/experimental-features', { multimodal: false });
    }
  });

  it('counts the facets of every filtered document, not only of the hits', async () => {
    const uid = await indexWith(
      CAPTAINS.map((doc, i) => ({ ...doc, color: i === 0 ? 'red' : 'blue' })),
      { filterableAttributes: ['color'] },
    );
    const body = await search(uid, { vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 }, filter: 'color = blue', facets: ['color'], limit: 1 });
    expect(ids(body)).toEqual(['3']);
    expect(body.facetDistribution).toEqual({ color: { blue: 2 } });
    expect(body.estimatedTotalHits).toBe(2);
  });

  it('sorts before the similarity when `sort` comes before the relevancy rules', async () => {
    const uid = await indexWith(
      CAPTAINS.map((doc, i) => ({ ...doc, year: [2000, 1990, 2000][i] })),
      { sortableAttributes: ['year'], rankingRules: ['sort', 'words', 'typo', 'proximity', 'attribute', 'exactness'] },
    );
    const body = await search(uid, { vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 }, sort: ['year:desc'], showRankingScoreDetails: true });
    expect(ids(body)).toEqual(['3', '1', '2']);
    expect(body.hits[0]._rankingScoreDetails).toEqual({ 'year:desc': { order: 0, value: 2000 }, vectorSort: { order: 1, similarity: 0.7773500680923462 } });
  });

  it('drops the hits under rankingScoreThreshold from the hits and the count', async () => {
    const body = await search(captains, { vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 }, rankingScoreThreshold: 0.7 });
    expect(ids(body)).toEqual(['3', '2']);
    expect(body.estimatedTotalHits).toBe(2);
  });

  it('answers the page fields in page mode', async () => {
    const body = await search(captains, { vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 }, page: 2, hitsPerPage: 2 });
    expect(ids(body)).toEqual(['1']);
    expect(body).toMatchObject({ hitsPerPage: 2, page: 2, totalPages: 2, totalHits: 3, semanticHitCount: 1 });
  });

  it('takes the vector and the embedder in the GET form', async () => {
    const reply = await call(server, 'GET', `/indexes/${captains}/search?vector=1,0&hybridEmbedder=default&hybridSemanticRatio=1&retrieveVectors=true`);
    expect(reply.status, reply.text).toBe(200);
    expect(ids(reply.body)).toEqual(['3', '2', '1']);
    expect(reply.body).toMatchObject({ queryVector: [1, 0], semanticHitCount: 3 });
  });

  it('echoes the query vector in the shortest digits of each f32, as serde prints an f32', async () => {
    const single = await call(server, 'POST', `/indexes/${captains}/search`, { vector: [0.8, 0.6], hybrid: { embedder: 'default', semanticRatio: 1 }, retrieveVectors: true });
    expect(single.status, single.text).toBe(200);
    expect(single.text).toContain('"queryVector":[0.8,0.6]');
    const federated = await call(server, 'POST', '/multi-search', {
      federation: {},
      queries: [{ indexUid: captains, vector: [0.8, 0.6], hybrid: { embedder: 'default', semanticRatio: 1 }, retrieveVectors: true }],
    });
    expect(federated.status, federated.text).toBe(200);
    expect(federated.text).toContain('"queryVectors":{"0":[0.8,0.6]}');
  });
});

describe('search kinds that stay keyword searches', () => {
  it('is a placeholder search without q or vector, the embedder not even looked up', async () => {
    const body = await search(captains, { hybrid: { embedder: 'nope', semanticRatio: 0.76 }, showRankingScore: true });
    expect(ids(body)).toEqual(['1', '2', '3']);
    expect(body).not.toHaveProperty('semanticHitCount');
  });

  it('is a keyword search at semanticRatio 0, even with a vector', async () => {
    const body = await search(captains, { q: 'Captain', vector: [1.0, 0.0], hybrid: { embedder: 'nope', semanticRatio: 0.0 }, showRankingScore: true });
    scored(body, [
      ['2', 0.9848484848484848],
      ['3', 0.9848484848484848],
      ['1', 0.9242424242424242],
    ]);
    expect(body).not.toHaveProperty('semanticHitCount');
  });

  it('leaves a search on an index without embedders as it was', async () => {
    const uid = uniqueUid('plain');
    await run(server, 'POST', `/indexes/${uid}/documents`, CAPTAINS.map(({ _vectors, ...doc }) => doc));
    const body = await search(uid, { q: 'Captain Marvel', showRankingScore: true });
    expect(Object.keys(body)).toEqual(['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
    expect(ids(body)).toEqual(['3', '1', '2']);
  });
});

describe('facet search', () => {
  it('counts over every filtered document for a hybrid search, without embedding anything', async () => {
    const uid = await indexWith(
      CAPTAINS.map((doc, i) => ({ ...doc, color: ['red', 'blue', 'blue'][i] })),
      { filterableAttributes: ['color'] },
    );
    const facet = (body: Record<string, unknown>) => call(server, 'POST', `/indexes/${uid}/facet-search`, { facetName: 'color', ...body });
    expect((await facet({ q: 'Planet' })).body.facetHits).toEqual([{ value: 'blue', count: 1 }]);
    // the query cannot be embedded (userProvided): a hybrid facet search does not try
    const hybrid = await facet({ q: 'Planet', hybrid: { embedder: 'default', semanticRatio: 0.5 } });
    expect(hybrid.status, hybrid.text).toBe(200);
    expect(hybrid.body.facetHits).toEqual([
      { value: 'blue', count: 2 },
      { value: 'red', count: 1 },
    ]);
  });
});

describe('distinct', () => {
  const DOCS = [
    { id: 0, search: 'Captain Planet', _vectors: { default: [-1.0, 0.0] }, distinct: 0 },
    { id: 1, search: 'Captain Marvel', _vectors: { default: [-1.0, -1.0] }, distinct: 1 },
    { id: 2, search: 'Some Captain at least', _vectors: { default: [1.0, 1.0] }, distinct: 0 },
    { id: 3, search: 'Irrelevant Capitaine', _vectors: { default: [1.0, 0.0] }, distinct: 1 },
  ];

  it('applies to keyword, semantic and hybrid hits and to their count', async () => {
    const uid = await indexWith(DOCS, { distinctAttribute: 'distinct' });
    const query = (semanticRatio: number) => search(uid, { q: 'Captain Marvel', vector: [1.0, 1.0], hybrid: { semanticRatio, embedder: 'default' } });
    const keyword = await query(0);
    expect(keyword.hits.map((hit: { id: number }) => hit.id)).toEqual([1, 0]);
    expect(keyword.estimatedTotalHits).toBe(2);
    const semantic = await query(1);
    expect(semantic.hits.map((hit: { id: number }) => hit.id)).toEqual([2, 3]);
    expect(semantic).toMatchObject({ estimatedTotalHits: 2, semanticHitCount: 2 });
    const hybrid = await query(0.5);
    expect(hybrid.hits.map((hit: { id: number }) => hit.id)).toEqual([2, 1]);
    expect(hybrid).toMatchObject({ estimatedTotalHits: 2, semanticHitCount: 1 });
  });
});

describe('multi-search', () => {
  it('answers semanticHitCount and queryVector per result', async () => {
    const reply = await call(server, 'POST', '/multi-search', {
      queries: [
        { indexUid: captains, vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 }, retrieveVectors: true, attributesToRetrieve: ['id'] },
        { indexUid: captains, q: 'Planet' },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    const [semantic, keyword] = reply.body.results;
    expect(ids(semantic)).toEqual(['3', '2', '1']);
    expect(semantic).toMatchObject({ queryVector: [1, 0], semanticHitCount: 3 });
    expect(keyword).not.toHaveProperty('semanticHitCount');
  });

  it('merges semantic and keyword queries in federation by weighted score, with queryVectors', async () => {
    const reply = await call(server, 'POST', '/multi-search', {
      federation: {},
      queries: [
        { indexUid: captains, q: 'Planet' },
        { indexUid: captains, vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 }, retrieveVectors: true, showRankingScore: true },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    const { body } = reply;
    expect(Object.keys(body)).toEqual(['hits', 'queryVectors', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid', 'semanticHitCount']);
    expect(body.queryVectors).toEqual({ 1: [1, 0] });
    expect(body.hits.map((hit: { id: string; _federation: { queriesPosition: number } }) => [hit.id, hit._federation.queriesPosition])).toEqual([
      ['2', 0],
      ['3', 1],
      ['1', 1],
    ]);
    expect(body.semanticHitCount).toBe(2);
    expect(body.hits[1]._federation.weightedRankingScore).toBe(0.7773500680923462);
  });

  it('weighs the similarity of a semantic query with its federation weight', async () => {
    const reply = await call(server, 'POST', '/multi-search', {
      federation: {},
      queries: [
        { indexUid: captains, q: 'Planet' },
        { indexUid: captains, vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 }, federationOptions: { weight: 2 } },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.hits.map((hit: { id: string; _federation: { weightedRankingScore: number } }) => [hit.id, hit._federation.weightedRankingScore])).toEqual([
      ['3', 0.7773500680923462 * 2],
      ['2', 0.7236068248748779 * 2],
      ['1', 0.6581138968467712 * 2],
    ]);
    expect(reply.body.semanticHitCount).toBe(3);
  });

  it('refuses the ranking rules of a semantic query that cannot be compared with a sorted one', async () => {
    const uid = await indexWith(
      CAPTAINS.map((doc, i) => ({ ...doc, year: 2000 + i })),
      { sortableAttributes: ['year'], rankingRules: ['sort', 'words', 'typo', 'proximity', 'attribute', 'exactness'] },
    );
    const reply = await call(server, 'POST', '/multi-search', {
      federation: {},
      queries: [
        { indexUid: uid, q: 'Captain', sort: ['year:asc'] },
        { indexUid: uid, vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 } },
      ],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_multi_search_query_ranking_rules');
    expect(reply.body.message).toMatch(/^Inside `\.queries\[1\]`: The results of queries #0 and #1 are incompatible: /);
    expect(reply.body.message).toContain(
      '2. Removed relevancy rule `typo` at position #2 in ranking rules because the query is a vector search and `vector` was already inserted at position #1 in ranking rules',
    );
  });
});
