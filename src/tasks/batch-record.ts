/**
 * Builds batch records (Meilisearch's `ProcessingBatch`). Pure; called by the scheduler:
 *
 *   const batch = openBatch(uid, tasks, next.batchStrategy, nowNs());   // shown while running
 *   …process…
 *   const done = finishBatch(batch, finishedTasks, nowNs());            // stamps the tasks too
 *   queue.commitBatch(done.batch, done.tasks);
 *
 * Invariants: a finished batch's stats, details and dates are recomputed from the tasks it finally
 * holds (a cancelation batch also holds the tasks it canceled); every finished task carries the
 * batch's uid, start and end.
 */
import {
  indexUidOf,
  indexesOf,
  isFinished,
  taskTypeOf,
  type Batch,
  type BatchStats,
  type DetailsView,
  type Task,
  type Timestamp,
} from '../types/task.js';
import { accumulateDetails, toDetailsView } from './details.js';
import { ownRecord } from '../types/own-record.js';

interface Summary {
  details: DetailsView;
  stats: BatchStats;
  enqueuedAt: Batch['enqueuedAt'];
  indexes: string[];
}

function summarize(tasks: readonly Task[], statusOf: (task: Task) => Task['status']): Summary {
  let details: DetailsView = {};
  const stats: BatchStats = { totalNbTasks: 0, status: {}, types: {}, indexUids: ownRecord() };
  let enqueuedAt: Batch['enqueuedAt'] = null;
  const indexes = new Set<string>();
  for (const task of tasks) {
    stats.totalNbTasks += 1;
    const status = statusOf(task);
    stats.status[status] = (stats.status[status] ?? 0) + 1;
    const type = taskTypeOf(task.kind);
    stats.types[type] = (stats.types[type] ?? 0) + 1;
    const indexUid = indexUidOf(task.kind);
    if (indexUid !== null) stats.indexUids[indexUid] = (stats.indexUids[indexUid] ?? 0) + 1;
    for (const index of indexesOf(task.kind)) indexes.add(index);
    if (task.details !== null) details = accumulateDetails(details, toDetailsView(task.details));
    enqueuedAt =
      enqueuedAt === null
        ? { oldest: task.enqueuedAt, newest: task.enqueuedAt }
        : {
            oldest: task.enqueuedAt < enqueuedAt.oldest ? task.enqueuedAt : enqueuedAt.oldest,
            newest: task.enqueuedAt > enqueuedAt.newest ? task.enqueuedAt : enqueuedAt.newest,
          };
  }
  return { details, stats, enqueuedAt, indexes: [...indexes] };
}

/** The running batch: every task counted as `processing`, no progress yet, not finished. */
export function openBatch(uid: number, tasks: readonly Task[], batchStrategy: string, startedAt: Timestamp): Batch {
  const summary = summarize(tasks, () => 'processing');
  return { uid, progress: null, ...summary, startedAt, finishedAt: null, batchStrategy };
}

/**
 * Closes a batch over its finished tasks (their status, details and error already set by the
 * scheduler). Extra stats the scheduler recorded on the open batch (progress trace, …) are kept.
 */
export function finishBatch(
  batch: Batch,
  tasks: readonly Task[],
  finishedAt: Timestamp,
): { batch: Batch; tasks: Task[] } {
  const unfinished = tasks.find((task) => !isFinished(task.status));
  if (unfinished !== undefined) {
    throw new Error(`Task ${unfinished.uid} is still ${unfinished.status}: a batch only closes over finished tasks.`);
  }
  const stamped = tasks.map((task) => ({ ...task, batchUid: batch.uid, startedAt: batch.startedAt, finishedAt }));
  const summary = summarize(stamped, (task) => task.status);
  return {
    batch: {
      ...batch,
      progress: null,
      details: summary.details,
      stats: { ...batch.stats, ...summary.stats },
      enqueuedAt: summary.enqueuedAt,
      indexes: [...new Set([...batch.indexes, ...summary.indexes])],
      finishedAt,
    },
    tasks: stamped,
  };
}
