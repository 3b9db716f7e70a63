/**
 * Shard ownership on one instance of a sharded network (network.md §5): this instance (`ms1`,
 * the leader) owns shard `ms1` of `ms0, ms1, ms2`, so of v1.50's test vector (A, B → ms1;
 * C, E → ms2; D → ms0) it indexes only A and B (`receivedDocuments: 5, indexedDocuments: 2`),
 * deletions by id skip the other shards' ids, and `_shard` filters select by shard (behind the
 * `network` feature, with v1.50's errors). The network is stored before the server starts, as a
 * topology change would have left it; the other remotes are loopback mocks that accept anything.
 */
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_KEYS } from '../../../src/store/dbs.js';
import { openInstanceStore } from '../../../src/store/env.js';
import { shardOf } from '../../../src/engine/shards/shard-of.js';
import { call, errorBody, run } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let mock: Server;

/** A remote that accepts every write and reports no pending network task. */
async function startMock(): Promise<string> {
  mock = createServer((req, res) => {
    const reply = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/experimental-features') return reply(200, { network: true });
      if (req.method === 'GET' && req.url?.startsWith('/tasks')) return reply(200, { results: [], total: 0, limit: 1, from: null, next: null });
      return reply(202, { taskUid: 0, indexUid: null, status: 'enqueued', type: 'documentAdditionOrUpdate', enqueuedAt: new Date().toISOString() });
    });
  });
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  const address = mock.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  const remote = await startMock();
  const dbPath = path.join(tempDir(), 'data.ms');
  const store = openInstanceStore(dbPath, '0.0.0');
  const member = (url: string) => ({ url, searchApiKey: null, writeApiKey: null });
  store.main.putSync(MAIN_KEYS.network, {
    self: 'ms1',
    leader: 'ms1',
    remotes: { ms0: member(remote), ms1: member('http://127.0.0.1:1'), ms2: member(remote) },
    shards: { ms0: ['ms0'], ms1: ['ms1'], ms2: ['ms2'] },
    version: '0198f3a2-6c1e-7b0a-9d7e-2f4c1b8a9e10',
  });
  await store.close();
  server = await startServer({ dbPath, args: ['--experimental-allowed-ip-networks', 'any'] });
});
afterAll(async () => {
  await server?.dispose();
  await new Promise((resolve) => mock?.close(resolve));
});

const search = (filter: string) => call(server, 'POST', '/indexes/books/search', { filter, useNetwork: false });
const hitIds = async (filter: string) => ((await search(filter)).body.hits as { id: string }[]).map((hit) => hit.id).sort();

describe('a sharded instance', () => {
  it('refuses _shard filters while the network feature is off', async () => {
    await run(server, 'POST', '/indexes', { uid: 'books' });
    const reply = await call(server, 'POST', '/indexes/books/documents/fetch', { filter: '_shard = ms1' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(
      errorBody('feature_not_enabled', 'using a shard filter requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805\n1:7 _shard = ms1'),
    );
    await call(server, 'PATCH', '/experimental-features', { network: true });
  });

  it('indexes only the documents of the shards it owns', async () => {
    const task = await run(server, 'POST', '/indexes/books/documents', ['A', 'B', 'C', 'D', 'E'].map((id) => ({ id, title: `book ${id}` })));
    expect(task.status).toBe('succeeded');
    expect(task.details).toEqual({ receivedDocuments: 5, indexedDocuments: 2 });
    expect((await call(server, 'GET', '/indexes/books/stats')).body.numberOfDocuments).toBe(2);
    const { internalDatabaseSizes } = (await call(server, 'GET', '/indexes/books/stats?showInternalDatabaseSizes=true')).body;
    expect(Object.keys(internalDatabaseSizes)).toContain('shardDocids');
  });

  it('indexes the words of its own documents only when a large payload is extracted ahead by the workers', async () => {
    // more than the 1 MiB from which words are extracted ahead, in worker threads
    const docs = Array.from({ length: 3000 }, (_, i) => ({ id: `big-${i}`, text: `${i % 2 === 0 ? 'even' : 'odd'} ${'filler '.repeat(60)}` }));
    const task = await run(server, 'POST', '/indexes/large/documents', docs);
    const owned = docs.filter((doc) => shardOf(doc.id, ['ms0', 'ms1', 'ms2']) === 'ms1');
    expect(task.details).toEqual({ receivedDocuments: 3000, indexedDocuments: owned.length });
    const found = await call(server, 'POST', '/indexes/large/search', { q: 'even', limit: 3000, attributesToRetrieve: ['id'], useNetwork: false });
    expect((found.body.hits as { id: string }[]).map((hit) => hit.id).sort()).toEqual(owned.filter((_, i) => Number(owned[i]!.id.slice(4)) % 2 === 0).map((doc) => doc.id).sort());
  });

  it('selects documents by shard, every shard of the network being known', async () => {
    expect(await hitIds('_shard = ms1')).toEqual(['A', 'B']);
    expect(await hitIds('_shard = "ms0"')).toEqual([]);
    expect(await hitIds('_shard IN [ms0, ms2]')).toEqual([]);
    expect(await hitIds('_shard != ms2')).toEqual(['A', 'B']);
    expect(await hitIds('NOT _shard IN [ms1]')).toEqual([]);
  });

  it('creates indexes knowing every shard of the network, whichever task creates them', async () => {
    await run(server, 'POST', '/indexes', { uid: 'created' });
    await run(server, 'PATCH', '/indexes/configured/settings', { searchableAttributes: ['title'] });
    for (const uid of ['created', 'configured']) {
      const reply = await call(server, 'POST', `/indexes/${uid}/search`, { filter: '_shard IN [ms0, ms1, ms2]', useNetwork: false });
      expect(reply.status).toBe(200);
      expect(reply.body.hits).toEqual([]);
    }
  });

  it('refuses unknown shards and other operators with v1.50’s errors', async () => {
    expect((await search('_shard = ghost')).body).toEqual(errorBody('invalid_search_filter', 'Index `books`: Shard `ghost` does not exist'));
    const operator = await search('_shard >= ms1');
    expect(operator.status).toBe(400);
    expect(operator.body).toEqual(
      errorBody(
        'invalid_search_filter',
        'Index `books`: Filter operator `>= is not allowed for the special attribute `_shard`.\n  - Note: allowed operators: =, !=, IN. \n  - Note: other operators are not allowed for the special attribute `_shard`.',
      ),
    );
  });

  it('skips deletions by id of shards it does not own, and deletes by _shard filter', async () => {
    const byIds = await run(server, 'POST', '/indexes/books/documents/delete-batch', ['A', 'C', 'D']);
    expect(byIds.details).toEqual({ providedIds: 3, deletedDocuments: 1, originalFilter: null });
    expect(await hitIds('_shard = ms1')).toEqual(['B']);
    const byFilter = await run(server, 'POST', '/indexes/books/documents/delete', { filter: '_shard = ms1' });
    expect(byFilter.details).toEqual({ providedIds: 0, deletedDocuments: 1, originalFilter: '"_shard = ms1"' });
    expect((await call(server, 'GET', '/indexes/books/stats')).body.numberOfDocuments).toBe(0);
  });
});
