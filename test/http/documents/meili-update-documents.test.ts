// Port of Meilisearch's crates/meilisearch/tests/documents/update_documents.rs: PUT /documents validates
// the index uid, sets the primary key it is given, merges the top-level fields of an existing document
// (also from a gzip-encoded body), indexes the 77-document test set, fails the task on an invalid or
// missing document id, and re-sorts a document whose facet value changed. All agree. The 77 documents
// are test/helpers/meili-test-set.ts.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, errorBody, expectError, INVALID_UID, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { expectJson, finishedTask, searchBoth, succeed } from '../../helpers/meili-datasets.js';
import { TEST_SET } from '../../helpers/meili-test-set.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

/** Sends `documents` gzip-encoded, as Meilisearch's Encoder::Gzip index does, and waits for the task. */
async function sendGzip(method: string, uid: string, documents: unknown): Promise<any> {
  const body = gzipSync(JSON.stringify(documents));
  const reply = await callRaw(server, method, `/indexes/${uid}/documents`, body, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  expect(reply.status, reply.text).toBe(202);
  return waitTask(server, reply.body.taskUid);
}

/** A finished documentAdditionOrUpdate task, run-dependent fields blanked. */
const additionTask = (uid: string, status: string, details: object, error: object | null = null) =>
  finishedTask({ uid: expect.any(Number), indexUid: uid, status, type: 'documentAdditionOrUpdate', details, error });

async function update(uid: string, documents: unknown, query = ''): Promise<any> {
  const reply = await call(server, 'PUT', `/indexes/${uid}/documents${query}`, documents);
  expect(reply.status, reply.text).toBe(202);
  return stable(await waitTask(server, reply.body.taskUid));
}

describe('PUT /documents', () => {
  it('error_document_update_create_index_bad_uid: refuses an invalid index uid at once', async () => {
    expectError(await call(server, 'PUT', `/indexes/${encodeURIComponent('883  fj!')}/documents`, [{ id: 1 }]), 400, 'invalid_index_uid', INVALID_UID('883  fj!'));
  });

  it('document_update_with_primary_key: creates the index with the primary key given', async () => {
    const uid = uniqueUid();
    const task = await update(uid, [{ primary: 1, content: 'foo' }], '?primaryKey=primary');
    expect(task).toStrictEqual(additionTask(uid, 'succeeded', { receivedDocuments: 1, indexedDocuments: 1 }));
    expect((await call(server, 'GET', `/indexes/${uid}`)).body.primaryKey).toBe('primary');
  });

  it('update_document: merges the new top-level fields into the stored document', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', `/indexes/${uid}/documents`, [{ doc_id: 1, content: 'foo' }]);
    const task = await update(uid, [{ doc_id: 1, other: 'bar' }]);
    expect(task.status).toBe('succeeded');
    expectJson((await call(server, 'GET', `/indexes/${uid}/documents/1`)).body, { doc_id: 1, content: 'foo', other: 'bar' });
  });

  it('update_document_gzip_encoded: the same with gzip-encoded bodies', async () => {
    const uid = uniqueUid();
    expect((await sendGzip('POST', uid, [{ doc_id: 1, content: 'foo' }])).status).toBe('succeeded');
    expect((await sendGzip('PUT', uid, [{ doc_id: 1, other: 'bar' }])).status).toBe('succeeded');
    expectJson((await call(server, 'GET', `/indexes/${uid}/documents/1`)).body, { doc_id: 1, content: 'foo', other: 'bar' });
  });

  it('update_larger_dataset: indexes the 77 documents of the test set', async () => {
    const uid = uniqueUid();
    const task = await update(uid, TEST_SET);
    expect(task).toStrictEqual(additionTask(uid, 'succeeded', { receivedDocuments: 77, indexedDocuments: 77 }));
    expect((await call(server, 'GET', `/indexes/${uid}/documents?limit=1000`)).body.results).toHaveLength(77);
  });
});

describe('document id errors', () => {
  async function indexWithDocid(): Promise<string> {
    const uid = uniqueUid();
    await succeed(server, 'POST', '/indexes', { uid, primaryKey: 'docid' });
    return uid;
  }

  it('error_update_documents_bad_document_id: fails the task with invalid_document_id', async () => {
    const uid = await indexWithDocid();
    const task = await update(uid, [{ docid: 'foo & bar', content: 'foobar' }]);
    const message =
      'Document identifier `"foo & bar"` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.';
    expect(task).toStrictEqual(additionTask(uid, 'failed', { receivedDocuments: 1, indexedDocuments: 0 }, errorBody('invalid_document_id', message)));
  });

  it('error_update_documents_missing_document_id: fails the task with missing_document_id, printing the document', async () => {
    const uid = await indexWithDocid();
    const task = await update(uid, [{ id: '11', content: 'foobar' }]);
    const message = 'Document doesn\'t have a `docid` attribute: `{"id":"11","content":"foobar"}`.';
    expect(task).toStrictEqual(additionTask(uid, 'failed', { receivedDocuments: 1, indexedDocuments: 0 }, errorBody('missing_document_id', message)));
  });
});

describe('update_faceted_document', () => {
  it('a document whose facet value changed moves to its new place under a facet:asc ranking rule', async () => {
    const uid = uniqueUid();
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { rankingRules: ['facet:asc'] });
    const documents = Array.from({ length: 1000 }, (_, id) => ({ doc_id: id, facet: Math.floor(id / 3) }));
    await succeed(server, 'POST', `/indexes/${uid}/documents`, documents);
    await update(uid, [{ doc_id: 9, facet: 1.5 }]);
    const hits = [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 1],
      [5, 1],
      [9, 1.5],
      [6, 2],
      [7, 2],
      [8, 2],
    ].map(([doc_id, facet]) => ({ doc_id, facet }));
    await searchBoth(server, uid, { limit: 10 }, (answer) => expectJson(answer.hits, hits));
  });
});
