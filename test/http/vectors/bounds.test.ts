// Vector searches whose window is any u32 a request may send: past the 2,000 candidates that are
// scanned exactly, a huge `limit` or `offset` once asked the exact scan for that many slots (an
// "Invalid typed array length" 500, or gigabytes); the work is bounded by the vectors there are.
// The vectors one request's hits retrieve are bounded too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DOCS = 2_100;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await run(server, 'PATCH', '/indexes/points/settings', { embedders: { e: { source: 'userProvided', dimensions: 2 } } });
  const docs = Array.from({ length: DOCS }, (_, id) => ({ id, _vectors: { e: [Math.cos(id), Math.sin(id)] } }));
  await run(server, 'POST', '/indexes/points/documents', docs);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('a vector search window larger than the index', () => {
  it.each([
    ['limit', { limit: 4_294_967_295 }, 1000],
    ['offset', { offset: 4_294_967_295 }, 0],
  ])('similar with a huge %s answers what there is', async (_, window, hits) => {
    const reply = await call(server, 'POST', '/indexes/points/similar', { id: 0, embedder: 'e', attributesToRetrieve: ['id'], ...window });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(reply.body.hits.length).toBeLessThanOrEqual(DOCS - 1);
    expect(reply.body.hits.length).toBeGreaterThanOrEqual(hits === 0 ? 0 : 1);
  });

  it('semantic search with a huge limit answers at most maxTotalHits', async () => {
    const reply = await call(server, 'POST', '/indexes/points/search', { vector: [1, 0], hybrid: { embedder: 'e', semanticRatio: 1 }, limit: 4_294_967_295, attributesToRetrieve: ['id'] });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(reply.body.hits).toHaveLength(1000);
    expect(reply.body.hits[0].id).toBe(0);
  });
});

describe('vectors retrieved by one request', () => {
  // 64 documents of 4,096 dimensions: 64 queries of all of them retrieve the bound exactly
  const DIMENSIONS = 4096;
  beforeAll(async () => {
    await run(server, 'PATCH', '/indexes/wide/settings', { embedders: { e: { source: 'userProvided', dimensions: DIMENSIONS } } });
    const docs = Array.from({ length: 64 }, (_, id) => ({ id, _vectors: { e: Array.from({ length: DIMENSIONS }, (_, d) => ((id + d) % 7) / 7) } }));
    await run(server, 'POST', '/indexes/wide/documents', docs);
  }, 60_000);
  const search = { q: '', limit: 64, retrieveVectors: true, attributesToRetrieve: ['id'] };
  const query = { indexUid: 'wide', ...search };

  it('retrieves a page of vectors', async () => {
    const reply = await call(server, 'POST', '/indexes/wide/search', search);
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(reply.body.hits).toHaveLength(64);
    expect(reply.body.hits[5]._vectors.e.embeddings[0]).toHaveLength(DIMENSIONS);
  });

  it('refuses the query whose hits pass 16 Mi vector components in all, rather than exhausting memory', async () => {
    const reply = await call(server, 'POST', '/multi-search', { queries: Array.from({ length: 500 }, () => query) });
    expectError(reply, 400, 'invalid_search_retrieve_vectors', 'Inside `.queries[64]`: Invalid value at `.retrieveVectors`: the hits of this request would retrieve more than 16777216 vector components. Ask for fewer hits, or split the queries into several requests.');
  }, 60_000);
});
