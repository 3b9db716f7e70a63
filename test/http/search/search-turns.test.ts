// Searches arriving together start one per turn of the event loop (src/search/search-turns.ts):
// a request that comes in behind a crowd of slow searches is answered after one or two of them,
// not after all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
/** a search that holds the thread tens of ms: the distribution of 20,000 documents over 4,000 values */
const slow = JSON.stringify({ q: '', facets: ['tag', 'n'], filter: 'n >= 0', sort: ['n:desc'], limit: 50 });

beforeAll(async () => {
  server = await startServer();
  await run(server, 'PATCH', '/indexes/long/settings', { filterableAttributes: ['tag', 'n'], sortableAttributes: ['n'] });
  await run(server, 'POST', '/indexes/long/documents', Array.from({ length: 20_000 }, (_, id) => ({ id, tag: `t${id % 4_000}`, n: (id * 7919) % 20_000 })));
}, 60_000);
afterAll(() => server.dispose());

describe('searches sent together', () => {
  it('let a /health sent after them be answered before most of them', async () => {
    const search = () => fetch(`${server.url}/indexes/long/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: slow }).then((res) => res.text());
    await search(); // the thread warmed up: the first search of a process compiles what the others reuse
    // thirteen connections open and idle, so that each request below is read as soon as it is sent
    await Promise.all(Array.from({ length: 13 }, () => fetch(`${server.url}/health`).then((res) => res.text())));
    const answered: string[] = [];
    const searches = Array.from({ length: 12 }, () => search().then(() => answered.push('search')));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const health = fetch(`${server.url}/health`).then((res) => res.text()).then(() => answered.push('health'));
    await Promise.all([...searches, health]);
    // all twelve ran before it when they started back to back in the turn that read them
    expect(answered.indexOf('health')).toBeLessThan(6);
  });
});
