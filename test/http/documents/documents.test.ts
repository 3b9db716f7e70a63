import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let client: Meilisearch;
let counter = 0;
const uniqueIndex = () => `docs_${process.pid}_${counter++}`;

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
});
afterAll(async () => {
  await server.dispose();
});

async function send(method: string, path: string, body?: string, contentType = 'application/json') {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': contentType },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}

async function task(uid: number) {
  return client.tasks.waitForTask(uid, { interval: 20, timeout: 10_000 });
}

describe('adding documents', () => {
  it('POST creates the index, infers the primary key and stores documents in insertion order', async () => {
    const uid = uniqueIndex();
    const enqueued = await send('POST', `/indexes/${uid}/documents`, JSON.stringify([{ id: 2, title: 'Carol' }, { id: 1, title: 'Alien' }]));
    expect(enqueued.status).toBe(202);
    expect(enqueued.body).toMatchObject({ indexUid: uid, status: 'enqueued', type: 'documentAdditionOrUpdate' });
    const done = await task(enqueued.body!.taskUid as number);
    expect(done.status).toBe('succeeded');
    expect(done.details).toEqual({ receivedDocuments: 2, indexedDocuments: 2 });
    expect((await client.index(uid).getRawInfo()).primaryKey).toBe('id');
    const list = await client.index(uid).getDocuments();
    expect(list).toEqual({ results: [{ id: 2, title: 'Carol' }, { id: 1, title: 'Alien' }], offset: 0, limit: 20, total: 2 });
  });

  it('POST replaces a document while PUT merges its top-level fields', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    await task((await index.addDocuments([{ id: 1, title: 'Carol', year: 2015, cast: { lead: 'Cate' } }])).taskUid);
    await task((await index.updateDocuments([{ id: 1, cast: { support: 'Rooney' } }])).taskUid);
    expect(await index.getDocument(1)).toEqual({ id: 1, title: 'Carol', year: 2015, cast: { support: 'Rooney' } });
    await task((await index.addDocuments([{ id: 1, title: 'Carol (2015)' }])).taskUid);
    expect(await index.getDocument(1)).toEqual({ id: 1, title: 'Carol (2015)' });
  });

  it('accepts payloads of documents of a few bytes, an empty object included, in every format', async () => {
    // the payload's documents are looked at for Chinese, Japanese and Korean text as they are stored
    const uid = uniqueIndex();
    const json = await send('POST', `/indexes/${uid}/documents`, '[{}]');
    expect(json.status).toBe(202);
    expect(await task(json.body!.taskUid as number)).toMatchObject({ status: 'failed', error: { code: 'index_primary_key_no_candidate_found' } });
    for (const [payload, type] of [['{"id":1}\n{}', 'application/x-ndjson'], ['[{"id":2},{"id":3,"t":"엄"}]', 'application/json']] as const) {
      const reply = await send('POST', `/indexes/${uid}/documents?primaryKey=id`, payload, type);
      expect(reply.status).toBe(202);
    }
  });

  it('accepts NDJSON and typed CSV payloads', async () => {
    const uid = uniqueIndex();
    const nd = await send('POST', `/indexes/${uid}/documents?primaryKey=sku`, '{"sku":"a1","n":1}\n{"sku":"b2","n":2}\n', 'application/x-ndjson');
    expect((await task(nd.body!.taskUid as number)).status).toBe('succeeded');
    const csv = await send('PUT', `/indexes/${uid}/documents`, 'sku,price:number,stock:boolean\na1,12.5,true\nc3,,false\n', 'text/csv');
    expect((await task(csv.body!.taskUid as number)).details).toEqual({ receivedDocuments: 2, indexedDocuments: 2 });
    expect(await client.index(uid).getDocument('a1')).toEqual({ sku: 'a1', n: 1, price: 12.5, stock: true });
    expect(await client.index(uid).getDocument('c3')).toEqual({ sku: 'c3', price: null, stock: false });
  });

  it('treats integer and string forms of an id as the same document', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    await task((await index.addDocuments([{ id: 7, v: 'int' }])).taskUid);
    await task((await index.addDocuments([{ id: '7', v: 'string' }])).taskUid);
    expect((await index.getDocuments()).total).toBe(1);
    expect(await index.getDocument('7')).toEqual({ id: '7', v: 'string' });
  });

  it('fails only the task whose payload has a document without the primary key', async () => {
    const uid = uniqueIndex();
    const good = await send('POST', `/indexes/${uid}/documents`, JSON.stringify([{ id: 1 }]));
    const bad = await send('POST', `/indexes/${uid}/documents`, JSON.stringify([{ id: 2 }, { title: 'no id' }]));
    expect((await task(good.body!.taskUid as number)).status).toBe('succeeded');
    const failed = await task(bad.body!.taskUid as number);
    expect(failed.status).toBe('failed');
    expect(failed.details).toEqual({ receivedDocuments: 2, indexedDocuments: 0 });
    expect(failed.error).toEqual({
      message: 'Document doesn\'t have a `id` attribute: `{"title":"no id"}`.',
      code: 'missing_document_id',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#missing_document_id',
    });
    expect((await client.index(uid).getDocuments()).total).toBe(1);
  });

  it('fails the task on an invalid document id and on failed primary key inference', async () => {
    const uid = uniqueIndex();
    const invalid = await task((await send('POST', `/indexes/${uid}/documents?primaryKey=id`, JSON.stringify([{ id: 'foo & bar' }]))).body!.taskUid as number);
    expect(invalid.error?.code).toBe('invalid_document_id');
    expect(invalid.error?.message).toBe(
      'Document identifier `"foo & bar"` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.',
    );
    const other = uniqueIndex();
    const none = await task((await send('POST', `/indexes/${other}/documents`, JSON.stringify([{ title: 'x' }]))).body!.taskUid as number);
    expect(none.error?.code).toBe('index_primary_key_no_candidate_found');
    const many = await task((await send('POST', `/indexes/${other}/documents`, JSON.stringify([{ id: 1, object_id: 2, kid: 3 }]))).body!.taskUid as number);
    expect(many.error?.message).toBe(
      "The primary key inference failed as the engine found 3 fields ending with `id` in their names: 'id' and 'kid'. Please specify the primary key manually using the `primaryKey` query parameter.",
    );
  });

  it('refuses an integer id written as a float, or past 64 bits, as v1.50 does (serde_json reads an f64)', async () => {
    const message = (id: string) =>
      `Document identifier \`${id}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`;
    const cases: [string, string, string][] = [
      ['[{"id": 1.0, "t": 1}]', 'application/json', '1.0'],
      ['{"t": 1, "id":1e3}', 'application/x-ndjson', '1000.0'],
      // the key met first inside a nested object still finds the top-level id's float
      ['[{"n": {"id": 7}, "id": 7.0}]', 'application/json', '7.0'],
      ['[{"id": -0}]', 'application/json', '-0.0'],
      ['[{"id": 18446744073709551616}]', 'application/json', '1.8446744073709552e19'],
    ];
    for (const [body, contentType, shown] of cases) {
      const failed = await task((await send('POST', `/indexes/${uniqueIndex()}/documents?primaryKey=id`, body, contentType)).body!.taskUid as number);
      expect(failed.error).toMatchObject({ code: 'invalid_document_id', message: message(shown) });
    }
    // integers within 64 bits, however written around, stay ids
    const uid = uniqueIndex();
    const ok = await task((await send('POST', `/indexes/${uid}/documents?primaryKey=id`, '[{"id" : 18446744073709551615, "v": 1.0}, {"x": "\\"id\\": 2.0", "id": 2}]')).body!.taskUid as number);
    expect(ok.status).toBe('succeeded');
    expect((await send('GET', `/indexes/${uid}/documents/18446744073709551615`)).status).toBe(200);
    expect((await send('GET', `/indexes/${uid}/documents/2`)).status).toBe(200);
  });

  it('selects nothing with a name holding a `*` other than `*` itself, in documents and hits, as v1.50 finds no such field', async () => {
    const uid = uniqueIndex();
    await task((await send('POST', `/indexes/${uid}/documents`, JSON.stringify([{ id: 1, title: 'dune', director: { name: 'lynch', country: 'us' } }]))).body!.taskUid as number);
    expect((await send('GET', `/indexes/${uid}/documents/1?fields=title,director.*`)).body).toEqual({ title: 'dune' });
    expect((await send('GET', `/indexes/${uid}/documents?fields=director.*`)).body).toMatchObject({ results: [{}] });
    expect((await send('GET', `/indexes/${uid}/documents?fields=director.name`)).body).toMatchObject({ results: [{ director: { name: 'lynch' } }] });
    const search = await send('POST', `/indexes/${uid}/search`, JSON.stringify({ q: 'dune', attributesToRetrieve: ['id', 'director.*'], attributesToHighlight: ['title'] }));
    expect(search.body).toMatchObject({ hits: [{ id: 1, _formatted: { id: '1', title: '<em>dune</em>' } }] });
    expect(Object.keys((search.body!.hits as Record<string, unknown>[])[0]!)).toEqual(['id', '_formatted']);
  });

  it('fails an addition declaring another primary key than the index has', async () => {
    const uid = uniqueIndex();
    await task((await send('POST', `/indexes/${uid}/documents?primaryKey=id`, JSON.stringify([{ id: 1 }]))).body!.taskUid as number);
    const conflict = await task((await send('POST', `/indexes/${uid}/documents?primaryKey=other`, JSON.stringify([{ id: 2, other: 3 }]))).body!.taskUid as number);
    expect(conflict.error).toMatchObject({ code: 'index_primary_key_already_exists', message: 'Index already has a primary key: `id`.' });
    // a payload without documents declaring another key succeeds, v1.50 ignoring an empty payload's error
    const empty = await task((await send('PUT', `/indexes/${uid}/documents?primaryKey=other`, '[]')).body!.taskUid as number);
    expect(empty).toMatchObject({ status: 'succeeded', details: { receivedDocuments: 0, indexedDocuments: 0 } });
    expect((await send('GET', `/indexes/${uid}`)).body).toMatchObject({ primaryKey: 'id' });
  });
});

describe('reading documents', () => {
  let uid: string;
  beforeAll(async () => {
    uid = uniqueIndex();
    const docs = Array.from({ length: 30 }, (_, i) => ({ id: i, title: `t${i}`, meta: { a: i, b: 'x' } }));
    await task((await client.index(uid).addDocuments(docs)).taskUid);
  });

  it('paginates with offset and limit and reports the total', async () => {
    const page = await send('GET', `/indexes/${uid}/documents?offset=25&limit=3`);
    expect(page.body).toMatchObject({ offset: 25, limit: 3, total: 30 });
    expect((page.body!.results as { id: number }[]).map((d) => d.id)).toEqual([25, 26, 27]);
  });

  it('projects fields, including nested selectors', async () => {
    expect(await send('GET', `/indexes/${uid}/documents/3?fields=title,meta.a`)).toEqual({ status: 200, body: { title: 't3', meta: { a: 3 } } });
    const fetched = await send('POST', `/indexes/${uid}/documents/fetch`, JSON.stringify({ ids: [1, '2'], fields: ['id'] }));
    expect(fetched.body).toEqual({ results: [{ id: 1 }, { id: 2 }], offset: 0, limit: 20, total: 2 });
  });

  it('answers document_not_found and index_not_found', async () => {
    expect(await send('GET', `/indexes/${uid}/documents/999`)).toEqual({
      status: 404,
      body: { message: 'Document `999` not found.', code: 'document_not_found', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#document_not_found' },
    });
    expect((await send('GET', `/indexes/${uniqueIndex()}/documents`)).body).toMatchObject({ code: 'index_not_found' });
  });
});

describe('deleting documents', () => {
  it('deletes one, a batch, then all, reporting deletedDocuments', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    await task((await index.addDocuments(Array.from({ length: 5 }, (_, i) => ({ id: i })))).taskUid);
    const one = await task((await index.deleteDocument(0)).taskUid);
    expect(one.details).toEqual({ providedIds: 1, deletedDocuments: 1, originalFilter: null });
    const batch = await task((await send('POST', `/indexes/${uid}/documents/delete-batch`, JSON.stringify([1, '2', 'missing']))).body!.taskUid as number);
    expect(batch.details).toEqual({ providedIds: 3, deletedDocuments: 2, originalFilter: null });
    const all = await task((await index.deleteAllDocuments()).taskUid);
    expect(all.details).toEqual({ deletedDocuments: 2 });
    expect((await index.getDocuments()).total).toBe(0);
  });

  it('fails a deletion on a missing index with index_not_found', async () => {
    const done = await task((await send('DELETE', `/indexes/${uniqueIndex()}/documents/1`)).body!.taskUid as number);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('index_not_found');
  });
});
