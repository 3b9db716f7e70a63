// Answers of more than 1,000 hits (a search page, a multi-search, a federation) or tasks, which the
// server writes a result and an item at a time (src/search/streamed-answer.ts): sent chunked, they
// read as the same items asked for page by page, in the same key order.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const COUNT = 3_000;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  const docs = Array.from({ length: COUNT }, (_, id) => ({ id, title: `book ${id % 10} of ${id}`, rank: id % 97 }));
  await run(server, 'PATCH', '/indexes/books/settings', { pagination: { maxTotalHits: 10_000 }, sortableAttributes: ['rank'] });
  await run(server, 'POST', '/indexes/books/documents', docs);
}, 120_000);
afterAll(async () => {
  await server.dispose();
});

/** A POST's (or, without a body, a GET's) answer headers and body text. */
function post(path: string, body?: unknown): Promise<{ headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { 'content-type': 'application/json' } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ headers: answer.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const searched = { q: 'book', sort: ['rank:asc'], attributesToHighlight: ['title'] };
const hitsOf = async (offset: number, limit: number) => (await call(server, 'POST', '/indexes/books/search', { ...searched, offset, limit })).body.hits;

describe('an answer of more than 1,000 hits', () => {
  it('writes the integral scores of each hit as floats (1.0), as the whole answer does', async () => {
    const { text } = await post('/indexes/books/search', { q: 'book', limit: 1_500, showRankingScore: true, showRankingScoreDetails: true });
    expect(text).toContain('"words":{"order":0,"matchingWords":1,"maxMatchingWords":1,"score":1.0}');
    expect(text).not.toMatch(/"(_rankingScore|score)":1[,}]/);
  });

  it('is a search page sent chunked, whose hits are those of the pages read one by one', async () => {
    const { headers, text } = await post('/indexes/books/search', { ...searched, limit: 2_500 });
    expect(headers['transfer-encoding']).toBe('chunked');
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(text);
    const short = (await call(server, 'POST', '/indexes/books/search', { ...searched, limit: 10 })).body;
    expect(Object.keys(body)).toEqual(Object.keys(short));
    expect(body.hits).toEqual([...(await hitsOf(0, 1_000)), ...(await hitsOf(1_000, 1_000)), ...(await hitsOf(2_000, 500))]);
    expect(text).toBe(JSON.stringify(body));
  });

  it('is a multi-search whose results are the single searches', async () => {
    const { headers, text } = await post('/multi-search', { queries: [{ indexUid: 'books', ...searched, limit: 800 }, { indexUid: 'books', ...searched, offset: 800, limit: 800 }] });
    expect(headers['transfer-encoding']).toBe('chunked');
    const body = JSON.parse(text);
    expect(body.results.map((result: { indexUid: string }) => result.indexUid)).toEqual(['books', 'books']);
    expect(body.results[0].hits).toEqual(await hitsOf(0, 800));
    expect(body.results[1].hits).toEqual(await hitsOf(800, 800));
  });

  it('is a federation whose hits are its pages read one by one', async () => {
    const federated = (offset: number, limit: number) => ({ federation: { offset, limit }, queries: [{ indexUid: 'books', q: 'book 3' }, { indexUid: 'books', q: 'book 4' }] });
    const { headers, text } = await post('/multi-search', federated(0, 1_200));
    expect(headers['transfer-encoding']).toBe('chunked');
    const body = JSON.parse(text);
    expect(body.hits).toHaveLength(1_200);
    const pages = [...(await call(server, 'POST', '/multi-search', federated(0, 600))).body.hits, ...(await call(server, 'POST', '/multi-search', federated(600, 600))).body.hits];
    expect(body.hits).toEqual(pages);
  });
});

describe('a list of more than 1,000 tasks', () => {
  it('is sent chunked, and reads as its pages read one by one', async () => {
    const uids = Array.from({ length: 1_100 }, (_, i) => i);
    for (let from = 0; from < uids.length; from += 50) {
      await Promise.all(uids.slice(from, from + 50).map((i) => call(server, 'POST', '/indexes/books/documents/delete-batch', [`missing-${i}`])));
    }
    while ((await call(server, 'GET', '/tasks?statuses=enqueued,processing&limit=1')).body.total > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const { headers, text } = await post('/tasks?limit=1200&from=1101');
    expect(headers['transfer-encoding']).toBe('chunked');
    const body = JSON.parse(text);
    expect(body.results).toHaveLength(1_102);
    const first = (await call(server, 'GET', '/tasks?limit=600&from=1101')).body;
    const second = (await call(server, 'GET', `/tasks?limit=600&from=${first.next}`)).body;
    expect(body.results).toEqual([...first.results, ...second.results]);
    expect(text).toBe(JSON.stringify(body));
  }, 60_000);
});
