// HTTP benchmark of the task queue (issue 3): `GET /tasks` with filters over 100,000 stored tasks
// (the enqueue throughput is bench/enqueue.ts). The tasks are written on the stopped database with
// Quarry's own TaskQueue (a third of them failed, spread over 100 indexes), then the real server
// is started on it.
// Run: npm run build:ts && npx vitest bench --run --config test/vitest.config.ts bench/http
import { rmSync } from 'node:fs';
import path from 'node:path';

import { afterAll, bench, describe } from 'vitest';

import { openInstanceStore } from '../../src/store/env.js';
import { finishBatch, openBatch } from '../../src/tasks/batch-record.js';
import { nowNs } from '../../src/types/dates.js';
import { TaskQueue } from '../../src/tasks/queue.js';
import { startServer, tempDir } from '../../test/helpers/server.js';

const STORED = 100_000;

function seed(dbPath: string): void {
  const store = openInstanceStore(dbPath, '0.0.0');
  const queue = new TaskQueue(store);
  for (let from = 0; from < STORED; from += 5000) {
    store.root.transactionSync(() => {
      for (let uid = from; uid < from + 5000; uid++) {
        const task = queue.register({ kind: { name: 'indexCreation', indexUid: `idx-${uid % 100}`, primaryKey: null } });
        const batch = openBatch(uid, [task], 'bench', nowNs());
        const done = finishBatch(batch, [{ ...task, status: uid % 3 === 0 ? 'failed' : 'succeeded' }], nowNs());
        queue.commitBatch(done.batch, done.tasks);
      }
    });
  }
  void store.close();
}

const seededPath = path.join(tempDir('quarry-bench-'), 'data.ms');
seed(seededPath);
const stored = await startServer({ dbPath: seededPath });

afterAll(async () => {
  await stored.kill();
  rmSync(path.dirname(seededPath), { recursive: true, force: true });
});

async function get(query: string): Promise<void> {
  const res = await fetch(`${stored.url}/tasks?${query}`);
  if (res.status !== 200) throw new Error(`GET /tasks?${query}: ${res.status}`);
  await res.arrayBuffer();
}

describe(`GET /tasks over ${STORED} tasks`, () => {
  for (const query of [
    'limit=20',
    'statuses=failed',
    'statuses=succeeded,failed&limit=50',
    'indexUids=idx-7',
    'statuses=failed&indexUids=idx-7',
    'types=indexCreation&from=50000',
    'statuses=failed&types=indexCreation',
    'afterEnqueuedAt=2020-01-01',
  ]) {
    bench(query, () => get(query), { time: 2000 });
  }
});
