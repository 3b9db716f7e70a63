/**
 * `GET /tasks` through the real server: Meilisearch's cursor pagination and every filter, on a
 * server of its own whose task uids the file controls (tasks 0–9 create `list-0`…`list-9`), then
 * a listing over thousands of tasks.
 */
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const tasks: any[] = [];

beforeAll(async () => {
  server = await startServer();
  for (let i = 0; i < 10; i++) {
    const reply = await call(server, 'POST', '/indexes', { uid: `list-${i}` });
    expect(reply.body.taskUid).toBe(i);
  }
  for (let i = 0; i < 10; i++) tasks.push(await waitTask(server, i));
});
afterAll(async () => {
  await server.dispose();
});

const page = async (query: string) => (await call(server, 'GET', `/tasks?${query}`)).body;
const uids = async (query: string): Promise<number[]> => (await page(query)).results.map((task: { uid: number }) => task.uid);

describe('pagination', () => {
  it('answers the 20 newest by default in the cursor envelope', async () => {
    const reply = await call(server, 'GET', '/tasks');
    expect(Object.keys(reply.body)).toEqual(['results', 'total', 'limit', 'from', 'next']);
    expect(reply.body).toMatchObject({ total: 10, limit: 20, from: 9, next: null });
    expect(reply.body.results.map((t: { uid: number }) => t.uid)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it.each([
    ['limit=3', [9, 8, 7], 9, 6],
    ['limit=3&from=1', [1, 0], 1, null],
    ['limit=3&reverse=true', [0, 1, 2], 0, 3],
    ['limit=3&from=8&reverse=true', [8, 9], 8, null],
    ['limit=2&from=100', [9, 8], 9, 7],
    ['limit=10', [9, 8, 7, 6, 5, 4, 3, 2, 1, 0], 9, null],
    ['limit=0', [], null, 9],
    ['limit=0&reverse=true', [], null, 0],
  ])('?%s pages like Meilisearch', async (query, expected, from, next) => {
    const body = await page(query);
    expect(body.results.map((t: { uid: number }) => t.uid)).toEqual(expected);
    expect({ total: body.total, from: body.from, next: body.next }).toEqual({ total: 10, from, next });
  });

  it('walks every task by following next', async () => {
    const seen: number[] = [];
    let query = 'limit=4';
    for (;;) {
      const body = await page(query);
      seen.push(...body.results.map((t: { uid: number }) => t.uid));
      if (body.next === null) break;
      query = `limit=4&from=${body.next}`;
    }
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('echoes the largest limit as v1.50 does, one less (its limit + 1 saturates at u32::MAX)', async () => {
    const body = await page('limit=4294967295');
    expect(body.limit).toBe(4294967294);
    expect(body.results).toHaveLength(10);
    const batches = await call(server, 'GET', '/batches?limit=4294967295');
    expect(batches.body.limit).toBe(4294967294);
    expect((await page('limit=4294967294')).limit).toBe(4294967294);
  });
});

describe('filters', () => {
  it('uids, statuses, types and indexUids select their tasks; values OR, filters AND', async () => {
    expect(await uids('uids=1,3,99')).toEqual([3, 1]);
    expect(await uids('statuses=succeeded&limit=3')).toEqual([9, 8, 7]);
    expect((await page('statuses=succeeded')).total).toBe(10);
    expect(await uids('statuses=failed,canceled')).toEqual([]);
    expect((await page('types=indexCreation')).total).toBe(10);
    expect(await uids('types=indexDeletion,indexSwap')).toEqual([]);
    expect(await uids('indexUids=list-3')).toEqual([3]);
    expect(await uids('indexUids=list-3,list-5&uids=3,4')).toEqual([3]);
  });

  it('statuses and types are matched whatever their case', async () => {
    expect((await page('statuses=SUCCEEDED&types=IndexCreation')).total).toBe(10);
  });

  it('batchUids selects the tasks of those batches', async () => {
    expect(await uids(`batchUids=${tasks[4].batchUid}`)).toEqual([4]);
    expect(await uids(`batchUids=${tasks[2].batchUid},${tasks[6].batchUid}`)).toEqual([6, 2]);
    expect(await uids('batchUids=4000')).toEqual([]);
  });

  it('a list containing * restricts nothing', async () => {
    for (const query of ['uids=*', 'statuses=*,failed', 'types=*,indexSwap', 'indexUids=*,nothing', 'batchUids=*', 'canceledBy=*']) {
      expect((await page(query)).total, query).toBe(10);
    }
    for (const query of ['afterEnqueuedAt=*', 'beforeStartedAt=*', 'afterFinishedAt=*']) {
      expect((await page(query)).total, query).toBe(10);
    }
  });

  it('canceledBy a task that canceled nothing matches nothing', async () => {
    expect(await page('canceledBy=4')).toStrictEqual({ results: [], total: 0, limit: 20, from: null, next: null });
  });

  it('date filters compare strictly, in RFC 3339 with any offset', async () => {
    const at = tasks[4].enqueuedAt as string;
    expect(await uids(`afterEnqueuedAt=${at}`)).toEqual([9, 8, 7, 6, 5]);
    expect(await uids(`beforeEnqueuedAt=${at}`)).toEqual([3, 2, 1, 0]);
    expect(await uids(`afterEnqueuedAt=${at}&beforeEnqueuedAt=${at}`)).toEqual([]);
    expect(await uids(`afterEnqueuedAt=${tasks[2].enqueuedAt}&beforeEnqueuedAt=${tasks[5].enqueuedAt}`)).toEqual([4, 3]);
    expect(await uids(`afterStartedAt=${tasks[7].startedAt}`)).toEqual([9, 8]);
    expect(await uids(`beforeFinishedAt=${tasks[1].finishedAt}`)).toEqual([0]);
    expect(await uids(`afterFinishedAt=${tasks[8].startedAt}&beforeStartedAt=${tasks[9].finishedAt}`)).toEqual([9, 8]);
    // The same instant written two hours ahead of UTC.
    const [date, time] = at.replace('Z', '').split('T') as [string, string];
    const hour = Number(time.slice(0, 2));
    if (hour < 22) {
      const shifted = `${date}T${String(hour + 2).padStart(2, '0')}${time.slice(2)}%2B02:00`;
      expect(await uids(`afterEnqueuedAt=${shifted}`)).toEqual([9, 8, 7, 6, 5]);
    }
  });

  it('a bare date means midnight for before* and the next midnight for after*', async () => {
    const day = (tasks[0].enqueuedAt as string).slice(0, 10);
    expect((await page(`afterEnqueuedAt=${day}`)).total).toBe(0);
    expect((await page(`beforeEnqueuedAt=${day}`)).total).toBe(0);
    const previous = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await page(`afterEnqueuedAt=${previous}`)).total).toBe(10);
  });

  it('indexUids hides global tasks but counts them in total', async () => {
    const swap = await run(server, 'POST', '/swap-indexes', [{ indexes: ['list-1', 'list-2'] }]);
    const withSwap = await page('indexUids=list-1');
    expect(withSwap.total).toBe(2);
    expect(withSwap.results.map((t: { uid: number }) => t.uid)).toEqual([2]);
    expect(await uids(`uids=${swap.uid}`)).toEqual([swap.uid]);
    await run(server, 'POST', '/swap-indexes', [{ indexes: ['list-1', 'list-2'] }]);
  });
});

describe('many tasks', () => {
  it('lists and filters 1000 tasks, each page starting at the right task', async () => {
    const client = new Meilisearch({ host: server.url });
    const count = 1000;
    const failing: number[] = [];
    const named = new Map<string, number>();
    let sent = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (sent < count) {
          const i = sent++;
          // Every tenth creation targets an existing index, so that a tenth of them fail.
          const uid = i % 10 === 0 ? 'list-0' : `many-${i}`;
          const reply = await call(server, 'POST', '/indexes', { uid });
          expect(reply.status).toBe(202);
          if (i % 10 === 0) failing.push(reply.body.taskUid);
          else named.set(uid, reply.body.taskUid);
        }
      }),
    );
    const all = [...failing, ...named.values()].sort((a, b) => a - b);
    const last = all[all.length - 1]!;
    await client.tasks.waitForTask(last, { timeout: 60_000 });
    failing.sort((a, b) => b - a);

    // How fast such pages are is measured in bench/http/tasks.bench.ts.
    const failed = await page('statuses=failed&limit=5');
    expect(failed.total).toBe(count / 10);
    expect(failed.results.map((t: { uid: number }) => t.uid)).toEqual(failing.slice(0, 5));
    expect(failed.next).toBe(failing[5]);
    expect(await uids(`statuses=failed&from=${failing[5]}&limit=2`)).toEqual(failing.slice(5, 7));
    expect(await uids(`indexUids=many-${count - 1}`)).toEqual([named.get(`many-${count - 1}`)]);
    expect(await uids(`reverse=true&from=${all[0]}&limit=3`)).toEqual(all.slice(0, 3));
    const succeeded = all.filter((uid) => !failing.includes(uid)).reverse();
    expect(await uids(`statuses=succeeded&types=indexCreation&from=${succeeded[10]}&limit=3`)).toEqual(succeeded.slice(10, 13));
  }, 120_000);
});
