// The search queue through the server (cli-config.md: --experimental-search-queue-size,
// --experimental-nb-searches-per-core): searches that wait on a stalled embedder hold the slots;
// with no room to queue, the next search (facet search, multi-search, or document fetch, unless disableDocumentsFetchQueue)
// answers 503 too_many_search_requests with Retry-After,
// and once the slots are free searches run again. performanceDetails shows the wait.
import { createServer, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let embedder: Server;
let server: TestServer;
/** answers held back while the embedder stalls */
const held: (() => void)[] = [];
let stall = true;

beforeAll(async () => {
  embedder = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embedding: [1, 0] }));
      if (stall) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  const { port } = embedder.address() as { port: number };
  server = await startServer({
    args: ['--experimental-allowed-ip-networks', '127.0.0.0/8', '--experimental-search-queue-size', '0', '--experimental-nb-searches-per-core', '1'],
  });
  stall = false;
  await run(server, 'PATCH', '/indexes/colors/settings', {
    embedders: { rest: { source: 'rest', url: `http://127.0.0.1:${port}/embed`, request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' }, dimensions: 2, documentTemplate: '{{doc.name}}' } },
  });
  await run(server, 'POST', '/indexes/colors/documents', [{ id: 1, name: 'red' }]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
  embedder.closeAllConnections();
  await new Promise((resolve) => embedder.close(resolve));
});

describe('a full search queue', () => {
  it('answers 503 too_many_search_requests while every slot waits on the embedder, then serves again', async () => {
    stall = true;
    const slots = availableParallelism();
    const semantic = { q: 'crimson', hybrid: { embedder: 'rest', semanticRatio: 1 } };
    const waiting = Array.from({ length: slots }, () => call(server, 'POST', '/indexes/colors/search', semantic));
    for (let i = 0; i < 200 && held.length < slots; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(held).toHaveLength(slots);

    const refused = await fetch(`${server.url}/indexes/colors/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"red"}' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(await refused.json()).toEqual({
      message: 'Too many search requests running at the same time: 0. Retry after 10s.',
      code: 'too_many_search_requests',
      type: 'system',
      link: 'https://docs.meilisearch.com/errors#too_many_search_requests',
    });
    expect((await call(server, 'POST', '/multi-search', { queries: [{ indexUid: 'colors', q: 'red' }] })).status).toBe(503);
    // a facet search too, before its index or facet is looked at (v1.50's facet_search route)
    expect((await call(server, 'POST', '/indexes/colors/facet-search', { facetName: 'name' })).status).toBe(503);
    // document fetches wait in the same queue, unless the disableDocumentsFetchQueue feature is on
    expect((await call(server, 'POST', '/indexes/colors/documents/fetch', {})).status).toBe(503);
    expect((await call(server, 'GET', '/indexes/colors/documents')).status).toBe(503);
    await call(server, 'PATCH', '/experimental-features', { disableDocumentsFetchQueue: true });
    expect((await call(server, 'POST', '/indexes/colors/documents/fetch', {})).body.total).toBe(1);

    stall = false;
    for (const answer of held.splice(0)) answer();
    for (const reply of await Promise.all(waiting)) expect(reply.body.hits.map((hit: { id: number }) => hit.id)).toEqual([1]);
    const served = await call(server, 'POST', '/indexes/colors/search', { q: 'red', showPerformanceDetails: true });
    expect(served.status).toBe(200);
    expect(Object.keys(served.body.performanceDetails)[0]).toBe('wait in queue');
  });
});
