/**
 * A network with a leader (network.md §4–§7, the enterprise edition's sharding) where this
 * instance is the only remote, as the `meilisearch` client's network tests build it: the PATCH
 * checks the instance over HTTP, answers 202 with a `networkTopologyChange` task that succeeds,
 * and searches then go to the network by default, every hit naming this instance. v1.50's leader
 * rules, a remote that cannot be checked or answers its checks wrongly, and dismantling the network.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, run, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  // no retries: a remote that cannot be checked fails the change at once rather than after 25 s
  server = await startServer({ args: ['--experimental-allowed-ip-networks', 'any'], env: { MEILI_EXPERIMENTAL_PROXY_BACKOFF_TIMEOUT_SECONDS: '0' } });
  await call(server, 'PATCH', '/experimental-features', { network: true });
  await run(server, 'PATCH', '/indexes/books/settings', { filterableAttributes: ['genre'] });
  await run(server, 'POST', '/indexes/books/documents', [
    { id: 1, title: 'Carol', genre: 'drama' },
    { id: 2, title: 'Carol and the cat', genre: 'comedy' },
  ]);
});
afterAll(async () => {
  await server?.dispose();
});

const sharded = () => ({ self: 'solo', leader: 'solo', remotes: { solo: { url: server.url } }, shards: { default: { remotes: ['solo'] } } });

describe('a leader', () => {
  it('is refused by v1.50’s rules before anything changes', async () => {
    const patch = (body: object) => call(server, 'PATCH', '/network', body);
    expect((await patch({ self: 'a', leader: 'b' })).body).toEqual(errorBody('not_leader', 'This remote is not the leader of the network.\n  - Note: only the leader `b` can receive new tasks.'));
    expect((await patch({ self: 'a', leader: 'a', remotes: { b: { url: server.url } }, shards: { s: { remotes: ['b'] } } })).body).toEqual(
      errorBody('invalid_network_remotes', 'leader `a` is missing from remotes'),
    );
    expect((await patch({ self: 'a', leader: 'a', remotes: { a: { url: server.url } } })).body).toEqual(
      errorBody('invalid_network_shards', 'there must be at least one shard owned by at least one remote'),
    );
    expect((await patch({ self: 'a', leader: 'a', remotes: { a: { url: server.url } }, shards: { s: { remotes: ['a', 'ghost'] } } })).body).toEqual(
      errorBody('invalid_network_shards', 'unknown remote `ghost` in `.s.remotes`'),
    );
    // a remote that does not answer the checks stops the change
    const other = await patch({ self: 'a', leader: 'a', remotes: { a: { url: server.url }, b: { url: 'http://127.0.0.1:9' } }, shards: { s: { remotes: ['a', 'b'] } } });
    expect(other).toMatchObject({ status: 502, body: { code: 'remote_could_not_send_request' } });
    expect((await call(server, 'GET', '/network')).body).toMatchObject({ self: null, leader: null, remotes: {} });
  });

  it('is refused with v1.50’s proxy errors when a remote answers its checks with an error or what is no Meilisearch answer', async () => {
    let answer = { status: 404, body: '{ "message": "nope", "code": "x" }' };
    const remote: Server = createServer((_req, res) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
      const patch = () => call(server, 'PATCH', '/network', { self: 'a', leader: 'a', remotes: { a: { url: server.url }, b: { url } }, shards: { s: { remotes: ['a', 'b'] } } });
      expect(await patch()).toMatchObject({
        status: 400,
        body: errorBody(
          'remote_bad_request',
          'remote host responded with code 404:\n  - response from remote: {"message":"nope","code":"x"}\n  - hint: check that the remote instance has the correct index configuration for that request\n  - hint: check that the `network` experimental feature is enabled on the remote instance',
        ),
      });
      answer = { status: 200, body: '<html>hi</html>' };
      expect(await patch()).toMatchObject({
        status: 502,
        body: {
          code: 'remote_bad_response',
          type: 'system',
          message:
            'could not parse response from the remote host as a document addition response:\n  - response from remote: <html>hi</html>\n  - hint: check that the remote instance is a Meilisearch instance running the same version',
        },
      });
      expect((await call(server, 'GET', '/network')).body).toMatchObject({ self: null, leader: null, remotes: {} });
    } finally {
      remote.close();
    }
  });

  it('is set by a topology change task when this instance is the whole network', async () => {
    const reply = await call(server, 'PATCH', '/network', sharded());
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({ indexUid: null, status: 'enqueued', type: 'networkTopologyChange' });
    const task = await waitTask(server, reply.body.taskUid);
    expect(task.status).toBe('succeeded');
    expect(task.details).toEqual({ movedDocuments: 0, message: 'Finished' });
    const network = (await call(server, 'GET', '/network')).body;
    expect(network).toMatchObject({ self: 'solo', leader: 'solo', remotes: { solo: { url: server.url, status: 'available' } }, shards: { default: { remotes: ['solo'] } } });
    // the documents indexed before the network had a leader now belong to its shard
    const inShard = await call(server, 'POST', '/indexes/books/search', { q: '', filter: '_shard = "default"', useNetwork: false });
    expect(inShard.body.hits.map((hit: { id: number }) => hit.id).sort()).toEqual([1, 2]);
  });

  it('refuses renaming this instance while it leads', async () => {
    expect((await call(server, 'PATCH', '/network', { self: 'other', leader: 'other' })).body).toEqual(
      errorBody(
        'invalid_network_self',
        'Renaming a remote is not supported when a leader is defined.\n  - Note: applying this change would rename `solo` to `other`.\n  - Hint: Send this change to `other` if it already exists.',
      ),
    );
    expect((await call(server, 'PATCH', '/network', { self: 'renamed' })).body).toMatchObject({ code: 'not_leader' });
  });

  it('sends searches to the network by default, each hit naming this instance', async () => {
    // created again under the leader, the documents are recorded in its shard, which the
    // networked search filters on (`_shard = "default"`); placing the documents written before
    // the network is the topology change's rebalancing
    await run(server, 'DELETE', '/indexes/books/documents');
    await run(server, 'POST', '/indexes/books/documents', [
      { id: 1, title: 'Carol', genre: 'drama' },
      { id: 2, title: 'Carol and the cat', genre: 'comedy' },
    ]);
    const search = await call(server, 'POST', '/indexes/books/search', { q: 'carol', filter: 'genre = drama' });
    expect(search.status).toBe(200);
    expect(search.body.hits).toEqual([{ id: 1, title: 'Carol', genre: 'drama', _federation: { indexUid: 'books', queriesPosition: 0, weightedRankingScore: expect.any(Number), remote: 'solo' } }]);
    expect(search.body.remoteErrors).toEqual({});
    const local = await call(server, 'POST', '/indexes/books/search', { q: 'carol', useNetwork: false });
    expect(local.body.hits.map((hit: { id: number }) => hit.id)).toEqual([1, 2]);
    expect(local.body.remoteErrors).toBeUndefined();
    const federated = await call(server, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: 'books', q: 'cat', federationOptions: { remote: 'solo' } }] });
    expect(federated.body.hits.map((hit: { id: number; _federation: { remote: string } }) => [hit.id, hit._federation.remote])).toEqual([[2, 'solo']]);
    const facets = await call(server, 'POST', '/indexes/books/facet-search', { facetName: 'genre' });
    expect(facets.body).toMatchObject({ facetHits: [{ value: 'comedy', count: 1 }, { value: 'drama', count: 1 }], remoteErrors: {} });
  });

  it('refuses a second change while one is pending, then is dismantled synchronously', async () => {
    const dismantled = await call(server, 'PATCH', '/network', { self: null, leader: null, remotes: { solo: null }, shards: { default: null } });
    expect(dismantled.status).toBe(200);
    expect(dismantled.body).toMatchObject({ self: null, leader: null, remotes: {}, shards: {} });
    const search = await call(server, 'POST', '/indexes/books/search', { q: 'carol' });
    expect(search.body.hits[0]._federation).toBeUndefined();
  });
});
