/**
 * Task-queue filters at scale: a queue of TASKS tasks (default 300,000) is written straight into a
 * fresh store (batches of 1–12 tasks over 6 indexes, mostly succeeded, some failed and canceled,
 * the newest ones still enqueued; one global task every 500), then each listing and selection a
 * request makes is timed on this thread, which is the thread answering requests in the server
 * (`GET /health` waits as long). Prints the best and worst of RUNS runs per case, in ms.
 * With `--http`, every task is finished (nothing runs meanwhile) and the queue is then served by
 * the server process: each case is asked over HTTP (POST /tasks/cancel and DELETE /tasks as dry
 * runs) while `GET /health` is asked every 2 ms, and the slowest /health answer is printed.
 *
 *   npm run build:ts && tsc -p bench/tsconfig.json && node dist/bench/task-filters.js [--tasks N] [--runs N] [--http]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openInstanceStore } from '../src/store/env.js';
import { writeTxn } from '../src/store/write-txn.js';
import { finishBatch, openBatch } from '../src/tasks/batch-record.js';
import { defaultDetails } from '../src/tasks/details.js';
import { TaskQueue } from '../src/tasks/queue.js';
import type { TaskQuery } from '../src/tasks/query.js';
import type { Task, TaskKind } from '../src/types/task.js';
import { numberOption } from './args.js';
import { startQuarry } from './peers/quarry-http.js';
import { formatRfc3339 } from '../src/types/dates.js';

const args = process.argv.slice(2);
const TASKS = numberOption(args, '--tasks', 300_000);
const RUNS = numberOption(args, '--runs', 3);
const HTTP = args.includes('--http');
const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S;

function kindOf(n: number): TaskKind {
  const indexUid = `index-${n % 6}`;
  if (n % 500 === 499) return { name: 'dumpCreation', keys: [], instanceUid: null };
  if (n % 7 === 3) return { name: 'settingsUpdate', indexUid, settings: { rankingRules: ['typo'] }, isDeletion: false, allowIndexCreation: true };
  if (n % 11 === 5) return { name: 'documentDeletion', indexUid, documentIds: ['1'] };
  return {
    name: 'documentAdditionOrUpdate',
    indexUid,
    primaryKey: null,
    method: 'replace',
    contentFile: '00000000-0000-0000-0000-000000000000',
    documentsCount: 1,
    payloadSize: 10,
    allowIndexCreation: true,
    onMissingDocument: 'create',
  };
}

/** Seeds the queue: a task every 10 ms, batches of 1–12 consecutive tasks, the last 2 % enqueued. */
function seed(queue: TaskQueue): void {
  const enqueued = (uid: number): Task => {
    const kind = kindOf(uid);
    return {
      uid,
      batchUid: null,
      status: 'enqueued',
      kind,
      details: defaultDetails(kind),
      error: null,
      canceledBy: null,
      enqueuedAt: T0 + BigInt(uid) * 10_000_000n,
      startedAt: null,
      finishedAt: null,
      customMetadata: null,
    };
  };
  const finishedUntil = HTTP ? TASKS : Math.floor(TASKS * 0.98);
  const chunk: Task[] = [];
  let batchUid = 0;
  for (let uid = 0; uid < finishedUntil; ) {
    const size = Math.min(1 + ((uid * 7) % 12), finishedUntil - uid);
    const tasks = Array.from({ length: size }, (_, k) => enqueued(uid + k));
    const last = tasks[tasks.length - 1]!;
    const batch = openBatch(batchUid++, tasks, 'bench', last.enqueuedAt + S);
    const outcome = tasks.map((task): Task => {
      const roll = task.uid % 20;
      return { ...task, status: roll === 0 ? 'failed' : roll === 1 ? 'canceled' : 'succeeded' };
    });
    const done = finishBatch(batch, outcome, last.enqueuedAt + 2n * S);
    chunk.push(...done.tasks);
    queue.writeBatch(done.batch);
    uid += size;
    if (chunk.length >= 20_000) queue.restoreTasks(chunk.splice(0));
  }
  for (let uid = finishedUntil; uid < TASKS; uid++) chunk.push(enqueued(uid));
  queue.restoreTasks(chunk);
}

const at = (share: number): bigint => T0 + BigInt(Math.floor(TASKS * share)) * 10_000_000n;

const CASES: [string, TaskQuery][] = [
  ['afterEnqueuedAt=50%', { afterEnqueuedAt: at(0.5) }],
  ['beforeEnqueuedAt=50%', { beforeEnqueuedAt: at(0.5) }],
  ['afterEnqueuedAt=99.9%', { afterEnqueuedAt: at(0.999) }],
  ['afterStartedAt=50%', { afterStartedAt: at(0.5) }],
  ['beforeStartedAt=50%', { beforeStartedAt: at(0.5) }],
  ['afterFinishedAt=50%', { afterFinishedAt: at(0.5) }],
  ['beforeFinishedAt=50%', { beforeFinishedAt: at(0.5) }],
  ['after+beforeEnqueuedAt 30-60%', { afterEnqueuedAt: at(0.3), beforeEnqueuedAt: at(0.6) }],
  ['afterEnqueuedAt + statuses=succeeded', { afterEnqueuedAt: at(0.5), statuses: ['succeeded'] }],
  ['beforeEnqueuedAt + statuses=failed', { beforeEnqueuedAt: at(0.5), statuses: ['failed'] }],
  ['afterStartedAt + statuses=succeeded', { afterStartedAt: at(0.5), statuses: ['succeeded'] }],
  ['beforeFinishedAt + types=settingsUpdate', { beforeFinishedAt: at(0.5), types: ['settingsUpdate'] }],
  ['afterEnqueuedAt + indexUids=index-1', { afterEnqueuedAt: at(0.2), indexUids: ['index-1'] }],
  ['afterStartedAt + beforeFinishedAt', { afterStartedAt: at(0.2), beforeFinishedAt: at(0.8) }],
  ['enqueued+started+finished + statuses + types', { afterEnqueuedAt: at(0.1), beforeStartedAt: at(0.9), afterFinishedAt: at(0.2), statuses: ['succeeded', 'failed'], types: ['documentAdditionOrUpdate'] }],
  ['afterEnqueuedAt limit=100 from=mid', { afterEnqueuedAt: at(0.3), limit: 100, from: Math.floor(TASKS * 0.6) }],
  ['afterEnqueuedAt reverse', { afterEnqueuedAt: at(0.3), reverse: true }],
  ['statuses=succeeded reverse', { statuses: ['succeeded'], reverse: true }],
  ['afterStartedAt + statuses reverse from', { afterStartedAt: at(0.4), statuses: ['succeeded'], reverse: true, from: Math.floor(TASKS * 0.7) }],
  ['statuses=succeeded,failed + types + indexUids', { statuses: ['succeeded', 'failed'], types: ['documentAdditionOrUpdate'], indexUids: ['index-2'] }],
];

function time(run: () => unknown): number[] {
  const took: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    took.push(performance.now() - started);
  }
  return took;
}

const show = (took: number[]): string => `${Math.min(...took).toFixed(1)}–${Math.max(...took).toFixed(1)} ms`;

/** The query string of a case. */
function queryString(q: TaskQuery): string {
  return Object.entries(q)
    .map(([name, value]) => `${name}=${typeof value === 'bigint' ? formatRfc3339(value) : Array.isArray(value) ? value.join(',') : String(value)}`)
    .join('&');
}

/** Times one request while GET /health is asked every 2 ms: the request's time and the slowest /health. */
async function withHealth(url: string, send: () => Promise<Response>): Promise<[number, number]> {
  let slowest = 0;
  let running = true;
  const probes = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${url}/health`)).arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 10));
  const started = performance.now();
  const answer = await send();
  await answer.arrayBuffer();
  const took = performance.now() - started;
  if (!answer.ok) throw new Error(`${answer.status} ${answer.url}`);
  running = false;
  await probes;
  return [took, slowest];
}

async function overHttp(dir: string): Promise<void> {
  const { child, url } = await startQuarry(dir, ['--experimental-replication-parameters']);
  try {
    const dryRun = { headers: { DryRun: 'true' } };
    for (const [name, q] of CASES) {
      const list = queryString(q);
      const { limit: _limit, from: _from, reverse: _reverse, ...selection } = q;
      const filter = queryString(selection);
      const cells: string[] = [];
      for (const [label, send] of [
        ['GET /tasks', () => fetch(`${url}/tasks?${list}`)],
        ['GET /batches', () => fetch(`${url}/batches?${list}`)],
        ['DELETE /tasks', () => fetch(`${url}/tasks?${filter}`, { method: 'DELETE', ...dryRun })],
      ] as const) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await withHealth(url, send));
        cells.push(`${label} ${show(runs.map(([took]) => took))} (/health ≤ ${Math.max(...runs.map(([, health]) => health)).toFixed(0)} ms)`);
      }
      console.log(`${name.padEnd(48)} ${cells.join('  ')}`);
    }
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-task-filters-'));
  const store = openInstanceStore(dir, '0.1.0');
  let closed = false;
  try {
    const queue = new TaskQueue(store);
    const seeding = performance.now();
    writeTxn(store.root, () => seed(queue));
    console.log(`seeded ${TASKS} tasks in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    if (HTTP) {
      await store.close();
      closed = true;
      await overHttp(dir);
      return;
    }
    for (const [name, q] of CASES) {
      const page = queue.query(q);
      const batches = queue.queryBatches(q);
      console.log(
        `${name.padEnd(48)} GET /tasks ${show(time(() => queue.query(q)))} (total ${page.total})` +
          `  GET /batches ${show(time(() => queue.queryBatches(q)))} (total ${batches.total})` +
          `  select ${show(time(() => queue.matchUids(q)))}`,
      );
    }
  } finally {
    if (!closed) await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
