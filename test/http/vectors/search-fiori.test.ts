// Semantic, hybrid and similar search over real data: the 778 SAP Fiori documentation chunks of
// ../shared/datasets/fiori-docs.ndjson.gz with their MiniLM embeddings (384-d, userProvided
// embedder `minilm`). The nearest chunks are computed here by an exact cosine scan, and the server's
// answers must agree with it: a chunk's own vector finds that chunk first, then its neighbours; the
// mean of a category's chunks finds chunks of that category; a hybrid query mixes both sides.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Chunk {
  id: number;
  title: string;
  category: string;
  content: string;
  _vectors: { minilm: number[] };
}

const GZIPPED = readFileSync(new URL('../../../../shared/datasets/fiori-docs.ndjson.gz', import.meta.url));
const CHUNKS: Chunk[] = gunzipSync(GZIPPED)
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as Chunk);

let server: TestServer;
const UID = 'fiori';

beforeAll(async () => {
  server = await startServer();
  const settings = await call(server, 'PATCH', `/indexes/${UID}/settings`, {
    embedders: { minilm: { source: 'userProvided', dimensions: 384 } },
    filterableAttributes: ['category'],
  });
  expect((await waitTask(server, settings.body.taskUid)).status).toBe('succeeded');
  const added = await callRaw(server, 'POST', `/indexes/${UID}/documents`, GZIPPED, { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' });
  expect(added.status, added.text).toBe(202);
  expect((await waitTask(server, added.body.taskUid, 120_000)).status).toBe('succeeded');
}, 180_000);
afterAll(async () => {
  await server.dispose();
});

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

/** The ids of the `k` chunks nearest to `query` by an exact scan, among those `keep` accepts. */
function nearest(query: readonly number[], k: number, keep: (chunk: Chunk) => boolean = () => true): number[] {
  return CHUNKS.filter(keep)
    .map((chunk) => [chunk.id, cosine(query, chunk._vectors.minilm)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([id]) => id);
}

function mean(vectors: readonly (readonly number[])[]): number[] {
  return vectors[0]!.map((_, i) => vectors.reduce((sum, v) => sum + v[i]!, 0) / vectors.length);
}

async function search(body: Record<string, unknown>) {
  const reply = await call(server, 'POST', `/indexes/${UID}/search`, { attributesToRetrieve: ['id', 'category'], ...body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { hits: { id: number; category: string; _rankingScore?: number }[]; semanticHitCount?: number; estimatedTotalHits: number };
}

/** How many of `expected` the first hits hold. */
const overlap = (hits: { id: number }[], expected: number[]) => hits.filter((hit) => expected.includes(hit.id)).length;

describe('semantic search over fiori-docs', () => {
  it("finds a chunk's own vector first, with score 1, then its exact nearest neighbours", async () => {
    for (const id of [0, 137, 512]) {
      const query = CHUNKS[id]!._vectors.minilm;
      const body = await search({ vector: query, hybrid: { embedder: 'minilm', semanticRatio: 1 }, limit: 10, showRankingScore: true });
      expect(body.hits[0]!.id).toBe(id);
      expect(body.hits[0]!._rankingScore).toBeCloseTo(1, 5);
      expect(overlap(body.hits, nearest(query, 10))).toBeGreaterThanOrEqual(9);
      expect(body.semanticHitCount).toBe(10);
      expect(body.estimatedTotalHits).toBe(CHUNKS.length);
    }
  });

  it('finds chunks of a category from the mean of a few of its chunks', async () => {
    const tools = CHUNKS.filter((chunk) => chunk.category === 'Btp Fiori Tools').slice(0, 4);
    const query = mean(tools.map((chunk) => chunk._vectors.minilm));
    const body = await search({ vector: query, hybrid: { embedder: 'minilm', semanticRatio: 1 }, limit: 10 });
    expect(overlap(body.hits, nearest(query, 10))).toBeGreaterThanOrEqual(9);
    expect(body.hits.filter((hit) => hit.category === 'Btp Fiori Tools').length).toBeGreaterThanOrEqual(7);
  });

  it('ranks only the filtered chunks, counting them', async () => {
    const query = CHUNKS[0]!._vectors.minilm;
    const body = await search({ vector: query, hybrid: { embedder: 'minilm', semanticRatio: 1 }, filter: 'category = Sapui5', limit: 5 });
    expect(body.hits.every((hit) => hit.category === 'Sapui5')).toBe(true);
    expect(overlap(body.hits, nearest(query, 5, (chunk) => chunk.category === 'Sapui5'))).toBeGreaterThanOrEqual(4);
    expect(body.estimatedTotalHits).toBe(CHUNKS.filter((chunk) => chunk.category === 'Sapui5').length);
  });

  it('mixes keyword and semantic hits in a hybrid search', async () => {
    const deploy = CHUNKS[0]!;
    const body = await search({ q: 'deploy Cloud Foundry HTML5 repository', vector: deploy._vectors.minilm, hybrid: { embedder: 'minilm', semanticRatio: 0.5 }, limit: 10 });
    expect(body.hits.map((hit) => hit.id)).toContain(deploy.id);
    expect(body.semanticHitCount).toBeGreaterThan(0);
    expect(body.semanticHitCount).toBeLessThan(10);
  });

  it('finds the similar documents of a chunk as the exact scan does, without the chunk itself', async () => {
    const target = CHUNKS[137]!;
    const reply = await call(server, 'POST', `/indexes/${UID}/similar`, { id: target.id, embedder: 'minilm', limit: 10, attributesToRetrieve: ['id'] });
    expect(reply.status, reply.text).toBe(200);
    const expected = nearest(target._vectors.minilm, 11).filter((id) => id !== target.id);
    expect(reply.body.hits.map((hit: { id: number }) => hit.id)).not.toContain(target.id);
    expect(overlap(reply.body.hits, expected)).toBeGreaterThanOrEqual(9);
    expect(reply.body.estimatedTotalHits).toBe(CHUNKS.length - 1);
  });
});
