/**
 * A batch with more than 1 MiB of additions has its words extracted by the extraction workers
 * (`--max-indexing-threads` of them) while the write runs: it must index exactly what the same
 * documents sent in small batches index, searched, ranked, filtered, faceted and highlighted alike.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, run, waitTask } from '../../helpers/api.js';
import { mulberry32 } from '../../helpers/random.js';
import { startServer } from '../../helpers/server.js';

const WORDS = ['dragon', 'fire', 'Ünïcode', '東京タワー', 'night', 'river', 'stone', 'the', 'quick', 'brown', 'fox', 'naïve', 'harbour', 'lantern', 'meadow'];

function documents(count: number): object[] {
  const random = mulberry32(11);
  const text = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  return Array.from({ length: count }, (_, id) => {
    const doc: Record<string, unknown> = { id, body: text(40 + Math.floor(random() * 40)) };
    if (random() < 0.7) doc.title = text(1 + Math.floor(random() * 4));
    if (random() < 0.4) doc.tags = [text(1), text(2)];
    return random() < 0.5 ? Object.fromEntries(Object.entries(doc).reverse()) : doc;
  });
}

const QUERIES = ['dragon', 'quick brown fox', '東京', 'naive', 'harbor', 'lant', 'fire river stone', 'meadow night'];

describe.each([1, 2])('a large batch with %i indexing threads', { timeout: 60_000 }, (threads) => {
  it('indexes what small batches of the same documents index', async () => {
    const server = await startServer({ args: ['--max-indexing-threads', String(threads)] });
    try {
      const docs = documents(4_000);
      const body = docs.map((doc) => JSON.stringify(doc)).join('\n');
      expect(Buffer.byteLength(body)).toBeGreaterThan(1 << 20);
      const settings = { searchableAttributes: ['title', 'body', 'tags'], stopWords: ['the'], filterableAttributes: ['tags', 'title', 'id'] };
      for (const uid of ['large', 'small']) await run(server, 'PATCH', `/indexes/${uid}/settings`, settings);
      await run(server, 'POST', '/indexes/large/documents?primaryKey=id', docs);
      // one task at a time, each well under 1 MiB: extracted in the write
      for (let at = 0; at < docs.length; at += 1_000) await run(server, 'POST', '/indexes/small/documents?primaryKey=id', docs.slice(at, at + 1_000));
      for (const q of QUERIES) {
        for (const filter of [undefined, 'id < 3000 AND tags EXISTS']) {
          const search = { q, filter, facets: ['tags', 'title'], limit: 30, showRankingScoreDetails: true, attributesToHighlight: ['title'], showMatchesPosition: true };
          const [large, small] = await Promise.all(['large', 'small'].map((uid) => call(server, 'POST', `/indexes/${uid}/search`, search)));
          expect(large.status).toBe(200);
          expect(large.body.hits.length).toBeGreaterThan(0);
          expect(large.body.hits).toEqual(small.body.hits);
          expect(large.body.estimatedTotalHits).toBe(small.body.estimatedTotalHits);
          expect(Object.keys(large.body.facetDistribution.tags).length).toBeGreaterThan(3);
          expect(large.body.facetDistribution).toEqual(small.body.facetDistribution);
        }
      }
    } finally {
      await server.kill();
      rmSync(path.dirname(server.dbPath), { recursive: true, force: true });
    }
  });
});

describe('a kill -9 while a large batch is being written', { timeout: 60_000 }, () => {
  it('loses nothing: after the restart the batch runs again and indexes every document', async () => {
    const first = await startServer();
    try {
      const docs = documents(4_000);
      const reply = await call(first, 'POST', '/indexes/killed/documents?primaryKey=id', docs);
      expect(reply.status).toBe(202);
      // killed once the write (and its extraction workers) are under way
      for (let seen = false; !seen; ) {
        const { body: task } = await call(first, 'GET', `/tasks/${reply.body.taskUid}`);
        expect(task.status).not.toBe('failed');
        seen = task.status === 'processing' || task.status === 'succeeded';
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await first.kill();
      const second = await startServer({ dbPath: first.dbPath });
      try {
        expect((await waitTask(second, reply.body.taskUid, 30_000)).status).toBe('succeeded');
        expect((await call(second, 'GET', '/indexes/killed/stats')).body.numberOfDocuments).toBe(docs.length);
        const hits = await call(second, 'POST', '/indexes/killed/search', { q: 'lantern meadow', limit: 5 });
        expect(hits.body.estimatedTotalHits).toBeGreaterThan(0);
      } finally {
        await second.kill();
      }
    } finally {
      rmSync(path.dirname(first.dbPath), { recursive: true, force: true });
    }
  });
});
