// Port of Meilisearch's crates/meilisearch/tests/documents/delete_documents.rs: deleting one document, a
// batch, all of them or by filter (string and array forms), on missing, empty and filled indexes, with
// the 202 summaries, the finished tasks, the index stats and the documents left. The stats carry
// `rawDocumentDbSize` and `avgDocumentSize` as indexes.md (v1.50) lists them; the test file predates
// them, so only their place and type are checked. All agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, stable, SUMMARY_KEYS, uniqueUid, waitTask, type Reply } from '../../helpers/api.js';
import { expectJson, finishedTask, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

/** The 202 answer of an enqueuing route: exactly a summarized task of `type` on `uid`. */
function expectSummary(reply: Reply, uid: string, type: string): number {
  expect(reply.status, reply.text).toBe(202);
  expect(Object.keys(reply.body)).toEqual(SUMMARY_KEYS);
  expect(reply.body).toMatchObject({ indexUid: uid, status: 'enqueued', type });
  return reply.body.taskUid;
}

/** Enqueues, checks the summary, and returns the finished task with its run-dependent fields blanked. */
async function deletion(method: string, path: string, uid: string, body?: unknown): Promise<any> {
  const taskUid = expectSummary(await call(server, method, path, body), uid, 'documentDeletion');
  const task = stable(await waitTask(server, taskUid));
  expect(task.uid).toBe(taskUid);
  return task;
}

/** A finished documentDeletion task as Meilisearch shows it. */
const deletionTask = (uid: string, status: string, details: object, error: object | null = null) =>
  finishedTask({ uid: expect.any(Number), indexUid: uid, status, type: 'documentDeletion', details, error });

const notFound = (uid: string) => errorBody('index_not_found', `Index \`${uid}\` not found.`);

async function documents(uid: string): Promise<any> {
  const reply = await call(server, 'GET', `/indexes/${uid}/documents`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** The index stats, with the two byte sizes checked for their place and type only. */
async function stats(uid: string): Promise<object> {
  const reply = await call(server, 'GET', `/indexes/${uid}/stats`);
  expect(reply.status, reply.text).toBe(200);
  expect(Object.keys(reply.body)).toEqual([
    'numberOfDocuments',
    'rawDocumentDbSize',
    'avgDocumentSize',
    'isIndexing',
    'numberOfEmbeddings',
    'numberOfEmbeddedDocuments',
    'fieldDistribution',
  ]);
  expect(typeof reply.body.rawDocumentDbSize).toBe('number');
  expect(typeof reply.body.avgDocumentSize).toBe('number');
  const { rawDocumentDbSize: _raw, avgDocumentSize: _avg, ...rest } = reply.body;
  return rest;
}

const emptyPage = { results: [], offset: 0, limit: 20, total: 0 };

describe('deleting one document', () => {
  it('delete_one_document_unexisting_index: the task fails with index_not_found', async () => {
    const uid = uniqueUid();
    const task = await deletion('DELETE', `/indexes/${uid}/documents/0`, uid);
    expect(task).toStrictEqual(deletionTask(uid, 'failed', { providedIds: 1, deletedDocuments: 0, originalFilter: null }, notFound(uid)));
  });

  it('delete_one_unexisting_document: the task succeeds, deleting nothing', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', '/indexes', { uid });
    const task = await deletion('DELETE', `/indexes/${uid}/documents/0`, uid);
    expect(task).toStrictEqual(deletionTask(uid, 'succeeded', { providedIds: 1, deletedDocuments: 0, originalFilter: null }));
  });

  it('delete_one_document: the document is gone', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', `/indexes/${uid}/documents`, [{ id: 0, content: 'foobar' }]);
    const task = await deletion('DELETE', `/indexes/${uid}/documents/0`, uid);
    expect(task).toStrictEqual(deletionTask(uid, 'succeeded', { providedIds: 1, deletedDocuments: 1, originalFilter: null }));
    expect((await call(server, 'GET', `/indexes/${uid}/documents/0`)).status).toBe(404);
  });
});

describe('clearing all documents', () => {
  it('clear_all_documents_unexisting_index: the task fails with index_not_found', async () => {
    const uid = uniqueUid();
    const task = await deletion('DELETE', `/indexes/${uid}/documents`, uid);
    expect(task).toStrictEqual(deletionTask(uid, 'failed', { deletedDocuments: 0 }, notFound(uid)));
  });

  it('clear_all_documents: no document is left', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, content: 'foobar' }, { id: 0, content: 'foobar' }]);
    const task = await deletion('DELETE', `/indexes/${uid}/documents`, uid);
    expect(task).toStrictEqual(deletionTask(uid, 'succeeded', { deletedDocuments: 2 }));
    expectJson(await documents(uid), emptyPage);
  });

  it('clear_all_documents_empty_index: succeeds on an index without documents', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', '/indexes', { uid });
    const task = await deletion('DELETE', `/indexes/${uid}/documents`, uid);
    expect(task).toStrictEqual(deletionTask(uid, 'succeeded', { deletedDocuments: 0 }));
    expectJson(await documents(uid), emptyPage);
  });
});

describe('deleting a batch of ids', () => {
  const THREE = [
    { id: 1, content: 'foobar' },
    { id: 0, content: 'foobar' },
    { id: 3, content: 'foobar' },
  ];

  it('error_delete_batch_unexisting_index: the task fails with index_not_found', async () => {
    const uid = uniqueUid();
    const task = await deletion('POST', `/indexes/${uid}/documents/delete-batch`, uid, []);
    expect(task).toStrictEqual(deletionTask(uid, 'failed', { providedIds: 0, deletedDocuments: 0, originalFilter: null }, notFound(uid)));
  });

  it('delete_batch: only the document not named is left', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, THREE);
    const task = await deletion('POST', `/indexes/${uid}/documents/delete-batch`, uid, [1, 0]);
    expect(task).toStrictEqual(deletionTask(uid, 'succeeded', { providedIds: 2, deletedDocuments: 2, originalFilter: null }));
    expectJson(await documents(uid), { results: [{ id: 3, content: 'foobar' }], offset: 0, limit: 20, total: 1 });
  });

  it('delete_no_document_batch: an empty batch deletes nothing', async () => {
    const uid = uniqueUid();
    await succeed(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, THREE);
    const task = await deletion('POST', `/indexes/${uid}/documents/delete-batch`, uid, []);
    expect(task).toStrictEqual(deletionTask(uid, 'succeeded', { providedIds: 0, deletedDocuments: 0, originalFilter: null }));
    expect((await documents(uid)).results).toHaveLength(3);
  });
});

describe('deleting by filter', () => {
  /** An index filterable on `color`, holding `docs`. */
  async function colors(docs: object[]): Promise<string> {
    const uid = uniqueUid('doggo');
    await succeed(server, 'PUT', `/indexes/${uid}/settings/filterable-attributes`, ['color']);
    await succeed(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, docs);
    return uid;
  }

  const byFilter = (uid: string, deleted: number, filter: unknown) =>
    deletionTask(uid, 'succeeded', { providedIds: 0, deletedDocuments: deleted, originalFilter: JSON.stringify(filter) });

  it('delete_document_by_filter: string filters, with the stats and documents after each', async () => {
    const uid = await colors([{ id: 0, color: 'red' }, { id: 1, color: 'blue' }, { id: 2, color: 'blue' }, { id: 3 }]);
    const noEmbeddings = { isIndexing: false, numberOfEmbeddings: 0, numberOfEmbeddedDocuments: 0 };
    expectJson(await stats(uid), { numberOfDocuments: 4, ...noEmbeddings, fieldDistribution: { color: 3, id: 4 } });

    let task = await deletion('POST', `/indexes/${uid}/documents/delete`, uid, { filter: 'color = blue' });
    expect(task).toStrictEqual(byFilter(uid, 2, 'color = blue'));
    expect(task.details.originalFilter).toBe('"color = blue"');
    expectJson(await stats(uid), { numberOfDocuments: 2, ...noEmbeddings, fieldDistribution: { color: 1, id: 2 } });
    expectJson(await documents(uid), { results: [{ id: 0, color: 'red' }, { id: 3 }], offset: 0, limit: 20, total: 2 });

    task = await deletion('POST', `/indexes/${uid}/documents/delete`, uid, { filter: 'color NOT EXISTS' });
    expect(task).toStrictEqual(byFilter(uid, 1, 'color NOT EXISTS'));
    expectJson(await stats(uid), { numberOfDocuments: 1, ...noEmbeddings, fieldDistribution: { color: 1, id: 1 } });
    expectJson(await documents(uid), { results: [{ id: 0, color: 'red' }], offset: 0, limit: 20, total: 1 });
  });

  it('delete_document_by_complex_filter: array filters, AND of the elements and OR inside nested arrays', async () => {
    const uid = await colors([{ id: 0, color: 'red' }, { id: 1, color: 'blue' }, { id: 2, color: 'blue' }, { id: 3, color: 'green' }, { id: 4 }]);

    const and = ['color != red', 'color != green', 'color EXISTS'];
    let task = await deletion('POST', `/indexes/${uid}/documents/delete`, uid, { filter: and });
    expect(task).toStrictEqual(byFilter(uid, 2, and));
    expect(task.details.originalFilter).toBe('["color != red","color != green","color EXISTS"]');
    expectJson(await documents(uid), { results: [{ id: 0, color: 'red' }, { id: 3, color: 'green' }, { id: 4 }], offset: 0, limit: 20, total: 3 });

    const or = [['color = green', 'color NOT EXISTS']];
    task = await deletion('POST', `/indexes/${uid}/documents/delete`, uid, { filter: or });
    expect(task).toStrictEqual(byFilter(uid, 2, or));
    expect(task.details.originalFilter).toBe('[["color = green","color NOT EXISTS"]]');
    expectJson(await documents(uid), { results: [{ id: 0, color: 'red' }], offset: 0, limit: 20, total: 1 });
  });
});

describe('deletions by id batched with additions', () => {
  it('count the distinct ids given, as v1.50 applies them within its document operation', async () => {
    // A long addition to another index holds the scheduler while the two tasks are enqueued
    // together; more documents each try, until they land in one batch.
    for (let attempt = 1; attempt <= 4; attempt++) {
      const uid = uniqueUid();
      await waitTask(server, (await call(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1 }, { id: 2 }])).body.taskUid);
      const filler = Array.from({ length: 20_000 * attempt }, (_, i) => ({ id: i, text: `word${i % 997} other${i % 89} filler text ${i}` }));
      const blocker = (await call(server, 'POST', `/indexes/${uniqueUid()}/documents`, filler)).body.taskUid;
      const deleted = (await call(server, 'POST', `/indexes/${uid}/documents/delete-batch`, [1, 999, '1'])).body.taskUid;
      const added = (await call(server, 'POST', `/indexes/${uid}/documents`, [{ id: 10 }])).body.taskUid;
      await waitTask(server, blocker);
      const [deletion, addition] = [await waitTask(server, deleted), await waitTask(server, added)];
      if (deletion.batchUid !== addition.batchUid) continue;
      expect(deletion).toMatchObject({ status: 'succeeded', details: { providedIds: 3, deletedDocuments: 2, originalFilter: null } });
      return;
    }
    throw new Error('the deletion and the addition never shared a batch');
  });
});
