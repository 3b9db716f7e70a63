/**
 * Tasks, as the meilisearch client's TaskClient: `getTask`, `getTasks` (GET /tasks's parameters),
 * `cancelTasks` and `deleteTasks`,
 * `waitForTask(s)` polling until the task is finished (same `timeout`/`interval` options and
 * defaults, same timeout error), and the EnqueuedTaskPromise every write returns: a promise of the
 * summarized task with `waitTask()`.
 */
import type { TaskJson, SummarizedTaskJson } from '../tasks/views/task-view.js';
import { QuarryTaskTimeOutError } from './errors.js';
import type { LibraryRoutes } from './routes.js';

export type Task = TaskJson;
export type EnqueuedTask = SummarizedTaskJson;
export type TaskUidOrEnqueuedTask = number | EnqueuedTask;

export interface WaitOptions {
  /** Milliseconds before QuarryTaskTimeOutError; below 1, no limit. Default 5000. */
  timeout?: number;
  /** Milliseconds between two looks at the task; below 1, none. Default 50. */
  interval?: number;
}

export type EnqueuedTaskPromise = Promise<EnqueuedTask> & {
  waitTask: (waitOptions?: WaitOptions) => Promise<Task>;
};

/** GET /tasks's parameters (lists as arrays or comma-separated, dates as Date or text). */
export type TasksQuery = Record<string, string | number | boolean | Date | readonly (string | number)[] | null | undefined>;

export interface TasksResults {
  results: Task[];
  total: number;
  limit: number;
  from: number | null;
  next: number | null;
}

/** setTimeout's longest delay: a longer one (an `interval` of 2^31 ms or more) fires after 1 ms, which made the wait a busy poll. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export class TaskClient {
  constructor(private readonly routes: LibraryRoutes) {}

  async getTask(uid: number): Promise<Task> {
    return (await this.routes.call('GET /tasks/:taskUid', { params: { taskUid: String(uid) } })) as Task;
  }

  async getTasks(params?: TasksQuery): Promise<TasksResults> {
    return (await this.routes.call('GET /tasks', { query: params ?? {} })) as TasksResults;
  }

  async waitForTask(task: TaskUidOrEnqueuedTask, options?: WaitOptions): Promise<Task> {
    const uid = typeof task === 'number' ? task : task.taskUid;
    const timeout = options?.timeout ?? 5000;
    const interval = options?.interval ?? 50;
    const deadline = timeout > 0 ? Date.now() + timeout : Infinity;
    for (;;) {
      const current = await this.getTask(uid);
      if (current.status !== 'enqueued' && current.status !== 'processing') return current;
      if (Date.now() >= deadline) throw new QuarryTaskTimeOutError(uid, timeout);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(interval, deadline - Date.now(), LONGEST_TIMER_MS))));
    }
  }

  async waitForTasks(tasks: Iterable<TaskUidOrEnqueuedTask>, options?: WaitOptions): Promise<Task[]> {
    const done: Task[] = [];
    for (const task of tasks) done.push(await this.waitForTask(task, options));
    return done;
  }

  /** Cancels the tasks the filters select (POST /tasks/cancel's parameters; at least one filter). */
  cancelTasks(params: TasksQuery): EnqueuedTaskPromise {
    return this.enqueued(this.routes.call('POST /tasks/cancel', { query: params }));
  }

  /** Deletes the finished tasks the filters select (DELETE /tasks's parameters; at least one filter). */
  deleteTasks(params: TasksQuery): EnqueuedTaskPromise {
    return this.enqueued(this.routes.call('DELETE /tasks', { query: params }));
  }

  /** A write's answer with `waitTask()`, as the client's EnqueuedTaskPromise. */
  enqueued(answer: Promise<unknown>): EnqueuedTaskPromise {
    const promise = answer as Promise<EnqueuedTask>;
    return Object.assign(promise, { waitTask: async (waitOptions?: WaitOptions) => this.waitForTask(await promise, waitOptions) });
  }
}
