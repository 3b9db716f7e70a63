// Document lists of thousands of documents (`GET …/documents`, `POST …/documents/fetch`), which the
// server answers as JSON written piece by piece (chunked, compressed as a stream) instead of one
// text built whole: the same JSON as the pages read one by one, plain or gzip, through raw HTTP
// and the official client.
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const COUNT = 4_000;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  const docs = Array.from({ length: COUNT }, (_, id) => ({ id, title: `book ${id}`, year: 1900 + (id % 100), body: 'é lorem ipsum '.repeat(20 + (id % 7)) }));
  await run(server, 'PATCH', '/indexes/books/settings', { filterableAttributes: ['year'], sortableAttributes: ['year'] });
  await run(server, 'POST', '/indexes/books/documents', docs);
}, 120_000);
afterAll(async () => {
  await server.dispose();
});

/** Pages of 500 read one by one from `offset`: what a long list must hold. */
async function byPages(query: string, offset: number, limit: number): Promise<unknown[]> {
  const results: unknown[] = [];
  for (let from = offset; from < offset + limit; from += 500) {
    const page = await call(server, 'GET', `/indexes/books/documents?offset=${from}&limit=${Math.min(500, offset + limit - from)}${query}`);
    results.push(...page.body.results);
  }
  return results;
}

/** One GET with `headers`, its answer's headers and body bytes. */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a list of thousands of documents', () => {
  it('answers the JSON of the pages read one by one, in the order of keys of a short list', async () => {
    const reply = await call(server, 'GET', '/indexes/books/documents?offset=10&limit=3500&fields=id,title,body');
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['results', 'offset', 'limit', 'total']);
    expect(reply.body).toEqual({ results: await byPages('&fields=id,title,body', 10, 3500), offset: 10, limit: 3500, total: COUNT });
    expect(reply.text).toBe(JSON.stringify(reply.body));
  });

  it('sends it chunked as application/json, gzip when the client accepts it', async () => {
    const plain = await get('/indexes/books/documents?limit=5000', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.headers['transfer-encoding']).toBe('chunked');
    const zipped = await get('/indexes/books/documents?limit=5000', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(JSON.parse(plain.body.toString()).results).toEqual(await byPages('', 0, COUNT));
  });

  it('answers a filtered, sorted fetch by ids as the official client reads it', async () => {
    const client = new Meilisearch({ host: server.url });
    const ids = Array.from({ length: 3_000 }, (_, i) => String(i + 500));
    const fetched = await client.index('books').getDocuments({ ids, filter: 'year >= 1950', sort: ['year:desc'], fields: ['id', 'year'], limit: 3_000 });
    expect(fetched.total).toBe(1_500);
    expect(fetched.results).toHaveLength(1_500);
    expect(fetched.results.every((doc, i) => i === 0 || (doc.year as number) <= (fetched.results[i - 1]!.year as number))).toBe(true);
    expect(fetched.results.every((doc) => Number(doc.id) >= 500 && Number(doc.id) < 3_500 && (doc.year as number) >= 1950)).toBe(true);
  });
});
