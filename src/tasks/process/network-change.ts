/**
 * `networkTopologyChange` (network.md §6, v1.50's `process_network_ready`): one step of the change
 * per batch, the change's state kept in its task (network-change-state.ts), so a restart resumes
 * at the step it was in. The scheduler's gate (tasks/network-gate.ts) decides when a step may run
 * and runs the older and the import tasks in between.
 * 1. *Waiting for older tasks*: once they ran, the change moves on.
 * 2. *Exporting*: every index is resharded to the new network, and every document whose shard
 *    another remote now owns is sent to it (network-export.ts), or a remote is told we have no
 *    index; then we wait for imports.
 * 3. *Importing*: the import tasks run (the gate picks them); `recordImports` counts them.
 * 4. Imports done: every other remote is told (`importFinishedForRemote`); we wait for theirs.
 * 5. All remotes done: the documents of shards we no longer own are deleted (unless a remote
 *    failed), `movedDocuments` counts them, and the task succeeds.
 * Each step can run again after a crash: what moves is recomputed from the two networks, a
 * payload sent twice is refused by its task key (and counted as sent), and deleting what we do
 * not own twice deletes nothing more; the notifications of step 4 are sent again at start-up.
 * A step that does not finish the task stores the new state in the task, which stays enqueued on
 * disk (the scheduler records no batch for it, and shows the change processing until it is done).
 */
import type { Sharding } from '../../engine/shards/shard-of.js';
import { nameForImport, nextPhase, processRemoteTask, remotesImportState, remotesToNotify, shardingOfNetwork } from './network-change-state.js';
import { changeOf, changeVersion, updateChange, withChange } from './network-change-store.js';
import type { NetworkChangeState } from '../../types/network-change.js';
import type { NetworkOrigin, Task } from '../../types/task.js';
import type { TaskQueue } from '../queue.js';
import type { BatchProcessor, ProcessContext, ProcessOutcome } from './context.js';
import { deleteMovedDocuments, exportMovedDocuments, notifyRemotes } from './network-export.js';
import { succeeded } from './outcome.js';

/** The change's origin as remotes know it: the leader's task, or our own when we are the leader. */
function changeOrigin(task: Task, change: NetworkChangeState): NetworkOrigin {
  const network = task.network;
  if (network !== undefined && 'origin' in network) return network.origin;
  return { remoteName: nameForImport(change) ?? '', taskUid: task.uid, networkVersion: changeVersion(task) ?? '' };
}

/**
 * The shards a batch run inside change `changeUid` indexes with: the tasks registered before the
 * change run with the old network's (v1.50's `network_for_state`), imports with the new one's
 * (undefined: the stored network's).
 */
export function shardingDuring(queue: Pick<TaskQueue, 'get'>, changeUid: number): Sharding | null | undefined {
  const task = queue.get(changeUid);
  const change = task === undefined ? undefined : changeOf(task);
  return change?.phase === 'waitingForOlderTasks' ? shardingOfNetwork(change.oldNetwork) : undefined;
}

/** The import tasks of a batch run during the change count as processed (v1.50's `process_remote_tasks`). */
export function recordImports(queue: Pick<TaskQueue, 'modify'>, changeUid: number, tasks: readonly Task[]): void {
  const imports = tasks.flatMap((task) => (task.network !== undefined && 'import_from' in task.network ? [task.network.import_from] : []));
  if (imports.length === 0) return;
  updateChange(queue, changeUid, (change) => {
    for (const { remoteName, indexName, documentCount } of imports) if (indexName !== null) processRemoteTask(change, remoteName, indexName, documentCount);
  });
}

/**
 * A step that leaves the task enqueued: its new phase is computed from the stored state in the
 * commit (a remote may have sent more meanwhile); entering *waiting for others* tells the other
 * remotes, in the background, that our imports are done.
 */
function advance(ctx: ProcessContext, task: Task, origin: NetworkOrigin): ProcessOutcome {
  let toNotify: ReturnType<typeof remotesToNotify> = [];
  let name: string | null = null;
  return {
    tasks: [],
    commit: () =>
      updateChange(ctx.queue, task.uid, (stored) => {
        const before = stored.phase;
        stored.phase = nextPhase(stored);
        if (stored.phase === 'waitingForOthers' && before !== 'waitingForOthers') [toNotify, name] = [remotesToNotify(stored), nameForImport(stored)];
      }),
    afterCommit: () => {
      if (name !== null && toNotify.length > 0) void notifyRemotes(ctx, toNotify, origin, name);
      return Promise.resolve();
    },
  };
}

/**
 * At start-up, a change waiting for the other remotes tells them again that our imports are done
 * (the notifications sent before a restart may not have arrived; v1.50 repeats them too).
 */
export function resumeNotifications(deps: Pick<ProcessContext, 'queue' | 'exports' | 'log'>): void {
  const task = deps.queue.oldestEnqueued('networkTopologyChange');
  const change = task === undefined ? undefined : changeOf(task);
  const name = change === undefined ? null : nameForImport(change);
  if (change?.phase !== 'waitingForOthers' || name === null) return;
  void notifyRemotes({ ...deps, signal: new AbortController().signal }, remotesToNotify(change), changeOrigin(task!, change), name);
}

export const processNetworkChange: BatchProcessor = async (ctx, [task]) => {
  const change = changeOf(task!);
  if (change === undefined) return { tasks: [succeeded(task!, { kind: 'networkTopologyChange', movedDocuments: 0, message: 'Finished' })] };
  const origin = changeOrigin(task!, change);
  switch (change.phase) {
    case 'waitingForOlderTasks':
    case 'importingDocuments':
      return advance(ctx, task!, origin);
    case 'exportingDocuments':
      // only the leader's task has no origin
      await exportMovedDocuments(ctx, change, origin, task!.network === undefined || !('origin' in task!.network));
      return advance(ctx, task!, origin);
    case 'waitingForOthers':
    case 'deletingDocuments':
    case 'finished': {
      const { failed } = remotesImportState(change);
      const deleted = failed ? { moved: 0, commit: () => {} } : await deleteMovedDocuments(ctx, change);
      const done: NetworkChangeState = { ...change, phase: 'finished', movedDocuments: deleted.moved };
      const finished = withChange(task!, done);
      return { tasks: [succeeded(finished, finished.details!)], commit: deleted.commit };
    }
  }
};
