// Searches whose query text is embedded: a REST embedder served by a mock on loopback (the server
// allows 127.0.0.0/8 with --experimental-allowed-ip-networks). A hybrid or semantic `q` is sent to
// the embedder and its vector used (and shown as queryVector); a keyword list good enough alone
// never calls it; a failing embedding falls back to the keyword hits in a hybrid search and is a
// 400 in a semantic one.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let embedder: Server;
let server: TestServer;
let uid: string;
/** the batch that embedded the documents */
let addedBatch: number;
/** the texts the mock embedder received, in order */
const received: string[] = [];

/** A fixed 2-d vector per text: about Marvel, about planets, or neither. */
function vectorOf(text: string): number[] {
  if (/marvel/i.test(text)) return [1, 0];
  if (/planet/i.test(text)) return [0, 1];
  return [0.6, 0.8];
}

beforeAll(async () => {
  embedder = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { input } = JSON.parse(body) as { input: string };
      received.push(input);
      if (input.endsWith('slow')) {
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embedding: [1, 0] })), 2_000);
        return;
      }
      if (input === 'boom') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ embedding: vectorOf(input) }));
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  const { port } = embedder.address() as { port: number };
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
  uid = uniqueUid('rest');
  const settings = await run(server, 'PATCH', `/indexes/${uid}/settings`, {
    embedders: {
      rest: {
        source: 'rest',
        url: `http://127.0.0.1:${port}/embed`,
        request: { input: '{{text}}' },
        response: { embedding: '{{embedding}}' },
        dimensions: 2,
        documentTemplate: '{{doc.title}}',
      },
    },
  });
  expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
  const added = await run(server, 'POST', `/indexes/${uid}/documents`, [
    { id: 1, title: 'Captain Marvel' },
    { id: 2, title: 'Captain Planet' },
    { id: 3, title: 'Shazam' },
  ]);
  expect(added.status, JSON.stringify(added.error)).toBe('succeeded');
  addedBatch = added.batchUid;
}, 60_000);
afterAll(async () => {
  await server.dispose();
  await new Promise((resolve) => embedder.close(resolve));
});

async function search(body: Record<string, unknown>) {
  const reply = await call(server, 'POST', `/indexes/${uid}/search`, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe('document embedding', () => {
  it("counts the batch's requests to the embedder as its last stat", async () => {
    const batch = await call(server, 'GET', `/batches/${addedBatch}`);
    expect(batch.status).toBe(200);
    // one request per document: the request template embeds one text
    expect(batch.body.stats.embedderRequests).toEqual({ total: 3, failed: 0 });
    expect(Object.keys(batch.body.stats).at(-1)).toBe('embedderRequests');
  });
});

describe('query embedding', () => {
  it('embeds q for a semantic search and ranks by its vector', async () => {
    received.length = 0;
    const body = await search({ q: 'planets of the solar system', hybrid: { embedder: 'rest', semanticRatio: 1 }, retrieveVectors: true, attributesToRetrieve: ['id'] });
    expect(received).toEqual(['planets of the solar system']);
    expect(body.hits.map((hit: { id: number }) => hit.id)).toEqual([2, 3, 1]);
    expect(body).toMatchObject({ queryVector: [0, 1], semanticHitCount: 3 });
  });

  it('embeds q for a hybrid search and merges both lists', async () => {
    received.length = 0;
    const body = await search({ q: 'Marvel', hybrid: { embedder: 'rest', semanticRatio: 0.9 }, showRankingScore: true, attributesToRetrieve: ['id'] });
    expect(received).toEqual(['Marvel']);
    expect(body.hits.map((hit: { id: number }) => hit.id)).toEqual([1, 3, 2]);
    expect(body.semanticHitCount).toBe(3);
  });

  it('does not call the embedder when the keyword hits are good enough alone', async () => {
    received.length = 0;
    const body = await search({ q: 'Captain Marvel', hybrid: { embedder: 'rest', semanticRatio: 0.5 }, limit: 1, attributesToRetrieve: ['id'] });
    expect(received).toEqual([]);
    expect(body.hits).toEqual([{ id: 1 }]);
    expect(body.semanticHitCount).toBe(0);
  });

  it('falls back to the keyword hits of a hybrid search when embedding fails', async () => {
    received.length = 0;
    const body = await search({ q: 'boom', hybrid: { embedder: 'rest', semanticRatio: 0.5 }, retrieveVectors: true });
    expect(received).toEqual(['boom']);
    expect(body).toMatchObject({ hits: [], estimatedTotalHits: 0, semanticHitCount: 0 });
    expect(body).not.toHaveProperty('queryVector');
  });

  it('refuses a semantic search whose embedding fails', async () => {
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'boom', hybrid: { embedder: 'rest', semanticRatio: 1 } });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('vector_embedding_error');
    expect(reply.body.message).toMatch(/^Error while generating embeddings: /);
  });

  it('gives up embedding at the search cutoff: a semantic search answers 400, a hybrid one its keyword hits', async () => {
    expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { searchCutoffMs: 300 })).status).toBe('succeeded');
    try {
      const started = Date.now();
      const semantic = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'slow', hybrid: { embedder: 'rest', semanticRatio: 1 } });
      expect(semantic.status).toBe(400);
      expect(semantic.body).toMatchObject({ code: 'vector_embedding_error', message: expect.stringMatching(/^Error while generating embeddings: runtime error: /) });
      expect(Date.now() - started).toBeLessThan(1_500);
      const hybrid = await search({ q: 'slow', hybrid: { embedder: 'rest', semanticRatio: 0.5 } });
      expect(hybrid).toMatchObject({ hits: [], semanticHitCount: 0 });
      // the keyword hits it falls back to are ranked, as v1.50 ranked them before embedding the query
      const fallback = await search({ q: 'captain planet slow', hybrid: { embedder: 'rest', semanticRatio: 0.5 }, showRankingScore: true, attributesToRetrieve: ['id'] });
      expect(fallback.hits.map((hit: { id: number }) => hit.id)).toEqual([2, 1]);
      expect(fallback.hits[1]._rankingScore).toBeGreaterThan(0);
      expect(fallback.semanticHitCount).toBe(0);
    } finally {
      await run(server, 'PATCH', `/indexes/${uid}/settings`, { searchCutoffMs: null });
    }
  });

  it('waits for the embedding under a search cutoff longer than a Node timer holds (35 days)', async () => {
    expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { searchCutoffMs: 3_000_000_000 })).status).toBe('succeeded');
    try {
      // the mock answers `slow` after 2 s: a timer past 2^31 - 1 ms fired at once, and the search failed
      const body = await search({ q: 'slow', hybrid: { embedder: 'rest', semanticRatio: 1 }, retrieveVectors: true, attributesToRetrieve: ['id'] });
      expect(body).toMatchObject({ queryVector: [1, 0], semanticHitCount: 3 });
      expect(body.hits[0]).toMatchObject({ id: 1 });
    } finally {
      await run(server, 'PATCH', `/indexes/${uid}/settings`, { searchCutoffMs: null });
    }
  });
});
