// Filters and sorting on the document list routes, and deletion by filter (documents.md §2.3, §5;
// Meilisearch tests/documents/{get_documents,delete_documents,errors}.rs).
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, stable, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const COLORS = [{ id: 0, color: 'red' }, { id: 1, color: 'blue' }, { id: 2, color: 'blue' }, { id: 3 }];

/** A new index with the given settings and documents (primary key `id`). */
async function index(settings: Record<string, unknown>, documents: unknown[]): Promise<string> {
  const uid = uniqueUid('filter');
  expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, settings)).status).toBe('succeeded');
  expect((await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, documents)).status).toBe('succeeded');
  return uid;
}

const ids = (reply: { body: { results: { id: unknown }[] } }) => reply.body.results.map((doc) => doc.id);

describe('document lists with a filter', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await index({ filterableAttributes: ['color'] }, COLORS);
  });

  it('GET and POST fetch return the matching documents and their total', async () => {
    const expected = { results: [{ id: 1, color: 'blue' }, { id: 2, color: 'blue' }], offset: 0, limit: 20, total: 2 };
    expect((await call(server, 'GET', `/indexes/${uid}/documents?filter=color=blue`)).body).toEqual(expected);
    expect((await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { filter: 'color = blue' })).body).toEqual(expected);
  });

  it('pages after filtering, and != keeps documents without the field', async () => {
    const get = await call(server, 'GET', `/indexes/${uid}/documents?filter=color!=blue&offset=1&limit=1`);
    expect(get.body).toEqual({ results: [{ id: 3 }], offset: 1, limit: 1, total: 2 });
    const post = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { limit: 1, filter: 'color != blue', fields: ['color'] });
    expect(post.body).toEqual({ results: [{ color: 'red' }], offset: 0, limit: 1, total: 2 });
  });

  it('accepts the array form (in POST, and as JSON text in GET)', async () => {
    const post = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { filter: [['color = blue', 'color = red']] });
    expect(ids(post)).toEqual([0, 1, 2]);
    const get = await call(server, 'GET', `/indexes/${uid}/documents?filter=${encodeURIComponent('[["color != blue"], "color EXISTS"]')}`);
    expect(ids(get)).toEqual([0]);
  });

  it('intersects the filter with the requested ids', async () => {
    const reply = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { ids: [3, 2, 0, 'nope'], filter: 'color EXISTS' });
    expect(reply.body).toEqual({ results: [{ id: 0, color: 'red' }, { id: 2, color: 'blue' }], offset: 0, limit: 20, total: 2 });
  });

  it('refuses attributes that are not filterable, without the index prefix', async () => {
    expectError(
      await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { filter: 'doggo = bernese' }),
      400,
      'invalid_document_filter',
      'Attribute `doggo` is not filterable. Available filterable attribute patterns are: `color`.\n1:6 doggo = bernese',
    );
  });

  it('gates CONTAINS behind its experimental feature', async () => {
    expectError(
      await call(server, 'GET', `/indexes/${uid}/documents?filter=${encodeURIComponent('color CONTAINS bl')}`),
      400,
      'feature_not_enabled',
      'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763\n7:15 color CONTAINS bl',
    );
  });

  it('checks the index before the filter', async () => {
    expectError(await call(server, 'GET', '/indexes/nope-filter/documents?filter=doggo'), 404, 'index_not_found', 'Index `nope-filter` not found.');
  });

  it('works through the meilisearch client', async () => {
    const client = new Meilisearch({ host: server.url });
    const list = await client.index(uid).getDocuments({ filter: 'color = red OR color NOT EXISTS' });
    expect(list.results).toEqual([{ id: 0, color: 'red' }, { id: 3 }]);
  });
});

describe('document lists with a sort', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await index({ filterableAttributes: ['kind'], sortableAttributes: ['year', 'title', '_geo'] }, [
      { id: 1, title: 'Carol', year: 2015, kind: 'film' },
      { id: 2, title: 'alien', year: 1979, kind: 'film', _geo: { lat: 48.85, lng: 2.35 } },
      { id: 3, title: 'Bambi', year: 'unknown', kind: 'book', _geo: { lat: 45.76, lng: 4.83 } },
      { id: 4, title: 'Dune', kind: 'book' },
      { id: 5, title: 'Eden', year: 2015, kind: 'film' },
    ]);
  });

  it('orders numbers, then strings, then missing values; ties by the next criterion', async () => {
    const asc = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { sort: ['year:asc', 'title:desc'], fields: ['id'] });
    expect(ids(asc)).toEqual([2, 5, 1, 3, 4]);
    const desc = await call(server, 'GET', `/indexes/${uid}/documents?sort=year:desc,title:asc&fields=id`);
    expect(ids(desc)).toEqual([1, 5, 2, 3, 4]);
  });

  it('sorts the filtered documents and pages them', async () => {
    const reply = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { filter: 'kind = film', sort: ['title:asc'], offset: 1, limit: 1 });
    expect(reply.body).toEqual({ results: [{ id: 1, title: 'Carol', year: 2015, kind: 'film' }], offset: 1, limit: 1, total: 3 });
  });

  it('sorts by distance with _geoPoint, whose commas GET keeps together', async () => {
    const reply = await call(server, 'GET', `/indexes/${uid}/documents?sort=${encodeURIComponent('_geoPoint(45.75, 4.85):asc,title:asc')}&fields=id`);
    expect(ids(reply)).toEqual([3, 2, 1, 4, 5]);
  });

  it('refuses attributes that are not sortable and malformed criteria', async () => {
    expectError(
      await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { sort: ['kind:asc'] }),
      400,
      'invalid_document_sort',
      'Attribute `kind` is not sortable. Available sortable attributes are: `_geo, title, year`.',
    );
    expectError(
      await call(server, 'GET', `/indexes/${uid}/documents?sort=title`),
      400,
      'invalid_document_sort',
      'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `title`.',
    );
    // Sort syntax is checked before the index is looked up.
    expectError(
      await call(server, 'POST', '/indexes/nope-sort/documents/fetch', { sort: ['_geo:asc'] }),
      400,
      'invalid_document_sort',
      "`_geo` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.",
    );
  });
});

describe('deleting documents by filter', () => {
  it('deletes the matching documents and reports them in the task', async () => {
    const uid = await index({ filterableAttributes: ['color'] }, COLORS);
    const enqueued = await call(server, 'POST', `/indexes/${uid}/documents/delete`, { filter: 'color = blue' });
    expect(enqueued.status).toBe(202);
    expect(enqueued.body).toMatchObject({ indexUid: uid, status: 'enqueued', type: 'documentDeletion' });
    const task = stable(await run(server, 'POST', `/indexes/${uid}/documents/delete`, { filter: 'color NOT EXISTS' }));
    expect(task).toMatchObject({ status: 'succeeded', type: 'documentDeletion', error: null });
    expect(task.details).toEqual({ providedIds: 0, deletedDocuments: 1, originalFilter: '"color NOT EXISTS"' });
    expect((await call(server, 'GET', `/indexes/${uid}/documents`)).body).toEqual({ results: [{ id: 0, color: 'red' }], offset: 0, limit: 20, total: 1 });
    const first = (await call(server, 'GET', `/tasks/${enqueued.body.taskUid}`)).body;
    expect(first.details).toEqual({ providedIds: 0, deletedDocuments: 2, originalFilter: '"color = blue"' });
  });

  it('keeps the array form in originalFilter', async () => {
    const uid = await index({ filterableAttributes: ['color'] }, [...COLORS, { id: 4, color: 'green' }]);
    const task = await run(server, 'POST', `/indexes/${uid}/documents/delete`, { filter: ['color != red', 'color != green', 'color EXISTS'] });
    expect(task.details).toEqual({ providedIds: 0, deletedDocuments: 2, originalFilter: '["color != red","color != green","color EXISTS"]' });
    expect(ids(await call(server, 'GET', `/indexes/${uid}/documents`))).toEqual([0, 3, 4]);
  });

  it('fails the task when the index refuses the filter, prefixed with the index', async () => {
    const uid = await index({}, COLORS);
    const task = await run(server, 'POST', `/indexes/${uid}/documents/delete`, { filter: 'doggo = bernese' });
    expect(task.status).toBe('failed');
    expect(task.details).toEqual({ providedIds: 0, deletedDocuments: 0, originalFilter: '"doggo = bernese"' });
    expect(task.error).toEqual({
      message: `Index \`${uid}\`: Attribute \`doggo\` is not filterable. This index does not have configured filterable attributes.\n1:6 doggo = bernese`,
      code: 'invalid_document_filter',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#invalid_document_filter',
    });
    expect((await call(server, 'GET', `/indexes/${uid}/documents`)).body.total).toBe(4);
  });

  it('fails on a missing index', async () => {
    const task = await run(server, 'POST', '/indexes/nope-delete/documents/delete', { filter: 'doggo = bernese' });
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('index_not_found');
    expect(task.details.deletedDocuments).toBe(0);
  });

  it('validates the body before enqueuing anything', async () => {
    const path = '/indexes/any/documents/delete';
    expectError(await call(server, 'POST', path, '"hello"'), 400, 'bad_request', 'Invalid value type: expected an object, but found a string: `"hello"`');
    expectError(await call(server, 'POST', path, { filter: true }), 400, 'invalid_document_filter', 'Invalid syntax for the filter parameter: `expected String, Array, found: true`.');
    expectError(await call(server, 'POST', path, { filter: null }), 400, 'invalid_document_filter', 'Invalid syntax for the filter parameter: `expected String, Array, found: null`.');
    expectError(
      await call(server, 'POST', path, { filter: 'hello' }),
      400,
      'invalid_document_filter',
      'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon` at `hello`.\n1:6 hello',
    );
    for (const filter of ['', '  ', [], [[]]]) {
      expectError(await call(server, 'POST', path, { filter }), 400, 'invalid_document_filter', 'Sending an empty filter is forbidden.');
    }
    expectError(await call(server, 'POST', path, {}), 400, 'missing_document_filter', 'Missing field `filter`');
    expectError(
      await call(server, 'POST', path, { filter: '_foreign(author, id = a1)' }),
      400,
      'feature_not_enabled',
      'using a foreign filter requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873\n10:16 _foreign(author, id = a1)',
    );
  });

  it('works through the meilisearch client', async () => {
    const uid = await index({ filterableAttributes: ['color'] }, COLORS);
    const client = new Meilisearch({ host: server.url });
    const { taskUid } = await client.index(uid).deleteDocuments({ filter: 'color = red' });
    expect((await client.tasks.waitForTask(taskUid, { interval: 20, timeout: 10_000 })).status).toBe('succeeded');
    expect((await client.index(uid).getDocuments()).results.map((doc) => doc.id)).toEqual([1, 2, 3]);
  });
});
