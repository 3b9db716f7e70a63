/**
 * The last batch an index environment applied, written in the same transaction as that batch's
 * index write. The scheduler commits a batch's finished tasks in the instance environment after
 * the index commit (tasks/scheduler.ts); a crash between the two leaves the tasks enqueued, and a
 * write that is not idempotent (an edition function, which edits what it edited) must then not
 * run again: its processor finds here that its task's write already landed and records the
 * outcomes the write had.
 */
import { INDEX_MAIN_KEYS } from './index-read-env.js';
import { type IndexEnv } from './index-env.js';
import type { TaskDetails } from '../types/task.js';

export interface AppliedBatch {
  readonly batchUid: number;
  /** the batch's tasks and the details they finished with (null for a settings update: its details are its task's settings; an edition's without its context) */
  readonly tasks: readonly { readonly uid: number; readonly details: TaskDetails | null }[];
}

/** Records `applied` (inside the write's transaction). */
export function recordAppliedBatch(env: IndexEnv, applied: AppliedBatch): void {
  env.main.putSync(INDEX_MAIN_KEYS.appliedBatch, applied);
}

/** The details task `taskUid` finished with, when the last batch the environment applied held it. */
export function appliedOutcome(env: IndexEnv, taskUid: number): { details: TaskDetails | null } | undefined {
  const applied = env.main.get(INDEX_MAIN_KEYS.appliedBatch) as AppliedBatch | undefined;
  return applied?.tasks.find((task) => task.uid === taskUid);
}
