// Port of Meilisearch's crates/meilisearch/tests/search/performance_details.rs: showPerformanceDetails
// on a search, on a non-federated multi-search query and on a federation adds `performanceDetails`
// after `requestUid`; inside a federated query it is refused. Two facts differ from the Rust test:
// a `federation.showPerformanceDetails` that is not a boolean answers the code search.md §10.2 gives
// (`invalid_search_show_performance_details`, the test's snapshot says
// `invalid_multi_search_query_show_performance_details`), and the index infers its primary key, so
// hits keep the documents' field order (a declared key would lead them, as meili-metadata checks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../helpers/api.js';
import { DOCUMENTS, expectJson, seed, shown } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const glass = shown(DOCUMENTS.find((doc) => doc.id === '450465')!);

beforeAll(async () => {
  server = await startServer();
  await seed(server, 'movies', DOCUMENTS);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

/** The result with durations, uids and the details themselves redacted, as the Rust snapshots do. */
function redacted(result: Record<string, unknown>): Record<string, unknown> {
  const redact: Record<string, string> = { processingTimeMs: '[duration]', requestUid: '[uuid]', performanceDetails: '[details]' };
  return Object.fromEntries(Object.entries(result).map(([key, value]) => [key, redact[key] ?? value]));
}

const glassResult = { hits: [glass], query: 'glass', processingTimeMs: '[duration]', limit: 20, offset: 0, estimatedTotalHits: 1, requestUid: '[uuid]' };

describe('showPerformanceDetails', () => {
  it('adds performanceDetails after requestUid to a search', async () => {
    const reply = await call(server, 'POST', '/indexes/movies/search', { q: 'glass', showPerformanceDetails: true });
    expect(reply.status).toBe(200);
    expectJson(redacted(reply.body), { ...glassResult, performanceDetails: '[details]' });
  });

  it('adds performanceDetails to the multi-search result of the query that asks', async () => {
    const reply = await call(server, 'POST', '/multi-search', { queries: [{ indexUid: 'movies', q: 'glass', showPerformanceDetails: true }] });
    expect(reply.status).toBe(200);
    expectJson(redacted(reply.body.results[0]), { indexUid: 'movies', ...glassResult, performanceDetails: '[details]' });
  });

  it('adds performanceDetails to a federated result when the federation asks', async () => {
    const reply = await call(server, 'POST', '/multi-search', { federation: { showPerformanceDetails: true }, queries: [{ indexUid: 'movies', q: 'glass' }] });
    expect(reply.status).toBe(200);
    expectJson(redacted(reply.body), {
      hits: [{ ...glass, _federation: { indexUid: 'movies', queriesPosition: 0, weightedRankingScore: 1.0 } }],
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
      performanceDetails: '[details]',
    });
  });

  it('is refused inside a federated query, and must be a boolean in the federation', async () => {
    expectError(
      await call(server, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: 'movies', q: 'glass', showPerformanceDetails: true }] }),
      400,
      'invalid_multi_search_query_show_performance_details',
      'Inside `.queries[0]`: Using `.showPerformanceDetails` is not allowed in federated queries.\n - Hint: remove `showPerformanceDetails` from the query or remove `federation` from the request',
    );
    expectError(
      await call(server, 'POST', '/multi-search', { federation: { showPerformanceDetails: 'true' }, queries: [{ indexUid: 'movies', q: 'glass' }] }),
      400,
      'invalid_search_show_performance_details',
      'Invalid value type at `.federation.showPerformanceDetails`: expected a boolean, but found a string: `"true"`',
    );
  });
});
