// Embedder settings changed while the index holds no document still decide how its documents are
// embedded and stored later: `binaryQuantized` set then quantizes the vectors documents bring, and
// a template changed then and changed back once documents are there embeds them again (a REST
// mock on loopback records the texts it is sent).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let embedder: Server;
let server: TestServer;
const received: string[] = [];

beforeAll(async () => {
  embedder = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { input } = JSON.parse(body) as { input: string };
      received.push(input);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embedding: input.startsWith('A') ? [1, 0] : [0, 1] }));
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
}, 60_000);
afterAll(async () => {
  await server.dispose();
  await new Promise((resolve) => embedder.close(resolve));
});

async function settled(method: string, path: string, body: unknown): Promise<void> {
  const task = await run(server, method, path, body);
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
}

describe('embedder settings changed on an empty index', () => {
  it('quantizes the vectors of documents added after binaryQuantized was set', async () => {
    const uid = uniqueUid('emptybq');
    await settled('PATCH', `/indexes/${uid}/settings`, { embedders: { u: { source: 'userProvided', dimensions: 2 } } });
    await settled('PATCH', `/indexes/${uid}/settings`, { embedders: { u: { binaryQuantized: true } } });
    await settled('POST', `/indexes/${uid}/documents`, [{ id: 1, _vectors: { u: [0.5, -0.5] } }]);
    const doc = await call(server, 'GET', `/indexes/${uid}/documents/1?retrieveVectors=true`);
    expect(doc.body._vectors).toEqual({ u: { embeddings: [[1, 0]], regenerate: false } });
  });

  it('embeds the documents again when the template goes back to what it was before they were added', async () => {
    const { port } = embedder.address() as { port: number };
    const uid = uniqueUid('emptytpl');
    const rest = { source: 'rest', url: `http://127.0.0.1:${port}/embed`, request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' }, dimensions: 2 };
    await settled('PATCH', `/indexes/${uid}/settings`, { embedders: { rest: { ...rest, documentTemplate: 'A {{doc.t}}' } } });
    await settled('PATCH', `/indexes/${uid}/settings`, { embedders: { rest: { documentTemplate: 'B {{doc.t}}' } } });
    received.length = 0;
    await settled('POST', `/indexes/${uid}/documents`, [{ id: 1, t: 'x' }]);
    expect(received).toEqual(['B x']);
    await settled('PATCH', `/indexes/${uid}/settings`, { embedders: { rest: { documentTemplate: 'A {{doc.t}}' } } });
    expect(received).toEqual(['B x', 'A x']);
    const doc = await call(server, 'GET', `/indexes/${uid}/documents/1?retrieveVectors=true`);
    expect(doc.body._vectors.rest.embeddings).toEqual([[1, 0]]);
  });
});
