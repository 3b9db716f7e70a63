/**
 * What the scheduler may run while the network changes (v1.50's `start_processing_network` and the
 * version check of `create_next_batch`, network.md §5–§6), on top of the autobatcher's choice:
 * - while a `networkTopologyChange` is pending, only it runs, except, as its phase allows, index
 *   tasks registered for an older network version (*waiting for older tasks*) and the import tasks
 *   of this change (*importing documents*), batched by the autobatcher among themselves and
 *   explained as v1.50 does; waiting on remotes, nothing runs until a message wakes the scheduler;
 * - otherwise, tasks registered for a network version newer than ours wait until our network
 *   catches up.
 * Cancelations and database upgrades keep their priority over all of this. Pure.
 */
import { isImportFinished, remotesImportState } from './process/network-change-state.js';
import { changeOf, changeVersion } from './process/network-change-store.js';
import { indexesOf, type Task } from '../types/task.js';
import { nextBatch, type AutobatchInput, type NextBatch } from './autobatcher.js';

export interface GateInput {
  /** the autobatcher's choice over the usual scheduling snapshot */
  base: NextBatch | null;
  /** the tasks that choice was made from */
  considered: readonly Task[];
  /** the oldest pending `networkTopologyChange` task, as stored */
  change: Task | undefined;
  /** every enqueued task, uid order (read only when needed) */
  enqueued: () => Task[];
  /** our network's version when it is sharded (a leader is set), else null */
  localVersion: string | null;
  /** the autobatcher's other inputs */
  autobatch: Omit<AutobatchInput, 'tasks' | 'enqueuedCount'>;
}

/** An index batch that takes part in a network change: the change's task uid comes with it. */
export type GatedBatch = NextBatch & { networkChange?: number };

/** The network version a task was registered for, if it came through the network. */
function versionOf(task: Task): string | null {
  return task.network === undefined ? null : changeVersion(task);
}

const hasIndex = (task: Task) => indexesOf(task.kind).length > 0;

function alone(task: Task): NextBatch {
  return {
    operation: 'networkTopologyChange',
    taskUids: [task.uid],
    indexUid: null,
    mustCreateIndex: false,
    primaryKey: null,
    batchStrategy: `stopped after task with id ${task.uid} because it is a network topology change task`,
    reuseBatchUid: null,
  };
}

/** The autobatcher over `tasks` only, its reason wrapped as v1.50's network reasons. */
function inner(input: GateInput, tasks: Task[], change: Task, what: 'older tasks' | 'import tasks'): GatedBatch | null {
  if (tasks.length === 0) return null;
  const batch = nextBatch({ ...input.autobatch, tasks, enqueuedCount: input.enqueued().length });
  if (batch === null) return null;
  return { ...batch, batchStrategy: `stopped after batching network task with id ${change.uid} and a batch of ${what}: ${batch.batchStrategy}`, networkChange: change.uid };
}

export function gatedBatch(input: GateInput): GatedBatch | null {
  const { base, change } = input;
  if (base === null || base.operation === 'taskCancelation' || base.operation === 'upgradeDatabase') return base;
  if (change !== undefined) {
    const state = changeOf(change);
    if (state === undefined) return alone(change);
    const version = changeVersion(change) ?? '';
    switch (state.phase) {
      case 'waitingForOlderTasks': {
        const older = input.enqueued().filter((task) => {
          const taskVersion = versionOf(task);
          return (hasIndex(task) || task.kind.name === 'indexSwap') && taskVersion !== null && taskVersion < version;
        });
        return inner(input, older, change, 'older tasks') ?? alone(change);
      }
      case 'importingDocuments': {
        if (isImportFinished(state)) return alone(change);
        const imports = input.enqueued().filter((task) => task.network !== undefined && 'import_from' in task.network && hasIndex(task) && versionOf(task) === version);
        return inner(input, imports, change, 'import tasks');
      }
      case 'waitingForOthers': {
        const { total, finished } = remotesImportState(state);
        return finished === total ? alone(change) : null;
      }
      default:
        return alone(change);
    }
  }
  const local = input.localVersion;
  if (local === null) return base;
  const tooNew = (task: Task) => {
    const taskVersion = versionOf(task);
    return taskVersion !== null && taskVersion > local;
  };
  if (!input.considered.some(tooNew)) return base;
  const runnable = input.enqueued().filter((task) => !tooNew(task));
  return runnable.length === 0 ? null : nextBatch({ ...input.autobatch, tasks: runnable, enqueuedCount: input.enqueued().length });
}
