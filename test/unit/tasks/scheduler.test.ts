// The scheduler's run loop stops, whatever it is doing when asked to: a stop that lands while the
// loop yields between two batches once left it asleep for good (a shutdown that never ended).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../src/engine/documents/store.js';
import { IndexEnvs } from '../../../src/engine/index-env.js';
import { IndexRegistry } from '../../../src/indexes/registry.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { UpdateFiles } from '../../../src/store/update-files.js';
import { SearchRuleStore } from '../../../src/search-rules/store.js';
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
  return new Scheduler({ store, queue: new TaskQueue(store), indexes: new IndexRegistry(store), indexEnvs: envs, updateFiles: new UpdateFiles(store), searchRules: new SearchRuleStore(store), workers });
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

/**
 * The built modules: the index writer is a worker thread that piscina loads from dist/, and the
 * scheduler's classes must be the ones the thread's results are checked against.
 */
const dist = (file: string) => import(new URL(`../../../dist/src/${file}`, import.meta.url).href);

async function settled(queue: TaskQueue, uid: number): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const status = queue.get(uid)!.status;
    if (status !== 'enqueued' && status !== 'processing') return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${uid} still unfinished`);
}

describe('a cancelation that lands after a document write committed', () => {
  it('lets the batch finish: the task succeeds and keeps its change, the cancelation cancels nothing', async () => {
    const [{ WorkerPools: BuiltPools }, { Scheduler: BuiltScheduler }, { TaskQueue: BuiltQueue }, { IndexRegistry: BuiltRegistry }, { IndexEnvs: BuiltEnvs }] =
      await Promise.all([dist('workers/pool.js'), dist('tasks/scheduler.js'), dist('tasks/queue.js'), dist('indexes/registry.js'), dist('engine/index-env.js')]);
    const [{ openInstanceStore: openBuiltStore }, { UpdateFiles: BuiltUpdateFiles }, { DocumentStore: BuiltDocuments }, { SearchRuleStore: BuiltRules }] = await Promise.all([
      dist('store/env.js'),
      dist('store/update-files.js'),
      dist('engine/documents/store.js'),
      dist('search-rules/store.js'),
    ]);
    /** Worker pools whose index writer calls `afterCommit` once a (non-rehearsal) document write has committed. */
    class HookedPools extends (BuiltPools as typeof WorkerPools) {
      afterCommit: (() => void) | null = null;

      override writerPool(): ReturnType<WorkerPools['writerPool']> {
        const pool = super.writerPool();
        const run = async (job: { write: { kind: string; rehearsal?: boolean } }, options: unknown) => {
          const result = await pool.run(job, options as Parameters<typeof pool.run>[1]);
          if (job.write.kind === 'documents' && job.write.rehearsal !== true) this.afterCommit?.();
          return result;
        };
        return { run } as unknown as ReturnType<WorkerPools['writerPool']>;
      }
    }

    dir = mkdtempSync(path.join(tmpdir(), 'quarry-scheduler-'));
    store = (openBuiltStore as typeof openInstanceStore)(dir, '0.0.0');
    const pools = new HookedPools(1);
    workers = pools;
    envs = new (BuiltEnvs as typeof IndexEnvs)(dir);
    const queue: TaskQueue = new (BuiltQueue as typeof TaskQueue)(store);
    const indexes: IndexRegistry = new (BuiltRegistry as typeof IndexRegistry)(store);
    const updateFiles: UpdateFiles = new (BuiltUpdateFiles as typeof UpdateFiles)(store);
    const searchRules: SearchRuleStore = new (BuiltRules as typeof SearchRuleStore)(store);
    const tasks: Scheduler = new (BuiltScheduler as typeof Scheduler)({ store, queue, indexes, indexEnvs: envs, updateFiles, searchRules, workers });
    tasks.start();
    try {
      const { uuid } = await updateFiles.persist(
        (async function* () {
          yield Buffer.from('{"id":1}\n{"id":2}\n');
        })(),
      );
      const addition = queue.register({
        kind: { name: 'documentAdditionOrUpdate', indexUid: 'books', primaryKey: null, method: 'replace', contentFile: uuid, documentsCount: 2, payloadSize: 18, allowIndexCreation: true, onMissingDocument: 'create' },
      });
      tasks.wake(addition);
      expect(await settled(queue, addition.uid)).toBe('succeeded');

      let cancelation: { uid: number } | null = null;
      const deletion = queue.register({ kind: { name: 'documentDeletion', indexUid: 'books', documentIds: ['1'] } });
      pools.afterCommit = () => {
        pools.afterCommit = null;
        const task = queue.register({ kind: { name: 'taskCancelation', query: `?uids=${deletion.uid}`, tasks: [deletion.uid] } });
        cancelation = task;
        tasks.wake(task);
      };
      tasks.wake(deletion);
      expect(await settled(queue, deletion.uid)).toBe('succeeded');
      expect(cancelation).not.toBeNull();
      expect(await settled(queue, cancelation!.uid)).toBe('succeeded');
      expect(queue.get(cancelation!.uid)!.details).toMatchObject({ canceledTasks: 0 });
      const env = envs.get(indexes.get('books')!.uuid);
      expect(new (BuiltDocuments as typeof DocumentStore)(env).count()).toBe(1);
    } finally {
      await within(tasks.stop(), 5_000);
    }
  });
});

describe('the index a batch wrote', () => {
  it('is handed to onIndexWritten once the batch is committed, its tasks already finished', async () => {
    const [{ WorkerPools: BuiltPools }, { Scheduler: BuiltScheduler }, { TaskQueue: BuiltQueue }, { IndexRegistry: BuiltRegistry }, { IndexEnvs: BuiltEnvs }] =
      await Promise.all([dist('workers/pool.js'), dist('tasks/scheduler.js'), dist('tasks/queue.js'), dist('indexes/registry.js'), dist('engine/index-env.js')]);
    const [{ openInstanceStore: openBuiltStore }, { UpdateFiles: BuiltUpdateFiles }, { SearchRuleStore: BuiltRules }] = await Promise.all([
      dist('store/env.js'),
      dist('store/update-files.js'),
      dist('search-rules/store.js'),
    ]);
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-scheduler-'));
    store = (openBuiltStore as typeof openInstanceStore)(dir, '0.0.0');
    workers = new (BuiltPools as typeof WorkerPools)(1);
    envs = new (BuiltEnvs as typeof IndexEnvs)(dir);
    const queue: TaskQueue = new (BuiltQueue as typeof TaskQueue)(store);
    const indexes: IndexRegistry = new (BuiltRegistry as typeof IndexRegistry)(store);
    const updateFiles: UpdateFiles = new (BuiltUpdateFiles as typeof UpdateFiles)(store);
    const searchRules: SearchRuleStore = new (BuiltRules as typeof SearchRuleStore)(store);
    const written: { uuid: string; status: string | undefined; documents: number }[] = [];
    let addition: ReturnType<TaskQueue["register"]> | null = null;
    const tasks: Scheduler = new (BuiltScheduler as typeof Scheduler)({
      store,
      queue,
      indexes,
      indexEnvs: envs,
      updateFiles,
      searchRules,
      workers,
      onIndexWritten: (env) => written.push({ uuid: env.uuid, status: addition === null ? undefined : queue.get(addition.uid)?.status, documents: env.documents.getCount() }),
    });
    tasks.start();
    try {
      const { uuid } = await updateFiles.persist(
        (async function* () {
          yield Buffer.from('{"id":1}\n{"id":2}\n');
        })(),
      );
      addition = queue.register({
        kind: { name: 'documentAdditionOrUpdate', indexUid: 'books', primaryKey: null, method: 'replace', contentFile: uuid, documentsCount: 2, payloadSize: 18, allowIndexCreation: true, onMissingDocument: 'create' },
      });
      tasks.wake(addition);
      expect(await settled(queue, addition.uid)).toBe('succeeded');
      expect(written).toEqual([{ uuid: indexes.get('books')!.uuid, status: 'succeeded', documents: 2 }]);
    } finally {
      await within(tasks.stop(), 5_000);
    }
  });
});
