// The index field limit over HTTP, as Meilisearch's own tests exercise it: an addition that would
// give the index more than 65,536 fields (u16 field ids) fails its task with
// max_fields_limit_exceeded and indexes nothing, whether one document or the index's earlier
// documents bring it over (then the message names the index, as v1.50's full fields map does),
// and the index takes later additions as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, run, stable, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

/** A document with `id` and the numbered fields from `from` up to `to` (excluded). */
function wide(id: string, from: number, to: number): Record<string, string> {
  const doc: Record<string, string> = { id };
  for (let i = from; i < to; i++) doc[String(i)] = 'I am a text!';
  return doc;
}

const LIMIT_ERROR = errorBody('max_fields_limit_exceeded', 'A document cannot contain more than 65,535 fields.');

async function createIndex(): Promise<string> {
  const uid = uniqueUid('fields');
  expect((await run(server, 'POST', '/indexes', { uid, primaryKey: 'id' })).status).toBe('succeeded');
  return uid;
}

async function failsWithTheLimit(uid: string, doc: object, error = LIMIT_ERROR): Promise<void> {
  const task = stable(await run(server, 'PUT', `/indexes/${uid}/documents?primaryKey=id`, [doc]));
  expect(task).toMatchObject({ indexUid: uid, status: 'failed', type: 'documentAdditionOrUpdate', details: { receivedDocuments: 1, indexedDocuments: 0 }, error });
}

async function indexes(uid: string, doc: object): Promise<void> {
  const task = await run(server, 'PUT', `/indexes/${uid}/documents?primaryKey=id`, [doc]);
  expect(task).toMatchObject({ status: 'succeeded', details: { receivedDocuments: 1, indexedDocuments: 1 }, error: null });
}

describe('max_fields_limit_exceeded', () => {
  it('fails the task of one document with 65,537 fields, and a later addition succeeds', async () => {
    const uid = await createIndex();
    await failsWithTheLimit(uid, wide('wow', 0, 65_536));
    expect((await call(server, 'GET', `/indexes/${uid}/documents/wow`)).status).toBe(404);

    await indexes(uid, { id: 'small', title: 'I am a text!' });
    expect((await call(server, 'GET', `/indexes/${uid}/documents`)).body).toMatchObject({ results: [{ id: 'small', title: 'I am a text!' }], total: 1 });
  });

  it('fails the task whose document brings the fields of the index to 65,537, and a later addition of a new field succeeds', async () => {
    const uid = await createIndex();
    await indexes(uid, wide('wow', 0, 32_767));
    await failsWithTheLimit(uid, wide('waw', 32_767, 65_536), errorBody('max_fields_limit_exceeded', `Index \`${uid}\`: A document cannot contain more than 65,535 fields.`));
    expect((await call(server, 'GET', `/indexes/${uid}/documents/waw`)).status).toBe(404);

    // the failed task added none of its fields to the index: a new one still fits
    await indexes(uid, { id: 'small', title: 'I am a text!' });
    const listed = await call(server, 'GET', `/indexes/${uid}/documents?fields=id`);
    expect(listed.body).toMatchObject({ results: [{ id: 'wow' }, { id: 'small' }], total: 2 });
  });
});
