// The scheduler's run loop stops, whatever it is doing when asked to: a stop that lands while the
// loop yields between two batches once left it asleep for good (a shutdown that never ended).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexEnvs } from '../../../src/engine/index-env.js';
import { IndexRegistry } from '../../../src/indexes/registry.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { UpdateFiles } from '../../../src/store/update-files.js';
import { TaskQueue } from '../../../src/tasks/queue.js';
import { Scheduler } from '../../../src/tasks/scheduler.js';
import { WorkerPools } from '../../../src/workers/pool.js';

let dir: string;
let store: InstanceStore;
let workers: WorkerPools;
let envs: IndexEnvs;

afterEach(async () => {
  await workers.close();
  await envs.closeAll();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function scheduler(): Scheduler {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-scheduler-'));
  store = openInstanceStore(dir, '0.0.0');
  workers = new WorkerPools(1);
  envs = new IndexEnvs(dir);
  return new Scheduler({ store, queue: new TaskQueue(store), indexes: new IndexRegistry(store), indexEnvs: envs, updateFiles: new UpdateFiles(store), workers });
}

/** Resolves `promise`, or rejects once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms))]);
}

describe('Scheduler.stop', () => {
  it('stops a loop that is yielding before it looks for a batch', async () => {
    const tasks = scheduler();
    tasks.start(); // the loop's first step yields to pending I/O
    await within(tasks.stop(), 2_000);
  });

  it('stops a loop asleep for want of tasks', async () => {
    const tasks = scheduler();
    tasks.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await within(tasks.stop(), 2_000);
  });
});
