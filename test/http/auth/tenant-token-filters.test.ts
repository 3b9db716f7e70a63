// A tenant token's filter as v1.50 joins it to a request's: fused with the query's filter into one
// array before parsing (search, multi-search, facet search, similar), and on /similar also read
// alone, for the target document, with its own error wording and order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_KEY, addKey, succeed, tenantToken, unixIn, type CreatedKey } from './meili-auth.js';
import { call } from './request.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let key: CreatedKey;

beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
  await succeed(server, 'POST', '/indexes/sales/documents', [
    { id: 1, color: 'blue', _vectors: { manual: [1, 0, 0] } },
    { id: 2, color: 'red', _vectors: { manual: [0.9, 0.1, 0] } },
    { id: 3, color: 'blue', _vectors: { manual: [0, 1, 0] } },
  ]);
  await succeed(server, 'PATCH', '/indexes/sales/settings', {
    filterableAttributes: ['color', 'id'],
    embedders: { manual: { source: 'userProvided', dimensions: 3 } },
  });
  key = await addKey(server, { actions: ['*'], indexes: ['*'], expiresAt: null });
});
afterAll(async () => {
  await server.dispose();
});

const token = (filter: unknown) => tenantToken(key.uid, key.key, { searchRules: { sales: { filter } }, exp: unixIn(1) });
const FUSED_FIVE = 'Invalid syntax for the filter parameter: `expected String, [String], found: 5`.';

describe('a query filter fused with the token filter', () => {
  it('refuses an element that is not a string as an array element, on every search route', async () => {
    const blue = token('color = blue');
    const search = await call(server, 'POST', '/indexes/sales/search', { key: blue, body: { filter: 5 } });
    expect(search.body).toMatchObject({ code: 'invalid_search_filter', message: FUSED_FIVE });
    const facets = await call(server, 'POST', '/indexes/sales/facet-search', { key: blue, body: { facetName: 'color', filter: 5 } });
    expect(facets.body).toMatchObject({ code: 'invalid_search_filter', message: FUSED_FIVE });
    const multi = await call(server, 'POST', '/multi-search', { key: blue, body: { queries: [{ indexUid: 'sales', filter: 5 }] } });
    expect(multi.body).toMatchObject({ message: `Inside \`.queries[0]\`: ${FUSED_FIVE}` });
    const similar = await call(server, 'POST', '/indexes/sales/similar', { key: blue, body: { id: 1, embedder: 'manual', filter: 5 } });
    expect(similar.body).toMatchObject({ code: 'invalid_similar_filter', message: FUSED_FIVE });
    // without a token filter the query's own is refused as a filter
    const plain = await call(server, 'POST', '/indexes/sales/search', { key: MASTER_KEY, body: { filter: 5 } });
    expect(plain.body).toMatchObject({ message: 'Invalid syntax for the filter parameter: `expected String, Array, found: 5`.' });
  });

  it('ANDs both filters', async () => {
    const search = await call(server, 'POST', '/indexes/sales/search', { key: token('color = blue'), body: { filter: ['id > 1'] } });
    expect((search.body as { hits: { id: number }[] }).hits.map((hit) => hit.id)).toEqual([3]);
  });
});

describe("/similar and the token's own filter", () => {
  it('names the index in a syntax error of the token filter', async () => {
    const reply = await call(server, 'POST', '/indexes/sales/similar', { key: token('color = '), body: { id: 1, embedder: 'manual' } });
    expect(reply.body).toMatchObject({ code: 'invalid_similar_filter', message: 'Index `sales`: Was expecting a value but instead got nothing.\n9:9 color = ' });
  });

  it('answers a missing target before it evaluates the token filter, whose errors are a search filter\'s', async () => {
    const unfilterable = token('nope = 1');
    const missing = await call(server, 'POST', '/indexes/sales/similar', { key: unfilterable, body: { id: 'zzz', embedder: 'manual' } });
    expect(missing.body).toMatchObject({ code: 'not_found_similar_id', message: 'Document `zzz` not found.' });
    const evaluated = await call(server, 'POST', '/indexes/sales/similar', { key: unfilterable, body: { id: 1, embedder: 'manual' } });
    expect(evaluated.body).toMatchObject({ code: 'invalid_search_filter' });
    expect((evaluated.body as { message: string }).message).toMatch(/^Attribute `nope` is not filterable/);
  });

  it('hides a target outside the token filter, and its neighbours outside it', async () => {
    const blue = token('color = blue');
    expect((await call(server, 'POST', '/indexes/sales/similar', { key: blue, body: { id: 2, embedder: 'manual' } })).body).toMatchObject({ code: 'not_found_similar_id' });
    const found = await call(server, 'POST', '/indexes/sales/similar', { key: blue, body: { id: 1, embedder: 'manual' } });
    expect((found.body as { hits: { id: number }[] }).hits.map((hit) => hit.id)).toEqual([3]);
  });
});
