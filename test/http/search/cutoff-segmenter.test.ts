// `searchCutoffMs` through the real server, for the first Chinese or Japanese query of a process:
// its words go to the segmenter thread, which loads jieba for it then (most of a second, seconds
// on a busy machine). That wait is not the search's work: a budget shorter than it still ranks
// the query rather than answering its hits unranked, in docid order. (Counted, it made the first
// `東京` search of test/http/documents/large-batches.test.ts come back unranked under load.)
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer } from '../../helpers/server.js';

describe('searchCutoffMs and the dictionary segmenters', { timeout: 60_000 }, () => {
  it('leave out the wait for a dictionary to load: the first CJK query is ranked', async () => {
    const server = await startServer();
    try {
      // docid order and relevance disagree: ranked, the title match comes first, then the body that
      // starts with the word (wordPosition; jieba cuts the query in two, matched as one 2-gram)
      const docs = [
        { id: 1, body: 'night 東京タワー river' },
        { id: 2, body: '東京タワー stone' },
        { id: 3, title: '東京タワー', body: 'fire' },
      ];
      const settings = { searchableAttributes: ['title', 'body'], searchCutoffMs: 150 };
      await run(server, 'PATCH', '/indexes/cjk/settings', settings);
      await run(server, 'POST', '/indexes/cjk/documents?primaryKey=id', docs);
      // `東京` alone is Chinese to the language detection: jieba, which nothing loaded yet
      const { status, body } = await call(server, 'POST', '/indexes/cjk/search', { q: '東京', showRankingScoreDetails: true });
      expect(status).toBe(200);
      expect(body.hits.map((hit: { id: number }) => hit.id)).toEqual([3, 2, 1]);
      expect(Object.keys(body.hits[0]._rankingScoreDetails)).not.toContain('skipped');
    } finally {
      await server.kill();
      rmSync(path.dirname(server.dbPath), { recursive: true, force: true });
    }
  });
});
