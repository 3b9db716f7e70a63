// Searches that name the network (network.md §7): `useNetwork` and `federationOptions.remote`
// need the network feature; a remote must be registered; `self` is searched locally; a search
// that would go to another instance is refused (Quarry does not search remotes yet) instead of
// being answered from the local index alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await run(server, 'POST', '/indexes/books/documents', [{ id: 1, title: 'Carol' }]);
});
afterAll(async () => {
  await server.dispose();
});

const gate = (action: string) => errorBody('feature_not_enabled', `${action} requires enabling the \`network\` experimental feature. See https://github.com/orgs/meilisearch/discussions/805`);
const federated = (federationOptions: object, extra: object = {}) => ({ federation: {}, queries: [{ indexUid: 'books', q: 'carol', ...extra, federationOptions }] });

describe('without the network feature', () => {
  it('refuses useNetwork, even false, on search, multi-search and facet search', async () => {
    for (const useNetwork of [true, false]) {
      expect(await call(server, 'POST', '/indexes/books/search', { q: 'carol', useNetwork })).toMatchObject({ status: 400, body: gate('passing `useNetwork` in a search query') });
    }
    expect((await call(server, 'POST', '/multi-search', { queries: [{ indexUid: 'books', useNetwork: false }] })).body.code).toBe('feature_not_enabled');
    expect((await call(server, 'GET', '/indexes/books/search?useNetwork=false')).body.code).toBe('feature_not_enabled');
  });

  it('refuses a federated query naming a remote', async () => {
    expect(await call(server, 'POST', '/multi-search', federated({ remote: 'ms0' }))).toMatchObject({ status: 400, body: gate('Performing a remote federated search') });
  });
});

describe('with the network feature', () => {
  beforeAll(async () => {
    await call(server, 'PATCH', '/experimental-features', { network: true });
    await call(server, 'PATCH', '/network', { self: 'ms0', remotes: { ms0: { url: 'http://127.0.0.1:7700' }, ms1: { url: 'http://127.0.0.1:7701' } } });
  });

  it('searches locally with useNetwork: false', async () => {
    const reply = await call(server, 'POST', '/indexes/books/search', { q: 'carol', useNetwork: false });
    expect(reply.status).toBe(200);
    expect(reply.body.hits).toEqual([{ id: 1, title: 'Carol' }]);
  });

  it('refuses useNetwork: true rather than answering from the local index alone', async () => {
    const reply = await call(server, 'POST', '/indexes/books/search', { q: 'carol', useNetwork: true });
    expect(reply.status).toBe(501);
    expect(reply.body.code).toBe('unimplemented_network_search');
  });

  it('refuses a remote that is not registered, naming the query', async () => {
    expect(await call(server, 'POST', '/multi-search', federated({ remote: 'ms2' }))).toMatchObject({
      status: 400,
      body: errorBody('invalid_multi_search_remote', 'Inside `.queries[0]`: Invalid `.federation_options.remote`: remote `ms2` is not registered'),
    });
  });

  it('searches locally for the remote that is this instance, each hit naming it', async () => {
    const reply = await call(server, 'POST', '/multi-search', federated({ remote: 'ms0' }));
    expect(reply.status).toBe(200);
    expect(reply.body.hits.map((hit: { id: number }) => hit.id)).toEqual([1]);
    expect(reply.body.hits[0]._federation).toEqual({ indexUid: 'books', queriesPosition: 0, weightedRankingScore: 1, remote: 'ms0' });
    expect(Object.keys(reply.body.hits[0]._federation)).toEqual(['indexUid', 'queriesPosition', 'weightedRankingScore', 'remote']);
  });

  it('refuses a query for another remote with unimplemented_network_search', async () => {
    const reply = await call(server, 'POST', '/multi-search', federated({ remote: 'ms1' }));
    expect(reply.status).toBe(501);
    expect(reply.body).toMatchObject({ code: 'unimplemented_network_search', type: 'invalid_request' });
  });

  it('refuses useNetwork and a remote in one query', async () => {
    const reply = await call(server, 'POST', '/multi-search', federated({ remote: 'ms0' }, { useNetwork: true }));
    expect(reply.body).toMatchObject({ code: 'invalid_multi_search_federation_options' });
    expect(reply.body.message).toMatch(/^Inside `\.queries\[0\]`: Using `\.useNetwork` is not allowed as the same time as `\.federationOptions\.remote`\./);
  });
});
