/**
 * The one way a route turns a write into a task: register it (durable before we answer; concurrent
 * requests share a commit), wake
 * the scheduler, answer the summarized task.
 */
import { ApiError } from '../errors/api-error.js';
import type { TaskInput } from '../tasks/queue.js';
import { summarizedTaskView, type SummarizedTaskJson } from '../tasks/views/task-view.js';
import type { AppDeps } from './deps.js';

export async function enqueue(deps: AppDeps, input: TaskInput): Promise<SummarizedTaskJson> {
  // After a task-queue compaction a registration would land in the replaced file and be lost.
  if (!deps.healthy()) throw new ApiError('internal', 'The task queue was compacted: restart the instance to register new tasks.');
  const task = await deps.queue.enqueue(input);
  deps.scheduler.wake(task);
  return summarizedTaskView(task);
}
