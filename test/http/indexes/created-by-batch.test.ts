// An index a batch creates (a settings update or a document addition to an index that does not
// exist yet) is there, empty and indexing, while the batch runs, and stays if the batch fails or is
// canceled: v1.50's `create_index` commits it before the batch's index transaction
// (index-scheduler process_batch.rs, `must_create_index`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { mockEmbedder, type MockEmbedder } from '../../unit/embedders/mock-embedder.js';

let embedder: MockEmbedder;
let server: TestServer;

beforeAll(async () => {
  // every request is held: the settings task's dimension probe keeps its batch running
  embedder = await mockEmbedder(() => ({ delayMs: 600_000 }));
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  await embedder.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 800; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out');
}

describe('an index its first batch creates', () => {
  it('is listed empty and indexing while a settings batch runs, and stays once the batch is canceled', async () => {
    const settings = await call(server, 'PATCH', '/indexes/held/settings', {
      embedders: { rest: { source: 'rest', url: embedder.url, request: '{{text}}', response: '{{embedding}}' } },
    });
    await until(
      () => call(server, 'GET', `/tasks/${settings.body.taskUid}`),
      (reply) => reply.body.status === 'processing',
    );
    const index = await until(
      () => call(server, 'GET', '/indexes/held'),
      (reply) => reply.status === 200,
    );
    expect(index.body).toEqual({ uid: 'held', createdAt: expect.any(String), updatedAt: expect.any(String), primaryKey: null });
    expect((await call(server, 'GET', `/tasks/${settings.body.taskUid}`)).body.status).toBe('processing');
    const stats = await call(server, 'GET', '/indexes/held/stats');
    expect(stats.body).toMatchObject({ numberOfDocuments: 0, isIndexing: true, fieldDistribution: {} });
    expect((await call(server, 'GET', '/stats')).body.indexes.held).toMatchObject({ numberOfDocuments: 0, isIndexing: true });
    expect((await call(server, 'GET', '/indexes')).body.results.map((listed: { uid: string }) => listed.uid)).toContain('held');

    const cancel = await call(server, 'POST', `/tasks/cancel?uids=${settings.body.taskUid}`);
    expect((await waitTask(server, cancel.body.taskUid, 30_000)).status).toBe('succeeded');
    expect((await waitTask(server, settings.body.taskUid)).status).toBe('canceled');
    expect((await call(server, 'GET', '/indexes/held')).body).toEqual(index.body);
    expect((await call(server, 'GET', '/indexes/held/stats')).body).toMatchObject({ numberOfDocuments: 0, isIndexing: false });
  }, 60_000);

  it('is there before a document batch commits, and keeps its creation date when the batch succeeds', async () => {
    const documents = Array.from({ length: 20_000 }, (_, id) => ({ id, title: `document number ${id}` }));
    const added = await call(server, 'POST', '/indexes/growing/documents', documents);
    let seenEarly: any;
    const task = await until(
      async () => {
        const [index, current] = [await call(server, 'GET', '/indexes/growing'), await call(server, 'GET', `/tasks/${added.body.taskUid}`)];
        if (index.status === 200 && seenEarly === undefined && current.body.status === 'processing') seenEarly = index.body;
        return current.body;
      },
      (current) => current.status === 'succeeded' || current.status === 'failed',
    );
    expect(task.status).toBe('succeeded');
    expect(seenEarly).toEqual({ uid: 'growing', createdAt: task.startedAt, updatedAt: task.startedAt, primaryKey: null });
    const index = (await call(server, 'GET', '/indexes/growing')).body;
    expect(index).toMatchObject({ uid: 'growing', createdAt: task.startedAt, primaryKey: 'id' });
  }, 60_000);

  it('stays, without a primary key, when every task of its document batch fails', async () => {
    const added = await call(server, 'POST', '/indexes/refused/documents', [{ id: 'not an id!' }]);
    expect((await waitTask(server, added.body.taskUid)).status).toBe('failed');
    const index = await call(server, 'GET', '/indexes/refused');
    expect(index.status).toBe(200);
    expect(index.body.primaryKey).toBeNull();
  });
});
