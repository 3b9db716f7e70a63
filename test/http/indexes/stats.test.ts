/**
 * `GET /indexes/{uid}/stats` and `GET /stats` through the real server: every field in Meilisearch's
 * order, raw and human sizes, internal database sizes on demand, and the `meilisearch` client.
 */
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nanos, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const INDEX_STATS_KEYS = ['numberOfDocuments', 'rawDocumentDbSize', 'avgDocumentSize', 'isIndexing', 'numberOfEmbeddings', 'numberOfEmbeddedDocuments', 'fieldDistribution'];
const HUMAN = /^\d+(\.\d{1,2})? (B|KiB|MiB|GiB)$/;

async function indexWithDocuments(documents: object[]): Promise<string> {
  const uid = uniqueUid('stats');
  await run(server, 'POST', '/indexes', { uid, primaryKey: 'id' });
  if (documents.length > 0) await run(server, 'POST', `/indexes/${uid}/documents`, documents);
  return uid;
}

describe('GET /indexes/{uid}/stats', () => {
  it('answers the stats of an empty index, keys in order', async () => {
    const uid = await indexWithDocuments([]);
    const reply = await call(server, 'GET', `/indexes/${uid}/stats`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(INDEX_STATS_KEYS);
    expect(reply.body).toStrictEqual({
      numberOfDocuments: 0,
      rawDocumentDbSize: 0,
      avgDocumentSize: 0,
      isIndexing: false,
      numberOfEmbeddings: 0,
      numberOfEmbeddedDocuments: 0,
      fieldDistribution: {},
    });
  });

  it('counts documents, sizes them as v1.50 does and gives the field distribution with sorted keys', async () => {
    const uid = await indexWithDocuments([{ id: 1, name: 'Alexey' }, { id: 2, age: 45 }]);
    const stats = (await call(server, 'GET', `/indexes/${uid}/stats`)).body;
    expect(stats).toMatchObject({ numberOfDocuments: 2, isIndexing: false });
    expect(Object.entries(stats.fieldDistribution)).toEqual([['age', 1], ['id', 2], ['name', 1]]);
    expect(stats.rawDocumentDbSize).toBeGreaterThan(0);
    // v1.50 (milli database_stats.rs) takes an estimated 8 bytes of key per document off the used bytes
    expect(stats.avgDocumentSize).toBe(Math.floor((stats.rawDocumentDbSize - 2 * 8) / 2));
  });

  it('gives human sizes with sizeFormat=human and raw bytes with sizeFormat=raw', async () => {
    const uid = await indexWithDocuments([{ id: 1 }]);
    const human = (await call(server, 'GET', `/indexes/${uid}/stats?sizeFormat=human`)).body;
    expect(human.rawDocumentDbSize).toMatch(HUMAN);
    expect(human.avgDocumentSize).toMatch(HUMAN);
    expect(human.numberOfDocuments).toBe(1);
    expect(typeof (await call(server, 'GET', `/indexes/${uid}/stats?sizeFormat=raw`)).body.rawDocumentDbSize).toBe('number');
  });

  it('adds internalDatabaseSizes after isIndexing when asked, largest first, and only then', async () => {
    const uid = await indexWithDocuments([{ id: 1, title: 'a' }]);
    const stats = (await call(server, 'GET', `/indexes/${uid}/stats?showInternalDatabaseSizes=true`)).body;
    expect(Object.keys(stats)).toEqual([...INDEX_STATS_KEYS.slice(0, 4), 'internalDatabaseSizes', ...INDEX_STATS_KEYS.slice(4)]);
    const sizes = Object.values(stats.internalDatabaseSizes) as number[];
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.every((size) => size > 0)).toBe(true);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const human = (await call(server, 'GET', `/indexes/${uid}/stats?showInternalDatabaseSizes=true&sizeFormat=human`)).body;
    expect(Object.values(human.internalDatabaseSizes).every((size) => HUMAN.test(size as string))).toBe(true);
    expect((await call(server, 'GET', `/indexes/${uid}/stats?showInternalDatabaseSizes=false`)).body).not.toHaveProperty(
      'internalDatabaseSizes',
    );
  });

  it('follows a renamed index to its new uid', async () => {
    const uid = await indexWithDocuments([{ id: 1 }, { id: 2 }, { id: 3 }]);
    const renamed = uniqueUid('renamed');
    await run(server, 'PATCH', `/indexes/${uid}`, { uid: renamed });
    expect((await call(server, 'GET', `/indexes/${renamed}/stats`)).body.numberOfDocuments).toBe(3);
    expect((await call(server, 'GET', `/indexes/${uid}/stats`)).status).toBe(404);
  });
});

describe('GET /stats', () => {
  it('answers the sizes, the last update and every index by uid, in order', async () => {
    const uid = await indexWithDocuments([{ id: 1 }]);
    const reply = await call(server, 'GET', '/stats');
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['databaseSize', 'usedDatabaseSize', 'lastUpdate', 'indexes']);
    expect(reply.body.databaseSize).toBeGreaterThan(0);
    expect(reply.body.usedDatabaseSize).toBeGreaterThan(0);
    const uids = Object.keys(reply.body.indexes);
    expect(uids).toEqual([...uids].sort());
    expect(reply.body.indexes[uid]).toStrictEqual((await call(server, 'GET', `/indexes/${uid}/stats`)).body);

    const indexes = (await call(server, 'GET', '/indexes?limit=1000')).body.results as { updatedAt: string }[];
    const newest = indexes.map((index) => index.updatedAt).reduce((a, b) => (nanos(a) > nanos(b) ? a : b));
    expect(reply.body.lastUpdate).toBe(newest);
  });

  it('lists an index named `__proto__` by its uid', async () => {
    await run(server, 'POST', '/indexes/__proto__/documents', [{ id: 1 }]);
    const reply = await call(server, 'GET', '/stats');
    expect(Object.hasOwn(reply.body.indexes, '__proto__')).toBe(true);
    expect(reply.body.indexes['__proto__'].numberOfDocuments).toBe(1);
  });

  it('gives human sizes everywhere with sizeFormat=human', async () => {
    await indexWithDocuments([{ id: 1 }]);
    const stats = (await call(server, 'GET', '/stats?sizeFormat=human&showInternalDatabaseSizes=true')).body;
    expect(stats.databaseSize).toMatch(HUMAN);
    expect(stats.usedDatabaseSize).toMatch(HUMAN);
    for (const index of Object.values(stats.indexes) as { rawDocumentDbSize: string; internalDatabaseSizes: object }[]) {
      expect(index.rawDocumentDbSize).toMatch(HUMAN);
      expect(index).toHaveProperty('internalDatabaseSizes');
    }
  });
});

describe('the meilisearch client', () => {
  it('reads the instance and index stats', async () => {
    const client = new Meilisearch({ host: server.url });
    const uid = await indexWithDocuments([{ id: 1, color: 'red' }]);
    const stats = await client.getStats();
    expect(stats.indexes[uid]).toMatchObject({ numberOfDocuments: 1, isIndexing: false });
    expect(await client.index(uid).getStats()).toMatchObject({ numberOfDocuments: 1, fieldDistribution: { color: 1, id: 1 } });
  });
});
