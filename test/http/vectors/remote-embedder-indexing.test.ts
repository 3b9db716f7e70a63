// Indexing with a remote (REST) embedder, against a mock embedding server on loopback whose answers
// come back out of order (and, in the first test, each wait until 40 requests are in flight, or 2 s): as in v1.50
// the server keeps 40 requests in flight and no more, stores for each document the embedding of
// its own text (the writer stores each run answered while later requests are in flight), and an
// embedder failure after runs were stored fails the whole batch, the index keeping what it held.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let embedder: Server;
let server: TestServer;
let inFlight = 0;
let most = 0;
/** whether answers wait until 40 requests are in flight */
let holding = false;
const waiting: (() => void)[] = [];

/** The embedding of `doc <i>` or `new <i>`: a direction of its own for each text. */
function embedding(text: string): number[] {
  const [word, n] = text.split(' ');
  const i = Number(n) + (word === 'new' ? 0.5 : 0);
  return [Math.cos(i), Math.sin(i), Math.cos(i * 0.37), Math.sin(i * 0.37)];
}

const f32 = (vector: readonly number[]) => Array.from(Float32Array.from(vector));

beforeAll(async () => {
  embedder = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { input } = JSON.parse(body) as { input: string[] };
      most = Math.max(most, ++inFlight);
      const held = new Promise<void>((resolve) => {
        if (!holding) return resolve();
        waiting.push(resolve);
        setTimeout(resolve, 2_000);
      });
      if (inFlight >= 40) for (const resolve of waiting.splice(0)) resolve();
      // then a delay of its own: the answers come back out of order
      void held.then(() =>
        setTimeout(() => {
          inFlight--;
          if (input.includes('new 590')) res.writeHead(400).end('refused');
          else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: input.map((text) => ({ embedding: embedding(text) })) }));
        }, (input[0]!.length * 7) % 23),
      );
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
}, 60_000);
afterAll(async () => {
  await server.dispose();
  await new Promise((resolve) => embedder.close(resolve));
});

async function createIndex(uid: string): Promise<void> {
  const { port } = embedder.address() as { port: number };
  const settings = await run(server, 'PATCH', `/indexes/${uid}/settings`, {
    embedders: {
      remote: {
        source: 'rest',
        url: `http://127.0.0.1:${port}/embed`,
        request: { input: ['{{text}}', '{{..}}'] },
        response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] },
        dimensions: 4,
        documentTemplate: '{{doc.t}}',
      },
    },
  });
  expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
}

async function storedVectors(uid: string): Promise<Map<number, { t: string; vectors: number[][] }>> {
  const { body } = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { limit: 10_000, retrieveVectors: true });
  return new Map(body.results.map((doc: any) => [doc.id, { t: doc.t, vectors: doc._vectors.remote.embeddings }]));
}

async function nearest(uid: string, vector: number[]): Promise<number> {
  const { body } = await call(server, 'POST', `/indexes/${uid}/search`, { vector, hybrid: { embedder: 'remote', semanticRatio: 1 }, limit: 1 });
  return body.hits[0].id;
}

describe('indexing with a remote embedder', () => {
  it("keeps v1.50's 40 requests in flight, and stores for each document the embedding of its text", async () => {
    const uid = uniqueUid('remote');
    await createIndex(uid);
    most = 0;
    const docs = Array.from({ length: 1_200 }, (_, id) => ({ id, t: `doc ${id}` }));
    holding = true;
    const task = await run(server, 'POST', `/indexes/${uid}/documents`, docs).finally(() => (holding = false));
    expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
    // 120 requests of 10 texts: three times 40 at once
    expect(most).toBe(40);
    const stored = await storedVectors(uid);
    expect(stored.size).toBe(docs.length);
    for (const { id, t } of docs) expect(stored.get(id)!.vectors.map(f32)).toEqual([f32(embedding(t))]);
    for (const id of [0, 599, 1_199]) expect(await nearest(uid, embedding(`doc ${id}`))).toBe(id);
  }, 60_000);

  it('fails the whole batch when a request fails after others were answered and stored, the index keeping what it held', async () => {
    const uid = uniqueUid('remotefail');
    await createIndex(uid);
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, Array.from({ length: 100 }, (_, id) => ({ id, t: `doc ${id}` })))).status).toBe('succeeded');
    const task = await run(server, 'POST', `/indexes/${uid}/documents`, Array.from({ length: 600 }, (_, id) => ({ id, t: `new ${id}` })));
    expect(task.status).toBe('failed');
    expect(task.error).toMatchObject({ code: 'vector_embedding_error' });
    expect(task.error.message).toContain('sent a bad request to embedding server');
    const stored = await storedVectors(uid);
    expect(stored.size).toBe(100);
    for (const [id, { t, vectors }] of stored) {
      expect(t).toBe(`doc ${id}`);
      expect(vectors.map(f32)).toEqual([f32(embedding(t))]);
    }
    for (const id of [0, 42, 99]) expect(await nearest(uid, embedding(`doc ${id}`))).toBe(id);
  }, 60_000);
});
