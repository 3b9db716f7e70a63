// The order of a numeric facet's values in the answer's text, as v1.50 writes them: sorted as
// text for a small distribution (`10`, `100`, `2`, `9`) or by count, in search, multi-search and
// a federated search's merged facets. JavaScript clients parse any order back alike; other
// languages' clients keep the text's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

// n = 10 four times, 2 three times, 100 twice, 9 once: distinct counts, so the count order is plain
const DOCS = [10, 10, 10, 10, 2, 2, 2, 100, 100, 9].map((n, id) => ({ id, n }));

/** The keys of the object written at `"n":{...}` in `text`, in the text's order (its first). */
const keysOfN = (text: string) => [.../"n":\{([^}]*)\}/.exec(text)![1]!.matchAll(/"([^"]*)":/g)].map((m) => m[1]);

beforeAll(async () => {
  server = await startServer();
  for (const uid of ['alpha', 'count']) {
    await run(server, 'POST', `/indexes/${uid}/documents`, DOCS);
    await run(server, 'PATCH', `/indexes/${uid}/settings`, {
      filterableAttributes: ['n'],
      ...(uid === 'count' ? { faceting: { sortFacetValuesBy: { '*': 'count' } } } : {}),
    });
  }
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe("a numeric facet's values in the answer's text", () => {
  it('are sorted as text in a small distribution, and by count when asked', async () => {
    const alpha = await call(server, 'POST', '/indexes/alpha/search', { facets: ['n'], limit: 0 });
    expect(keysOfN(alpha.text)).toEqual(['10', '100', '2', '9']);
    expect(alpha.body.facetDistribution).toEqual({ n: { 10: 4, 100: 2, 2: 3, 9: 1 } });
    const count = await call(server, 'POST', '/indexes/count/search', { facets: ['n'], limit: 0 });
    expect(keysOfN(count.text)).toEqual(['10', '2', '100', '9']);
    const get = await call(server, 'GET', '/indexes/count/search?facets=n&limit=0');
    expect(keysOfN(get.text)).toEqual(['10', '2', '100', '9']);
  });

  it('keep that order in multi-search results and in merged facets', async () => {
    const multi = await call(server, 'POST', '/multi-search', { queries: [{ indexUid: 'count', facets: ['n'], limit: 0 }] });
    expect(keysOfN(multi.text)).toEqual(['10', '2', '100', '9']);
    const merged = await call(server, 'POST', '/multi-search', {
      federation: { facetsByIndex: { count: ['n'] }, mergeFacets: {} },
      queries: [{ indexUid: 'count' }, { indexUid: 'alpha' }],
    });
    expect(merged.status, merged.text).toBe(200);
    expect(keysOfN(merged.text)).toEqual(['10', '2', '100', '9']);
    expect(merged.body.facetDistribution).toEqual({ n: { 10: 4, 2: 3, 100: 2, 9: 1 } });
  });
});
