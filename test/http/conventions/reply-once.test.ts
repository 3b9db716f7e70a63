/**
 * Routes that answer something other than JSON (`GET /metrics`, `GET /tasks/{uid}/documents`)
 * send their reply exactly once (issue 25): a handler that sent it itself and also returned it
 * made Fastify log `Reply was already sent` on every call.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const reply = await call(server, 'PATCH', '/experimental-features', { metrics: true, getTaskDocumentsRoute: true });
  expect(reply.status).toBe(200);
});
afterAll(async () => {
  await server.dispose();
});

/** Fetches the documents of a waiting task: a large addition ahead keeps it waiting, retried if it did not. */
async function waitingTaskDocuments(): Promise<Response> {
  const big = Array.from({ length: 20_000 }, (_, i) => ({ id: i, title: `document number ${i}` }));
  for (;;) {
    expect((await call(server, 'POST', `/indexes/${uniqueUid('big')}/documents`, big)).status).toBe(202);
    const small = await call(server, 'POST', `/indexes/${uniqueUid('small')}/documents`, [{ id: 1 }]);
    const res = await fetch(`${server.url}/tasks/${small.body.taskUid}/documents`);
    if (res.status === 200) return res;
    expect(res.status).toBe(404); // finished before the call: try again
    await res.arrayBuffer();
  }
}

describe('routes with their own content type', () => {
  it('answer without Fastify warning of a reply sent twice', async () => {
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toContain('meilisearch_');

    const documents = await waitingTaskDocuments();
    expect(documents.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(await documents.text()).toBe('{"id":1}\n');

    // every line the server wrote has been read once its output is closed
    await server.stop();
    for (const stream of [server.process.stdout!, server.process.stderr!]) if (!stream.closed) await once(stream, 'close');
    expect(server.output()).toContain('Server listening');
    expect(server.output()).not.toMatch(/already sent|FST_ERR_REP_ALREADY_SENT/);
  });
});
