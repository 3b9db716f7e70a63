/**
 * The rules of a topology change's state (v1.50's `NetworkTopologyChange`, network.md §6), pure:
 * who we wait for (`inRemotes`: every other remote of the old and the new network sends us what we
 * now own; `outRemotes`: every other remote of the new network tells us when it imported what we
 * sent), what arrives (import payloads, finished notifications), what goes where (the export plan),
 * the next phase, and the task's `message`. The processor (tasks/process/network-change.ts), the
 * scheduler's gate (tasks/network-gate.ts) and the receiving routes (network-change-store.ts) apply them.
 */
import { ApiError } from '../../errors/api-error.js';
import { shardOf, type Sharding } from '../../engine/shards/shard-of.js';
import type { ChangeNetwork, ChangePhase, ImportIndexState, InRemoteState, NetworkChangeState } from '../../types/network-change.js';
import { setField } from '../../types/own-record.js';

export function newChange(oldNetwork: ChangeNetwork, newNetwork: ChangeNetwork): NetworkChangeState {
  const inName = newNetwork.self;
  const outName = oldNetwork.self ?? inName;
  const inRemotes: Record<string, InRemoteState> = {};
  if (inName !== null) {
    for (const name of [...Object.keys(oldNetwork.remotes), ...Object.keys(newNetwork.remotes)].sort()) {
      // no import from ourselves
      if (name !== outName) setField(inRemotes, name, { state: 'waiting' });
    }
  }
  const outRemotes: NetworkChangeState['outRemotes'] = {};
  if (outName !== null) {
    for (const name of Object.keys(newNetwork.remotes).sort()) if (name !== inName) setField(outRemotes, name, { finished: false });
  }
  return { phase: 'waitingForOlderTasks', oldNetwork, newNetwork, inRemotes, outRemotes, movedDocuments: 0 };
}

/** The name this instance imports under (null: it leaves the network). */
export const nameForImport = (change: NetworkChangeState): string | null => change.newNetwork.self;
/** The name this instance exports under (a new member exports under its new name). */
export const nameForExport = (change: NetworkChangeState): string | null => change.oldNetwork.self ?? change.newNetwork.self;

/** An import payload (or an `exportNoIndexForRemote`: no index, no key) arrives from `remote`. */
export function receiveRemoteTask(
  change: NetworkChangeState,
  remote: string,
  index: string | null,
  taskKey: number | null,
  documentCount: number,
  totalIndexes: number,
  totalIndexDocuments: number,
): void {
  const current = Object.hasOwn(change.inRemotes, remote) ? change.inRemotes[remote]! : undefined;
  if (current === undefined) throw new ApiError('import_task_unknown_remote', `The import task emanates from an unknown remote \`${remote}\``);
  const fresh = (): ImportIndexState => ({ total: totalIndexDocuments, received: documentCount, processed: 0, taskKeys: taskKey === null ? [] : [taskKey], finished: false });
  switch (current.state) {
    case 'waiting':
      if (totalIndexes === 0) change.inRemotes[remote] = { state: 'finished', totalIndexes: 0, totalDocuments: 0 };
      else if (index !== null) change.inRemotes[remote] = { state: 'ongoing', totalIndexes, indexes: { [index]: fresh() } };
      return;
    case 'ongoing': {
      if (index === null) return;
      const known = Object.hasOwn(current.indexes, index) ? current.indexes[index]! : undefined;
      if (known === undefined) {
        current.indexes[index] = fresh();
        return;
      }
      if (known.finished) return;
      if (taskKey !== null) {
        if (known.taskKeys.includes(taskKey)) throw new ApiError('import_task_already_received', `The import task with key \`${taskKey}\` was already received`);
        known.taskKeys.push(taskKey);
      }
      known.received += documentCount;
      return;
    }
    case 'finished':
      return;
  }
}

/** A remote imported everything we sent (`importFinishedForRemote`); whether that is news. */
export function receiveImportFinished(change: NetworkChangeState, remote: string, successful: boolean): boolean {
  const current = Object.hasOwn(change.outRemotes, remote) ? change.outRemotes[remote]! : undefined;
  if (current === undefined) {
    throw new ApiError('receive_import_finished_unknown_remote', `The finished import notification emanates from an unknown remote \`${remote}\``);
  }
  change.outRemotes[remote] = { finished: true, successful };
  return !current.finished;
}

/** `documentCount` documents of `index` sent by `remote` were imported here. */
export function processRemoteTask(change: NetworkChangeState, remote: string, index: string, documentCount: number): void {
  const current = change.inRemotes[remote];
  if (current?.state !== 'ongoing') return;
  const state = current.indexes[index];
  if (state === undefined || state.finished) return;
  state.processed += documentCount;
  if (state.processed >= state.total) state.finished = true;
  const indexes = Object.values(current.indexes);
  if (indexes.length === current.totalIndexes && indexes.every((one) => one.finished)) {
    change.inRemotes[remote] = { state: 'finished', totalIndexes: current.totalIndexes, totalDocuments: indexes.reduce((sum, one) => sum + one.total, 0) };
  }
}

export const isImportFinished = (change: NetworkChangeState): boolean => Object.values(change.inRemotes).every((remote) => remote.state === 'finished');

export function remotesImportState(change: NetworkChangeState): { total: number; finished: number; failed: boolean } {
  const states = Object.values(change.outRemotes);
  return {
    total: states.length,
    finished: states.filter((one) => one.finished).length,
    failed: states.some((one) => one.finished && !one.successful),
  };
}

/** The phase after the current one has run (v1.50's `update_state`). */
export function nextPhase(change: NetworkChangeState): ChangePhase {
  switch (change.phase) {
    case 'waitingForOlderTasks':
      return 'exportingDocuments';
    case 'exportingDocuments':
    case 'importingDocuments':
      return isImportFinished(change) ? 'waitingForOthers' : 'importingDocuments';
    case 'waitingForOthers': {
      const { total, finished } = remotesImportState(change);
      return finished === total ? 'deletingDocuments' : 'waitingForOthers';
    }
    case 'deletingDocuments':
    case 'finished':
      return 'finished';
  }
}

/** Which documents of a shard go to a remote that owns it: those that changed shard, or the whole shard. */
export type ExportMode = 'reshardedOnly' | 'fullShard';

/** Per other remote of the new network: its url and key, and the shards it owns with how to send them. */
export interface ExportTarget {
  name: string;
  url: string;
  writeApiKey: string | null;
  shards: Map<string, ExportMode>;
}

/**
 * v1.50's `export_to_process`: a remote newly owning a shard that existed gets all of it from the
 * old owner the shard's name picks by rendezvous; every other owned shard gets only the documents
 * that changed shard.
 */
export function exportPlan(change: NetworkChangeState): ExportTarget[] {
  const outName = nameForExport(change);
  if (outName === null) return [];
  const { oldNetwork, newNetwork } = change;
  const targets: ExportTarget[] = [];
  for (const [name, remote] of Object.entries(newNetwork.remotes).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (name === nameForImport(change)) continue;
    const shards = new Map<string, ExportMode>();
    for (const [shard, owners] of Object.entries(newNetwork.shards).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!owners.includes(name)) continue;
      const oldOwners = Object.hasOwn(oldNetwork.shards, shard) ? [...oldNetwork.shards[shard]!].sort() : null;
      const full = oldOwners !== null && oldOwners.length > 0 && !oldOwners.includes(name) && shardOf(shard, oldOwners) === outName;
      shards.set(shard, full ? 'fullShard' : 'reshardedOnly');
    }
    targets.push({ name, url: remote.url, writeApiKey: remote.writeApiKey, shards });
  }
  return targets;
}

/** Other remotes to tell that our imports are done: every remote of both networks but us (none when we leave). */
export function remotesToNotify(change: NetworkChangeState): { name: string; url: string; writeApiKey: string | null }[] {
  if (nameForImport(change) === null || !isImportFinished(change)) return [];
  const all = { ...change.oldNetwork.remotes, ...change.newNetwork.remotes };
  return Object.entries(all)
    .filter(([name]) => name !== nameForExport(change))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, remote]) => ({ name, url: remote.url, writeApiKey: remote.writeApiKey }));
}

/** The shards of the new network this instance owns (under its export name): the others' documents are deleted at the end. */
export function ownedShards(change: NetworkChangeState): Set<string> {
  const self = nameForExport(change);
  return new Set(Object.entries(change.newNetwork.shards).flatMap(([shard, owners]) => (self !== null && owners.includes(self) ? [shard] : [])));
}

/** A network's shards as its `self` sees them; null without a leader (nothing is sharded then). */
export function shardingOfNetwork(network: ChangeNetwork): Sharding | null {
  if (network.leader === null) return null;
  const shards = Object.keys(network.shards).sort();
  return { shards, owned: new Set(shards.filter((name) => network.self !== null && network.shards[name]!.includes(network.self))) };
}

/** The shard names of a network, sorted; empty when it shards nothing (no leader). */
export const shardNames = (network: ChangeNetwork): string[] => (network.leader === null ? [] : Object.keys(network.shards).sort());

/** The task's `message` (v1.50's `to_details`). */
export function changeMessage(change: NetworkChangeState): string {
  switch (change.phase) {
    case 'waitingForOlderTasks':
      return 'Waiting for tasks enqueued before the network change to finish processing';
    case 'exportingDocuments':
      return 'Exporting documents';
    case 'importingDocuments':
      return importingMessage(change);
    case 'waitingForOthers': {
      const ongoing = Object.entries(change.outRemotes).filter(([, state]) => !state.finished).map(([name]) => name);
      const finished = Object.keys(change.outRemotes).length - ongoing.length;
      if (ongoing.length === 0) return 'Deleting documents in shards that are no longer owned';
      const others = ongoing.length === 1 ? ' to finish importing' : ` and ${ongoing.length - 1} other remote(s) to finish importing`;
      return `Waiting for \`${ongoing[0]}\`${others}${finished === 0 ? '' : `, ${finished} remote(s) finished`}`;
    }
    case 'deletingDocuments':
      return 'Deleting documents in shards that are no longer owned';
    case 'finished':
      return 'Finished';
  }
}

function importingMessage(change: NetworkChangeState): string {
  let finishedCount = 0;
  let firstOngoing: string | null = null;
  let otherOngoing = 0;
  let firstWaiting: string | null = null;
  let otherWaiting = 0;
  let totalIndexes = 0;
  let processed = 0;
  let missing = 0;
  let total = 0;
  for (const [name, remote] of Object.entries(change.inRemotes)) {
    switch (remote.state) {
      case 'waiting':
        if (firstWaiting === null) firstWaiting = name;
        else otherWaiting += 1;
        break;
      case 'ongoing':
        if (firstOngoing === null) {
          firstOngoing = name;
          totalIndexes = remote.totalIndexes;
        } else otherOngoing += 1;
        for (const index of Object.values(remote.indexes)) {
          total += index.total;
          if (index.finished) processed += index.total;
          else {
            processed += index.processed;
            missing += Math.max(0, index.total - index.received);
          }
        }
        break;
      case 'finished':
        finishedCount += 1;
        totalIndexes = remote.totalIndexes;
        total += remote.totalDocuments;
        processed += remote.totalDocuments;
        break;
    }
  }
  const waiting = firstWaiting === null ? '' : `, waiting on first task from \`${firstWaiting}\`${otherWaiting > 0 ? ` and ${otherWaiting} other remotes` : ''}`;
  const ongoing =
    firstOngoing === null
      ? ''
      : `, awaiting ${missing} and processed ${processed} out of ${total} documents in ${totalIndexes} indexes from \`${firstOngoing}\`${otherOngoing > 0 ? ` and ${otherOngoing} other remotes` : ''}`;
  return `Importing documents from ${Object.keys(change.inRemotes).length} remotes${waiting}${ongoing}, ${finishedCount} remotes finished processing`;
}
