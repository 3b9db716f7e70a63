/**
 * Task records → public JSON (Meilisearch's `TaskView` and `SummarizedTaskView`), keys in
 * Meilisearch's order. Pure. Routes call `taskView` for `GET /tasks[/{uid}]` (records from the
 * queue, whose running tasks already read `processing`) and `summarizedTaskView` for the 202 (or
 * 200) answer of every enqueuing route; webhooks/deliver.ts sends finished tasks as `taskView`.
 */
import { formatDuration, formatRfc3339 } from '../../types/dates.js';
import { toDetailsView } from '../details.js';
import {
  indexUidOf,
  taskTypeOf,
  type JsonObject,
  type Task,
  type TaskError,
  type TaskNetwork,
  type TaskStatus,
  type TaskType,
} from '../../types/task.js';
import { detailsJson } from '../details-json.js';

export interface TaskJson {
  uid: number;
  batchUid: number | null;
  indexUid: string | null;
  status: TaskStatus;
  type: TaskType;
  canceledBy: number | null;
  /** absent for snapshotCreation */
  details?: JsonObject;
  error: TaskError | null;
  duration: string | null;
  enqueuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  network?: TaskNetwork;
  customMetadata?: string;
}

export interface SummarizedTaskJson {
  taskUid: number;
  indexUid: string | null;
  status: TaskStatus;
  type: TaskType;
  enqueuedAt: string;
  customMetadata?: string;
}

export function taskView(task: Task): TaskJson {
  const { startedAt, finishedAt } = task;
  return {
    uid: task.uid,
    batchUid: task.batchUid,
    indexUid: indexUidOf(task.kind),
    status: task.status,
    type: taskTypeOf(task.kind),
    canceledBy: task.canceledBy,
    ...(task.details === null ? {} : { details: detailsJson(toDetailsView(task.details)) }),
    error: task.error,
    duration: startedAt !== null && finishedAt !== null ? formatDuration(finishedAt - startedAt) : null,
    enqueuedAt: formatRfc3339(task.enqueuedAt),
    startedAt: startedAt === null ? null : formatRfc3339(startedAt),
    finishedAt: finishedAt === null ? null : formatRfc3339(finishedAt),
    ...(task.network === undefined ? {} : { network: task.network }),
    ...(task.customMetadata === null ? {} : { customMetadata: task.customMetadata }),
  };
}

export function summarizedTaskView(task: Task): SummarizedTaskJson {
  return {
    taskUid: task.uid,
    indexUid: indexUidOf(task.kind),
    status: task.status,
    type: taskTypeOf(task.kind),
    enqueuedAt: formatRfc3339(task.enqueuedAt),
    ...(task.customMetadata === null ? {} : { customMetadata: task.customMetadata }),
  };
}
