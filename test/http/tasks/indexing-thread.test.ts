/**
 * Index writes run in the index writer thread (src/workers/index-writer.ts): while a large
 * document batch is in its `indexing` step, the HTTP thread keeps answering from the last
 * committed state, and a cancelation interrupts the write and rolls it back.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DATASET = fileURLToPath(new URL('../../../../shared/datasets/movies.json.gz', import.meta.url));
const movies = (JSON.parse(gunzipSync(readFileSync(DATASET)).toString('utf8')) as Record<string, unknown>[]).slice(0, 20_000);

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

/** An index holding one document, then a large addition enqueued on it; returns its task uid. */
async function indexWithLargeAddition(uid: string): Promise<number> {
  await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, [{ id: 0, title: 'first' }]);
  const reply = await call(server, 'POST', `/indexes/${uid}/documents`, movies);
  expect(reply.status).toBe(202);
  return reply.body.taskUid;
}

/** Polls the batch of `taskUid` until its progress shows a step of the index write under `indexing`. */
async function waitForIndexingStep(taskUid: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { body: task } = await call(server, 'GET', `/tasks/${taskUid}`);
    if (task.status !== 'enqueued' && task.status !== 'processing') throw new Error(`task ${taskUid} ${task.status} before its indexing step was seen`);
    if (task.batchUid !== null) {
      const { body: batch } = await call(server, 'GET', `/batches/${task.batchUid}`);
      // the writer thread's own step (INDEXING_STEPS), nested in `indexing`
      const steps = (batch.progress?.steps ?? []) as { currentStep: string; total: number }[];
      if (steps[1]?.currentStep === 'indexing' && steps[2]?.total === 18) return;
    }
    if (Date.now() > deadline) throw new Error('the indexing step was never seen');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const placeholderTotal = async (uid: string) => (await call(server, 'POST', `/indexes/${uid}/search`, { q: '' })).body.estimatedTotalHits;

describe('the index writer thread', () => {
  it('lets searches answer from the last committed state while a batch is indexing', async () => {
    const uid = uniqueUid('busy');
    const taskUid = await indexWithLargeAddition(uid);
    await waitForIndexingStep(taskUid);
    expect(await placeholderTotal(uid)).toBe(1);
    expect((await call(server, 'GET', '/health')).status).toBe(200);
    const task = await waitTask(server, taskUid, 60_000);
    expect(task.status).toBe('succeeded');
    // the writer's own steps, timed in the finished batch's trace
    const { body: batch } = await call(server, 'GET', `/batches/${String(task.batchUid)}`);
    expect(Object.keys(batch.stats.progressTrace)).toEqual(
      expect.arrayContaining(['processing tasks > indexing > extracting documents', 'processing tasks > indexing > extracting words', 'processing tasks > indexing > finalizing']),
    );
    expect(await placeholderTotal(uid)).toBe(movies.length + 1);
    const stats = await call(server, 'GET', `/indexes/${uid}/stats`);
    expect(stats.body.numberOfDocuments).toBe(movies.length + 1);
  });

  it('rolls back an interrupted write when the batch is canceled during indexing', async () => {
    const uid = uniqueUid('cancel');
    const taskUid = await indexWithLargeAddition(uid);
    await waitForIndexingStep(taskUid);
    const cancel = await run(server, 'POST', `/tasks/cancel?uids=${taskUid}`);
    expect(cancel.details).toMatchObject({ matchedTasks: 1, canceledTasks: 1 });
    expect((await waitTask(server, taskUid)).status).toBe('canceled');
    expect(await placeholderTotal(uid)).toBe(1);
    expect((await call(server, 'GET', `/indexes/${uid}/documents/${String(movies[0]!.id)}`)).status).toBe(404);
    // The environment is usable afterwards: the next write lands.
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, title: 'second' }]);
    expect(await placeholderTotal(uid)).toBe(2);
  });
});
