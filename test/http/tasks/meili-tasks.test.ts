// Port of Meilisearch's crates/meilisearch/tests/tasks/mod.rs and tasks/deletion.rs: the task object of
// every task type (details before and after the index exists, errors), the summarized task of each
// enqueuing route, GET /tasks filters on one index, and DELETE /tasks by uid and by date bounds.
// Meilisearch's snapshots mask uids, batch uids, dates and durations; `stable` does the same here.
// tasks/errors.rs is covered case by case by errors.test.ts (the `Available types` list there is
// v1.50's, longer than the one of the stored errors.rs), and list_tasks_pagination_and_reverse by
// listing.test.ts. test_summarized_dump_creation belongs to the dumps sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RFC3339, SUMMARY_KEYS, call, errorBody, run, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { expectJson, finishedTask } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

/** A finished task as Meilisearch's snapshots show it: uid, batch uid, dates and duration masked. */
const shown = (task: any) => ({ ...stable(task), uid: '[uid]' });

/** The masked task object of a finished task, with only what differs from one test to the next. */
function taskObject(indexUid: string | null, status: string, type: string, details: object, error: object | null = null) {
  return finishedTask({ uid: '[uid]', indexUid, status, type, details, error });
}

const notFound = (uid: string) => errorBody('index_not_found', `Index \`${uid}\` not found.`);
const create = (uid: string, primaryKey: string | null = null) => run(server, 'POST', '/indexes', { uid, primaryKey });
const uidsOf = async (query: string): Promise<number[]> => (await call(server, 'GET', `/tasks?${query}`)).body.results.map((t: { uid: number }) => t.uid);
const DOCS = [
  { id: 1, title: 'Carol' },
  { id: 2, title: 'Wonderful Life' },
];

describe('listing the tasks of one index', () => {
  it('get_task_status: a document addition enqueued right after the creation can be read', async () => {
    const uid = uniqueUid('status');
    const creation = await call(server, 'POST', '/indexes', { uid });
    const addition = await call(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, content: 'foobar' }]);
    await waitTask(server, creation.body.taskUid);
    expect((await call(server, 'GET', `/tasks/${addition.body.taskUid}`)).status).toBe(200);
    await waitTask(server, addition.body.taskUid);
  });

  it('list_tasks: the tasks of an index, the unfinished addition included', async () => {
    const uid = uniqueUid('list');
    await create(uid);
    const addition = await call(server, 'POST', `/indexes/${uid}/documents`, DOCS);
    const reply = await call(server, 'GET', `/tasks?indexUids=${uid}`);
    expect(reply.status).toBe(200);
    expect(reply.body.results).toHaveLength(2);
    await waitTask(server, addition.body.taskUid);
  });

  it('list_tasks_with_star_filters: a list holding * restricts nothing, next to real values', async () => {
    const uid = uniqueUid('star');
    await create(uid);
    await run(server, 'POST', `/indexes/${uid}/documents`, DOCS);
    const everything = (await call(server, 'GET', '/tasks?limit=1000')).body.results.length;
    expect(await uidsOf(`indexUids=${uid}`)).toHaveLength(2);
    for (const query of ['indexUids=*', 'indexUids=*,pasteque', 'types=*', 'types=*,documentAdditionOrUpdate&statuses=*']) {
      expect(await uidsOf(`${query}&limit=1000`), query).toHaveLength(everything);
    }
    expect(await uidsOf(`types=*,documentAdditionOrUpdate&statuses=*,failed&indexUids=${uid}`)).toHaveLength(2);
    expect(await uidsOf(`types=*,documentAdditionOrUpdate&statuses=*,failed&indexUids=${uid},*&limit=1000`)).toHaveLength(everything);
  });

  it('list_tasks_status_filtered: statuses select among the tasks of the index', async () => {
    const uid = uniqueUid('statuses');
    expect((await create(uid)).status).toBe('succeeded');
    expect((await create(uid)).status).toBe('failed');
    expect(await uidsOf(`indexUids=${uid}&statuses=succeeded`)).toHaveLength(1);
    expect(await uidsOf(`indexUids=${uid}&statuses=succeeded,failed`)).toHaveLength(2);
  });

  it('list_tasks_type_filtered: types select among the tasks of the index', async () => {
    const uid = uniqueUid('types');
    await create(uid);
    await run(server, 'POST', `/indexes/${uid}/documents`, DOCS);
    expect(await uidsOf(`indexUids=${uid}&types=indexCreation`)).toHaveLength(1);
    expect(await uidsOf(`indexUids=${uid}&types=indexCreation,documentAdditionOrUpdate`)).toHaveLength(2);
  });

  it('list_tasks_invalid_canceled_by_filter: canceledBy a task that is no cancelation matches nothing', async () => {
    const uid = uniqueUid('canceled-by');
    await create(uid);
    const addition = await run(server, 'POST', `/indexes/${uid}/documents`, DOCS);
    expect(await uidsOf(`indexUids=${uid}&canceledBy=${addition.uid}`)).toEqual([]);
  });

  it('list_tasks_status_and_type_filtered: statuses and types are ANDed', async () => {
    const uid = uniqueUid('and');
    await create(uid);
    await run(server, 'POST', `/indexes/${uid}/documents`, DOCS);
    expect(await uidsOf(`indexUids=${uid}&types=indexCreation&statuses=failed`)).toEqual([]);
    const both = `indexUids=${uid}&types=indexCreation,documentAdditionOrUpdate&statuses=succeeded,processing,enqueued`;
    expect(await uidsOf(both)).toHaveLength(2);
  });
});

describe('test_summarized_task_view', () => {
  it('every enqueuing route answers the five keys of a summarized task', async () => {
    const uid = uniqueUid('summary');
    const requests: [string, string, unknown, string][] = [
      ['POST', '/indexes', { uid }, 'indexCreation'],
      ['PATCH', `/indexes/${uid}`, {}, 'indexUpdate'],
      ['PATCH', `/indexes/${uid}/settings`, {}, 'settingsUpdate'],
      ['PUT', `/indexes/${uid}/documents`, [{ id: 1 }], 'documentAdditionOrUpdate'],
      ['POST', `/indexes/${uid}/documents`, [{ id: 1 }], 'documentAdditionOrUpdate'],
      ['DELETE', `/indexes/${uid}/documents/1`, undefined, 'documentDeletion'],
      ['DELETE', `/indexes/${uid}/documents`, undefined, 'documentDeletion'],
      ['DELETE', `/indexes/${uid}`, undefined, 'indexDeletion'],
    ];
    let last = 0;
    for (const [method, path, body, type] of requests) {
      const reply = await call(server, method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(202);
      expect(Object.keys(reply.body)).toEqual(SUMMARY_KEYS);
      expect(reply.body).toMatchObject({ indexUid: uid, status: 'enqueued', type });
      expect(reply.body.enqueuedAt).toMatch(RFC3339);
      last = reply.body.taskUid;
    }
    await waitTask(server, last);
  });
});

describe('the task object of each type', () => {
  it('test_summarized_document_addition_or_update: with an inferred and with a given primary key', async () => {
    const uid = uniqueUid('addition');
    const expected = taskObject(uid, 'succeeded', 'documentAdditionOrUpdate', { receivedDocuments: 1, indexedDocuments: 1 });
    expectJson(shown(await run(server, 'POST', `/indexes/${uid}/documents`, { id: 42, content: 'doggos & fluff' })), expected);
    expectJson(shown(await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, { id: 42, content: 'doggos & fluff' })), expected);
  });

  it('test_summarized_delete_documents_by_batch: providedIds counts the ids; the count reads 0 on failure', async () => {
    const uid = uniqueUid('delete-batch');
    const ids = [4294967295, 4294967294, 4294967293];
    expectJson(
      shown(await run(server, 'POST', `/indexes/${uid}/documents/delete-batch`, ids)),
      taskObject(uid, 'failed', 'documentDeletion', { providedIds: 3, deletedDocuments: 0, originalFilter: null }, notFound(uid)),
    );
    await create(uid);
    expectJson(
      shown(await run(server, 'POST', `/indexes/${uid}/documents/delete-batch`, [42])),
      taskObject(uid, 'succeeded', 'documentDeletion', { providedIds: 1, deletedDocuments: 0, originalFilter: null }),
    );
  });

  it('test_summarized_delete_documents_by_filter: the filter is kept as JSON text; not filterable fails the task', async () => {
    const uid = uniqueUid('delete-filter');
    const body = { filter: 'doggo = bernese' };
    const details = { providedIds: 0, deletedDocuments: 0, originalFilter: '"doggo = bernese"' };
    expectJson(shown(await run(server, 'POST', `/indexes/${uid}/documents/delete`, body)), taskObject(uid, 'failed', 'documentDeletion', details, notFound(uid)));
    await create(uid);
    const notFilterable = errorBody(
      'invalid_document_filter',
      `Index \`${uid}\`: Attribute \`doggo\` is not filterable. This index does not have configured filterable attributes.\n1:6 doggo = bernese`,
    );
    expectJson(shown(await run(server, 'POST', `/indexes/${uid}/documents/delete`, body)), taskObject(uid, 'failed', 'documentDeletion', details, notFilterable));
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['doggo'] });
    expectJson(shown(await run(server, 'POST', `/indexes/${uid}/documents/delete`, body)), taskObject(uid, 'succeeded', 'documentDeletion', details));
  });

  it('test_summarized_delete_document_by_id: one provided id', async () => {
    const uid = uniqueUid('delete-one');
    const details = { providedIds: 1, deletedDocuments: 0, originalFilter: null };
    expectJson(shown(await run(server, 'DELETE', `/indexes/${uid}/documents/1`)), taskObject(uid, 'failed', 'documentDeletion', details, notFound(uid)));
    await create(uid);
    expectJson(shown(await run(server, 'DELETE', `/indexes/${uid}/documents/42`)), taskObject(uid, 'succeeded', 'documentDeletion', details));
  });

  it('test_summarized_settings_update: a bad ranking rule is refused; details list the fields sent', async () => {
    const uid = uniqueUid('settings');
    const refused = await call(server, 'PATCH', `/indexes/${uid}/settings`, { rankingRules: ['custom'] });
    expect(refused.status).toBe(400);
    expectJson(
      refused.body,
      errorBody(
        'invalid_settings_ranking_rules',
        'Invalid value at `.rankingRules[0]`: `custom` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.',
      ),
    );
    const settings = { displayedAttributes: ['doggos', 'name'], filterableAttributes: ['age', 'nb_paw_pads'], sortableAttributes: ['iq'] };
    expectJson(shown(await run(server, 'PATCH', `/indexes/${uid}/settings`, settings)), taskObject(uid, 'succeeded', 'settingsUpdate', settings));
  });

  it('test_summarized_index_creation: a second creation fails with index_already_exists, its primary key kept', async () => {
    const uid = uniqueUid('creation');
    expectJson(shown(await create(uid)), taskObject(uid, 'succeeded', 'indexCreation', { primaryKey: null }));
    expectJson(
      shown(await create(uid, 'doggos')),
      taskObject(uid, 'failed', 'indexCreation', { primaryKey: 'doggos' }, errorBody('index_already_exists', `Index \`${uid}\` already exists.`)),
    );
  });

  it('test_summarized_index_deletion: deletedDocuments is 0 on failure and counts the documents on success', async () => {
    const uid = uniqueUid('deletion');
    const failed = taskObject(uid, 'failed', 'indexDeletion', { deletedDocuments: 0 }, notFound(uid));
    expectJson(shown(await run(server, 'DELETE', `/indexes/${uid}`)), failed);
    expectJson(
      shown(await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, { id: 42, content: 'doggos & fluff' })),
      taskObject(uid, 'succeeded', 'documentAdditionOrUpdate', { receivedDocuments: 1, indexedDocuments: 1 }),
    );
    expectJson(shown(await run(server, 'DELETE', `/indexes/${uid}`)), taskObject(uid, 'succeeded', 'indexDeletion', { deletedDocuments: 1 }));
    expectJson(shown(await run(server, 'DELETE', `/indexes/${uid}`)), failed);
  });

  it('test_summarized_index_update: fails on a missing index, with or without a primary key, then succeeds', async () => {
    const uid = uniqueUid('update');
    expectJson(shown(await run(server, 'PATCH', `/indexes/${uid}`, {})), taskObject(uid, 'failed', 'indexUpdate', { primaryKey: null }, notFound(uid)));
    expectJson(
      shown(await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'bones' })),
      taskObject(uid, 'failed', 'indexUpdate', { primaryKey: 'bones' }, notFound(uid)),
    );
    await create(uid);
    expectJson(shown(await run(server, 'PATCH', `/indexes/${uid}`, {})), taskObject(uid, 'succeeded', 'indexUpdate', { primaryKey: null }));
    expectJson(shown(await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'bones' })), taskObject(uid, 'succeeded', 'indexUpdate', { primaryKey: 'bones' }));
  });

  it('test_summarized_index_swap: missing indexes are named sorted; a swap has no index uid', async () => {
    const missing = await run(server, 'POST', '/swap-indexes', [{ indexes: ['doggos', 'cattos'] }]);
    const swaps = (a: string, b: string) => ({ swaps: [{ indexes: [a, b], rename: false }] });
    expectJson(
      shown(missing),
      taskObject(null, 'failed', 'indexSwap', swaps('doggos', 'cattos'), errorBody('index_not_found', 'Indexes `cattos`, `doggos` not found.')),
    );
    const [doggos, cattos] = [uniqueUid('doggos'), uniqueUid('cattos')];
    await create(doggos);
    await create(cattos);
    expectJson(shown(await run(server, 'POST', '/swap-indexes', [{ indexes: [doggos, cattos] }])), taskObject(null, 'succeeded', 'indexSwap', swaps(doggos, cattos)));
  });

  it('test_summarized_task_cancelation: a cancelation of a finished task matches it and cancels nothing', async () => {
    const created = await create(uniqueUid('cancel'));
    const cancelation = await run(server, 'POST', `/tasks/cancel?uids=${created.uid}`);
    expectJson(
      shown(cancelation),
      taskObject(null, 'succeeded', 'taskCancelation', { matchedTasks: 1, canceledTasks: 0, originalFilter: `?uids=${created.uid}` }),
    );
  });

  it('test_summarized_task_deletion and delete_task: the deleted task is gone from its index list', async () => {
    const uid = uniqueUid('delete-task');
    const addition = await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, [{ id: 1, free: 'palestine', asc_desc_rank: 1 }]);
    const reply = await call(server, 'DELETE', `/tasks?uids=${addition.uid}`);
    expect(reply.status).toBe(200);
    expectJson(
      shown(await waitTask(server, reply.body.taskUid)),
      taskObject(null, 'succeeded', 'taskDeletion', { matchedTasks: 1, deletedTasks: 1, originalFilter: `?uids=${addition.uid}` }),
    );
    expectJson((await call(server, 'GET', `/tasks?indexUids=${uid}`)).body, { results: [], total: 0, limit: 20, from: null, next: null });
  });
});

// deletion.rs: two additions before `time1`, two between `time1` and `time2`, two after; deleting
// with `before<X>=time2&after<X>=time1` removes exactly the middle two, for X = each date field.
describe('delete_tasks_time_bounds', () => {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
  async function addTwo(uid: string, from: number): Promise<number[]> {
    const uids: number[] = [];
    for (const id of [from, from + 1]) uids.push((await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, [{ id, country: 'taiwan' }])).uid);
    return uids;
  }
  /** An instant strictly between the tasks finished before it and the tasks enqueued after it. */
  async function instant(): Promise<string> {
    await pause();
    const now = new Date().toISOString();
    await pause();
    return now;
  }

  it.each(['EnqueuedAt', 'StartedAt', 'FinishedAt'])('before and after bounds on %s together delete the tasks in between', async (field) => {
    const uid = uniqueUid('bounds');
    const first = await addTwo(uid, 0);
    const time1 = await instant();
    await addTwo(uid, 2);
    const time2 = await instant();
    const last = await addTwo(uid, 4);
    const reply = await call(server, 'DELETE', `/tasks?before${field}=${encodeURIComponent(time2)}&after${field}=${encodeURIComponent(time1)}`);
    expect(reply.status).toBe(200);
    const deletion = await waitTask(server, reply.body.taskUid);
    expectJson(
      { ...shown(deletion), details: { ...deletion.details, originalFilter: '[ignored]' } },
      taskObject(null, 'succeeded', 'taskDeletion', { matchedTasks: 2, deletedTasks: 2, originalFilter: '[ignored]' }),
    );
    const left = (await call(server, 'GET', `/tasks?indexUids=${uid}`)).body;
    const kept = [...last, ...first].sort((a, b) => b - a);
    expectJson(
      { ...left, results: left.results.map(shown) },
      {
        results: kept.map(() => taskObject(uid, 'succeeded', 'documentAdditionOrUpdate', { receivedDocuments: 1, indexedDocuments: 1 })),
        total: 4,
        limit: 20,
        from: kept[0],
        next: null,
      },
    );
    expect(left.results.map((t: { uid: number }) => t.uid)).toEqual(kept);
  });
});
