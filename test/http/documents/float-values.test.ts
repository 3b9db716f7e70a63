// Numbers a document wrote as floats come back as v1.50 writes them (serde_json's f64: `9.0`,
// `1000.0`, `-0.0`), in every answer that shows documents and through the writes that store a
// document again; read as raw text, since a JavaScript client cannot tell `9.0` from `9`.
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let client: Meilisearch;

async function text(method: string, path: string, body?: unknown): Promise<string> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return res.text();
}

async function write(method: string, path: string, body: unknown): Promise<void> {
  const { taskUid } = JSON.parse(await text(method, path, body)) as { taskUid: number };
  const task = await client.tasks.waitForTask(taskUid, { interval: 20, timeout: 20_000 });
  expect(task.status).toBe('succeeded');
}

const DOCS = '[{"id": 1, "title": "dune", "rating": 9.0, "year": 1965, "views": 1e3, "shift": -0.0, "tags": [1.0, 2, {"w": 3.0}], "meta": {"score": 4.0, "n": 4}, "tiny": 0.000001, "half": 7.5},'
  + ' {"id": 2, "title": "dune messiah", "rating": 8.5, "year": 1969.0}]';

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  await write('PATCH', '/indexes/books/settings', { sortableAttributes: ['rating', 'year'], filterableAttributes: ['rating'] });
  await write('POST', '/indexes/books/documents', DOCS);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const BOOK_1 = '{"id":1,"title":"dune","rating":9.0,"year":1965,"views":1000.0,"shift":-0.0,"tags":[1.0,2,{"w":3.0}],"meta":{"score":4.0,"n":4},"tiny":1e-6,"half":7.5}';

describe('documents', () => {
  it('come back with their floats from GET, a list and a fetch, projected or whole', async () => {
    expect(await text('GET', '/indexes/books/documents/1')).toBe(BOOK_1);
    expect(await text('GET', '/indexes/books/documents?fields=rating,tags,meta.score&limit=1')).toBe('{"results":[{"rating":9.0,"tags":[1.0,2,{"w":3.0}],"meta":{"score":4.0}}],"offset":0,"limit":1,"total":2}');
    expect(await text('POST', '/indexes/books/documents/fetch', { ids: ['2'], fields: ['year'] })).toBe('{"results":[{"year":1969.0}],"offset":0,"limit":20,"total":1}');
  });

  it('keep the floats of the stored version and of the update through a partial update', async () => {
    await write('PUT', '/indexes/books/documents', '[{"id": 2, "pages": 256.0, "rating": 8}]');
    expect(await text('GET', '/indexes/books/documents/2')).toBe('{"id":2,"title":"dune messiah","rating":8,"year":1969.0,"pages":256.0}');
  });
});

describe('an edition by function', () => {
  it('hands Rhai the floats as FLOAT (9.0 / 2 is 4.5) and stores what it makes a FLOAT as one', async () => {
    expect((await fetch(`${server.url}/experimental-features`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"editDocumentsByFunction": true}' })).status).toBe(200);
    await write('POST', '/indexes/edited/documents', '[{"id": 1, "r": 9.0, "n": 9, "list": [2.0, 3]}]');
    await write('POST', '/indexes/edited/documents/edit', { function: 'doc.half = doc.r / 2; doc.q = doc.n / 2; doc.r = doc.r + 1; doc.t = type_of(doc.list[0]); doc.f = 3.0' });
    expect(await text('GET', '/indexes/edited/documents/1')).toBe('{"id":1,"r":10.0,"n":9,"list":[2.0,3],"f":3.0,"half":4.5,"q":4,"t":"f64"}');
  });
});

describe('search hits', () => {
  it('show the floats in hits, _formatted (as "9.0"), and a sort rule value as v1.50 holds it (an f64)', async () => {
    const raw = await text('POST', '/indexes/books/search', { q: 'dune', filter: 'rating = 9', attributesToRetrieve: ['rating', 'tags'], attributesToHighlight: ['meta'] });
    expect(raw).toContain('"hits":[{"rating":9.0,"tags":[1.0,2,{"w":3.0}],"_formatted":{"rating":"9.0","tags":["1.0","2",{"w":"3.0"}],"meta":{"score":"4.0","n":"4"}}}]');
    const sorted = await text('POST', '/indexes/books/search', { sort: ['year:asc'], attributesToRetrieve: ['id'], showRankingScoreDetails: true, limit: 1 });
    expect(sorted).toContain('"_rankingScoreDetails":{"year:asc":{"order":0,"value":1965.0}}');
  });

  it('show them in multi-search and federated hits', async () => {
    const multi = await text('POST', '/multi-search', { queries: [{ indexUid: 'books', q: 'dune', filter: 'rating = 9', attributesToRetrieve: ['rating'] }] });
    expect(multi).toContain('"hits":[{"rating":9.0}]');
    const federated = await text('POST', '/multi-search', { federation: {}, queries: [{ indexUid: 'books', q: 'dune', filter: 'rating = 9', attributesToRetrieve: ['views'] }] });
    expect(federated).toContain('"hits":[{"views":1000.0,"_federation":');
  });
});
