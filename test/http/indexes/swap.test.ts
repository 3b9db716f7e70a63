/**
 * `POST /swap-indexes` through the real server: swaps and renames move the names (data, primary
 * key and dates stay together), relabel the task history, and fail as a whole with Meilisearch's
 * messages. Unique index uids per test; one server for the file.
 */
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_KEYS, call, errorBody, run, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const create = (uid: string, primaryKey: string | null = null) => run(server, 'POST', '/indexes', { uid, primaryKey });
const index = async (uid: string) => (await call(server, 'GET', `/indexes/${uid}`)).body;
const taskUids = async (query: string): Promise<number[]> =>
  (await call(server, 'GET', `/tasks?${query}`)).body.results.map((task: { uid: number }) => task.uid);

describe('swapping two indexes', () => {
  it('exchanges their names, their data following; the task is global with the swaps as details', async () => {
    const a = uniqueUid('a');
    const b = uniqueUid('b');
    const createA = await create(a, 'ida');
    const createB = await create(b, 'idb');
    const [before, beforeB] = [await index(a), await index(b)];

    const reply = await call(server, 'POST', '/swap-indexes', [{ indexes: [a, b] }]);
    expect(reply.status).toBe(202);
    expect(Object.keys(reply.body)).toEqual(SUMMARY_KEYS);
    expect(reply.body).toMatchObject({ indexUid: null, status: 'enqueued', type: 'indexSwap' });
    const task = await waitTask(server, reply.body.taskUid);
    expect(stable(task)).toStrictEqual({
      uid: reply.body.taskUid,
      batchUid: '[batch]',
      indexUid: null,
      status: 'succeeded',
      type: 'indexSwap',
      canceledBy: null,
      details: { swaps: [{ indexes: [a, b], rename: false }] },
      error: null,
      duration: '[duration]',
      enqueuedAt: '[date]',
      startedAt: '[date]',
      finishedAt: '[date]',
    });
    // Names move; primary keys and dates stay with the data.
    expect(await index(a)).toStrictEqual({ ...beforeB, uid: a });
    expect(await index(b)).toStrictEqual({ ...before, uid: b });
    // The history follows the data: the creation of the old `a` now reads `b`.
    expect((await call(server, 'GET', `/tasks/${createA.uid}`)).body.indexUid).toBe(b);
    expect((await call(server, 'GET', `/tasks/${createB.uid}`)).body.indexUid).toBe(a);
    expect(await taskUids(`indexUids=${a}`)).toEqual([createB.uid]);
  });

  it('swapping the same pair again restores the history, the first swap relabelled too', async () => {
    const a = uniqueUid('a');
    const b = uniqueUid('b');
    const createA = await create(a);
    await create(b);
    const first = await run(server, 'POST', '/swap-indexes', [{ indexes: [a, b] }]);
    await run(server, 'POST', '/swap-indexes', [{ indexes: [a, b], rename: false }]);
    expect((await call(server, 'GET', `/tasks/${createA.uid}`)).body.indexUid).toBe(a);
    expect((await call(server, 'GET', `/tasks/${first.uid}`)).body.details).toStrictEqual({
      swaps: [{ indexes: [b, a], rename: false }],
    });
  });

  it('swaps several pairs in one task', async () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((p) => uniqueUid(p)) as [string, string, string, string];
    for (const [uid, pk] of [[a, 'pa'], [b, 'pb'], [c, 'pc'], [d, 'pd']] as const) await create(uid, pk);
    const task = await run(server, 'POST', '/swap-indexes', [{ indexes: [a, b] }, { indexes: [c, d], rename: false }]);
    expect(task.details.swaps).toStrictEqual([
      { indexes: [a, b], rename: false },
      { indexes: [c, d], rename: false },
    ]);
    expect([(await index(a)).primaryKey, (await index(b)).primaryKey, (await index(c)).primaryKey, (await index(d)).primaryKey]).toEqual([
      'pb',
      'pa',
      'pd',
      'pc',
    ]);
  });

  it('an empty list is a swap of nothing, which succeeds', async () => {
    const task = await run(server, 'POST', '/swap-indexes', []);
    expect(stable(task)).toMatchObject({ indexUid: null, type: 'indexSwap', status: 'succeeded', details: { swaps: [] } });
  });
});

describe('renaming with rename: true', () => {
  it('moves the index to a free name and relabels its history', async () => {
    const a = uniqueUid('a');
    const c = uniqueUid('c');
    const creation = await create(a, 'id');
    const before = await index(a);
    const task = await run(server, 'POST', '/swap-indexes', [{ indexes: [a, c], rename: true }]);
    expect(task).toMatchObject({ status: 'succeeded', details: { swaps: [{ indexes: [a, c], rename: true }] } });
    expect((await call(server, 'GET', `/indexes/${a}`)).status).toBe(404);
    expect(await index(c)).toStrictEqual({ ...before, uid: c });
    expect(await taskUids(`indexUids=${c}`)).toEqual([creation.uid]);
    expect(await taskUids(`indexUids=${a}`)).toEqual([]);
  });

  it('hands the past of the new name to the old one, as Meilisearch swaps histories both ways', async () => {
    const a = uniqueUid('a');
    const c = uniqueUid('c');
    const oldC = await create(c);
    const dropC = await run(server, 'DELETE', `/indexes/${c}`);
    const createA = await create(a);
    await run(server, 'POST', '/swap-indexes', [{ indexes: [a, c], rename: true }]);
    expect(await taskUids(`indexUids=${c}`)).toEqual([createA.uid]);
    expect(await taskUids(`indexUids=${a}`)).toEqual([dropC.uid, oldC.uid]);
  });

  it('onto an existing index fails the task with index_already_exists and moves nothing', async () => {
    const a = uniqueUid('a');
    const b = uniqueUid('b');
    await create(a);
    await create(b);
    const task = await run(server, 'POST', '/swap-indexes', [{ indexes: [a, b], rename: true }]);
    expect(task).toMatchObject({
      status: 'failed',
      error: errorBody(
        'index_already_exists',
        `Cannot rename \`${a}\` to \`${b}\` as the index already exists. Hint: You can remove \`${b}\` first and then do your remove.`,
      ),
    });
    expect((await call(server, 'GET', `/indexes/${a}`)).status).toBe(200);
  });

  it('several renames onto existing indexes list the targets ordered by source', async () => {
    const prefix = uniqueUid('p');
    const [a, b, c, d] = [`${prefix}-a`, `${prefix}-z`, `${prefix}-b`, `${prefix}-y`];
    for (const uid of [a, b, c, d]) await create(uid);
    const task = await run(server, 'POST', '/swap-indexes', [
      { indexes: [c, d], rename: true },
      { indexes: [a, b], rename: true },
    ]);
    expect(task.error).toStrictEqual(
      errorBody(
        'index_already_exists',
        `The following indexes are being renamed but cannot because their new name conflicts with an already existing index: \`${b}\`, \`${d}\`. Renaming doesn't overwrite the other index name.`,
      ),
    );
  });
});

describe('swaps that cannot run', () => {
  it('a missing index fails the task with index_not_found, and nothing moves', async () => {
    const a = uniqueUid('a');
    const missing = uniqueUid('missing');
    const createA = await create(a, 'id');
    const task = await run(server, 'POST', '/swap-indexes', [{ indexes: [a, missing] }]);
    expect(stable(task)).toMatchObject({
      status: 'failed',
      details: { swaps: [{ indexes: [a, missing], rename: false }] },
      error: errorBody('index_not_found', `Index \`${missing}\` not found.`),
    });
    expect((await index(a)).primaryKey).toBe('id');
    expect((await call(server, 'GET', `/tasks/${createA.uid}`)).body.indexUid).toBe(a);
  });

  it('several missing indexes are named in sorted order, all pairs checked before any move', async () => {
    const prefix = uniqueUid('m');
    const [exists, z, y, x] = [`${prefix}-e`, `${prefix}-z`, `${prefix}-y`, `${prefix}-x`];
    await create(exists);
    const other = uniqueUid('o');
    await create(other);
    const task = await run(server, 'POST', '/swap-indexes', [
      { indexes: [exists, other] },
      { indexes: [z, y] },
      { indexes: [x, `${prefix}-w`], rename: true },
    ]);
    expect(task.error).toStrictEqual(
      errorBody('index_not_found', `Indexes \`${prefix}-x\`, \`${prefix}-y\`, \`${prefix}-z\` not found.`),
    );
    expect((await call(server, 'GET', `/indexes/${exists}`)).status).toBe(200);
    expect((await call(server, 'GET', `/indexes/${other}`)).status).toBe(200);
  });

  it('renaming a missing index fails with index_not_found', async () => {
    const missing = uniqueUid('missing');
    const task = await run(server, 'POST', '/swap-indexes', [{ indexes: [missing, uniqueUid('new')], rename: true }]);
    expect(task.error).toStrictEqual(errorBody('index_not_found', `Index \`${missing}\` not found.`));
  });
});

describe('the meilisearch client', () => {
  it('swapIndexes swaps and waits like against Meilisearch', async () => {
    const client = new Meilisearch({ host: server.url });
    const a = uniqueUid('a');
    const b = uniqueUid('b');
    await client.createIndex(a, { primaryKey: 'pa' }).waitTask();
    await client.createIndex(b, { primaryKey: 'pb' }).waitTask();
    const task = await client.swapIndexes([{ indexes: [a, b], rename: false }]).waitTask();
    expect(task).toMatchObject({ type: 'indexSwap', status: 'succeeded', indexUid: null });
    expect((await client.getIndex(a)).primaryKey).toBe('pb');
  });
});
