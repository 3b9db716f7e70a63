// Distinct through the real server (ranking.md §9): which hits a page gets and what the counts say,
// in offset/limit mode (estimated) and page mode (exact), on a small catalogue of product variants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// 10 variants of 4 models: model "a" ×4, "b" ×3, "c" ×1, "d" ×2 (docid order = id order)
const MODELS = ['a', 'a', 'b', 'a', 'c', 'b', 'd', 'a', 'b', 'd'];
const DOCS = MODELS.map((model, i) => ({ id: i + 1, model, size: 36 + i }));

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await run(server, 'POST', '/indexes/shop/documents', DOCS);
  await run(server, 'PATCH', '/indexes/shop/settings', { distinctAttribute: 'model' });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const search = async (body: Record<string, unknown>) => (await call(server, 'POST', '/indexes/shop/search', body)).body;
const models = (hits: { model: string }[]) => hits.map((hit) => hit.model);

describe('distinct with offset and limit', () => {
  it('leaves out of the estimate every variant of the models on the page', async () => {
    // kept: a (3 other variants) and b (2 other variants) → 10 − 5
    const body = await search({ limit: 2 });
    expect(models(body.hits)).toEqual(['a', 'b']);
    expect(body.estimatedTotalHits).toBe(5);
  });

  it('counts one hit per model once every model was reached', async () => {
    const body = await search({ offset: 3, limit: 2 });
    expect(models(body.hits)).toEqual(['d']);
    expect(body.estimatedTotalHits).toBe(4);
  });
});

describe('distinct in page mode', () => {
  it('returns only the hits of the asked page, with exact totals', async () => {
    const body = await search({ page: 2, hitsPerPage: 2 });
    expect(models(body.hits)).toEqual(['c', 'd']);
    expect([body.page, body.totalPages, body.totalHits]).toEqual([2, 2, 4]);
  });

  it('returns no hit for page 0 but still counts them', async () => {
    const body = await search({ page: 0, hitsPerPage: 2 });
    expect(body.hits).toEqual([]);
    expect([body.totalPages, body.totalHits]).toEqual([2, 4]);
  });
});
