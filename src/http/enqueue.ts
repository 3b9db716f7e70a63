/**
 * The one way a route turns a write into a task: register it (fsynced before we answer), wake
 * the scheduler, answer the summarized task.
 */
import type { TaskInput } from '../tasks/queue.js';
import type { AppDeps } from './deps.js';
import { summarizedTaskView, type SummarizedTaskJson } from './views/task-view.js';

export function enqueue(deps: AppDeps, input: TaskInput): SummarizedTaskJson {
  const task = deps.queue.register(input);
  deps.scheduler.wake(task);
  return summarizedTaskView(task);
}
