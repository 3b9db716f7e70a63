/**
 * Reads and updates the state of the running topology change, kept in its task (v1.50's
 * `update_network_task`). Each update re-reads the stored task and writes it back in one
 * transaction, so the routes (an import payload, a `/network/control` message) and the scheduler
 * (a phase done, imports processed) never overwrite one another; the task's `details` follow the
 * state. The running change is the oldest `networkTopologyChange` task not finished; the newest is
 * the one a refused change names.
 */
import { ApiError } from '../../errors/api-error.js';
import type { NetworkChangeState } from '../../types/network-change.js';
import type { NetworkOrigin, RemoteTask, Task } from '../../types/task.js';
import { changeMessage } from './network-change-state.js';
import { NIL_UUID } from '../../types/uuid-v7.js';
import type { TaskQuery } from '../query.js';

/** What the change needs of the task queue (tasks/queue.ts). */
export interface TaskStore {
  /** reads a stored task and stores what `change` makes of it, in one transaction */
  modify<T>(uid: number, change: (task: Task) => { task: Task | null; result: T }): T;
}

/** The task queue, with the running change found in it. */
export interface ChangeTasks extends TaskStore {
  oldestEnqueued(type: 'networkTopologyChange'): Task | undefined;
}

/** The change a task carries (a change from a dump has none: nothing is left to do). */
export function changeOf(task: Task): NetworkChangeState | undefined {
  return task.kind.name === 'networkTopologyChange' ? task.kind.change : undefined;
}

/** The change's network version: the one its task was registered with. */
export function changeVersion(task: Task): string | null {
  const network = task.network;
  if (network === undefined) return null;
  if ('network_version' in network) return network.network_version;
  if ('origin' in network) return network.origin.networkVersion;
  return network.network_change.networkVersion;
}

/** `task` with its change replaced by `change`, its details following. */
export function withChange(task: Task, change: NetworkChangeState): Task {
  if (task.kind.name !== 'networkTopologyChange') return task;
  return { ...task, kind: { ...task.kind, change }, details: { kind: 'networkTopologyChange', movedDocuments: change.movedDocuments, message: changeMessage(change) } };
}

/** Applies `update` to the stored change of task `uid` (the scheduler's side). */
export function updateChange<T>(queue: TaskStore, uid: number, update: (change: NetworkChangeState) => T): T {
  return queue.modify(uid, (task) => {
    const stored = changeOf(task);
    if (stored === undefined) return { task: null, result: undefined as T };
    const change = structuredClone(stored);
    const result = update(change);
    return { task: withChange(task, change), result };
  });
}

/**
 * Applies `update` to the running change on behalf of a remote (`origin` names the change it
 * takes part in): 503 `import_task_without_network_task` when none runs, 412
 * `network_version_mismatch` when it is another one. Errors `update` throws leave it unchanged;
 * with `dryRun`, nothing is stored either way (the checks only).
 */
export function updateRunningChange<T>(queue: ChangeTasks, origin: Pick<NetworkOrigin, 'networkVersion'>, update: (change: NetworkChangeState) => T, dryRun = false): T {
  const running = queue.oldestEnqueued('networkTopologyChange');
  const stored = running === undefined ? undefined : changeOf(running);
  if (running === undefined || stored === undefined) {
    throw new ApiError('import_task_without_network_task', 'No network topology change task is currently enqueued or processing');
  }
  const version = changeVersion(running) ?? NIL_UUID;
  if (version !== origin.networkVersion) {
    throw new ApiError('network_version_mismatch', `The network task version (\`${version}\`) does not match the import task version (\`${origin.networkVersion}\`)`);
  }
  return dryRun ? update(structuredClone(stored)) : updateChange(queue, running.uid, update);
}

/** The remotes' answers to the forwarded change, in the leader's task (`remote_tasks`). */
export function recordRemoteTasks(queue: TaskStore, uid: number, remoteTasks: Record<string, RemoteTask>): void {
  queue.modify(uid, (task) => {
    const network = task.network;
    if (network === undefined || !('remote_tasks' in network)) return { task: null, result: undefined };
    return { task: { ...task, network: { ...network, remote_tasks: { ...network.remote_tasks, ...remoteTasks } } }, result: undefined };
  });
}

/**
 * The newest enqueued or processing `networkTopologyChange` task, if any: the one v1.50 names when
 * it refuses another change (its task query keeps the highest uid of a `limit: 1` page).
 */
export function pendingChangeUid(queue: { query(query: TaskQuery): { results: readonly Task[] } }): number | null {
  return queue.query({ types: ['networkTopologyChange'], statuses: ['enqueued', 'processing'], limit: 1 }).results[0]?.uid ?? null;
}
