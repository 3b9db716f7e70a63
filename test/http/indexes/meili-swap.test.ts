// Port of Meilisearch's crates/meilisearch/tests/swap_indexes/mod.rs and the rename cases of
// swap_indexes/errors.rs: the whole task list after a swap, a double swap and renames, and where
// the documents end up. The file's own server starts empty, so task and batch uids are those of the
// Rust tests. The other cases of errors.rs are in errors.test.ts.
//
// Which earlier tasks a plain swap relabels follows indexes.md ("every task enqueued before the
// swap that referenced either index is relabelled to the other uid"), as the first version of
// swap_indexes/mod.rs shows. Later versions, written with `rename`, snapshot Meilisearch's
// `index_rhs_task_ids` being filled only when renaming, so that a plain swap relabels the tasks of
// the first index alone (task 1 keeps reading `b`); the reference wins over that snapshot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, run, stable, waitTask } from '../../helpers/api.js';
import { expectJson, finishedTask } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

/** A task as the Rust snapshots show it: uids kept, dates and duration masked. */
function shownTask(task: any): any {
  const masked = stable(task);
  return { ...masked, batchUid: task.batchUid };
}

function taskObject(uid: number, indexUid: string | null, type: string, details: object, error: object | null = null) {
  return finishedTask({ uid, batchUid: uid, indexUid, status: error === null ? 'succeeded' : 'failed', type, details, error });
}

const addition = (uid: number, indexUid: string) => taskObject(uid, indexUid, 'documentAdditionOrUpdate', { receivedDocuments: 1, indexedDocuments: 1 });
const creation = (uid: number, indexUid: string, primaryKey: string | null = null) => taskObject(uid, indexUid, 'indexCreation', { primaryKey });
const swap = (uid: number, ...pairs: [string, string, boolean][]) =>
  taskObject(uid, null, 'indexSwap', { swaps: pairs.map(([a, b, rename]) => ({ indexes: [a, b], rename })) });

/** `GET /tasks?<query>` with its tasks masked like the snapshots. */
async function tasks(query = ''): Promise<any> {
  const body = (await call(server, 'GET', `/tasks?${query}`)).body;
  return { ...body, results: body.results.map(shownTask) };
}

async function documentsOf(uid: string): Promise<unknown> {
  return (await call(server, 'GET', `/indexes/${uid}/documents`)).body.results;
}

async function enqueue(method: string, path: string, body: unknown, expectedUid: number): Promise<void> {
  const reply = await call(server, method, path, body);
  expect(reply.status, reply.text).toBe(202);
  expect(reply.body.taskUid).toBe(expectedUid);
  await waitTask(server, expectedUid);
}

describe('swap_indexes', () => {
  it('two indexes created by their first documents are listed newest first', async () => {
    await enqueue('POST', '/indexes/a/documents', { id: 1, index: 'a' }, 0);
    await enqueue('POST', '/indexes/b/documents', { id: 1, index: 'b' }, 1);
    expectJson(await tasks(), { results: [addition(1, 'b'), addition(0, 'a')], total: 2, limit: 20, from: 1, next: null });
  });

  it('a swap relabels the earlier tasks of both indexes, and their documents trade places', async () => {
    await enqueue('POST', '/swap-indexes', [{ indexes: ['a', 'b'] }], 2);
    expectJson(await tasks(), {
      results: [swap(2, ['a', 'b', false]), addition(1, 'a'), addition(0, 'b')],
      total: 3,
      limit: 20,
      from: 2,
      next: null,
    });
    expect(await documentsOf('a')).toEqual([{ id: 1, index: 'b' }]);
    expect(await documentsOf('b')).toEqual([{ id: 1, index: 'a' }]);
  });

  it('limit=2 pages the two newest tasks and points next at the third', async () => {
    await enqueue('POST', '/indexes/c/documents', { id: 1, index: 'c' }, 3);
    await enqueue('POST', '/indexes/d/documents', { id: 1, index: 'd' }, 4);
    expectJson(await tasks('limit=2'), { results: [addition(4, 'd'), addition(3, 'c')], total: 5, limit: 2, from: 4, next: 2 });
  });

  it('a double swap relabels every earlier task again, the first swap included', async () => {
    await enqueue('POST', '/swap-indexes', [{ indexes: ['a', 'b'] }, { indexes: ['c', 'd'] }], 5);
    expectJson(await tasks(), {
      results: [
        swap(5, ['a', 'b', false], ['c', 'd', false]),
        addition(4, 'c'),
        addition(3, 'd'),
        swap(2, ['b', 'a', false]),
        addition(1, 'b'),
        addition(0, 'a'),
      ],
      total: 6,
      limit: 20,
      from: 5,
      next: null,
    });
    expect(await documentsOf('a')).toEqual([{ id: 1, index: 'a' }]);
    expect(await documentsOf('b')).toEqual([{ id: 1, index: 'b' }]);
    expect(await documentsOf('c')).toEqual([{ id: 1, index: 'd' }]);
    expect(await documentsOf('d')).toEqual([{ id: 1, index: 'c' }]);
  });
});

// The Rust test's `a` and `b` are `ra` and `rb` here; its task uids 0… are 6… (after the tests above).
describe('swap_rename_indexes', () => {
  it('renaming moves the index and its history; the old uid keeps only the swap, which is hidden', async () => {
    await enqueue('POST', '/indexes', { uid: 'ra' }, 6);
    await enqueue('POST', '/indexes/ra/documents', { id: 1, index: 'a' }, 7);
    await enqueue('POST', '/swap-indexes', [{ indexes: ['ra', 'rb'], rename: true }], 8);
    expectJson(await tasks('limit=3'), {
      results: [swap(8, ['ra', 'rb', true]), addition(7, 'rb'), creation(6, 'rb')],
      total: 9,
      limit: 3,
      from: 8,
      next: 5,
    });
    const missing = await call(server, 'GET', '/indexes/ra/documents');
    expect(missing.status).toBe(404);
    expect(missing.body.results).toBeUndefined();
    expect(await documentsOf('rb')).toEqual([{ id: 1, index: 'a' }]);
    expectJson(await tasks('indexUids=ra'), { results: [], total: 1, limit: 20, from: null, next: null });
    expectJson(await tasks('indexUids=rb'), { results: [addition(7, 'rb'), creation(6, 'rb')], total: 3, limit: 20, from: 7, next: null });
  });

  it('renaming back after a deletion and a creation hands every earlier task to the new uid', async () => {
    await enqueue('DELETE', '/indexes/rb', undefined, 9);
    await enqueue('POST', '/indexes', { uid: 'rb', primaryKey: 'kefir' }, 10);
    await enqueue('POST', '/swap-indexes', [{ indexes: ['rb', 'ra'], rename: true }], 11);
    expectJson(await tasks('indexUids=ra'), {
      results: [
        creation(10, 'ra', 'kefir'),
        taskObject(9, 'ra', 'indexDeletion', { deletedDocuments: 1 }),
        addition(7, 'ra'),
        creation(6, 'ra'),
      ],
      total: 6,
      limit: 20,
      from: 10,
      next: null,
    });
    expectJson(await tasks('indexUids=rb'), { results: [], total: 2, limit: 20, from: null, next: null });
  });
});

describe('swap_indexes_rename_to_already_existing_index', () => {
  const renameError = (a: string, b: string) =>
    errorBody('index_already_exists', `Cannot rename \`${a}\` to \`${b}\` as the index already exists. Hint: You can remove \`${b}\` first and then do your remove.`);

  it('renaming onto an existing index fails the task, whose details keep the swaps', async () => {
    const task = await run(server, 'POST', '/swap-indexes', [{ indexes: ['a', 'b'], rename: true }]);
    expectJson(shownTask(task), { ...swap(task.uid, ['a', 'b', true]), batchUid: task.batchUid, status: 'failed', error: renameError('a', 'b') });
  });

  it('several renames onto existing indexes name every target', async () => {
    const task = await run(server, 'POST', '/swap-indexes', [
      { indexes: ['a', 'b'], rename: true },
      { indexes: ['c', 'd'], rename: true },
    ]);
    expectJson(shownTask(task), {
      ...swap(task.uid, ['a', 'b', true], ['c', 'd', true]),
      batchUid: task.batchUid,
      status: 'failed',
      error: errorBody(
        'index_already_exists',
        "The following indexes are being renamed but cannot because their new name conflicts with an already existing index: `b`, `d`. Renaming doesn't overwrite the other index name.",
      ),
    });
  });

  it('swap_indexes_bad_rename: a rename that is not a boolean is refused', async () => {
    const reply = await call(server, 'POST', '/swap-indexes', [{ indexes: ['kefir', 'intel'], rename: 'hello' }]);
    expect(reply.status).toBe(400);
    expectJson(reply.body, errorBody('invalid_swap_rename', 'Invalid value type at `[0].rename`: expected a boolean, but found a string: `"hello"`'));
  });
});
