// `processingTimeMs` of a search counts its facet distribution, as v1.50 measures it (its
// SearchResult takes `before_search.elapsed()` once the facets are computed), and keeps its place
// in the key order. A distribution of 30,000 values read for the first time takes tens of
// milliseconds; the search alone (placeholder, no hits asked) about one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await run(server, 'PATCH', '/indexes/tags/settings', { filterableAttributes: ['tag'], faceting: { maxValuesPerFacet: 1_000_000 } });
  await run(server, 'POST', '/indexes/tags/documents', Array.from({ length: 30_000 }, (_, id) => ({ id, tag: `Tag ${id}` })));
}, 120_000);
afterAll(async () => {
  await server.dispose();
});

it('counts the facet distribution in processingTimeMs, at its place among the keys', async () => {
  const started = performance.now();
  const reply = await call(server, 'POST', '/indexes/tags/search', { facets: ['tag'], limit: 0 });
  const wall = performance.now() - started;
  expect(reply.status).toBe(200);
  expect(Object.keys(reply.body.facetDistribution.tag)).toHaveLength(30_000);
  expect(Object.keys(reply.body).slice(0, 4)).toEqual(['hits', 'query', 'processingTimeMs', 'limit']);
  // the distribution's first computation reads 30,000 spellings: most of the request's time
  expect(reply.body.processingTimeMs, `wall ${wall.toFixed(0)} ms`).toBeGreaterThanOrEqual(Math.min(20, wall / 4));
});
