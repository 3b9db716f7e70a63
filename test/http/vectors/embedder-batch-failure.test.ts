// A batch of document additions whose embedder fails (a REST mock on loopback answering 500 but
// to the first document): as in v1.50 every task of the batch fails with the embedder's error, and
// the embedder is asked once (its 11 attempts), not again for each task tried without the others.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let embedder: Server;
let server: TestServer;
/** the texts of each request the mock received (10 to a request: the batch's 6 in one) */
const received: string[] = [];
/** the first request waits, so that the tasks sent meanwhile are batched together */
let release: () => void = () => {};

beforeAll(async () => {
  embedder = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { input } = JSON.parse(body) as { input: string[] };
      received.push(input.join('|'));
      if (input[0] === 'blocker') {
        release = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ embedding: [1, 0] }] }));
        return;
      }
      res.writeHead(500).end('down');
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  // retries without delay: the test does not wait v1.50's backoff
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'], env: { MEILI_EXPERIMENTAL_REST_EMBEDDER_MAX_RETRY_DURATION_SECONDS: '0' } });
}, 60_000);
afterAll(async () => {
  await server.dispose();
  await new Promise((resolve) => embedder.close(resolve));
});

describe('an embedder failing a batch of document additions', () => {
  it('fails every task of the batch with its error, asking the embedder once', async () => {
    const { port } = embedder.address() as { port: number };
    const uid = uniqueUid('embedfail');
    const settings = await run(server, 'PATCH', `/indexes/${uid}/settings`, {
      embedders: {
        rest: { source: 'rest', url: `http://127.0.0.1:${port}/embed`, request: { input: ['{{text}}', '{{..}}'] }, response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] }, dimensions: 2, documentTemplate: '{{doc.t}}' },
      },
    });
    expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
    const blocker = await call(server, 'POST', `/indexes/${uid}/documents`, [{ id: 0, t: 'blocker' }]);
    while (!received.includes('blocker')) await new Promise((resolve) => setTimeout(resolve, 20));
    const uids: number[] = [];
    for (let i = 1; i <= 6; i++) uids.push((await call(server, 'POST', `/indexes/${uid}/documents`, [{ id: i, t: `doc ${i}` }])).body.taskUid);
    received.length = 0;
    release();
    expect((await waitTask(server, blocker.body.taskUid)).status).toBe('succeeded');
    const tasks = await Promise.all(uids.map((taskUid) => waitTask(server, taskUid, 30_000)));
    expect(new Set(tasks.map((task) => task.batchUid)).size).toBe(1);
    for (const task of tasks) {
      expect(task.status).toBe('failed');
      expect(task.error).toMatchObject({
        code: 'vector_embedding_error',
        message: `Index \`${uid}\`: While embedding documents for embedder \`rest\`: runtime error: received internal error HTTP 500 from embedding server\n  - server replied with \`down\``,
      });
    }
    // the batch's texts in one request, tried 11 times (v1.50's 10 retries), and no more
    expect(received).toEqual(Array(11).fill('doc 1|doc 2|doc 3|doc 4|doc 5|doc 6'));
    expect((await call(server, 'GET', `/indexes/${uid}/documents`)).body.results).toEqual([{ id: 0, t: 'blocker' }]);
  }, 60_000);
});
