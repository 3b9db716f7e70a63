/**
 * `Quarry`: the engine in process. `Quarry.open({ dbPath })` builds the same instance the server
 * builds (instance/open-instance.ts: stores, scheduler, worker pools, services) and starts its
 * scheduler, without an HTTP listener; its methods mirror the meilisearch client's, so code moves
 * between the two unchanged. A db path is used by one server or one library at a time.
 */
import { openInstance, StartupRefused, type Instance } from '../instance/open-instance.js';
import { LogHub } from '../logs/log-hub.js';
import type { QueryWithIndex, Federation } from '../search/query.js';
import { loadBuildInfo } from '../version.js';
import { QuarryError } from './errors.js';
import { Index, type RecordAny } from './index-handle.js';
import { libraryConfig, type QuarryOptions } from './options.js';
import { LibraryRoutes } from './routes.js';
import { TaskClient, type EnqueuedTaskPromise, type Task, type TaskUidOrEnqueuedTask, type TasksQuery, type TasksResults, type WaitOptions } from './tasks.js';

export interface IndexOptions {
  primaryKey?: string | null;
}

export interface MultiSearchParams {
  queries: QueryWithIndex[];
  federation?: Federation | null;
}

export interface IndexObject {
  uid: string;
  primaryKey: string | null;
  createdAt: string;
  updatedAt: string;
}

export class Quarry {
  readonly tasks: TaskClient;

  private constructor(
    private readonly instance: Instance,
    private readonly routes: LibraryRoutes,
  ) {
    this.tasks = new TaskClient(routes);
  }

  /**
   * Opens (creating it if needed) the database at `dbPath` and starts its task scheduler.
   * @throws QuarryOptionError for an unknown option or a bad value, QuarryError when the db path is
   *   in use by another server or library, or was written by an incompatible version.
   */
  static async open(options: QuarryOptions): Promise<Quarry> {
    const config = libraryConfig(options);
    const logs = new LogHub(config.logLevel, config.experimentalLogsMode);
    let instance: Instance;
    try {
      instance = await openInstance({ config, build: loadBuildInfo(), logs, env: process.env });
    } catch (err) {
      if (err instanceof StartupRefused) throw new QuarryError(err.message);
      throw err;
    }
    instance.scheduler.start();
    return new Quarry(instance, new LibraryRoutes(instance));
  }

  index<T extends RecordAny = RecordAny>(indexUid: string): Index<T> {
    return new Index<T>(this.routes, this.tasks, indexUid);
  }

  async getRawIndex(indexUid: string): Promise<IndexObject> {
    return (await this.routes.call('GET /indexes/:indexUid', { params: { indexUid } })) as IndexObject;
  }

  async getRawIndexes(parameters?: { offset?: number; limit?: number }): Promise<{ results: IndexObject[]; offset: number; limit: number; total: number }> {
    return (await this.routes.call('GET /indexes', { query: parameters ?? {} })) as { results: IndexObject[]; offset: number; limit: number; total: number };
  }

  createIndex(uid: string, options?: IndexOptions): EnqueuedTaskPromise {
    return this.tasks.enqueued(this.routes.call('POST /indexes', { body: { ...options, uid } }));
  }

  updateIndex(uid: string, options?: IndexOptions & { uid?: string | null }): EnqueuedTaskPromise {
    return this.tasks.enqueued(this.routes.call('PATCH /indexes/:indexUid', { params: { indexUid: uid }, body: options ?? {} }));
  }

  deleteIndex(uid: string): EnqueuedTaskPromise {
    return this.tasks.enqueued(this.routes.call('DELETE /indexes/:indexUid', { params: { indexUid: uid } }));
  }

  /** Swaps (or, with `rename: true`, renames) pairs of indexes in one task. */
  swapIndexes(params: { indexes: [string, string]; rename?: boolean }[]): EnqueuedTaskPromise {
    return this.tasks.enqueued(this.routes.call('POST /swap-indexes', { body: params }));
  }

  async getVersion(): Promise<{ commitSha: string; commitDate: string; pkgVersion: string }> {
    return (await this.routes.call('GET /version')) as { commitSha: string; commitDate: string; pkgVersion: string };
  }

  /** Several searches, or one federated search when `federation` is given (POST /multi-search). */
  async multiSearch(queries: MultiSearchParams): Promise<RecordAny> {
    return (await this.routes.call('POST /multi-search', { body: queries })) as RecordAny;
  }

  async getStats(): Promise<RecordAny> {
    return (await this.routes.call('GET /stats')) as RecordAny;
  }

  /** A dump of the database, into `dumpDir` (`dumps/` inside the db path by default). */
  createDump(): EnqueuedTaskPromise {
    return this.tasks.enqueued(this.routes.call('POST /dumps'));
  }

  /** A snapshot of the database, into `snapshotDir` (`snapshots/` inside the db path by default). */
  createSnapshot(): EnqueuedTaskPromise {
    return this.tasks.enqueued(this.routes.call('POST /snapshots'));
  }

  getTask(uid: number): Promise<Task> {
    return this.tasks.getTask(uid);
  }

  getTasks(params?: TasksQuery): Promise<TasksResults> {
    return this.tasks.getTasks(params);
  }

  waitForTask(task: TaskUidOrEnqueuedTask, options?: WaitOptions): Promise<Task> {
    return this.tasks.waitForTask(task, options);
  }

  waitForTasks(tasks: Iterable<TaskUidOrEnqueuedTask>, options?: WaitOptions): Promise<Task[]> {
    return this.tasks.waitForTasks(tasks, options);
  }

  /**
   * Refuses new calls, lets those under way finish, stops the scheduler after its current batch and
   * closes the database, releasing its db path. Tasks not yet processed stay enqueued for the next open.
   */
  async close(): Promise<void> {
    await this.routes.close();
    await this.instance.close();
  }
}
