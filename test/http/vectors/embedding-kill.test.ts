// kill -9 while a batch waits on its embedder loses nothing (issue 22): the server is killed while
// the mock REST embedder holds the batch's requests; after a restart the enqueued task runs again,
// succeeds, and every document is there with its embedding, searchable semantically.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const ALLOW = ['--experimental-allowed-ip-networks', '127.0.0.0/8'];
let embedder: Server;
let port: number;
/** while set, the mock holds every request without answering */
let stall = false;
let requests = 0;

beforeAll(async () => {
  embedder = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests++;
      if (stall) return; // never answered: the killed server drops the connection
      const { input } = JSON.parse(body) as { input: string };
      const vector = /red/.test(input) ? [1, 0] : [0, 1];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embedding: vector }));
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  port = (embedder.address() as { port: number }).port;
});
afterAll(async () => {
  embedder.closeAllConnections();
  await new Promise((resolve) => embedder.close(resolve));
});

describe('a kill during embedding', () => {
  it('keeps the acknowledged addition, which embeds and lands after the restart', async () => {
    let server: TestServer = await startServer({ args: ALLOW });
    try {
      const settings = await call(server, 'PATCH', '/indexes/colors/settings', {
        embedders: { rest: { source: 'rest', url: `http://127.0.0.1:${port}/embed`, request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' }, dimensions: 2, documentTemplate: '{{doc.name}}' } },
      });
      expect((await waitTask(server, settings.body.taskUid)).status).toBe('succeeded');

      stall = true;
      requests = 0;
      const docs = Array.from({ length: 20 }, (_, id) => ({ id, name: id % 2 === 0 ? `red ${id}` : `blue ${id}` }));
      const added = await call(server, 'POST', '/indexes/colors/documents', docs);
      expect(added.status).toBe(202);
      // the batch is waiting on the embedder
      for (let i = 0; i < 200 && requests === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(requests).toBeGreaterThan(0);
      expect((await call(server, 'GET', `/tasks/${added.body.taskUid}`)).body.status).toBe('processing');
      await server.kill();

      stall = false;
      server = await startServer({ args: ALLOW, dbPath: server.dbPath });
      const task = await waitTask(server, added.body.taskUid, 30_000);
      expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
      const stored = await call(server, 'POST', '/indexes/colors/documents/fetch', { limit: 100, retrieveVectors: true });
      expect(stored.body.total).toBe(20);
      for (const doc of stored.body.results) {
        expect(doc._vectors.rest).toEqual({ embeddings: [doc.name.startsWith('red') ? [1, 0] : [0, 1]], regenerate: true });
      }
      const semantic = await call(server, 'POST', '/indexes/colors/search', { vector: [1, 0], hybrid: { embedder: 'rest', semanticRatio: 1 }, limit: 10 });
      expect(semantic.body.hits.every((hit: { name: string }) => hit.name.startsWith('red'))).toBe(true);
    } finally {
      await server.dispose();
    }
  }, 90_000);
});
