// The `legacySearch` experimental feature: v1.50's legacy search pipeline (`legacy_search_with_post`,
// `perform_search`) for `/search` and non-federated `/multi-search`. It clips the counts and the
// echoed offset at `maxTotalHits`, names no `query` in `metadata`, and evaluates the filter as
// sent, so a filter error points into the text sent rather than into its canonical form.
// `--experimental-legacy-search-default` (env `MEILI_EXPERIMENTAL_LEGACY_SEARCH`) turns the feature
// on until it is set through `/experimental-features`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const DOCS = Array.from({ length: 12 }, (_, i) => ({ id: i, title: `glass ${i}`, doggos: { age: i } }));

async function setLegacy(target: TestServer, on: boolean): Promise<void> {
  const reply = await call(target, 'PATCH', '/experimental-features', { legacySearch: on });
  expect(reply.status).toBe(200);
  expect(reply.body.legacySearch).toBe(on);
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

beforeAll(async () => {
  server = await startServer();
  await succeed(server, 'POST', '/indexes/glass/documents?primaryKey=id', DOCS);
  await succeed(server, 'PATCH', '/indexes/glass/settings', { pagination: { maxTotalHits: 5 }, filterableAttributes: ['doggos.*'] });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('the legacy search pipeline', () => {
  it('counts every match, echoes the offset and names the query by default', async () => {
    await setLegacy(server, false);
    const { body } = await post('/indexes/glass/search', { q: 'glass', offset: 7 }, { 'Meili-Include-Metadata': 'true' });
    expect(body).toMatchObject({ hits: [], offset: 7, limit: 20, estimatedTotalHits: 12 });
    expect(body.metadata.query).toBe('glass');
    const paged = await post('/indexes/glass/search', { q: 'glass', hitsPerPage: 2 });
    expect(paged.body).toMatchObject({ totalHits: 12, totalPages: 6 });
  });

  it('clips the counts and the echoed offset at maxTotalHits, and names no query, when on', async () => {
    await setLegacy(server, true);
    try {
      const { body } = await post('/indexes/glass/search', { q: 'glass', offset: 7 }, { 'Meili-Include-Metadata': 'true' });
      expect(body).toMatchObject({ hits: [], offset: 5, limit: 20, estimatedTotalHits: 5 });
      expect(Object.keys(body.metadata)).toEqual(['queryUid', 'indexUid', 'primaryKey']);
      const paged = await post('/indexes/glass/search', { q: 'glass', hitsPerPage: 2 });
      expect(paged.body).toMatchObject({ hitsPerPage: 2, page: 1, totalHits: 5, totalPages: 3 });
      expect(paged.body.hits).toHaveLength(2);
      const multi = await post('/multi-search', { queries: [{ indexUid: 'glass', q: 'glass' }] }, { 'Meili-Include-Metadata': 'true' });
      expect(multi.body.results[0].estimatedTotalHits).toBe(5);
      expect(multi.body.results[0].metadata.query).toBeUndefined();
    } finally {
      await setLegacy(server, false);
    }
  });

  it('points a filter error into the filter as sent when on, into its canonical text by default', async () => {
    const prefix = 'Index `glass`: Attribute `doggos` is not filterable. Available filterable attribute patterns are: `doggos.*`.';
    const canonical = await post('/indexes/glass/search', { filter: 'doggos EXISTS' });
    expect(canonical.status).toBe(400);
    expect(canonical.body.message).toBe(`${prefix}\n2:8 "doggos" EXISTS`);
    await setLegacy(server, true);
    try {
      const sent = await post('/indexes/glass/search', { filter: 'doggos EXISTS' });
      expect(sent.status).toBe(400);
      expect(sent.body).toMatchObject({ code: 'invalid_search_filter', message: `${prefix}\n1:7 doggos EXISTS` });
    } finally {
      await setLegacy(server, false);
    }
  });

  it('is on from the start with --experimental-legacy-search-default or MEILI_EXPERIMENTAL_LEGACY_SEARCH, until set through the API', async () => {
    const flagged = await startServer({ args: ['--experimental-legacy-search-default'] });
    try {
      expect((await call(flagged, 'GET', '/experimental-features')).body.legacySearch).toBe(true);
    } finally {
      await flagged.dispose();
    }
    const env = { MEILI_EXPERIMENTAL_LEGACY_SEARCH: 'true' };
    const first = await startServer({ env });
    try {
      expect((await call(first, 'GET', '/experimental-features')).body.legacySearch).toBe(true);
      await setLegacy(first, false);
      await first.stop();
      const again = await startServer({ env, dbPath: first.dbPath });
      try {
        expect((await call(again, 'GET', '/experimental-features')).body.legacySearch).toBe(false);
      } finally {
        await again.stop();
      }
    } finally {
      await first.dispose();
    }
    expect((await call(server, 'GET', '/experimental-features')).body.legacySearch).toBe(false);
  });
});
