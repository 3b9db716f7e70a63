// Port of what Meilisearch's crates/meilisearch/tests/search/search_queue.rs shows over HTTP. Its
// tests drive the queue object directly; through the server only `works_with_capacity_of_zero`
// has a deterministic outcome: with no room for waiting searches, searches that find a free slot
// still run, one after the other. The 503 `too_many_search_requests` (+ `Retry-After: 10`) needs
// searches waiting while all slots are busy; Quarry answers each search synchronously, so one never
// waits for a slot and that answer cannot be provoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { seed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--experimental-search-queue-size', '0', '--experimental-nb-searches-per-core', '1'] });
  await seed(server, 'movies', [{ id: 1, title: 'Glass' }]);
});
afterAll(async () => {
  await server.dispose();
});

describe('search queue of capacity zero', () => {
  it('still answers searches one after the other, through every search route', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await call(server, 'POST', '/indexes/movies/search', { q: 'glass' })).status).toBe(200);
      expect((await call(server, 'GET', '/indexes/movies/search?q=glass')).status).toBe(200);
      expect((await call(server, 'POST', '/multi-search', { queries: [{ indexUid: 'movies', q: 'glass' }] })).status).toBe(200);
    }
  });
});
