// Port of Meilisearch's crates/meilisearch/tests/index/: create_index.rs, delete_index.rs,
// get_index.rs, update_index.rs and rename_index.rs. Index CRUD, encoded request bodies, listing
// and paging, primary-key and rename rules, and what a rename keeps (documents, settings, stats,
// search). Covered elsewhere: index/errors.rs (errors.test.ts), index/stats.rs and stats/mod.rs
// (stats.test.ts; its embedder cases need vectors), send_task_id (the TaskId header of
// --experimental-replication-parameters: tasks/replication-headers.test.ts).
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_UID, call, errorBody, expectError, nanos, run, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { expectJson, finishedTask } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const create = (uid: string, primaryKey: string | null = null) => run(server, 'POST', '/indexes', { uid, primaryKey });
const getIndex = (uid: string) => call(server, 'GET', `/indexes/${uid}`);
const rename = (from: string, to: string) => run(server, 'PATCH', `/indexes/${from}`, { uid: to });

const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

/** A JSON request whose body is compressed with `encoding`, as Meilisearch's test `Encoder` sends it. */
async function encoded(method: string, path: string, body: unknown, encoding: keyof typeof ENCODERS, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'content-encoding': encoding, ...headers },
    body: ENCODERS[encoding](Buffer.from(JSON.stringify(body))),
  });
}

describe('get_index.rs', () => {
  // First of the file, while the server has no index yet.
  it('no_index_return_empty_list: a fresh instance lists no index', async () => {
    const reply = await call(server, 'GET', '/indexes');
    expect(reply.status).toBe(200);
    expectJson(reply.body, { results: [], offset: 0, limit: 20, total: 0 });
  });

  it('create_and_get_index: four keys, updatedAt equal to createdAt, no primary key', async () => {
    const uid = uniqueUid('get');
    const reply = await call(server, 'POST', '/indexes', { uid });
    expect(reply.status).toBe(202);
    await waitTask(server, reply.body.taskUid);
    const index = await getIndex(uid);
    expect(index.status).toBe(200);
    expect(Object.keys(index.body)).toEqual(['uid', 'createdAt', 'updatedAt', 'primaryKey']);
    expect(index.body.updatedAt).toBe(index.body.createdAt);
    expect(index.body.primaryKey).toBeNull();
  });

  it('error_get_unexisting_index: 404 index_not_found', async () => {
    expectError(await getIndex('DOES_NOT_EXISTS'), 404, 'index_not_found', 'Index `DOES_NOT_EXISTS` not found.');
  });

  it('list_multiple_indexes: each index with its primary key', async () => {
    const [withoutKey, withKey] = [uniqueUid('nokey'), uniqueUid('key')];
    const tasks = [await call(server, 'POST', '/indexes', { uid: withoutKey }), await call(server, 'POST', '/indexes', { uid: withKey, primaryKey: 'key' })];
    for (const task of tasks) expect((await waitTask(server, task.body.taskUid)).status).toBe('succeeded');
    const results = (await call(server, 'GET', '/indexes?limit=1000')).body.results as { uid: string; primaryKey: string | null }[];
    expect(results.find((index) => index.uid === withoutKey)?.primaryKey).toBeNull();
    expect(results.find((index) => index.uid === withKey)?.primaryKey).toBe('key');
  });

  it('get_and_paginate_indexes: sorted by uid, offset and limit echoed, total counting them all', async () => {
    for (let i = 0; i < 50; i++) await create(uniqueUid('page'));
    const all = (await call(server, 'GET', '/indexes?limit=1000')).body.results.map((index: { uid: string }) => index.uid) as string[];
    expect(all).toEqual([...all].sort());
    const cases: [string, number, number][] = [
      ['', 0, 20],
      ['offset=15', 15, 20],
      [`offset=${all.length - 5}`, all.length - 5, 20],
      ['limit=5', 0, 5],
      ['limit=40', 0, 40],
      [`limit=${all.length + 30}`, 0, all.length + 30],
      ['offset=20&limit=10', 20, 10],
    ];
    for (const [query, offset, limit] of cases) {
      const body = (await call(server, 'GET', `/indexes?${query}`)).body;
      expect({ offset: body.offset, limit: body.limit, total: body.total }, query).toEqual({ offset, limit, total: all.length });
      expect(body.results.map((index: { uid: string }) => index.uid), query).toEqual(all.slice(offset, offset + limit));
    }
  });

  it('get_invalid_index_uid: a uid with spaces is refused at creation', async () => {
    expectError(
      await call(server, 'POST', '/indexes', { uid: 'this is not a valid index name' }),
      400,
      'invalid_index_uid',
      `Invalid value at \`.uid\`: ${INVALID_UID('this is not a valid index name')}`,
    );
  });
});

describe('create_index.rs', () => {
  it('create_index_no_primary_key and create_index_with_primary_key: details carry the primary key asked', async () => {
    for (const primaryKey of [null, 'primary']) {
      const reply = await call(server, 'POST', '/indexes', { uid: uniqueUid('create'), primaryKey });
      expect(reply.status).toBe(202);
      expect(reply.body.status).toBe('enqueued');
      expect(await waitTask(server, reply.body.taskUid)).toMatchObject({ status: 'succeeded', type: 'indexCreation', details: { primaryKey } });
    }
  });

  it.each(['gzip', 'deflate', 'br'] as const)('create_index_with_%s_encoded_request: the body is decompressed', async (encoding) => {
    const res = await encoded('POST', '/indexes', { uid: uniqueUid(encoding) }, encoding);
    expect(res.status).toBe(202);
    const summary = (await res.json()) as { status: string; taskUid: number };
    expect(summary.status).toBe('enqueued');
    expect(await waitTask(server, summary.taskUid)).toMatchObject({ status: 'succeeded', type: 'indexCreation', details: { primaryKey: null } });
  });

  it('create_index_with_gzip_encoded_request_and_receiving_brotli_encoded_response: the request is read', async () => {
    const uid = uniqueUid('test');
    const res = await encoded('POST', '/indexes', { uid, primaryKey: null }, 'gzip', { 'accept-encoding': 'br' });
    expect(res.status).toBe(202);
    const summary = (await res.json()) as { indexUid: string; taskUid: number };
    expect(summary.indexUid).toBe(uid);
    await waitTask(server, summary.taskUid);
  });

  it('create_index_with_gzip_encoded_request_and_receiving_brotli_encoded_response: even a small answer comes brotli-encoded', async () => {
    const res = await encoded('POST', '/indexes', { uid: uniqueUid('test') }, 'gzip', { 'accept-encoding': 'br' });
    expect(res.headers.get('content-encoding')).toBe('br');
  });

  it('create_index_with_invalid_primary_key: failed additions leave the implicitly created index without a primary key', async () => {
    const uid = uniqueUid('invalid-pk');
    expect((await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=title`, [{ id: 2, title: 'Pride and Prejudice' }])).status).toBe('failed');
    expect((await getIndex(uid)).body.primaryKey).toBeNull();
    expect((await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, [{ id: 'e'.repeat(513) }])).status).toBe('failed');
    expect((await getIndex(uid)).body.primaryKey).toBeNull();
  });

  it('test_create_multiple_indexes: each enqueued creation creates its index, and only those', async () => {
    const [a, b, c, d] = ['multi', 'multi', 'multi', 'multi'].map((prefix) => uniqueUid(prefix)) as [string, string, string, string];
    const tasks = [];
    for (const uid of [a, b, c]) tasks.push((await call(server, 'POST', '/indexes', { uid })).body.taskUid as number);
    for (const uid of tasks) expect((await waitTask(server, uid)).status).toBe('succeeded');
    for (const uid of [a, b, c]) expect((await getIndex(uid)).status).toBe(200);
    expect((await getIndex(d)).status).toBe(404);
  });

  it('error_create_existing_index: the second creation fails with index_already_exists', async () => {
    const uid = uniqueUid('twice');
    expect((await call(server, 'POST', '/indexes', { uid, primaryKey: 'primary' })).status).toBe(202);
    const task = await run(server, 'POST', '/indexes', { uid, primaryKey: 'primary' });
    expect(task.error).toStrictEqual(errorBody('index_already_exists', `Index \`${uid}\` already exists.`));
  });

  it('error_create_with_invalid_index_uid: spaces and symbols are refused', async () => {
    expectError(await call(server, 'POST', '/indexes', { uid: 'test test#!' }), 400, 'invalid_index_uid', `Invalid value at \`.uid\`: ${INVALID_UID('test test#!')}`);
  });
});

describe('delete_index.rs', () => {
  it('create_and_delete_index: the index answers 200 then 404', async () => {
    const uid = uniqueUid('delete');
    await create(uid);
    expect((await getIndex(uid)).status).toBe(200);
    const reply = await call(server, 'DELETE', `/indexes/${uid}`);
    expect(reply.status).toBe(202);
    expect((await waitTask(server, reply.body.taskUid)).status).toBe('succeeded');
    expect((await getIndex(uid)).status).toBe(404);
  });

  it('error_delete_unexisting_index: the task fails with index_not_found', async () => {
    const reply = await call(server, 'DELETE', '/indexes/DOES_NOT_EXISTS');
    expect(reply.status).toBe(202);
    const task = await waitTask(server, reply.body.taskUid);
    expect(task.status).toBe('failed');
    expect(task.error).toStrictEqual(errorBody('index_not_found', 'Index `DOES_NOT_EXISTS` not found.'));
  });

  it('loop_delete_add_documents: 50 additions each followed by a deletion all succeed', async () => {
    const uid = uniqueUid('loop');
    const tasks: number[] = [];
    for (let i = 0; i < 50; i++) {
      const added = await call(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, field1: 'hello' }]);
      expect(added.status, added.text).toBe(202);
      const deleted = await call(server, 'DELETE', `/indexes/${uid}`);
      expect(deleted.status, deleted.text).toBe(202);
      tasks.push(added.body.taskUid, deleted.body.taskUid);
    }
    for (const task of tasks) expect((await waitTask(server, task)).status, `task ${task}`).toBe('succeeded');
  });
});

describe('update_index.rs', () => {
  it('update_primary_key: the primary key is set and updatedAt moves past createdAt', async () => {
    const uid = uniqueUid('update');
    await create(uid);
    expect((await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'primary' })).status).toBe('succeeded');
    const index = (await getIndex(uid)).body;
    expect(Object.keys(index)).toEqual(['uid', 'createdAt', 'updatedAt', 'primaryKey']);
    expect(index).toMatchObject({ uid, primaryKey: 'primary' });
    expect(nanos(index.createdAt)).toBeLessThan(nanos(index.updatedAt));
  });

  it('create_and_update_with_different_encoding: a gzip creation then a brotli update', async () => {
    const uid = uniqueUid('encodings');
    const created = (await (await encoded('POST', '/indexes', { uid }, 'gzip')).json()) as { taskUid: number };
    expect((await waitTask(server, created.taskUid)).status).toBe('succeeded');
    const updated = (await (await encoded('PATCH', `/indexes/${uid}`, { primaryKey: 'primary' }, 'br')).json()) as { taskUid: number };
    expect((await waitTask(server, updated.taskUid)).status).toBe('succeeded');
  });

  it('update_nothing: an empty update succeeds', async () => {
    const uid = uniqueUid('nothing');
    await create(uid);
    const reply = await call(server, 'PATCH', `/indexes/${uid}`, {});
    expect(reply.status).toBe(202);
    expect((await waitTask(server, reply.body.taskUid)).status).toBe('succeeded');
  });

  it('error_update_existing_primary_key: an index with documents keeps its primary key', async () => {
    const uid = uniqueUid('has-docs');
    await create(uid, 'id');
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: '11', content: 'foobar' }]);
    const task = await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'primary' });
    expect(task.error).toStrictEqual(errorBody('index_primary_key_already_exists', `Index \`${uid}\`: Index already has a primary key: \`id\`.`));
  });

  it('error_update_unexisting_index: the task fails with index_not_found', async () => {
    const task = await run(server, 'PATCH', '/indexes/DOES_NOT_EXISTS', { primaryKey: 'my-primary-key' });
    expect(task.error).toStrictEqual(errorBody('index_not_found', 'Index `DOES_NOT_EXISTS` not found.'));
  });

  it('update_index_name: the renamed index keeps its creation date and gets a later updatedAt', async () => {
    const [uid, renamed] = [uniqueUid('name'), uniqueUid('renamed')];
    await create(uid);
    expect((await rename(uid, renamed)).status).toBe('succeeded');
    const index = await getIndex(renamed);
    expect(index.status).toBe(200);
    expect(Object.keys(index.body)).toHaveLength(4);
    expect(index.body).toMatchObject({ uid: renamed, primaryKey: null });
    expect(nanos(index.body.createdAt)).toBeLessThan(nanos(index.body.updatedAt));
  });

  it('update_index_name_to_itself: renaming an index to its own uid changes nothing', async () => {
    const uid = uniqueUid('itself');
    await create(uid);
    const before = (await getIndex(uid)).body;
    expect((await rename(uid, uid)).status).toBe('succeeded');
    expect((await getIndex(uid)).body).toStrictEqual(before);
  });

  it('error_update_index_name_to_already_existing_index: the failed task names both uids', async () => {
    const [empty, withDocs] = [uniqueUid('empty'), uniqueUid('docs')];
    await create(empty);
    await run(server, 'POST', `/indexes/${withDocs}/documents`, [{ id: 1 }]);
    expectJson(
      stable(await rename(withDocs, empty)),
      finishedTask({
        uid: (await call(server, 'GET', `/tasks?indexUids=${withDocs}&types=indexUpdate`)).body.results[0].uid,
        indexUid: withDocs,
        status: 'failed',
        type: 'indexUpdate',
        details: { primaryKey: null, oldIndexUid: withDocs, newIndexUid: empty },
        error: errorBody('index_already_exists', `Index \`${empty}\` already exists.`),
      }),
    );
  });
});

describe('rename_index.rs', () => {
  it('rename_index_via_patch: the old uid answers 404, the new one the index', async () => {
    const uid = uniqueUid('rename');
    const renamed = `${uid}_renamed`;
    await create(uid);
    const task = await rename(uid, renamed);
    expect(task).toMatchObject({ status: 'succeeded', type: 'indexUpdate', details: { newIndexUid: renamed } });
    expect((await getIndex(uid)).status).toBe(404);
    expect((await getIndex(renamed)).body.uid).toBe(renamed);
  });

  it('rename_to_existing_index_via_patch: fails with index_already_exists', async () => {
    const [a, b] = [uniqueUid('a'), uniqueUid('b')];
    await create(a);
    await create(b);
    expect((await rename(a, b)).error).toStrictEqual(errorBody('index_already_exists', `Index \`${b}\` already exists.`));
  });

  it('rename_non_existent_index_via_patch: fails with index_not_found', async () => {
    expect((await rename('DOES_NOT_EXISTS', 'new_name')).error).toStrictEqual(errorBody('index_not_found', 'Index `DOES_NOT_EXISTS` not found.'));
  });

  it('rename_with_invalid_uid_via_patch: refused with 400', async () => {
    const uid = uniqueUid('invalid');
    await create(uid);
    expectError(await call(server, 'PATCH', `/indexes/${uid}`, { uid: 'Invalid UID!' }), 400, 'invalid_index_uid', INVALID_UID('Invalid UID!'));
  });

  it('rename_index_with_documents_via_patch: the documents follow', async () => {
    const uid = uniqueUid('with-docs');
    await create(uid);
    await run(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 1, title: 'Movie 1' },
      { id: 2, title: 'Movie 2' },
    ]);
    await rename(uid, `${uid}_renamed`);
    const documents = await call(server, 'GET', `/indexes/${uid}_renamed/documents`);
    expect(documents.status).toBe(200);
    expect(documents.body.results).toHaveLength(2);
  });

  it('rename_index_and_update_primary_key_via_patch: both in one task', async () => {
    const uid = uniqueUid('rename-pk');
    const renamed = `${uid}_renamed`;
    await create(uid);
    const task = await run(server, 'PATCH', `/indexes/${uid}`, { uid: renamed, primaryKey: 'id' });
    expect(task).toMatchObject({ status: 'succeeded', type: 'indexUpdate', details: { newIndexUid: renamed, primaryKey: 'id' } });
    expect((await getIndex(uid)).status).toBe(404);
    expect((await getIndex(renamed)).body).toMatchObject({ uid: renamed, primaryKey: 'id' });
  });

  it('rename_index_and_verify_stats: the stats follow', async () => {
    const uid = uniqueUid('stats');
    await create(uid);
    await run(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 1, title: 'Movie 1', genre: 'Action' },
      { id: 2, title: 'Movie 2', genre: 'Drama' },
      { id: 3, title: 'Movie 3', genre: 'Comedy' },
    ]);
    expect((await call(server, 'GET', `/indexes/${uid}/stats`)).body.numberOfDocuments).toBe(3);
    await rename(uid, `${uid}_renamed`);
    const stats = await call(server, 'GET', `/indexes/${uid}_renamed/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body.numberOfDocuments).toBe(3);
  });

  it('rename_index_preserves_settings', async () => {
    const uid = uniqueUid('settings');
    await create(uid);
    await run(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: ['title', 'description'],
      filterableAttributes: ['genre', 'year'],
      sortableAttributes: ['year'],
      rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'],
      stopWords: ['the', 'a', 'an'],
      synonyms: { movie: ['film', 'picture'], great: ['awesome', 'excellent'] },
    });
    await rename(uid, `${uid}_renamed`);
    const settings = await call(server, 'GET', `/indexes/${uid}_renamed/settings`);
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ searchableAttributes: ['title', 'description'], filterableAttributes: ['genre', 'year'], sortableAttributes: ['year'] });
    expect([...settings.body.stopWords].sort()).toEqual(['a', 'an', 'the']);
    expect(settings.body.synonyms).toMatchObject({ movie: ['film', 'picture'], great: ['awesome', 'excellent'] });
  });

  it('rename_index_preserves_search_functionality: search and facet search answer under the new uid', async () => {
    const uid = uniqueUid('search');
    await create(uid);
    await run(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 1, title: 'The Matrix', genre: 'Sci-Fi', year: 1999 },
      { id: 2, title: 'Inception', genre: 'Sci-Fi', year: 2010 },
      { id: 3, title: 'The Dark Knight', genre: 'Action', year: 2008 },
    ]);
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['genre', 'year'], sortableAttributes: ['year'] });
    const query = { q: 'matrix', filter: "genre = 'Sci-Fi'", sort: ['year:asc'] };
    const before = await call(server, 'POST', `/indexes/${uid}/search`, query);
    expect(before.body.hits.map((hit: { title: string }) => hit.title)).toEqual(['The Matrix']);
    await rename(uid, `${uid}_renamed`);
    const after = await call(server, 'POST', `/indexes/${uid}_renamed/search`, query);
    expect(after.status).toBe(200);
    expect(after.body.hits.map((hit: { title: string }) => hit.title)).toEqual(['The Matrix']);
    const facets = await call(server, 'POST', `/indexes/${uid}_renamed/facet-search`, { facetQuery: 'Sci', facetName: 'genre' });
    expect(facets.status).toBe(200);
    expect(facets.body.facetHits).toHaveLength(1);
    expect(facets.body.facetHits[0].value).toBe('Sci-Fi');
  });

  it('rename_index_with_pending_tasks: documents can be added under the new uid once renamed', async () => {
    const uid = uniqueUid('pending');
    const renamed = `${uid}_renamed`;
    await create(uid);
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, title: 'Document 1' }]);
    const renaming = await call(server, 'PATCH', `/indexes/${uid}`, { uid: renamed });
    expect(renaming.status).toBe(202);
    expect((await call(server, 'POST', `/indexes/${uid}/documents`, [{ id: 2, title: 'Document 2' }])).status).toBe(202);
    expect((await waitTask(server, renaming.body.taskUid)).status).toBe('succeeded');
    expect((await run(server, 'POST', `/indexes/${renamed}/documents`, [{ id: 3, title: 'Document 3' }])).status).toBe('succeeded');
    const documents = await call(server, 'GET', `/indexes/${renamed}/documents`);
    expect(documents.status).toBe(200);
    expect(documents.body.results.length).toBeGreaterThan(0);
  });
});
