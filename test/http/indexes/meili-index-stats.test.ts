// Port of Meilisearch's crates/meilisearch/tests/index/stats.rs: `GET /indexes/{uid}/stats` of an
// index created with a primary key (no documents, not indexing, empty field distribution), then
// after two documents with different fields, and the 404 of an index that does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, uniqueUid, waitTask } from '../../helpers/api.js';
import { succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

describe('stats.rs', () => {
  it('stats: an index with a primary key has no documents, is not indexing, and then counts each field', async () => {
    const uid = uniqueUid();
    const creation = await call(server, 'POST', '/indexes', { uid, primaryKey: 'id' });
    expect(creation.status, creation.text).toBe(202);
    expect((await waitTask(server, creation.body.taskUid)).status).toBe('succeeded');

    let reply = await call(server, 'GET', `/indexes/${uid}/stats`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.numberOfDocuments).toBe(0);
    expect(reply.body.isIndexing).toBe(false);
    expect(reply.body.fieldDistribution).toStrictEqual({});

    await succeed(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 1, name: 'Alexey' },
      { id: 2, age: 45 },
    ]);

    reply = await call(server, 'GET', `/indexes/${uid}/stats`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.numberOfDocuments).toBe(2);
    expect(reply.body.isIndexing).toBe(false);
    expect(reply.body.fieldDistribution.id).toBe(2);
    expect(reply.body.fieldDistribution.name).toBe(1);
    expect(reply.body.fieldDistribution.age).toBe(1);
  });

  it('error_get_stats_unexisting_index: the stats of a missing index are index_not_found', async () => {
    const reply = await call(server, 'GET', '/indexes/DOES_NOT_EXISTS/stats');
    expect(reply.body).toStrictEqual(errorBody('index_not_found', 'Index `DOES_NOT_EXISTS` not found.'));
    expect(reply.status).toBe(404);
  });
});
