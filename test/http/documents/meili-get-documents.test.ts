// Port of Meilisearch's crates/meilisearch/tests/documents/get_documents.rs: GET one document (with
// `fields`, nested selectors and dotted keys), 404s, GET list on the 77-document test set (defaults,
// limit, offset, `fields`, gzip response, displayedAttributes ignored), sorted lists (two criteria,
// `_geoPoint`, an unsortable attribute, a sortable attribute no document has, documents without the
// field last, pages of ties), and GET list against POST fetch with filters and ids. Skipped:
// get_document_with_vectors (needs an embedder; vectors.test.ts covers `_vectors` on these routes). All
// agree. The 77 documents are test/helpers/meili-test-set.ts.
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid, type Reply } from '../../helpers/api.js';
import { expectJson, succeed } from '../../helpers/meili-datasets.js';
import { TEST_SET } from '../../helpers/meili-test-set.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
/** shared_index_with_test_set */
const TEST_SET_INDEX = uniqueUid('test-set');

beforeAll(async () => {
  server = await startServer();
  await succeed(server, 'POST', `/indexes/${TEST_SET_INDEX}/documents`, TEST_SET);
});
afterAll(async () => {
  await server.dispose();
});

async function ok(reply: Promise<Reply>): Promise<any> {
  const { status, text, body } = await reply;
  expect(status, text).toBe(200);
  return body;
}

const getOne = (uid: string, id: string | number, query = '') => call(server, 'GET', `/indexes/${uid}/documents/${id}${query}`);
const list = (uid: string, query = '') => ok(call(server, 'GET', `/indexes/${uid}/documents${query}`));
const fetchDocuments = (uid: string, body: object) => ok(call(server, 'POST', `/indexes/${uid}/documents/fetch`, body));

/** An index (primary key `id`) holding `documents`, after applying `settings`. */
async function indexWith(documents: object[], settings: object = {}): Promise<string> {
  const uid = uniqueUid();
  await succeed(server, 'POST', '/indexes', { uid });
  if (Object.keys(settings).length > 0) await succeed(server, 'PATCH', `/indexes/${uid}/settings`, settings);
  await succeed(server, 'POST', `/indexes/${uid}/documents`, documents);
  return uid;
}

const page = (results: object[], total = results.length, offset = 0, limit = 20) => ({ results, offset, limit, total });

describe('one document', () => {
  it('get_unexisting_index_single_document: 404 on a missing index', async () => {
    const uid = uniqueUid();
    expectError(await getOne(uid, 1), 404, 'index_not_found', `Index \`${uid}\` not found.`);
  });

  it('error_get_unexisting_document: 404 document_not_found', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', '/indexes', { uid });
    expectError(await getOne(uid, 1), 404, 'document_not_found', 'Document `1` not found.');
  });

  it('get_document: the whole document, or the fields asked for, a nested one included', async () => {
    const uid = await indexWith([{ id: 0, nested: { content: 'foobar' } }]);
    expectJson(await ok(getOne(uid, 0)), { id: 0, nested: { content: 'foobar' } });
    expectJson(await ok(getOne(uid, 0, '?fields=id')), { id: 0 });
    expectJson(await ok(getOne(uid, 0, '?fields=nested.content')), { nested: { content: 'foobar' } });
  });

  it('get_document_s_nested_attributes_to_retrieve: a dotted key is no nested object and the reverse', async () => {
    const uid = await indexWith([
      { id: 0, 'content.truc': 'foobar' },
      { id: 1, content: { truc: 'foobar', machin: 'bidule' } },
    ]);
    expectJson(await ok(getOne(uid, 0, '?fields=content')), {});
    expectJson(await ok(getOne(uid, 1, '?fields=content')), { content: { truc: 'foobar', machin: 'bidule' } });
    expectJson(await ok(getOne(uid, 0, '?fields=content.truc')), { 'content.truc': 'foobar' });
    expectJson(await ok(getOne(uid, 1, '?fields=content.truc')), { content: { truc: 'foobar' } });
  });
});

describe('listing the test set', () => {
  it('error_get_unexisting_index_all_documents: 404 on a missing index', async () => {
    const uid = uniqueUid();
    expectError(await call(server, 'GET', `/indexes/${uid}/documents`), 404, 'index_not_found', `Index \`${uid}\` not found.`);
  });

  it('get_no_document: an empty index lists nothing', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', '/indexes', { uid });
    expectJson(await list(uid), page([]));
  });

  it('get_all_documents_no_options: the first 20, the first one exactly as sent', async () => {
    const body = await list(TEST_SET_INDEX);
    expect(body.results).toHaveLength(20);
    expectJson(body.results[0], TEST_SET[0]);
  });

  it('get_all_documents_no_options_with_response_compression: gzip when the client accepts it', async () => {
    const res = await new Promise<{ encoding: unknown; body: Buffer }>((resolve, reject) => {
      const req = request(`${server.url}/indexes/${TEST_SET_INDEX}/documents?`, { headers: { 'accept-encoding': 'gzip' } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve({ encoding: answer.headers['content-encoding'], body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.body).toString()).results).toHaveLength(20);
  });

  it('test_get_all_documents_limit and _offset: pages from the start or from the offset, total 77', async () => {
    const limited = await list(TEST_SET_INDEX, '?limit=5');
    expect(limited).toMatchObject({ offset: 0, limit: 5, total: 77 });
    expect(limited.results).toHaveLength(5);
    expect(limited.results[0].id).toBe(0);
    const offset = await list(TEST_SET_INDEX, '?offset=5');
    expect(offset).toMatchObject({ offset: 5, limit: 20, total: 77 });
    expect(offset.results).toHaveLength(20);
    expect(offset.results[0].id).toBe(5);
  });

  it('test_get_all_documents_attributes_to_retrieve: named, none, unknown, several, `*` and `*` with an unknown one', async () => {
    const keyCounts = async (query: string) => {
      const body = await list(TEST_SET_INDEX, query);
      expect(body).toMatchObject({ offset: 0, limit: 20, total: 77 });
      expect(body.results).toHaveLength(20);
      return [...new Set(body.results.map((doc: object) => Object.keys(doc).join(',')))];
    };
    expect(await keyCounts('?fields=name')).toEqual(['name']);
    expect(await keyCounts('?fields=')).toEqual(['']);
    expect(await keyCounts('?fields=wrong')).toEqual(['']);
    expect(await keyCounts('?fields=name,tags')).toEqual(['name,tags']);
    const all = Object.keys(TEST_SET[0]).join(',');
    expect(await keyCounts('?fields=*')).toEqual([all]);
    expect(await keyCounts('?fields=*,wrong')).toEqual([all]);
    expect(all.split(',')).toHaveLength(16);
  });

  it('get_documents_displayed_attributes_is_ignored: every field, on the list and on one document', async () => {
    const uid = await indexWith(TEST_SET, { displayedAttributes: ['gender'] });
    const body = await list(uid);
    expect(body).toMatchObject({ offset: 0, limit: 20, total: 77 });
    expect(Object.keys(body.results[0])).toHaveLength(16);
    expect(body.results[0].gender).toBe('male');
    expect(Object.keys(await ok(getOne(uid, 0)))).toHaveLength(16);
  });
});

describe('sorted lists', () => {
  it('get_document_sorted: by age then email descending, and by gender then name, in stored field order', async () => {
    const uid = await indexWith(TEST_SET, { sortableAttributes: ['age', 'email', 'gender', 'name'] });
    const byAge = await list(uid, '?fields=id,age,email&sort=age:asc,email:desc');
    const AGE_EMAIL: [number, number, string][] = [
      [5, 20, 'warrenwatson'],
      [6, 20, 'sheliaberry'],
      [57, 20, 'kaitlinconner'],
      [45, 20, 'irenebennett'],
      [40, 21, 'staffordemerson'],
      [41, 21, 'salinasgamble'],
      [63, 21, 'knowleshebert'],
      [50, 21, 'guerramcintyre'],
      [44, 22, 'jonispears'],
      [56, 23, 'tuckerbarry'],
      [51, 23, 'keycervantes'],
      [60, 23, 'jodyherrera'],
      [70, 23, 'glassperkins'],
      [75, 24, 'emmajacobs'],
      [68, 24, 'angelinadyer'],
      [17, 25, 'ortegabrennan'],
      [76, 25, 'claricegardner'],
      [43, 25, 'arnoldbender'],
      [12, 25, 'aidakirby'],
      [9, 26, 'kellimendez'],
    ];
    expectJson(
      byAge.results,
      AGE_EMAIL.map(([id, age, email]) => ({ id, age, email: `${email}@chorizon.com` })),
    );

    const byGender = await list(uid, '?fields=id,gender,name&sort=gender:asc,name:asc');
    const NAMES: [number, string][] = [
      [3, 'Adeline Flynn'],
      [12, 'Aida Kirby'],
      [68, 'Angelina Dyer'],
      [15, 'Aurelia Contreras'],
      [36, 'Barbra Valenzuela'],
      [23, 'Blanca Mcclain'],
      [53, 'Caitlin Burnett'],
      [71, 'Candace Sawyer'],
      [65, 'Carole Rowland'],
      [33, 'Cecilia Greer'],
      [1, 'Cherry Orr'],
      [38, 'Christina Short'],
      [7, 'Chrystal Boyd'],
      [76, 'Clarice Gardner'],
      [73, 'Eleanor Shepherd'],
      [75, 'Emma Jacobs'],
      [16, 'Estella Bass'],
      [62, 'Estelle Ramirez'],
      [20, 'Florence Long'],
      [42, 'Graciela Russell'],
    ];
    // `name` comes before `gender` in the index's field order, whatever `fields` says
    expectJson(
      byGender.results,
      NAMES.map(([id, name]) => ({ id, name, gender: 'female' })),
    );
  });

  it('get_document_geosorted: by distance to a _geoPoint, documents without _geo last, no _geoDistance added', async () => {
    const [taco, italia, crepe] = [
      { id: 1, name: 'Taco Truck', address: '444 Salsa Street, Burritoville', type: 'Mexican', rating: 9, _geo: { lat: 34.0522, lng: -118.2437 } },
      { id: 2, name: 'La Bella Italia', address: '456 Elm Street, Townsville', type: 'Italian', rating: 9, _geo: { lat: '45.4777599', lng: '9.1967508' } },
      { id: 3, name: 'Crêpe Truck', address: '2 Billig Avenue, Rouenville', type: 'French', rating: 10 },
    ];
    const uid = await indexWith([taco, italia, crepe], { filterableAttributes: ['_geo'], sortableAttributes: ['_geo'] });
    const body = await list(uid, `?sort=${encodeURIComponent('_geoPoint(45.4777599, 9.1967508):asc')}`);
    expectJson(body.results, [italia, taco, crepe]);
  });

  it('get_document_sort_the_unsortable: refuses an attribute of an index without sortable attributes', async () => {
    expectError(
      await call(server, 'GET', `/indexes/${TEST_SET_INDEX}/documents?fields=id,name&sort=name:asc`),
      400,
      'invalid_document_sort',
      'Attribute `name` is not sortable. This index does not have configured sortable attributes.',
    );
  });

  it('test_fetch_documents_pagination_with_sorting: pages through ties in document order', async () => {
    const documents = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `doc_${String(Math.min(i, 5)).padStart(5, '0')}` }));
    const uid = await indexWith(documents, { sortableAttributes: ['name'] });
    for (const [offset, expected] of [
      [0, [[0, 'doc_00000'], [1, 'doc_00001']]],
      [2, [[2, 'doc_00002'], [3, 'doc_00003']]],
      [4, [[4, 'doc_00004'], [5, 'doc_00005']]],
      [6, [[6, 'doc_00005'], [7, 'doc_00005']]],
    ] as const) {
      const body = await fetchDocuments(uid, { offset, limit: 2, sort: ['name:asc'] });
      expectJson(
        body.results,
        expected.map(([id, name]) => ({ id, name })),
      );
    }
  });

  it('get_document_sort_field_not_in_any_document: a sortable attribute no document has leaves the order as is', async () => {
    const uid = await indexWith(
      [
        { id: 1, name: 'Document 1' },
        { id: 2, name: 'Document 2' },
      ],
      { sortableAttributes: ['created_at'] },
    );
    expectJson(await fetchDocuments(uid, { sort: ['created_at:asc'] }), page([{ id: 1, name: 'Document 1' }, { id: 2, name: 'Document 2' }]));
  });

  it('get_document_sort_includes_docs_without_field: ascending, documents without the field come last', async () => {
    const uid = await indexWith(
      [
        { id: 1, name: 'Doc without created_at' },
        { id: 2, name: 'Doc with created_at', created_at: '2025-01-15' },
        { id: 3, name: 'Another doc without created_at' },
        { id: 4, name: 'Another doc with created_at', created_at: '2025-01-10' },
      ],
      { sortableAttributes: ['created_at'] },
    );
    expectJson(
      await fetchDocuments(uid, { sort: ['created_at:asc'] }),
      page([
        { id: 4, name: 'Another doc with created_at', created_at: '2025-01-10' },
        { id: 2, name: 'Doc with created_at', created_at: '2025-01-15' },
        { id: 1, name: 'Doc without created_at' },
        { id: 3, name: 'Another doc without created_at' },
      ]),
    );
  });

  it('get_document_sort_desc_includes_docs_without_field: descending, documents without the field still come last', async () => {
    const uid = await indexWith(
      [
        { id: 1, name: 'Low priority', priority: 1 },
        { id: 2, name: 'No priority' },
        { id: 3, name: 'High priority', priority: 10 },
      ],
      { sortableAttributes: ['priority'] },
    );
    expectJson(
      await fetchDocuments(uid, { sort: ['priority:desc'] }),
      page([
        { id: 3, name: 'High priority', priority: 10 },
        { id: 1, name: 'Low priority', priority: 1 },
        { id: 2, name: 'No priority' },
      ]),
    );
  });
});

describe('POST fetch against GET with filters and ids', () => {
  const COLORS = [{ id: 0, color: 'red' }, { id: 1, color: 'blue' }, { id: 2, color: 'blue' }, { id: 3 }];
  const [red, blue1, blue2, none] = COLORS as [object, object, object, object];
  let uid: string;
  beforeAll(async () => {
    uid = await indexWith(COLORS, { filterableAttributes: ['color'] });
  });

  /** Both routes give `expected`; `query` is the GET form of `body`. */
  async function both(body: object, query: string, expected: object): Promise<void> {
    expectJson(await fetchDocuments(uid, body), expected);
    expectJson(await list(uid, query), expected);
  }

  it('get_document_by_filter: no filter, a filter, a filter with a page, with fields', async () => {
    await both({}, '', page([red, blue1, blue2, none]));
    await both({ filter: 'color = blue' }, '?filter=color=blue', page([blue1, blue2]));
    await both({ offset: 1, limit: 1, filter: 'color != blue' }, '?filter=color!=blue&offset=1&limit=1', page([none], 2, 1, 1));
    await both({ limit: 1, filter: 'color != blue', fields: ['color'] }, '?limit=1&filter=color!=blue&fields=color', page([{ color: 'red' }], 2, 0, 1));
  });

  it('get_document_by_filter: array filters, which only POST can send', async () => {
    expectJson(await fetchDocuments(uid, { filter: [['color = blue', 'color = red']] }), page([red, blue1, blue2]));
    expectJson(await fetchDocuments(uid, { filter: [['color != blue'], 'color EXISTS'] }), page([red]));
  });

  it('get_document_by_ids: ids as strings or integers, in document order, paged, projected; none for []', async () => {
    await both({ ids: ['0', 1, 2, 3] }, '?ids=0,1,2,3', page([red, blue1, blue2, none]));
    await both({ ids: [2, '1'] }, '?ids=2,1', page([blue1, blue2]));
    await both({ offset: 1, limit: 1, ids: ['0', 0, 3] }, '?ids=3,0&offset=1&limit=1', page([none], 2, 1, 1));
    await both({ limit: 1, ids: [0, 3], fields: ['color'] }, '?limit=1&ids=0,3&fields=color', page([{ color: 'red' }], 2, 0, 1));
    expectJson(await fetchDocuments(uid, { ids: [] }), page([]));
  });

  it('get_document_invalid_ids: refuses an id that cannot be a document id, naming its position', async () => {
    const message =
      'In `.ids[1]`: Document identifier `"illegal/docid"` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.';
    expectError(await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { ids: ['0', 'illegal/docid'] }), 400, 'invalid_document_ids', message);
    expectError(await call(server, 'GET', `/indexes/${uid}/documents?ids=0,illegal/docid`), 400, 'invalid_document_ids', message);
  });

  it('get_document_not_found_ids: unknown ids are left out without an error', async () => {
    await both({ ids: ['0', 3, 42] }, '?ids=0,3,42', page([red, none]));
  });

  it('get_document_by_ids_and_filter: the ids and the filter intersect', async () => {
    await both({ ids: [2], filter: 'color = blue' }, '?ids=2&filter=color=blue', page([blue2]));
    await both({ offset: 1, limit: 1, ids: [0, 1, 2, 3], filter: 'color != blue' }, '?ids=0,1,2,3&filter=color!=blue&offset=1&limit=1', page([none], 2, 1, 1));
    await both(
      { limit: 1, ids: [0, 1, 2, 3], filter: 'color != blue', fields: ['color'] },
      '?ids=0,1,2,3&limit=1&filter=color!=blue&fields=color',
      page([{ color: 'red' }], 2, 0, 1),
    );
    expectJson(await fetchDocuments(uid, { ids: [0, '2'], filter: [['color = blue', 'color = red']] }), page([red, blue2]));
    expectJson(await fetchDocuments(uid, { filter: [['color != blue'], 'color EXISTS'], ids: [1, 2, 3] }), page([]));
  });
});
