/**
 * The one way a route turns a write into a task: register it (durable before we answer; concurrent
 * requests share a commit), wake
 * the scheduler, answer the summarized task.
 */
import type { TaskInput } from '../tasks/queue.js';
import type { AppDeps } from './deps.js';
import { summarizedTaskView, type SummarizedTaskJson } from './views/task-view.js';

export async function enqueue(deps: AppDeps, input: TaskInput): Promise<SummarizedTaskJson> {
  const task = await deps.queue.enqueue(input);
  deps.scheduler.wake(task);
  return summarizedTaskView(task);
}
