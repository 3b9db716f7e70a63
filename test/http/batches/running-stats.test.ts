// A batch still processing shows its stats so far, as v1.50's running batch does: the time spent in
// each step (`progressTrace`) and its requests to embedding servers (`embedderRequests`, with the
// last error) while they happen (v1.50 tests/vector/rest.rs last_error_stats), its progress percentage written as
// an f32 (`12.5`, `0.0`).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let embedder: Server;
let port: number;
let server: TestServer;
/** the document requests answered so far; from the third on none is answered */
let failing = false;
let failed = 0;

beforeAll(async () => {
  embedder = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!failing) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embedding: [1, 0] }));
      if (failed++ < 2) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('Service Unavailable');
      // held without an answer until the task is canceled
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  port = (embedder.address() as { port: number }).port;
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  embedder.closeAllConnections();
  await new Promise((resolve) => embedder.close(resolve));
});

describe('a running batch', () => {
  it('shows its progress trace and its embedder requests so far, last error included', async () => {
    const settings = await call(server, 'PATCH', '/indexes/doggo/settings', {
      embedders: { rest: { source: 'rest', url: `http://127.0.0.1:${port}`, request: '{{text}}', response: '{{embedding}}', dimensions: 2, documentTemplate: '{{doc.name}}' } },
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
