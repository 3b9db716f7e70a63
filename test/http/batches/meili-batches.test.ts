// Port of Meilisearch's crates/meilisearch/tests/batches/mod.rs: the batch object of every task type
// (details merged from the tasks, stats, which optional stats appear, batchStrategy) and the GET
// /batches filters on one index. Meilisearch's snapshots mask the batch uid, dates, duration and the
// values of progressTrace, writeChannelCongestion and internalDatabaseSizes, keeping their presence;
// `shownBatch` does the same. Covered elsewhere: list_batches_pagination_and_reverse
// (batches.test.ts), list_batch_filter_error and batches/errors.rs (errors.test.ts). Left to the
// dumps sweep: test_summarized_dump_creation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_KEYS, DURATION, RFC3339, call, errorBody, run, stable, uniqueUid } from '../../helpers/api.js';
import { expectJson } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const MASKED_STATS = ['progressTrace', 'writeChannelCongestion', 'internalDatabaseSizes'] as const;

/** A finished batch with what Meilisearch's snapshots redact replaced by placeholders. */
function shownBatch(batch: any): any {
  expect(Object.keys(batch)).toEqual(BATCH_KEYS);
  expect(batch.duration).toMatch(DURATION);
  expect(batch.startedAt).toMatch(RFC3339);
  expect(batch.finishedAt).toMatch(RFC3339);
  const stats = { ...batch.stats };
  for (const key of MASKED_STATS) if (key in stats) stats[key] = `[${key}]`;
  return { ...batch, uid: '[uid]', stats, duration: '[duration]', startedAt: '[date]', finishedAt: '[date]' };
}

/** The masked batch object of a single-task batch; `extra` lists the optional stats it carries. */
function batchObject(details: object, status: string, type: string, indexUid: string | null, extra: (typeof MASKED_STATS)[number][], batchStrategy: string) {
  const stats: Record<string, unknown> = {
    totalNbTasks: 1,
    status: { [status]: 1 },
    types: { [type]: 1 },
    indexUids: indexUid === null ? {} : { [indexUid]: 1 },
  };
  for (const key of MASKED_STATS) if (key === 'progressTrace' || extra.includes(key)) stats[key] = `[${key}]`;
  return { uid: '[uid]', progress: null, details, stats, duration: '[duration]', startedAt: '[date]', finishedAt: '[date]', batchStrategy };
}

const batchOf = async (task: { batchUid: number }) => (await call(server, 'GET', `/batches/${task.batchUid}`)).body;
const alone = (task: { uid: number; type: string }) =>
  `created batch containing only task with id ${task.uid} of type \`${task.type}\` that cannot be batched with any other task.`;
const create = (uid: string, primaryKey: string | null = null) => run(server, 'POST', '/indexes', { uid, primaryKey });
const batchUidsOf = async (query: string): Promise<number[]> =>
  (await call(server, 'GET', `/batches?${query}`)).body.results.map((b: { uid: number }) => b.uid);

/**
 * Meilisearch's snapshots of document and settings batches redact `batchStrategy` to a fixed text
 * whatever it says, so only its presence is checked for them.
 */
const anyStrategy = (batch: any) => ({ ...batch, batchStrategy: '[strategy]' });

/** A document batch without `writeChannelCongestion`, which Quarry does not report (see below). */
function withoutCongestion(batch: any): any {
  const { writeChannelCongestion: _, ...stats } = batch.stats;
  return anyStrategy({ ...batch, stats });
}

describe('listing the batches of one index', () => {
  it('get_batch_status and list_batches: a failed creation has its own batch', async () => {
    const uid = uniqueUid('list');
    const created = await create(uid);
    expect((await call(server, 'GET', `/batches/${created.batchUid}`)).status).toBe(200);
    expect((await create(uid)).status).toBe('failed');
    expect(await batchUidsOf(`indexUids=${uid}`)).toHaveLength(2);
  });

  it('list_batches_with_star_filters: a list holding * restricts nothing, next to real values', async () => {
    const uid = uniqueUid('star');
    await create(uid);
    await create(uid);
    const everything = (await batchUidsOf('limit=1000')).length;
    expect(await batchUidsOf(`indexUids=${uid}`)).toHaveLength(2);
    for (const query of ['indexUids=*', 'indexUids=*,pasteque', 'types=*', 'types=*,documentAdditionOrUpdate&statuses=*']) {
      expect(await batchUidsOf(`${query}&limit=1000`), query).toHaveLength(everything);
    }
    expect(await batchUidsOf(`types=*,documentAdditionOrUpdate&statuses=*,failed&indexUids=${uid}`)).toHaveLength(2);
    expect(await batchUidsOf(`types=*,documentAdditionOrUpdate&statuses=*,failed&indexUids=${uid},*&limit=1000`)).toHaveLength(everything);
  });

  it('list_batches_status_filtered: statuses select the batches holding such tasks', async () => {
    const uid = uniqueUid('statuses');
    await create(uid);
    await create(uid);
    expect(await batchUidsOf(`indexUids=${uid}&statuses=succeeded`)).toHaveLength(1);
    expect(await batchUidsOf(`indexUids=${uid}&statuses=succeeded,failed`)).toHaveLength(2);
  });

  it('list_batches_type_filtered: types select the batches holding such tasks', async () => {
    const uid = uniqueUid('types');
    await create(uid);
    await run(server, 'DELETE', `/indexes/${uid}`);
    expect(await batchUidsOf(`indexUids=${uid}&types=indexCreation`)).toHaveLength(1);
    expect(await batchUidsOf(`indexUids=${uid}&types=indexCreation,indexDeletion`)).toHaveLength(2);
  });

  it('list_batches_invalid_canceled_by_filter: canceledBy a task that canceled nothing matches nothing', async () => {
    const uid = uniqueUid('canceled-by');
    await create(uid);
    expect(await batchUidsOf(`indexUids=${uid}&canceledBy=0`)).toEqual([]);
  });

  it('list_batches_status_and_type_filtered: types match whatever their case, ANDed with statuses', async () => {
    const uid = uniqueUid('and');
    await create(uid);
    await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'id' });
    expect(await batchUidsOf(`indexUids=${uid}&types=indexCreation&statuses=failed`)).toEqual([]);
    expect(await batchUidsOf(`indexUids=${uid}&types=indexCreation,IndexUpdate&statuses=succeeded,processing,enqueued`)).toHaveLength(2);
  });
});

describe('the batch object of each type', () => {
  it('test_summarized_document_addition_or_update: the first addition grows the databases, the same one again does not', async () => {
    const uid = uniqueUid('addition');
    const details = { receivedDocuments: 1, indexedDocuments: 1 };
    const first = await run(server, 'POST', `/indexes/${uid}/documents`, { id: 42, content: 'doggos & fluff' });
    expectJson(
      withoutCongestion(shownBatch(await batchOf(first))),
      anyStrategy(batchObject(details, 'succeeded', 'documentAdditionOrUpdate', uid, ['internalDatabaseSizes'], '')),
    );
    const again = await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, { id: 42, content: 'doggos & fluff' });
    expectJson(withoutCongestion(shownBatch(await batchOf(again))), anyStrategy(batchObject(details, 'succeeded', 'documentAdditionOrUpdate', uid, [], '')));
  });

  // Meilisearch's indexer reports how often its extractors waited on the channel to the database
  // writer (`writeChannelCongestion`, after progressTrace); Quarry's, how often its extraction
  // workers' parts waited for the write. A one-document payload is extracted by the write itself:
  // no part, no ratio (v1.50's 0 ÷ 0 is a NaN, which serde_json writes as null).
  it('test_summarized_document_addition_or_update: a batch that ran the indexer reports its writeChannelCongestion', async () => {
    const task = await run(server, 'POST', `/indexes/${uniqueUid('congestion')}/documents`, { id: 42, content: 'doggos & fluff' });
    const { stats } = await batchOf(task);
    expect(Object.keys(stats).slice(4, 6)).toEqual(['progressTrace', 'writeChannelCongestion']);
    expect(stats.writeChannelCongestion).toEqual({ attempts: 0, blocking_attempts: 0, blocking_ratio: null });
  });

  it('test_summarized_delete_documents_by_batch: a null originalFilter is left out of the batch details', async () => {
    const uid = uniqueUid('delete-batch');
    const failed = await run(server, 'POST', `/indexes/${uid}/documents/delete-batch`, [4294967294, 4294967293, 4294967292]);
    expectJson(
      anyStrategy(shownBatch(await batchOf(failed))),
      anyStrategy(batchObject({ providedIds: 3, deletedDocuments: 0 }, 'failed', 'documentDeletion', uid, [], '')),
    );
    await create(uid);
    const succeeded = await run(server, 'POST', `/indexes/${uid}/documents/delete-batch`, [42]);
    expectJson(
      anyStrategy(shownBatch(await batchOf(succeeded))),
      anyStrategy(batchObject({ providedIds: 1, deletedDocuments: 0 }, 'succeeded', 'documentDeletion', uid, [], '')),
    );
  });

  it('test_summarized_delete_documents_by_filter: the filter text is kept, whether the task fails or not', async () => {
    const uid = uniqueUid('delete-filter');
    const body = { filter: 'doggo = bernese' };
    const details = { providedIds: 0, deletedDocuments: 0, originalFilter: '"doggo = bernese"' };
    const check = async (status: string) => {
      const task = await run(server, 'POST', `/indexes/${uid}/documents/delete`, body);
      expect(task.status).toBe(status);
      expectJson(anyStrategy(shownBatch(await batchOf(task))), anyStrategy(batchObject(details, status, 'documentDeletion', uid, [], '')));
    };
    await check('failed');
    await create(uid);
    await check('failed');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['doggo'] });
    await check('succeeded');
  });

  it('test_summarized_delete_document_by_id: one provided id, on a missing then on an empty index', async () => {
    const uid = uniqueUid('delete-one');
    const failed = await run(server, 'DELETE', `/indexes/${uid}/documents/1`);
    expectJson(
      anyStrategy(shownBatch(await batchOf(failed))),
      anyStrategy(batchObject({ providedIds: 1, deletedDocuments: 0 }, 'failed', 'documentDeletion', uid, [], '')),
    );
    await create(uid);
    const succeeded = await run(server, 'DELETE', `/indexes/${uid}/documents/42`);
    expectJson(
      anyStrategy(shownBatch(await batchOf(succeeded))),
      anyStrategy(batchObject({ providedIds: 1, deletedDocuments: 0 }, 'succeeded', 'documentDeletion', uid, [], '')),
    );
  });

  it('test_summarized_settings_update: the settings sent are the details', async () => {
    const uid = uniqueUid('settings');
    expect((await call(server, 'PATCH', `/indexes/${uid}/settings`, { rankingRules: ['custom'] })).status).toBe(400);
    const settings = { displayedAttributes: ['doggos', 'name'], filterableAttributes: ['age', 'nb_paw_pads'], sortableAttributes: ['iq'] };
    const task = await run(server, 'PATCH', `/indexes/${uid}/settings`, settings);
    expectJson(anyStrategy(shownBatch(await batchOf(task))), anyStrategy(batchObject(settings, 'succeeded', 'settingsUpdate', uid, [], '')));
  });

  it('test_summarized_index_creation: a null primary key is left out; a failed creation keeps its own', async () => {
    const uid = uniqueUid('creation');
    const created = await create(uid);
    expectJson(shownBatch(await batchOf(created)), batchObject({}, 'succeeded', 'indexCreation', uid, [], alone(created)));
    const failed = await create(uid, 'doggos');
    expectJson(shownBatch(await batchOf(failed)), batchObject({ primaryKey: 'doggos' }, 'failed', 'indexCreation', uid, [], alone(failed)));
  });

  it('test_summarized_index_deletion: the tasks read like the ones of tasks/mod.rs', async () => {
    const uid = uniqueUid('deletion');
    const notFound = errorBody('index_not_found', `Index \`${uid}\` not found.`);
    expect(stable(await run(server, 'DELETE', `/indexes/${uid}`))).toMatchObject({ status: 'failed', details: { deletedDocuments: 0 }, error: notFound });
    await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, { id: 42, content: 'doggos & fluff' });
    expect(stable(await run(server, 'DELETE', `/indexes/${uid}`))).toMatchObject({ status: 'succeeded', details: { deletedDocuments: 1 }, error: null });
    expect(stable(await run(server, 'DELETE', `/indexes/${uid}`))).toMatchObject({ status: 'failed', details: { deletedDocuments: 0 }, error: notFound });
  });

  it('test_summarized_index_update: details drop a null primary key, failed or not', async () => {
    const uid = uniqueUid('update');
    const check = async (body: object, status: string, details: object) => {
      const task = await run(server, 'PATCH', `/indexes/${uid}`, body);
      expect(task.status).toBe(status);
      expectJson(shownBatch(await batchOf(task)), batchObject(details, status, 'indexUpdate', uid, [], alone(task)));
    };
    await check({}, 'failed', {});
    await check({ primaryKey: 'bones' }, 'failed', { primaryKey: 'bones' });
    await create(uid);
    await check({}, 'succeeded', {});
    await check({ primaryKey: 'bones' }, 'succeeded', { primaryKey: 'bones' });
  });

  it('test_summarized_index_swap: a failed swap counts no index', async () => {
    const swap = await run(server, 'POST', '/swap-indexes', [{ indexes: ['doggos', 'cattos'] }]);
    expectJson(
      shownBatch(await batchOf(swap)),
      batchObject({ swaps: [{ indexes: ['doggos', 'cattos'], rename: false }] }, 'failed', 'indexSwap', null, [], alone(swap)),
    );
  });

  it('test_summarized_batch_cancelation: a cancelation runs alone and belongs to no index', async () => {
    const created = await create(uniqueUid('cancel'));
    const cancelation = await run(server, 'POST', `/tasks/cancel?uids=${created.uid}`);
    expectJson(
      shownBatch(await batchOf(cancelation)),
      batchObject(
        { matchedTasks: 1, canceledTasks: 0, originalFilter: `?uids=${created.uid}` },
        'succeeded',
        'taskCancelation',
        null,
        [],
        alone(cancelation),
      ),
    );
  });

  it('test_summarized_batch_deletion: a task deletion stops after the last deletion', async () => {
    const created = await create(uniqueUid('delete'));
    const deletion = await run(server, 'DELETE', `/tasks?uids=${created.uid}`);
    expectJson(
      shownBatch(await batchOf(deletion)),
      batchObject(
        { matchedTasks: 1, deletedTasks: 1, originalFilter: `?uids=${created.uid}` },
        'succeeded',
        'taskDeletion',
        null,
        [],
        'stopped after the last task of type `taskDeletion` because they cannot be batched with tasks of any other type.',
      ),
    );
  });
});
