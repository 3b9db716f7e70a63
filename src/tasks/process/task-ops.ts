/**
 * Task cancelation and deletion (tasks-batches.md §6). Both act on the set frozen at enqueue
 * time. A cancelation turns the still-enqueued tasks of its set, and its failed `upgradeDatabase`
 * tasks, into `canceled` (they join the cancelation's batch); a deletion removes the finished ones and leaves the others.
 */
import { failedDetails } from '../details.js';
import type { Task } from '../../types/task.js';
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
 * Tasks one commit of a deletion batch deletes at most: 100,000 tasks (the automatic cleanup of a
 * full queue) deleted in one transaction held the thread answering requests ~6 s; a slice of
 * 2,000 takes some 50 ms, and requests are answered between slices.
 */
const DELETION_SLICE = 2_000;

/**
 * Every enqueued deletion runs in one batch, each deleting its targets in slices, each slice a
 * commit of its own that also records how many tasks each deletion has deleted so far: a batch a
 * crash interrupts resumes with those counts, the tasks its slices deleted being gone (Meilisearch
 * deletes in one transaction, off the thread that answers requests). Readers see the queue shrink
 * slice by slice meanwhile. A task deleted by several deletions is counted by the oldest one only,
 * as Meilisearch counts: the later ones no longer find it.
 */
export const processDeletion: BatchProcessor = async (ctx, tasks) => {
  ctx.progress.enter('taskDeletion', 'deleting tasks');
  const counts = ctx.queue.deletionProgress();
  const finished: Task[] = [];
  for (const task of tasks) {
    const { kind, details } = task;
    if (kind.name !== 'taskDeletion' || details?.kind !== 'taskDeletion') throw new Error('deletion batch with another task');
    // Only finished tasks go; those of this very batch are not finished yet and stay.
    for (let at = 0; at < kind.tasks.length; at += DELETION_SLICE) {
      await ctx.queue.deleteSlice(kind.tasks.slice(at, at + DELETION_SLICE), task.uid, counts);
    }
    finished.push(succeeded(task, { ...details, deletedTasks: counts.get(task.uid) ?? 0 }));
  }
  return {
    tasks: finished,
    commit: () => ctx.queue.clearDeletionProgress(),
    // the slices are committed: a cancelation arriving meanwhile comes too late
    committed: true,
  };
};
