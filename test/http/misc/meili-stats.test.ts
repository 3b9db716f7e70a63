// Port of Meilisearch's crates/meilisearch/tests/stats/mod.rs, without its embedding-count tests
// (test/http/vectors has them): /version's three keys, /health, and GET /stats before and after
// documents arrive — database size, a lastUpdate within a second of the update, document counts,
// isIndexing and the field distribution of the index, which never counts `_vectors`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

describe('stats routes', () => {
  it('GET /version answers commitSha, commitDate and pkgVersion', async () => {
    const reply = await call(server, 'GET', '/version');
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['commitSha', 'commitDate', 'pkgVersion']);
  });

  it('GET /health answers available', async () => {
    expect(await call(server, 'GET', '/health')).toMatchObject({ status: 200, body: { status: 'available' } });
  });

  it('GET /stats follows an index from creation to its first documents', async () => {
    const created = await run(server, 'POST', '/indexes', { uid: 'test', primaryKey: 'id' });
    expect(created.status).toBe('succeeded');

    const empty = await call(server, 'GET', '/stats');
    expect(empty.status).toBe(200);
    expect(empty.body).toHaveProperty('databaseSize');
    expect(empty.body).toHaveProperty('lastUpdate');
    expect(empty.body.indexes.test).toMatchObject({ numberOfDocuments: 0, isIndexing: false });

    const sent = Date.now();
    const added = await call(server, 'POST', '/indexes/test/documents', [{ id: 1, name: 'Alexey' }, { id: 2, age: 45 }]);
    expect(added.status).toBe(202);
    expect(added.body.taskUid).toBe(1);
    expect((await waitTask(server, 1)).status).toBe('succeeded');
    const seen = Date.now();

    const filled = (await call(server, 'GET', '/stats')).body;
    expect(filled.databaseSize).toBeGreaterThan(0);
    // the update happened between the request and the moment its task was seen done, however long that took
    expect(Date.parse(filled.lastUpdate)).toBeGreaterThanOrEqual(sent);
    expect(Date.parse(filled.lastUpdate)).toBeLessThanOrEqual(seen);
    expect(filled.indexes.test).toMatchObject({ numberOfDocuments: 2, isIndexing: false, fieldDistribution: { id: 2, name: 1, age: 1 } });
  });

  it("leaves `_vectors` out of an index's field distribution, embedders or not (update_embedder_settings)", async () => {
    await run(server, 'POST', '/indexes/vectors/documents', [
      { id: 0, name: 'kefir', _vectors: { manual: [0, 0, 0], handcrafted: [0, 0, 0] } },
      { id: 1, name: 'echo', _vectors: { manual: [1, 1, 1], handcrafted: null } },
    ]);
    const own = await call(server, 'GET', '/indexes/vectors/stats');
    expect(own.body).toMatchObject({ numberOfDocuments: 2, numberOfEmbeddings: 0, numberOfEmbeddedDocuments: 0, fieldDistribution: { id: 2, name: 2 } });
    expect(Object.keys(own.body.fieldDistribution)).toEqual(['id', 'name']);
    expect((await call(server, 'GET', '/stats')).body.indexes.vectors.fieldDistribution).toEqual({ id: 2, name: 2 });
  });
});
