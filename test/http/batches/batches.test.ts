/**
 * `GET /batches` and `GET /batches/{uid}` through the real server: the batch object and its stats,
 * batchStrategy sentences, cursor pagination and every filter. The file's own server creates
 * `b-0`…`b-9` first, one batch each, so batch `i` holds task `i`.
 */
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_KEYS, DURATION, RFC3339, call, run, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const tasks: any[] = [];

beforeAll(async () => {
  server = await startServer();
  for (let i = 0; i < 10; i++) tasks.push(await run(server, 'POST', '/indexes', { uid: `b-${i}`, primaryKey: i === 3 ? 'id' : null }));
});
afterAll(async () => {
  await server.dispose();
});

const page = async (query: string) => (await call(server, 'GET', `/batches?${query}`)).body;
const uids = async (query: string): Promise<number[]> => (await page(query)).results.map((batch: { uid: number }) => batch.uid);
const alone = (uid: number, type: string) =>
  `created batch containing only task with id ${uid} of type \`${type}\` that cannot be batched with any other task.`;
const TRACE_TIME = /^\d+\.\d{2}(s|ms|µs|ns)$/;

describe('pagination', () => {
  it('answers the newest batches in the cursor envelope', async () => {
    const body = await page('');
    expect(Object.keys(body)).toEqual(['results', 'total', 'limit', 'from', 'next']);
    expect(body).toMatchObject({ total: 10, limit: 20, from: 9, next: null });
    expect(body.results.map((b: { uid: number }) => b.uid)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it.each([
    ['limit=3', [9, 8, 7], 6],
    ['limit=3&from=1', [1, 0], null],
    ['limit=3&reverse=true', [0, 1, 2], 3],
    ['limit=3&from=8&reverse=true', [8, 9], null],
    ['limit=0', [], 9],
  ])('?%s pages like Meilisearch', async (query, expected, next) => {
    const body = await page(query);
    expect(body.results.map((b: { uid: number }) => b.uid)).toEqual(expected);
    expect(body.next).toBe(next);
    expect(body.total).toBe(10);
  });
});

describe('the batch object', () => {
  it('has every field in order, the stats of its tasks and the trace of its steps', async () => {
    const reply = await call(server, 'GET', '/batches/0');
    expect(reply.status).toBe(200);
    const batch = reply.body;
    expect(Object.keys(batch)).toEqual(BATCH_KEYS);
    expect(Object.keys(batch.stats)).toEqual(['totalNbTasks', 'status', 'types', 'indexUids', 'progressTrace']);
    expect(Object.keys(batch.stats.progressTrace)).toEqual([
      'processing tasks > creating the index > updating the index',
      'processing tasks > creating the index',
      'processing tasks',
      'writing tasks to disk > task',
      'writing tasks to disk',
    ]);
    for (const time of Object.values(batch.stats.progressTrace)) expect(time).toMatch(TRACE_TIME);
    expect({ ...batch, stats: { ...batch.stats, progressTrace: '[trace]' } }).toStrictEqual({
      uid: 0,
      progress: null,
      details: {},
      stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { indexCreation: 1 }, indexUids: { 'b-0': 1 }, progressTrace: '[trace]' },
      duration: tasks[0].duration,
      startedAt: tasks[0].startedAt,
      finishedAt: tasks[0].finishedAt,
      batchStrategy: alone(0, 'indexCreation'),
    });
    expect(batch.duration).toMatch(DURATION);
    expect(batch.startedAt).toMatch(RFC3339);
  });

  it('keeps set values of its tasks details and drops null ones', async () => {
    expect((await call(server, 'GET', '/batches/3')).body.details).toStrictEqual({ primaryKey: 'id' });
    const failed = await run(server, 'POST', '/indexes', { uid: 'b-0', primaryKey: 'doggos' });
    const batch = (await call(server, 'GET', `/batches/${failed.batchUid}`)).body;
    expect(batch.details).toStrictEqual({ primaryKey: 'doggos' });
    expect(batch.stats).toMatchObject({ status: { failed: 1 }, types: { indexCreation: 1 }, indexUids: { 'b-0': 1 } });
  });

  it('of a swap counts no index, as the swap belongs to none', async () => {
    const swap = await run(server, 'POST', '/swap-indexes', [{ indexes: ['b-1', 'b-2'] }]);
    const batch = (await call(server, 'GET', `/batches/${swap.batchUid}`)).body;
    expect(batch).toMatchObject({
      details: { swaps: [{ indexes: ['b-1', 'b-2'], rename: false }] },
      stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { indexSwap: 1 }, indexUids: {} },
      batchStrategy: alone(swap.uid, 'indexSwap'),
    });
    expect(Object.keys(batch.stats.progressTrace)).toContain('processing tasks > swapping the indexes');
    await run(server, 'POST', '/swap-indexes', [{ indexes: ['b-1', 'b-2'] }]);
  });

  it('of an index deletion says it stopped after the deletion', async () => {
    const deletion = await run(server, 'DELETE', '/indexes/b-9');
    const batch = (await call(server, 'GET', `/batches/${deletion.batchUid}`)).body;
    expect(batch).toMatchObject({
      details: { deletedDocuments: 0 },
      stats: { types: { indexDeletion: 1 }, indexUids: { 'b-9': 1 } },
      batchStrategy: `stopped after task with id ${deletion.uid} because it deletes the index`,
    });
  });

  it("of a dump or a snapshot traces v1.50's steps, in its order, with the items and indexes they go through", async () => {
    const traced = async (route: string) => {
      const task = await run(server, 'POST', route);
      const trace = (await call(server, 'GET', `/batches/${task.batchUid}`)).body.stats.progressTrace as Record<string, string>;
      return Object.keys(trace).filter((step) => step.startsWith('processing tasks > ')).map((step) => step.slice('processing tasks > '.length));
    };
    const uids = ((await call(server, 'GET', '/indexes?limit=1000')).body.results as { uid: string }[]).map((index) => index.uid);
    expect(uids.length).toBeGreaterThan(1);
    expect(await traced('/dumps')).toEqual([
      'start the dump creation',
      'dump the api keys',
      'dump the chat completion settings',
      'dump the tasks > task',
      'dump the tasks',
      'dump the batches > batch',
      'dump the batches',
      ...uids.flatMap((uid) => [`dump the indexes > ${uid} > document`, `dump the indexes > ${uid}`]),
      'dump the indexes',
      'dump the experimental features',
      'dump the webhooks',
      'compress the dump',
    ]);
    // the keys are copied with the index scheduler's environment: their step only holds its place
    expect(await traced('/snapshots')).toEqual([
      'start the snapshot creation',
      'snapshot the index scheduler',
      'snapshot the update files > update file',
      'snapshot the update files',
      ...uids.map((uid) => `snapshot the indexes > ${uid}`),
      'snapshot the indexes',
      'snapshot the api keys',
      'create the tarball',
    ]);
  });
});

describe('filters', () => {
  it('uids selects the batches holding those tasks; batchUids the batches themselves', async () => {
    expect(await uids('uids=4,6,999')).toEqual([6, 4]);
    expect(await uids('batchUids=5,7,999')).toEqual([7, 5]);
    expect(await uids('uids=4&batchUids=4,5')).toEqual([4]);
  });

  it('statuses, types and indexUids select the batches holding such tasks', async () => {
    const failed = (await page('statuses=failed')).results.map((b: { uid: number }) => b.uid);
    expect(failed).toHaveLength(1);
    expect(await uids('statuses=processing')).toEqual([]);
    expect(await uids('statuses=enqueued')).toEqual([]);
    expect((await page('statuses=succeeded,failed&types=indexCreation')).total).toBe(11);
    expect((await page('types=indexCreation,IndexSwap&statuses=succeeded,processing,enqueued')).total).toBe(12);
    expect(await uids('indexUids=b-5')).toEqual([5]);
    expect(await uids('indexUids=b-0&statuses=succeeded')).toEqual([0]);
  });

  it('a list containing * restricts nothing', async () => {
    const all = (await page('')).total;
    for (const query of ['indexUids=*', 'indexUids=*,pasteque', 'types=*', 'types=*,documentAdditionOrUpdate&statuses=*', 'uids=*', 'batchUids=*']) {
      expect((await page(query)).total, query).toBe(all);
    }
  });

  it('indexUids hides the batches of global tasks, which total still counts', async () => {
    const body = await page('indexUids=b-1');
    expect(body.results.map((b: { uid: number }) => b.uid)).toEqual([1]);
    expect(body.total).toBe(3);
  });

  it('canceledBy selects the batch in which those cancelations ran', async () => {
    const cancel = await run(server, 'POST', '/tasks/cancel?uids=1');
    expect(await uids(`canceledBy=${cancel.uid}`)).toEqual([cancel.batchUid]);
    expect(await uids('canceledBy=0')).toEqual([]);
  });

  it('date filters compare batch dates strictly, and the enqueue date of their tasks', async () => {
    expect(await uids(`afterStartedAt=${tasks[7].startedAt}&beforeStartedAt=${tasks[9].startedAt}`)).toEqual([8]);
    expect(await uids(`beforeFinishedAt=${tasks[1].finishedAt}`)).toEqual([0]);
    expect(await uids(`afterEnqueuedAt=${tasks[1].enqueuedAt}&beforeEnqueuedAt=${tasks[4].enqueuedAt}`)).toEqual([3, 2]);
    expect(await uids(`afterFinishedAt=${tasks[2].finishedAt}&beforeStartedAt=${tasks[5].startedAt}`)).toEqual([4, 3]);
  });
});

describe('the meilisearch client', () => {
  it('getBatches and getBatch', async () => {
    const client = new Meilisearch({ host: server.url });
    const batches = await client.batches.getBatches({ limit: 2, uids: [0, 1, 2] });
    expect(batches.results.map((b) => b.uid)).toEqual([2, 1]);
    expect(batches).toMatchObject({ total: 3, limit: 2, from: 2, next: 0 });
    const batch = await client.batches.getBatch(3);
    expect(batch).toMatchObject({ uid: 3, progress: null, details: { primaryKey: 'id' }, stats: { totalNbTasks: 1 } });
    const task = await waitTask(server, 3);
    expect(task.batchUid).toBe(batch.uid);
  });
});

describe('writeChannelCongestion', () => {
  const statsOf = async (task: { batchUid: number }) => (await call(server, 'GET', `/batches/${task.batchUid}`)).body.stats;

  it('counts the parts the extraction workers posted to a large addition, and those that waited for the write', async () => {
    // over 1 MiB of payload: the workers extract it ahead of the write, in parts
    const docs = Array.from({ length: 3_000 }, (_, id) => ({ id, text: `document ${id} ${'lorem ipsum dolor sit amet '.repeat(16)}` }));
    const added = await run(server, 'POST', '/indexes/b-congestion/documents', docs);
    expect(added.status).toBe('succeeded');
    const { attempts, blocking_attempts: blocking, blocking_ratio: ratio } = (await statsOf(added)).writeChannelCongestion;
    expect(attempts).toBeGreaterThan(1);
    expect(blocking).toBeGreaterThanOrEqual(0);
    expect(blocking).toBeLessThanOrEqual(attempts);
    expect(ratio).toBe(blocking / attempts);
  });

  it('is reported by a deletion or a settings change that indexed documents, as v1.50 runs its indexer for them, and only then', async () => {
    const deleted = await run(server, 'DELETE', '/indexes/b-congestion/documents/1');
    expect(await statsOf(deleted)).toHaveProperty('writeChannelCongestion');
    const missing = await run(server, 'DELETE', '/indexes/b-congestion/documents/1');
    expect(await statsOf(missing)).not.toHaveProperty('writeChannelCongestion');
    const settings = await run(server, 'PATCH', '/indexes/b-congestion/settings', { filterableAttributes: ['id'] });
    expect(await statsOf(settings)).toHaveProperty('writeChannelCongestion');
    const emptySettings = await run(server, 'PATCH', '/indexes/b-congestion-empty/settings', { filterableAttributes: ['id'] });
    expect(await statsOf(emptySettings)).not.toHaveProperty('writeChannelCongestion');
    // a batch that fails as a whole reports none
    await run(server, 'PATCH', '/indexes/b-congestion-fails/settings', { embedders: { manual: { source: 'userProvided', dimensions: 2 } } });
    const refused = await run(server, 'POST', '/indexes/b-congestion-fails/documents', [{ id: 1 }]);
    expect(refused.status).toBe('failed');
    expect(await statsOf(refused)).not.toHaveProperty('writeChannelCongestion');
  });
});

describe('internalDatabaseSizes', () => {
  const SIZE_CHANGE = /^\d+(\.\d{1,2})? (B|KiB|MiB|GiB) \([+-]\d+(\.\d{1,2})? (B|KiB|MiB|GiB)\)$/;
  const statsOf = async (task: { batchUid: number }) => (await call(server, 'GET', `/batches/${task.batchUid}`)).body.stats;

  it('lists, after the progress trace and the write channel, the databases a document batch grew or shrank', async () => {
    const added = await run(server, 'POST', '/indexes/b-sizes/documents', [{ id: 42, content: 'doggos & fluff' }]);
    const stats = await statsOf(added);
    expect(Object.keys(stats)).toEqual(['totalNbTasks', 'status', 'types', 'indexUids', 'progressTrace', 'writeChannelCongestion', 'internalDatabaseSizes']);
    expect(stats.internalDatabaseSizes.documents).toMatch(/\(\+/);
    for (const change of Object.values(stats.internalDatabaseSizes)) expect(change).toMatch(SIZE_CHANGE);

    const deleted = await run(server, 'DELETE', '/indexes/b-sizes/documents/42');
    expect((await statsOf(deleted)).internalDatabaseSizes.documents).toBe('0 B (-4 KiB)');
  });

  it('is left out when the batch changed no database size, or wrote no documents nor settings', async () => {
    const again = await run(server, 'POST', '/indexes/b-0/documents', [{ id: 1 }]);
    expect(await statsOf(again)).toHaveProperty('internalDatabaseSizes');
    const same = await run(server, 'POST', '/indexes/b-0/documents', [{ id: 1 }]);
    expect(await statsOf(same)).not.toHaveProperty('internalDatabaseSizes');
    const creation = await run(server, 'POST', '/indexes', { uid: 'b-sizes-2' });
    expect(await statsOf(creation)).not.toHaveProperty('internalDatabaseSizes');
  });
});
