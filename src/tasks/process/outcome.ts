/** Small helpers processors share to finish tasks. */
import { ApiError, internalError } from '../../errors/api-error.js';
import type { Task, TaskDetails } from '../../types/task.js';
import { failedDetails } from '../details.js';

export function succeeded(task: Task, details: TaskDetails | null = task.details): Task {
  return { ...task, status: 'succeeded', details, error: null };
}

export function failed(task: Task, error: ApiError): Task {
  return {
    ...task,
    status: 'failed',
    details: task.details === null ? null : failedDetails(task.details),
    error: error.toBody(),
  };
}

/** What a task failed by something unexpected (not an ApiError) shows. */
export function crashError(err: unknown): ApiError {
  return internalError(`An unexpected crash occurred when processing the task: ${err instanceof Error ? err.message : String(err)}`);
}
