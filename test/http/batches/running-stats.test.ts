// A batch still processing shows its stats so far, as v1.50's running batch does: the time spent in
// each step (`progressTrace`) and its requests to embedding servers (`embedderRequests`, with the
// last error) while they happen (v1.50 tests/vector/rest.rs last_error_stats), its progress percentage written as
// an f32 (`12.5`, `0.0`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { mockEmbedder, type MockEmbedder } from '../../unit/embedders/mock-embedder.js';

let embedder: MockEmbedder;
let server: TestServer;
/** once set, two document requests answer 500 and the next ones are held until the task is canceled */
let failing = false;
let failed = 0;

beforeAll(async () => {
  embedder = await mockEmbedder(() => {
    if (!failing) return { json: [1, 0] };
    return failed++ < 2 ? { status: 500, text: 'Service Unavailable' } : { delayMs: 600_000 };
  });
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  await embedder.close();
});

describe('a running batch', () => {
  it('shows its progress trace and its embedder requests so far, last error included', async () => {
    const settings = await call(server, 'PATCH', '/indexes/doggo/settings', {
      embedders: { rest: { source: 'rest', url: embedder.url, request: '{{text}}', response: '{{embedding}}', dimensions: 2, documentTemplate: '{{doc.name}}' } },
    });
    expect((await waitTask(server, settings.body.taskUid)).status).toBe('succeeded');
    failing = true;
    const added = await call(server, 'POST', '/indexes/doggo/documents', [{ id: 0, name: 'will_return_500' }]);
    let batch: any;
    for (let i = 0; i < 400; i++) {
      batch = (await call(server, 'GET', '/batches?indexUids=doggo&limit=1')).body.results[0];
      if (batch?.stats.status.processing === 1 && batch.stats.embedderRequests?.failed >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(batch.stats).toMatchObject({ totalNbTasks: 1, status: { processing: 1 }, types: { documentAdditionOrUpdate: 1 }, indexUids: { doggo: 1 } });
    expect(Object.keys(batch.stats)).toEqual(['totalNbTasks', 'status', 'types', 'indexUids', 'progressTrace', 'embedderRequests']);
    expect(batch.stats.progressTrace).toHaveProperty(['processing tasks']);
    expect(batch.stats.embedderRequests).toEqual({
      total: expect.any(Number),
      failed: expect.any(Number),
      lastError: 'runtime error: received internal error HTTP 500 from embedding server\n  - server replied with `Service Unavailable`',
    });
    expect(batch.finishedAt).toBeNull();
    // its percentage is written as v1.50 writes an f32: with a decimal point
    expect((await call(server, 'GET', `/batches/${batch.uid}`)).text).toMatch(/"percentage":\d+\.\d+/);

    const cancel = await call(server, 'POST', `/tasks/cancel?uids=${added.body.taskUid}`);
    expect((await waitTask(server, cancel.body.taskUid, 30_000)).status).toBe('succeeded');
    expect((await waitTask(server, added.body.taskUid)).status).toBe('canceled');
  }, 60_000);
});
