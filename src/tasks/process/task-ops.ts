/**
 * Task cancelation and deletion (tasks-batches.md §6). Both act on the set frozen at enqueue
 * time. A cancelation turns the still-enqueued tasks of its set, and its failed `upgradeDatabase`
 * tasks, into `canceled` (they join the cancelation's batch); a deletion removes the finished ones and leaves the others.
 */
import { failedDetails } from '../details.js';
import { isFinished, type Task } from '../../types/task.js';
import type { BatchProcessor } from './context.js';
import { succeeded } from './outcome.js';

export const processCancelation: BatchProcessor = (ctx, [task]) => {
  const kind = task!.kind;
  if (kind.name !== 'taskCancelation' || task!.details?.kind !== 'taskCancelation') throw new Error('cancelation batch without a cancelation');
  ctx.progress.enter('taskCancelation', 'retrieving tasks');
  const canceled: Task[] = [];
  for (const uid of kind.tasks) {
    const target = ctx.queue.get(uid);
    // failed upgrades too, as v1.50 cancels them (their rollback: process/upgrade.ts)
    const cancelable = target?.status === 'enqueued' || (target?.status === 'failed' && target.kind.name === 'upgradeDatabase');
    if (target === undefined || !cancelable) continue;
    canceled.push({
      ...target,
      status: 'canceled',
      canceledBy: task!.uid,
      details: target.details === null ? null : failedDetails(target.details),
      error: null,
    });
  }
  ctx.progress.enter('taskCancelation', 'updating tasks');
  return { tasks: [succeeded(task!, { ...task!.details, canceledTasks: canceled.length }), ...canceled] };
};

/**
 * Every enqueued deletion runs in one batch. A task deleted by several of them is counted by the
 * oldest one only, as Meilisearch counts.
 */
export const processDeletion: BatchProcessor = (ctx, tasks) => {
  ctx.progress.enter('taskDeletion', 'deleting tasks');
  const deleted = new Set<number>();
  const finished = tasks.map((task) => {
    if (task.kind.name !== 'taskDeletion' || task.details?.kind !== 'taskDeletion') throw new Error('deletion batch with another task');
    // Only finished tasks go; those of this very batch are not finished yet and stay.
    const targets = task.kind.tasks.filter((uid) => {
      const target = ctx.queue.get(uid);
      return !deleted.has(uid) && target !== undefined && isFinished(target.status);
    });
    for (const uid of targets) deleted.add(uid);
    return succeeded(task, { ...task.details, deletedTasks: targets.length });
  });
  return {
    tasks: finished,
    commit: () => void ctx.queue.deleteTasks(deleted),
  };
};
