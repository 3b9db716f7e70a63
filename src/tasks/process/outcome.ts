/** Small helpers processors share to finish tasks. */
import type { ApiError } from '../../errors/api-error.js';
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
