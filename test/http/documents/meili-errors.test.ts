// Port of Meilisearch's crates/meilisearch/tests/documents/errors.rs: query-parameter errors of the list
// route (on an index that does not even exist: they are checked first), filters on a missing index, an
// empty one and an indexed one, the delete-batch body, missing payloads, missing and invalid
// Content-Types and csv delimiters on POST and PUT, delete-by-filter refusals (at the route and in the
// task), fetch-body errors and retrieveVectors on the three read routes. The "Was expecting an
// operation" message lists `_geoPolygon`, and a refused attribute names the "filterable attribute
// patterns", as filter.md (v1.50) has them; the test file predates both. All agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, errorBody, expectError, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { DOCUMENTS, DOCUMENTS_SETTINGS, expectJson, finishedTask, seed, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
/** shared_does_not_exists_index, shared_empty_index and shared_index_with_documents. */
const MISSING = uniqueUid('missing');
const EMPTY = uniqueUid('empty');
const SHARED = uniqueUid('shared');

beforeAll(async () => {
  server = await startServer();
  await succeed(server, 'POST', '/indexes', { uid: EMPTY });
  await seed(server, SHARED, DOCUMENTS, DOCUMENTS_SETTINGS);
});
afterAll(async () => {
  await server.dispose();
});

const EXPECTING_AN_OPERATION =
  'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`';
const ACCEPTED = 'Accepted values for the Content-Type header are: `application/json`, `application/x-ndjson`, `text/csv`';
const notFound = (uid: string) => errorBody('index_not_found', `Index \`${uid}\` not found.`);

describe('get_all_documents_bad_offset / bad_limit', () => {
  it.each(['offset', 'limit'])('refuses a %s that is empty, not a number or negative, before looking for the index', async (param) => {
    for (const raw of ['', 'doggo', '-1']) {
      const query = raw === '' ? `?${param}` : `?${param}=${raw}`;
      const reply = await call(server, 'GET', `/indexes/${uniqueUid()}/documents${query}`);
      expectError(reply, 400, `invalid_document_${param}`, `Invalid value in parameter \`${param}\`: could not parse \`${raw}\` as a positive integer`);
    }
  });
});

describe('get_all_documents_bad_filter', () => {
  it('answers index_not_found on a missing index, whatever the filter', async () => {
    for (const query of ['?filter', '?filter=doggo', '?filter=doggo=bernese']) {
      expectError(await call(server, 'GET', `/indexes/${MISSING}/documents${query}`), 404, 'index_not_found', `Index \`${MISSING}\` not found.`);
    }
  });

  it('takes an empty filter as none on an empty index', async () => {
    const reply = await call(server, 'GET', `/indexes/${EMPTY}/documents?filter`);
    expect(reply.status, reply.text).toBe(200);
    expectJson(reply.body, { results: [], offset: 0, limit: 20, total: 0 });
  });

  it('refuses filter=null, which the query string reads as the JSON null', async () => {
    expectError(await call(server, 'GET', `/indexes/${EMPTY}/documents?filter=null`), 400, 'invalid_document_filter', 'Invalid syntax for the filter parameter: `expected String, Array, found: null`.');
  });

  it('refuses a filter without an operation and an attribute the index cannot filter', async () => {
    expectError(await call(server, 'GET', `/indexes/${EMPTY}/documents?filter=doggo`), 400, 'invalid_document_filter', `${EXPECTING_AN_OPERATION} at \`doggo\`.\n1:6 doggo`);
    expectError(
      await call(server, 'GET', `/indexes/${EMPTY}/documents?filter=doggo=bernese`),
      400,
      'invalid_document_filter',
      'Attribute `doggo` is not filterable. This index does not have configured filterable attributes.\n1:6 doggo=bernese',
    );
  });
});

describe('delete_documents_batch', () => {
  it('refuses a body that is not an array with the JSON deserializer message', async () => {
    const reply = await call(server, 'POST', `/indexes/${uniqueUid()}/documents/delete-batch`, '"doggo"');
    expectError(reply, 400, 'bad_request', 'Json deserialize error: invalid type: string "doggo", expected a sequence at line 1 column 7');
  });
});

describe.each([
  ['replace', 'POST'],
  ['update', 'PUT'],
])('%s_documents', (_name, method) => {
  const add = (headers: Record<string, string>, query = '') => callRaw(server, method, `/indexes/${uniqueUid()}/documents${query}`, '', headers);

  it('missing_payload: an empty body is a missing payload of the Content-Type given', async () => {
    for (const [type, format] of [
      ['application/json', 'json'],
      ['application/x-ndjson', 'ndjson'],
      ['text/csv', 'csv'],
    ]) {
      expectError(await add({ 'content-type': type }), 400, 'missing_payload', `A ${format} payload is missing.`);
    }
  });

  it('missing_content_type: refused before the csv delimiter is looked at', async () => {
    const message = `A Content-Type header is missing. ${ACCEPTED}`;
    expectError(await add({}), 415, 'missing_content_type', message);
    expectError(await add({}, '?csvDelimiter=;'), 415, 'missing_content_type', message);
  });

  it('bad_content_type: echoes a Content-Type that is not a media type', async () => {
    expectError(await add({ 'content-type': 'doggo' }), 415, 'invalid_content_type', `The Content-Type \`doggo\` is invalid. ${ACCEPTED}`);
  });

  it('bad_csv_delimiter: empty, several characters, non-ASCII', async () => {
    const json = { 'content-type': 'application/json' };
    const prefix = 'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found';
    expectError(await add(json, '?csvDelimiter'), 400, 'invalid_document_csv_delimiter', `${prefix} an empty string`);
    expectError(await add(json, '?csvDelimiter=doggo'), 400, 'invalid_document_csv_delimiter', `${prefix} the following string of 5 characters: \`doggo\``);
    expectError(
      await add(json, `?csvDelimiter=${encodeURIComponent('🍰')}`),
      400,
      'invalid_document_csv_delimiter',
      'csv delimiter must be an ascii character. Found: `🍰`',
    );
  });

  it('a skipCreation that is not a boolean: the message stands alone, as v1.50 builds it', async () => {
    expectError(await add({ 'content-type': 'application/json' }, '?skipCreation=maybe'), 400, 'invalid_skip_creation', 'skipCreation must be either `true` or `false`. Found: `maybe`');
  });

  it('csv_delimiter_with_bad_content_type: JSON and NDJSON refuse a delimiter', async () => {
    for (const type of ['application/json', 'application/x-ndjson']) {
      expectError(
        await add({ 'content-type': type }, '?csvDelimiter=a'),
        415,
        'invalid_content_type',
        `The Content-Type \`${type}\` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type \`text/csv\`.`,
      );
    }
  });
});

describe('delete_document_by_filter', () => {
  const deleteByFilter = (uid: string, body: unknown) => call(server, 'POST', `/indexes/${uid}/documents/delete`, body);

  it('refuses at the route: a body that is no object, a filter of the wrong type, bad syntax, an empty filter, no filter', async () => {
    const uid = uniqueUid();
    expectError(await deleteByFilter(uid, '"hello"'), 400, 'bad_request', 'Invalid value type: expected an object, but found a string: `"hello"`');
    expectError(
      await deleteByFilter(uid, { filter: true }),
      400,
      'invalid_document_filter',
      'Invalid syntax for the filter parameter: `expected String, Array, found: true`.',
    );
    expectError(await deleteByFilter(uid, { filter: 'hello' }), 400, 'invalid_document_filter', `${EXPECTING_AN_OPERATION} at \`hello\`.\n1:6 hello`);
    expectError(await deleteByFilter(uid, { filter: '' }), 400, 'invalid_document_filter', 'Sending an empty filter is forbidden.');
    expectError(await deleteByFilter(uid, {}), 400, 'missing_document_filter', 'Missing field `filter`');
  });

  /** Enqueues a deletion by `filter` on `uid` and returns the failed task, its run-dependent fields blanked. */
  async function failedDeletion(uid: string, filter: string): Promise<any> {
    const reply = await deleteByFilter(uid, { filter });
    expect(reply.status, reply.text).toBe(202);
    return stable(await waitTask(server, reply.body.taskUid));
  }

  const failed = (uid: string, filter: string, error: object) =>
    finishedTask({
      uid: expect.any(Number),
      indexUid: uid,
      status: 'failed',
      type: 'documentDeletion',
      details: { providedIds: 0, deletedDocuments: 0, originalFilter: JSON.stringify(filter) },
      error,
    });

  it('fails the task with index_not_found on a missing index', async () => {
    const task = await failedDeletion(MISSING, 'doggo = bernese');
    expect(task).toStrictEqual(failed(MISSING, 'doggo = bernese', notFound(MISSING)));
  });

  it('fails the task, prefixed with the index, when the index has no filterable attributes', async () => {
    const task = await failedDeletion(EMPTY, 'doggo = bernese');
    const message = `Index \`${EMPTY}\`: Attribute \`doggo\` is not filterable. This index does not have configured filterable attributes.\n1:6 doggo = bernese`;
    expect(task).toStrictEqual(failed(EMPTY, 'doggo = bernese', errorBody('invalid_document_filter', message)));
  });

  it('fails the task, listing the filterable attributes, when the attribute is not one of them', async () => {
    const task = await failedDeletion(SHARED, 'catto = jorts');
    const message = `Index \`${SHARED}\`: Attribute \`catto\` is not filterable. Available filterable attribute patterns are: \`id\`, \`title\`.\n1:6 catto = jorts`;
    expect(task).toStrictEqual(failed(SHARED, 'catto = jorts', errorBody('invalid_document_filter', message)));
  });
});

describe('fetch_document_by_filter', () => {
  let uid: string;
  beforeAll(async () => {
    uid = uniqueUid();
    await succeed(server, 'PUT', `/indexes/${uid}/settings/filterable-attributes`, ['color']);
    await succeed(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, [{ id: 0, color: 'red' }, { id: 1, color: 'blue' }, { id: 2, color: 'blue' }, { id: 3 }]);
  });
  const fetchDocuments = (body: unknown) => call(server, 'POST', `/indexes/${uid}/documents/fetch`, body);

  it('refuses a null body and fields of the wrong type with their own codes', async () => {
    expectError(await fetchDocuments('null'), 400, 'bad_request', 'Invalid value type: expected an object, but found null');
    const wrong = (field: string, kind: string) => `Invalid value type at \`.${field}\`: expected ${kind}, but found a string: \`"doggo"\``;
    expectError(await fetchDocuments({ offset: 'doggo' }), 400, 'invalid_document_offset', wrong('offset', 'a positive integer'));
    expectError(await fetchDocuments({ limit: 'doggo' }), 400, 'invalid_document_limit', wrong('limit', 'a positive integer'));
    expectError(await fetchDocuments({ fields: 'doggo' }), 400, 'invalid_document_fields', wrong('fields', 'an array'));
  });

  it('refuses a filter of the wrong type, without an operation, or on an attribute that is not filterable', async () => {
    expectError(
      await fetchDocuments({ filter: true }),
      400,
      'invalid_document_filter',
      'Invalid syntax for the filter parameter: `expected String, Array, found: true`.',
    );
    expectError(await fetchDocuments({ filter: 'cool doggo' }), 400, 'invalid_document_filter', `${EXPECTING_AN_OPERATION} at \`cool doggo\`.\n1:11 cool doggo`);
    expectError(
      await fetchDocuments({ filter: 'doggo = bernese' }),
      400,
      'invalid_document_filter',
      'Attribute `doggo` is not filterable. Available filterable attribute patterns are: `color`.\n1:6 doggo = bernese',
    );
  });
});

describe('retrieve_vectors', () => {
  it('refuses a retrieveVectors that is not a boolean on GET list, POST fetch and GET one', async () => {
    const parse = 'Invalid value in parameter `retrieveVectors`: could not parse `tamo` as a boolean, expected either `true` or `false`';
    expectError(await call(server, 'GET', `/indexes/${EMPTY}/documents?retrieveVectors=tamo`), 400, 'invalid_document_retrieve_vectors', parse);
    expectError(
      await call(server, 'POST', `/indexes/${EMPTY}/documents/fetch`, { retrieveVectors: 'tamo' }),
      400,
      'invalid_document_retrieve_vectors',
      'Invalid value type at `.retrieveVectors`: expected a boolean, but found a string: `"tamo"`',
    );
    expectError(await call(server, 'GET', `/indexes/${EMPTY}/documents/0?retrieveVectors=tamo`), 400, 'invalid_document_retrieve_vectors', parse);
  });
});
