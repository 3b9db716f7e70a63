// Port of Meilisearch's crates/meilisearch/tests/documents/add_documents.rs: the 202 summaries of POST and
// PUT for arrays and single objects, request encodings (gzip, deflate, br, and a body that is not the
// encoding it claims), CSV payloads (plain, typed, custom delimiter, bad typed values, ragged records),
// refused and missing Content-Types, malformed JSON and NDJSON, missing payloads, index creation and
// primary keys (given, inferred, a huge integer, several candidates, none), replacement, empty payloads,
// the 77-document test set as JSON and NDJSON, invalid and missing document ids, `_geo` validation and
// geo sorting, the payload size limit and a run of batched additions some of which fail. The server runs
// with Meilisearch's test limit of 10 MiB.
// Divergences found and fixed: a body that is not the gzip it claims got an invented "could not be
// decoded" message; after the 413 the connection hung, so the next request on it never got an answer.
// Where v1.50 differs from the test file: search answers carry `requestUid`, and equal geo distances
// keep document order (see the `_geo` tests).
// Skipped: error_document_field_limit_reached_in_one_document and _over_multiple_documents (65,536
// fields; field-limit.test.ts asserts the same tasks), dry_register_file (the experimental replication
// parameters and their DryRun header, which Quarry does not have).
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, errorBody, expectError, INVALID_UID, nanos, stable, SUMMARY_KEYS, uniqueUid, waitTask, type Reply } from '../../helpers/api.js';
import { expectJson, finishedTask, succeed } from '../../helpers/meili-datasets.js';
import { TEST_SET, TEST_SET_NDJSON } from '../../helpers/meili-test-set.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--http-payload-size-limit', '10 MiB'] });
});
afterAll(async () => {
  await server.dispose();
});

const JSON_TYPE = { 'content-type': 'application/json' };
const ACCEPTED = 'Accepted values for the Content-Type header are: `application/json`, `application/x-ndjson`, `text/csv`';

/** Sends a raw payload to the documents route of `uid`. */
const send = (method: string, uid: string, body: string | Buffer, headers: Record<string, string>, query = '') =>
  callRaw(server, method, `/indexes/${uid}/documents${query}`, body, headers);

/** The 202 answer of an addition: exactly a summarized documentAdditionOrUpdate task on `uid`. */
function expectSummary(reply: Reply, uid: string): number {
  expect(reply.status, reply.text).toBe(202);
  expect(Object.keys(reply.body)).toEqual(SUMMARY_KEYS);
  expect(reply.body).toMatchObject({ indexUid: uid, status: 'enqueued', type: 'documentAdditionOrUpdate' });
  return reply.body.taskUid;
}

/** Waits for the task of a 202 answer and returns it with its run-dependent fields blanked. */
async function finished(reply: Reply, uid: string): Promise<any> {
  const taskUid = expectSummary(reply, uid);
  const task = stable(await waitTask(server, taskUid));
  expect(task.uid).toBe(taskUid);
  return task;
}

/** Adds `documents` as JSON (POST unless told) and returns the finished task. */
const add = async (uid: string, documents: unknown, query = '', method = 'POST') => finished(await send(method, uid, JSON.stringify(documents), JSON_TYPE, query), uid);

/** A finished documentAdditionOrUpdate task, run-dependent fields blanked. */
const additionTask = (uid: string, status: string, received: number, indexed: number, error: object | null = null) =>
  finishedTask({ uid: expect.any(Number), indexUid: uid, status, type: 'documentAdditionOrUpdate', details: { receivedDocuments: received, indexedDocuments: indexed }, error });

async function documents(uid: string, query = ''): Promise<any> {
  const reply = await call(server, 'GET', `/indexes/${uid}/documents${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

const page = (results: object[]) => ({ results, offset: 0, limit: 20, total: results.length });

describe('content types and encodings', () => {
  it('add_documents_test_json_content_types: POST and PUT answer a summarized task for an array', async () => {
    const uid = uniqueUid('dog');
    const body = JSON.stringify([{ id: 1, content: 'Bouvier Bernois' }]);
    const first = expectSummary(await send('POST', uid, body, JSON_TYPE), uid);
    expect(expectSummary(await send('PUT', uid, body, JSON_TYPE), uid)).toBe(first + 1);
  });

  it('add_single_document_test_json_content_types: and for a single object', async () => {
    const uid = uniqueUid('dog');
    const body = JSON.stringify({ id: 1, content: 'Bouvier Bernois' });
    const task = await finished(await send('POST', uid, body, JSON_TYPE), uid);
    expect(task).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
    expect((await finished(await send('PUT', uid, body, JSON_TYPE), uid)).status).toBe('succeeded');
  });

  it('add_single_document_gzip_encoded: a gzip-encoded single object, on POST and PUT', async () => {
    const uid = uniqueUid('dog');
    const body = gzipSync(JSON.stringify({ id: 1, content: 'Bouvier Bernois' }));
    const headers = { ...JSON_TYPE, 'content-encoding': 'gzip' };
    expect((await finished(await send('POST', uid, body, headers), uid)).status).toBe('succeeded');
    expect((await finished(await send('PUT', uid, body, headers), uid)).status).toBe('succeeded');
    expectJson(await documents(uid), page([{ id: 1, content: 'Bouvier Bernois' }]));
  });

  it('add_single_document_gzip_encoded_with_incomplete_error: a body that is no gzip is refused, on POST and PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      const reply = await send(method, uniqueUid('dog'), '"kefir"', { ...JSON_TYPE, 'content-encoding': 'gzip' });
      expectError(reply, 400, 'bad_request', 'The provided payload is incomplete and cannot be parsed');
    }
  });

  it('add_single_document_with_every_encoding: plain, gzip, deflate and br each enqueue the next task', async () => {
    const uid = uniqueUid('dog');
    const document = JSON.stringify({ id: 1, content: 'Bouvier Bernois' });
    const encoded: [string | undefined, Buffer][] = [
      [undefined, Buffer.from(document)],
      ['gzip', gzipSync(document)],
      ['deflate', deflateSync(document)],
      ['br', brotliCompressSync(document)],
    ];
    const uids: number[] = [];
    for (const [encoding, body] of encoded) {
      uids.push(expectSummary(await send('POST', uid, body, encoding === undefined ? JSON_TYPE : { ...JSON_TYPE, 'content-encoding': encoding }), uid));
    }
    expect(uids).toEqual(uids.map((_, i) => uids[0]! + i));
    for (const taskUid of uids) expect((await waitTask(server, taskUid)).status).toBe('succeeded');
  });

  it('(documents.md §3.1) a charset parameter changes nothing: JSON, NDJSON and CSV are read the same', async () => {
    const uid = uniqueUid('dog');
    for (const [type, body] of [
      ['application/json; charset=utf-8', '[{"id":1,"content":"Bouvier Bernois"}]'],
      ['application/x-ndjson; charset=UTF-8', '{"id":2,"content":"Leonberg"}'],
      ['text/csv;charset=utf-8', 'id,content\n3,Gläss'],
    ]) {
      expect((await finished(await send('POST', uid, body!, { 'content-type': type! }), uid)).status, type).toBe('succeeded');
    }
    expect((await documents(uid)).results).toEqual([
      { id: 1, content: 'Bouvier Bernois' },
      { id: 2, content: 'Leonberg' },
      { id: '3', content: 'Gläss' },
    ]);
  });

  it('error_add_documents_test_bad_content_types: text/plain is refused on POST and PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      const reply = await send(method, uniqueUid('dog'), '[{"id":1,"content":"Leonberg"}]', { 'content-type': 'text/plain' });
      expectError(reply, 415, 'invalid_content_type', `The Content-Type \`text/plain\` is invalid. ${ACCEPTED}`);
    }
  });

  it('error_add_documents_test_no_content_type: a missing Content-Type is refused on POST and PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      const reply = await send(method, uniqueUid('dog'), '[{"id":1,"content":"Leonberg"}]', {});
      expectError(reply, 415, 'missing_content_type', `A Content-Type header is missing. ${ACCEPTED}`);
    }
  });
});

describe('CSV payloads', () => {
  const CSV = { 'content-type': 'text/csv' };

  /** PUTs `csv` (with `query`) to a new index: both rows added, untyped columns read as strings. */
  async function expectJeanAndJorts(csv: string, query = ''): Promise<void> {
    const uid = uniqueUid('pets');
    const task = await finished(await send('PUT', uid, csv, CSV, query), uid);
    expect(task).toStrictEqual(additionTask(uid, 'succeeded', 2, 2));
    expectJson(
      await documents(uid),
      page([
        { '#id': '0', name: 'jean', race: 'bernese mountain' },
        { '#id': '1', name: 'jorts', race: 'orange cat' },
      ]),
    );
  }

  it('add_csv_document: untyped columns are strings, the #id primary key included', async () => {
    await expectJeanAndJorts('#id,name,race\n0,jean,bernese mountain\n1,jorts,orange cat');
  });

  it('add_csv_document_with_types: number, string and boolean columns, empty cells null', async () => {
    const uid = uniqueUid('pets');
    const csv = '#id:number,name:string,race:string,age:number,cute:boolean\n0,jean,bernese mountain,2.5,true\n1,,,,\n2,lilou,pug,-2,false';
    const task = await finished(await send('PUT', uid, csv, CSV), uid);
    expect(task).toStrictEqual(additionTask(uid, 'succeeded', 3, 3));
    // the raw text too: integers stay integers, 2.5 stays 2.5
    const listed = await call(server, 'GET', `/indexes/${uid}/documents`);
    expect(listed.text).toBe(
      JSON.stringify(
        page([
          { '#id': 0, name: 'jean', race: 'bernese mountain', age: 2.5, cute: true },
          { '#id': 1, name: null, race: null, age: null, cute: null },
          { '#id': 2, name: 'lilou', race: 'pug', age: -2, cute: false },
        ]),
      ),
    );
  });

  it('add_csv_document_with_custom_delimiter: csvDelimiter=|', async () => {
    await expectJeanAndJorts('#id|name|race\n0|jean|bernese mountain\n1|jorts|orange cat', '?csvDelimiter=|');
  });

  it('add_csv_document_with_types_error: a cell that is no boolean, then no number', async () => {
    const uid = uniqueUid('pets');
    expectError(
      await send('PUT', uid, '#id:number,a:boolean,b:number\n0,doggo,1', CSV),
      400,
      'malformed_payload',
      'The `csv` payload provided is malformed: `Error parsing boolean "doggo" at line 1: provided string was not `true` or `false``.',
    );
    expectError(
      await send('PUT', uid, '#id:number,a:boolean,b:number\n0,true,doggo', CSV),
      400,
      'malformed_payload',
      'The `csv` payload provided is malformed: `Error parsing number "doggo" at line 1: invalid float literal`.',
    );
  });

  it('error_add_malformed_csv_documents: a record with more fields than the header, on POST and PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      expectError(
        await send(method, uniqueUid('dog'), 'id, content\n1234, hello, world\n12, hello world', CSV),
        400,
        'malformed_payload',
        'The `csv` payload provided is malformed: `CSV error: record 1 (line: 2, byte: 12): found record with 3 fields, but the previous record has 2 fields`.',
      );
    }
  });
});

describe('malformed and missing payloads', () => {
  it('error_add_malformed_json_documents: a key that is no string, on POST and PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      expectError(
        await send(method, uniqueUid('dog'), '[{"id": 1}, {id: 2}]', JSON_TYPE),
        400,
        'malformed_payload',
        "The `json` payload provided is malformed. `Couldn't serialize document value: key must be a string at line 1 column 14`.",
      );
    }
  });

  it('error_add_malformed_json_documents: a string of 100 or 101 characters is neither an object nor a list', async () => {
    const long = '0123456789'.repeat(10);
    for (const text of [long, `${long}m`]) {
      expectError(
        await send('PUT', uniqueUid('dog'), JSON.stringify(text), JSON_TYPE),
        400,
        'malformed_payload',
        "The `json` payload provided is malformed. `Couldn't serialize document value: data are neither an object nor a list of objects`.",
      );
    }
  });

  it('error_add_malformed_ndjson_documents: the position is counted in the whole payload, on POST and PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      expectError(
        await send(method, uniqueUid('dog'), '{"id": 1}\n{id: 2}', { 'content-type': 'application/x-ndjson' }),
        400,
        'malformed_payload',
        "The `ndjson` payload provided is malformed. `Couldn't serialize document value: key must be a string at line 2 column 2`.",
      );
    }
  });

  it('error_add_missing_payload_csv/json/ndjson_documents: an empty body, on POST and PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      for (const [type, format] of [
        ['text/csv', 'csv'],
        ['application/json', 'json'],
        ['application/x-ndjson', 'ndjson'],
      ]) {
        expectError(await send(method, uniqueUid('dog'), '', { 'content-type': type }), 400, 'missing_payload', `A ${format} payload is missing.`);
      }
    }
  });

  it('error_add_documents_payload_size: a payload over 10 MiB answers 413', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', '/indexes', { uid, primaryKey: 'id' });
    const document = {
      id: '11',
      content:
        'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Donec metus erat, consequat in blandit venenatis, ultricies eu ipsum. Etiam luctus elit et mollis ultrices. Nam turpis risus, dictum non eros in, eleifend feugiat elit. Morbi non dolor pulvinar, sagittis mi sed, ultricies lorem. Nulla ultricies sem metus. Donec at suscipit quam, sed elementum mi. Suspendisse potenti. Fusce pharetra turpis tortor, sed eleifend odio dapibus ut. Nulla facilisi. Suspendisse elementum, dui eget aliquet dignissim, ex tellus aliquam nisl, at eleifend nisl metus tempus diam. Mauris fermentum sollicitudin efficitur. Donec dignissim est vitae elit finibus faucibus',
    };
    const reply = await send('POST', uid, JSON.stringify(Array.from({ length: 16_000 }, () => document)), JSON_TYPE);
    expectError(reply, 413, 'payload_too_large', 'The provided payload reached the size limit. The maximum accepted payload size is 10 MiB.');
  });
});

describe('indexes and primary keys', () => {
  it('add_documents_no_index_creation: the addition creates the index and infers the primary key', async () => {
    const uid = uniqueUid('test');
    const reply = await send('POST', uid, JSON.stringify([{ id: 1, content: 'foo' }]), JSON_TYPE);
    const raw = await waitTask(server, expectSummary(reply, uid));
    expect(nanos(raw.finishedAt) > nanos(raw.enqueuedAt)).toBe(true);
    expect(stable(raw)).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
    expect((await call(server, 'GET', `/indexes/${uid}`)).body.primaryKey).toBe('id');
  });

  it('error_document_add_create_index_bad_uid: refuses an invalid index uid at once', async () => {
    expectError(await call(server, 'POST', `/indexes/${encodeURIComponent('883  fj!')}/documents`, [{ id: 1 }]), 400, 'invalid_index_uid', INVALID_UID('883  fj!'));
  });

  it('document_addition_with_primary_key: the index gets the primary key given', async () => {
    const uid = uniqueUid('test');
    expect(await add(uid, [{ primary: 1, content: 'foo' }], '?primaryKey=primary')).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
    const index = await call(server, 'GET', `/indexes/${uid}`);
    expect(Object.keys(index.body)).toEqual(['uid', 'createdAt', 'updatedAt', 'primaryKey']);
    expect(index.body).toMatchObject({ uid, primaryKey: 'primary' });
  });

  it('document_addition_with_huge_int_primary_key: a u64 id comes back with all its digits', async () => {
    const uid = uniqueUid('test');
    const task = await finished(await send('POST', uid, '[{"primary": 14630868576586246730, "content": "foo"}]', JSON_TYPE, '?primaryKey=primary'), uid);
    expect(task).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
    const reply = await call(server, 'GET', `/indexes/${uid}/documents/14630868576586246730`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toBe('{"primary":14630868576586246730,"content":"foo"}');
  });

  it('replace_document: POST replaces the whole stored document', async () => {
    const uid = uniqueUid('test');
    await add(uid, [{ doc_id: 1, content: 'foo' }]);
    expect(await add(uid, [{ doc_id: 1, other: 'bar' }])).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
    expectJson((await call(server, 'GET', `/indexes/${uid}/documents/1`)).body, { doc_id: 1, other: 'bar' });
  });

  it('add_no_documents: empty payloads succeed with 0/0, and a primary key given with one is kept', async () => {
    const uid = uniqueUid('kefir');
    expect(await add(uid, [])).toStrictEqual(additionTask(uid, 'succeeded', 0, 0));
    expect(await add(uid, [], '?primaryKey=kefkef')).toStrictEqual(additionTask(uid, 'succeeded', 0, 0));
    // nothing ends with `id`: only the primary key set by the previous task lets this one succeed
    expect(await add(uid, [{ kefkef: 1 }])).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
    expectJson(await documents(uid), page([{ kefkef: 1 }]));
  });

  it('error_primary_key_inference: no candidate, several, then a single one', async () => {
    const uid = uniqueUid('test');
    expect(await add(uid, [{ title: '11', desc: 'foobar' }])).toStrictEqual(
      additionTask(
        uid,
        'failed',
        1,
        0,
        errorBody(
          'index_primary_key_no_candidate_found',
          'The primary key inference failed as the engine did not find any field ending with `id` in its name. Please specify the primary key manually using the `primaryKey` query parameter.',
        ),
      ),
    );
    expect(await add(uid, [{ primary_id: '12', object_id: '42', id: '124', title: '11', desc: 'foobar' }])).toStrictEqual(
      additionTask(
        uid,
        'failed',
        1,
        0,
        errorBody(
          'index_primary_key_multiple_candidates_found',
          "The primary key inference failed as the engine found 3 fields ending with `id` in their names: 'id' and 'object_id'. Please specify the primary key manually using the `primaryKey` query parameter.",
        ),
      ),
    );
    expect(await add(uid, [{ primary_id: '12', title: '11', desc: 'foobar' }])).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
  });

  it('add_documents_with_primary_key_twice: the same primary key may be given again', async () => {
    const uid = uniqueUid('test');
    const docs = [{ title: '11', desc: 'foobar' }];
    expect((await add(uid, docs, '?primaryKey=title')).status).toBe('succeeded');
    expect((await add(uid, docs, '?primaryKey=title')).status).toBe('succeeded');
  });
});

describe('the test set', () => {
  it('add_larger_dataset: 77 documents as JSON, and as NDJSON into another index', async () => {
    const json = uniqueUid('test');
    expect(await add(json, TEST_SET)).toStrictEqual(additionTask(json, 'succeeded', 77, 77));
    expect((await documents(json, '?limit=1000')).results).toHaveLength(77);

    const ndjson = uniqueUid('test');
    const task = await finished(await send('POST', ndjson, TEST_SET_NDJSON, { 'content-type': 'application/x-ndjson' }), ndjson);
    expect(task).toStrictEqual(additionTask(ndjson, 'succeeded', 77, 77));
    expectJson((await documents(ndjson, '?limit=1000')).results, (await documents(json, '?limit=1000')).results);
  });
});

describe('document ids', () => {
  async function indexWithDocid(): Promise<string> {
    const uid = uniqueUid('test');
    await succeed(server, 'POST', '/indexes', { uid, primaryKey: 'docid' });
    return uid;
  }

  const invalidId = (value: string) =>
    errorBody(
      'invalid_document_id',
      `Document identifier \`${JSON.stringify(value)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
    );

  it('error_add_documents_bad_document_id: unsupported characters, 600 bytes and exactly 512 bytes', async () => {
    const uid = await indexWithDocid();
    for (const docid of ['foo & bar', 'a'.repeat(600), 'a'.repeat(512)]) {
      expect(await add(uid, [{ docid, content: 'foobar' }])).toStrictEqual(additionTask(uid, 'failed', 1, 0, invalidId(docid)));
    }
  });

  it('error_add_documents_missing_document_id: the document is printed as compact JSON', async () => {
    const uid = await indexWithDocid();
    expect(await add(uid, [{ id: '11', content: 'foobar' }])).toStrictEqual(
      additionTask(uid, 'failed', 1, 0, errorBody('missing_document_id', 'Document doesn\'t have a `docid` attribute: `{"id":"11","content":"foobar"}`.')),
    );
  });

  it('error_document_field_limit_reached_in_one_nested_document (and _over_multiple_documents_with_nested_fields): the document they send has only its id and succeeds', async () => {
    const uid = uniqueUid('test');
    await succeed(server, 'POST', '/indexes', { uid, primaryKey: 'id' });
    for (let i = 0; i < 2; i++) expect(await add(uid, [{ id: 'wow' }], '?primaryKey=id', 'PUT')).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
  });
});

describe('_geo', () => {
  const GEO_DOCUMENTS = [{ id: '1' }, { id: '2', _geo: null }, { id: '3', _geo: { lat: 1, lng: 1 } }, { id: '4', _geo: { lat: '1', lng: '1' } }];
  const LILLE = { sort: ['_geoPoint(50.629973371633746,3.0569447399419567):desc'] };

  /** An index sortable on `_geo`, holding GEO_DOCUMENTS. */
  async function geoIndex(): Promise<string> {
    const uid = uniqueUid('doggo');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { sortableAttributes: ['_geo'] });
    expect(await add(uid, GEO_DOCUMENTS)).toStrictEqual(additionTask(uid, 'succeeded', 4, 4));
    return uid;
  }

  async function search(uid: string, body: object): Promise<any> {
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, body);
    expect(reply.status, reply.text).toBe(200);
    // v1.50 adds `requestUid` to every search answer (search.md §5); the test file predates it
    const { processingTimeMs, requestUid, ...rest } = reply.body;
    expect(typeof processingTimeMs).toBe('number');
    expect(requestUid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    return rest;
  }

  const answer = (hits: object[]) => ({ hits, query: '', limit: 20, offset: 0, estimatedTotalHits: 4 });
  // Documents 3 and 4 are at the same distance. The test file's snapshot lists 4 first (milli then
  // popped one document at a time, from the back for `desc`); since meilisearch#5487 (2025) milli's
  // geo sort makes one bucket of the documents within 1 m of each other, which the final tie-break
  // orders by internal id, so v1.50 lists 3 first.

  it('add_documents_with_geo_field: stored as sent; geo sorting puts documents with a location first, equal distances in document order', async () => {
    const uid = await geoIndex();
    expectJson(await documents(uid), page(GEO_DOCUMENTS));
    expectJson(
      await search(uid, LILLE),
      answer([
        { id: '3', _geo: { lat: 1, lng: 1 }, _geoDistance: 5522018 },
        { id: '4', _geo: { lat: '1', lng: '1' }, _geoDistance: 5522018 },
        { id: '1' },
        { id: '2', _geo: null },
      ]),
    );
  });

  it('update_documents_with_geo_field: a partial update keeps the location, new fields go last', async () => {
    const uid = await geoIndex();
    expect(await add(uid, [{ id: '3', doggo: 'kefir' }], '', 'PUT')).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
    expectJson(
      await documents(uid),
      page([{ id: '1' }, { id: '2', _geo: null }, { id: '3', _geo: { lat: 1, lng: 1 }, doggo: 'kefir' }, { id: '4', _geo: { lat: '1', lng: '1' } }]),
    );
    expectJson(
      await search(uid, LILLE),
      answer([
        { id: '3', _geo: { lat: 1, lng: 1 }, doggo: 'kefir', _geoDistance: 5522018 },
        { id: '4', _geo: { lat: '1', lng: '1' }, _geoDistance: 5522018 },
        { id: '1' },
        { id: '2', _geo: null },
      ]),
    );
  });

  it('add_documents_invalid_geo_field: each malformed _geo fails its task, prefixed with the index', async () => {
    const uid = uniqueUid('test');
    await succeed(server, 'POST', '/indexes', { uid, primaryKey: 'id' });
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { sortableAttributes: ['_geo'] });
    const in11 = 'in the document with the id: `"11"`';
    const cases: [id: string, geo: unknown, message: string][] = [
      ['11', 'foobar', `The \`_geo\` field ${in11} is not an object. Was expecting an object with the \`_geo.lat\` and \`_geo.lng\` fields but instead got \`"foobar"\`.`],
      ['11', {}, `Could not find latitude nor longitude ${in11}. Was expecting \`_geo.lat\` and \`_geo.lng\` fields.`],
      ['11', { doggos: 'are good' }, `Could not find latitude nor longitude ${in11}. Was expecting \`_geo.lat\` and \`_geo.lng\` fields.`],
      ['11', { lat: 12 }, `Could not find longitude ${in11}. Was expecting a \`_geo.lng\` field.`],
      ['11', { lng: 12 }, `Could not find latitude ${in11}. Was expecting a \`_geo.lat\` field.`],
      ['11', { lat: true }, `Could not find longitude ${in11}. Was expecting a \`_geo.lng\` field.`],
      ['11', { lng: true }, `Could not find latitude ${in11}. Was expecting a \`_geo.lat\` field.`],
      ['11', { lat: false, lng: true }, `Could not parse latitude nor longitude ${in11}. Was expecting finite numbers but instead got \`false\` and \`true\`.`],
      ['11', { lat: 'doggo' }, `Could not find longitude ${in11}. Was expecting a \`_geo.lng\` field.`],
      ['11', { lng: 'doggo' }, `Could not find latitude ${in11}. Was expecting a \`_geo.lat\` field.`],
      ['11', { lat: 'doggo', lng: 'doggo' }, `Could not parse latitude nor longitude ${in11}. Was expecting finite numbers but instead got \`"doggo"\` and \`"doggo"\`.`],
      ['11', { lat: 1, lng: 2, doggo: 'are the best' }, `The \`_geo\` field ${in11} contains the following unexpected fields: \`{"doggo":"are the best"}\`.`],
      ['12', { lng: null, lat: 67 }, 'Could not parse longitude in the document with the id: `"12"`. Was expecting a finite number but instead got `null`.'],
      ['12', { lng: 35, lat: null }, 'Could not parse latitude in the document with the id: `"12"`. Was expecting a finite number but instead got `null`.'],
      ['13', { lng: null, lat: null }, 'Could not parse latitude nor longitude in the document with the id: `"13"`. Was expecting finite numbers but instead got `null` and `null`.'],
    ];
    for (const [id, geo, message] of cases) {
      const task = await add(uid, [{ id, _geo: geo }]);
      expect(task, JSON.stringify(geo)).toStrictEqual(additionTask(uid, 'failed', 1, 0, errorBody('invalid_document_geo_field', `Index \`${uid}\`: ${message}`)));
    }
  });

  it('add_invalid_geo_and_then_settings: an unchecked _geo is accepted, then making _geo sortable fails', async () => {
    const uid = uniqueUid('test');
    await succeed(server, 'POST', '/indexes', { uid, primaryKey: 'id' });
    expect(await add(uid, [{ id: '11', _geo: { lat: null, lng: null } }])).toStrictEqual(additionTask(uid, 'succeeded', 1, 1));
    const reply = await call(server, 'PATCH', `/indexes/${uid}/settings`, { sortableAttributes: ['_geo'] });
    expect(reply.status, reply.text).toBe(202);
    const task = stable(await waitTask(server, reply.body.taskUid));
    expect(task).toStrictEqual({
      ...additionTask(uid, 'failed', 0, 0),
      type: 'settingsUpdate',
      details: { sortableAttributes: ['_geo'] },
      error: errorBody(
        'invalid_document_geo_field',
        `Index \`${uid}\`: Could not parse latitude nor longitude in the document with the id: \`"11"\`. Was expecting finite numbers but instead got \`null\` and \`null\`.`,
      ),
    });
  });
});

describe('batch_several_documents_addition', () => {
  it('only the additions holding a document without id fail; the others index their documents', async () => {
    const uid = uniqueUid('test');
    const docs: object[] = Array.from({ length: 150 }, (_, id) => ({ id, title: 'foo', desc: 'bar' }));
    const broken = { title: 'error', desc: 'error' };
    /** Sends the five chunks of 30 at once, as join_all does, and waits for their tasks. */
    const sendChunks = async () => {
      const chunks = Array.from({ length: 5 }, (_, i) => docs.slice(i * 30, i * 30 + 30));
      const replies = await Promise.all(chunks.map((chunk) => send('POST', uid, JSON.stringify(chunk), JSON_TYPE, '?primaryKey=id')));
      return Promise.all(replies.map((reply) => waitTask(server, expectSummary(reply, uid))));
    };

    docs[100] = broken;
    expect((await sendChunks()).map((task) => task.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'failed', 'succeeded']);
    docs[40] = broken;
    docs[70] = broken;
    docs[130] = broken;
    expect((await sendChunks()).map((task) => task.status)).toEqual(['succeeded', 'failed', 'failed', 'failed', 'failed']);

    const failed = await call(server, 'GET', `/tasks?indexUids=${uid}&statuses=failed`);
    expect(failed.body.results).toHaveLength(5);
    // 150 minus the 30 of the chunk that failed in both runs
    expect((await documents(uid, '?limit=200')).results).toHaveLength(120);
  });
});
