/**
 * `/indexes` through the real server: creation, listing, reading, update (primary key, rename),
 * deletion, with the exact task objects they produce; and the same calls through the `meilisearch`
 * npm client. Every test uses its own index uids, so the file shares one server.
 */
import { Meilisearch, MeilisearchApiError } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RFC3339, SUMMARY_KEYS, call, errorBody, nanos, run, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let client: Meilisearch;

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
});
afterAll(async () => {
  await server.dispose();
});

const created = (uid: string, primaryKey: string | null = null) => run(server, 'POST', '/indexes', { uid, primaryKey });

describe('POST /indexes', () => {
  it('answers 202 with the summarized task, exactly five keys', async () => {
    const uid = uniqueUid('create');
    const reply = await call(server, 'POST', '/indexes', { uid, primaryKey: 'id' });
    expect(reply.status).toBe(202);
    expect(Object.keys(reply.body)).toEqual(SUMMARY_KEYS);
    expect(reply.body).toMatchObject({ indexUid: uid, status: 'enqueued', type: 'indexCreation' });
    expect(reply.body.enqueuedAt).toMatch(RFC3339);
    await waitTask(server, reply.body.taskUid);
  });

  it('creates the index; the task details carry the primary key given, or null', async () => {
    const uid = uniqueUid('create');
    expect(stable(await created(uid))).toStrictEqual({
      uid: expect.any(Number),
      batchUid: '[batch]',
      indexUid: uid,
      status: 'succeeded',
      type: 'indexCreation',
      canceledBy: null,
      details: { primaryKey: null },
      error: null,
      duration: '[duration]',
      enqueuedAt: '[date]',
      startedAt: '[date]',
      finishedAt: '[date]',
    });
    const other = uniqueUid('create');
    expect((await created(other, 'isbn')).details).toStrictEqual({ primaryKey: 'isbn' });
    expect((await call(server, 'GET', `/indexes/${other}`)).body.primaryKey).toBe('isbn');
  });

  it('creating an index that exists fails the task with index_already_exists, the index untouched', async () => {
    const uid = uniqueUid('twice');
    await created(uid, 'id');
    const before = (await call(server, 'GET', `/indexes/${uid}`)).body;
    const task = await created(uid, 'other');
    expect(stable(task)).toMatchObject({
      status: 'failed',
      details: { primaryKey: 'other' },
      error: errorBody('index_already_exists', `Index \`${uid}\` already exists.`),
    });
    expect(Object.keys(task.error)).toEqual(['message', 'code', 'type', 'link']);
    expect((await call(server, 'GET', `/indexes/${uid}`)).body).toStrictEqual(before);
  });

  it('accepts a uid made of digits, hyphens and underscores, 400 bytes long at most', async () => {
    for (const uid of ['1234', `${uniqueUid('ok')}_-_`, 'x'.repeat(399) + uniqueUid('').slice(-1)]) {
      const task = await created(uid);
      expect(task.status, uid).toBe('succeeded');
    }
  });
});

describe('GET /indexes/{uid}', () => {
  it('answers the index object with its keys in order, createdAt equal to updatedAt after creation', async () => {
    const uid = uniqueUid('get');
    await created(uid, 'id');
    const reply = await call(server, 'GET', `/indexes/${uid}`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['uid', 'createdAt', 'updatedAt', 'primaryKey']);
    expect(reply.body).toMatchObject({ uid, primaryKey: 'id' });
    expect(reply.body.createdAt).toMatch(RFC3339);
    expect(reply.body.updatedAt).toBe(reply.body.createdAt);
  });

  it('is case-sensitive', async () => {
    const uid = uniqueUid('case');
    await created(uid);
    expect((await call(server, 'GET', `/indexes/${uid.toUpperCase()}`)).status).toBe(404);
  });
});

describe('GET /indexes', () => {
  it('lists indexes by uid in byte order with the offset envelope', async () => {
    const prefix = uniqueUid('list');
    for (const suffix of ['b', 'B', 'a']) await created(`${prefix}-${suffix}`);
    const all = await call(server, 'GET', '/indexes?limit=1000');
    expect(Object.keys(all.body)).toEqual(['results', 'offset', 'limit', 'total']);
    expect(all.body).toMatchObject({ offset: 0, limit: 1000, total: all.body.results.length });
    const uids: string[] = all.body.results.map((index: { uid: string }) => index.uid);
    expect(uids).toEqual([...uids].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1)));
    expect(uids.filter((uid) => uid.startsWith(prefix))).toEqual([`${prefix}-B`, `${prefix}-a`, `${prefix}-b`]);

    const page = await call(server, 'GET', '/indexes?offset=1&limit=2');
    expect(page.body).toStrictEqual({ results: all.body.results.slice(1, 3), offset: 1, limit: 2, total: uids.length });
    expect((await call(server, 'GET', '/indexes')).body).toMatchObject({ offset: 0, limit: 20 });
    expect((await call(server, 'GET', `/indexes?offset=${uids.length + 5}`)).body).toStrictEqual({
      results: [],
      offset: uids.length + 5,
      limit: 20,
      total: uids.length,
    });
  });
});

describe('PATCH /indexes/{uid}', () => {
  it('replaces the primary key of an index without documents and moves updatedAt only', async () => {
    const uid = uniqueUid('pk');
    await created(uid, 'id');
    const before = (await call(server, 'GET', `/indexes/${uid}`)).body;
    const task = await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'isbn' });
    expect(stable(task)).toMatchObject({ type: 'indexUpdate', indexUid: uid, status: 'succeeded', details: { primaryKey: 'isbn' } });
    const after = (await call(server, 'GET', `/indexes/${uid}`)).body;
    expect(after).toMatchObject({ uid, primaryKey: 'isbn', createdAt: before.createdAt });
    expect(nanos(after.updatedAt)).toBeGreaterThan(nanos(before.updatedAt));
  });

  it('with an empty body enqueues an update that succeeds and changes nothing', async () => {
    const uid = uniqueUid('noop');
    await created(uid, 'id');
    const before = (await call(server, 'GET', `/indexes/${uid}`)).body;
    const task = await run(server, 'PATCH', `/indexes/${uid}`, {});
    expect(task).toMatchObject({ status: 'succeeded', details: { primaryKey: null } });
    expect((await call(server, 'GET', `/indexes/${uid}`)).body).toStrictEqual(before);
  });

  it('with a new primaryKey after documents exist fails the task with index_primary_key_already_exists', async () => {
    const uid = uniqueUid('pkdocs');
    await created(uid, 'id');
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, isbn: 'x' }])).status).toBe('succeeded');
    const task = await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'isbn' });
    expect(task).toMatchObject({
      status: 'failed',
      details: { primaryKey: 'isbn' },
      error: errorBody('index_primary_key_already_exists', `Index \`${uid}\`: Index already has a primary key: \`id\`.`),
    });
    // The same primary key is no change, so it is accepted.
    expect((await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'id' })).status).toBe('succeeded');
    expect((await call(server, 'GET', `/indexes/${uid}`)).body.primaryKey).toBe('id');
  });

  it('on a missing index fails the task with index_not_found', async () => {
    const uid = uniqueUid('ghost');
    const task = await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'id' });
    expect(stable(task)).toMatchObject({
      indexUid: uid,
      status: 'failed',
      details: { primaryKey: 'id' },
      error: errorBody('index_not_found', `Index \`${uid}\` not found.`),
    });
  });

  it('renames with uid: old and new uids in the details, history relabelled, the task listed under both', async () => {
    const from = uniqueUid('old');
    const to = uniqueUid('new');
    const creation = await created(from, 'id');
    const before = (await call(server, 'GET', `/indexes/${from}`)).body;
    const rename = await run(server, 'PATCH', `/indexes/${from}`, { uid: to });
    expect(stable(rename)).toStrictEqual({
      uid: rename.uid,
      batchUid: '[batch]',
      indexUid: from,
      status: 'succeeded',
      type: 'indexUpdate',
      canceledBy: null,
      details: { primaryKey: null, oldIndexUid: from, newIndexUid: to },
      error: null,
      duration: '[duration]',
      enqueuedAt: '[date]',
      startedAt: '[date]',
      finishedAt: '[date]',
    });
    expect((await call(server, 'GET', `/indexes/${from}`)).status).toBe(404);
    const renamed = (await call(server, 'GET', `/indexes/${to}`)).body;
    expect(renamed).toMatchObject({ uid: to, primaryKey: 'id', createdAt: before.createdAt });
    expect(nanos(renamed.updatedAt)).toBeGreaterThan(nanos(before.updatedAt));

    const underNew = (await call(server, 'GET', `/tasks?indexUids=${to}`)).body;
    expect(underNew.results.map((t: { uid: number }) => t.uid)).toEqual([rename.uid, creation.uid]);
    expect(underNew.results[1]).toMatchObject({ type: 'indexCreation', indexUid: to });
    const underOld = (await call(server, 'GET', `/tasks?indexUids=${from}`)).body;
    expect(underOld.results.map((t: { uid: number }) => t.uid)).toEqual([rename.uid]);
  });

  it('renames and sets the primary key in one task', async () => {
    const from = uniqueUid('old');
    const to = uniqueUid('new');
    await created(from);
    const task = await run(server, 'PATCH', `/indexes/${from}`, { uid: to, primaryKey: 'sku' });
    expect(task.details).toStrictEqual({ primaryKey: 'sku', oldIndexUid: from, newIndexUid: to });
    expect((await call(server, 'GET', `/indexes/${to}`)).body.primaryKey).toBe('sku');
  });

  it('renaming onto an existing index fails the task with index_already_exists and changes nothing', async () => {
    const a = uniqueUid('a');
    const b = uniqueUid('b');
    await created(a);
    await created(b);
    const task = await run(server, 'PATCH', `/indexes/${a}`, { uid: b });
    expect(task).toMatchObject({ status: 'failed', error: errorBody('index_already_exists', `Index \`${b}\` already exists.`) });
    expect((await call(server, 'GET', `/indexes/${a}`)).status).toBe(200);
    expect((await call(server, 'GET', `/tasks?indexUids=${b}`)).body.total).toBe(2);
  });

  it('renaming a missing index fails the task with index_not_found', async () => {
    const uid = uniqueUid('ghost');
    const task = await run(server, 'PATCH', `/indexes/${uid}`, { uid: uniqueUid('new') });
    expect(task.error).toStrictEqual(errorBody('index_not_found', `Index \`${uid}\` not found.`));
  });
});

describe('DELETE /indexes/{uid}', () => {
  it('deletes the index; the details count its documents, null while enqueued', async () => {
    const uid = uniqueUid('drop');
    await created(uid, 'id');
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1 }, { id: 2 }]);
    const reply = await call(server, 'DELETE', `/indexes/${uid}`);
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({ indexUid: uid, status: 'enqueued', type: 'indexDeletion' });
    const task = await waitTask(server, reply.body.taskUid);
    expect(stable(task)).toMatchObject({ status: 'succeeded', details: { deletedDocuments: 2 }, error: null });
    expect((await call(server, 'GET', `/indexes/${uid}`)).status).toBe(404);
  });

  it('deleting a missing index fails the task with index_not_found and deletedDocuments 0', async () => {
    const uid = uniqueUid('ghost');
    const task = await run(server, 'DELETE', `/indexes/${uid}`);
    expect(stable(task)).toMatchObject({
      indexUid: uid,
      type: 'indexDeletion',
      status: 'failed',
      details: { deletedDocuments: 0 },
      error: errorBody('index_not_found', `Index \`${uid}\` not found.`),
    });
  });

  it('a deleted uid can be created again, empty', async () => {
    const uid = uniqueUid('again');
    await created(uid, 'id');
    await run(server, 'DELETE', `/indexes/${uid}`);
    expect((await created(uid)).status).toBe('succeeded');
    expect((await call(server, 'GET', `/indexes/${uid}`)).body.primaryKey).toBeNull();
  });
});

describe('the meilisearch client', () => {
  it('creates, reads, lists, updates and deletes indexes', async () => {
    const uid = uniqueUid('client');
    const task = await client.createIndex(uid, { primaryKey: 'id' }).waitTask();
    expect(task).toMatchObject({ status: 'succeeded', type: 'indexCreation', indexUid: uid });

    const index = await client.getIndex(uid);
    expect(index.uid).toBe(uid);
    expect(index.primaryKey).toBe('id');
    expect(index.createdAt).toBeInstanceOf(Date);
    expect(await client.getRawIndex(uid)).toMatchObject({ uid, primaryKey: 'id' });

    const listed = await client.getIndexes({ limit: 1000 });
    expect(listed.results.map((i) => i.uid)).toContain(uid);
    expect(listed.total).toBe(listed.results.length);

    await client.updateIndex(uid, { primaryKey: 'sku' }).waitTask();
    expect((await client.getIndex(uid)).primaryKey).toBe('sku');

    const renamed = uniqueUid('client');
    expect((await client.updateIndex(uid, { uid: renamed }).waitTask()).status).toBe('succeeded');
    expect((await client.getIndex(renamed)).primaryKey).toBe('sku');

    expect((await client.deleteIndex(renamed).waitTask()).status).toBe('succeeded');
    const error = await client.getIndex(renamed).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(MeilisearchApiError);
    expect((error as MeilisearchApiError).cause).toMatchObject({ code: 'index_not_found' });
  });
});
