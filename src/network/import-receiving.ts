/**
 * A document addition carrying import headers (network.md §6 step 3): documents a remote sends us
 * during a topology change. It becomes an ordinary `documentAdditionOrUpdate` task whose `network`
 * names the sender and the change (`import_from`, `network_change`), and counts in the running
 * change (tasks/process/network-change-state.ts `receiveRemoteTask`): 503 `import_task_without_network_task` when no
 * change runs, 412 `network_version_mismatch` for another change, `import_task_unknown_remote`
 * for a sender we expect nothing from, `import_task_already_received` for a payload (task key)
 * received before. The checks run before the task is registered and the count after it: a crash in
 * between makes the sender's retry register the payload once more, which re-adds the same
 * documents, rather than lose it.
 */
import { receiveRemoteTask } from '../tasks/process/network-change-state.js';
import { updateRunningChange, type ChangeTasks } from '../tasks/process/network-change-store.js';
import type { ReceivedNetwork } from './proxy-headers.js';

export type ReceivedImport = Extract<ReceivedNetwork, { kind: 'import' }>;

/** Registers the import task with `register` (its `network` read from the same headers) once the running change accepts it. */
export async function receiveImport<T>(
  queue: ChangeTasks,
  received: ReceivedImport,
  register: () => Promise<T>,
  log?: (message: string, err: unknown) => void,
): Promise<T> {
  const { origin, data, metadata } = received;
  const count = (dryRun: boolean) =>
    updateRunningChange(
      queue,
      origin,
      (change) => receiveRemoteTask(change, data.remoteName, data.indexName, metadata.taskKey, data.documentCount, metadata.indexCount, metadata.totalIndexDocuments),
      dryRun,
    );
  count(true);
  const registered = await register();
  try {
    count(false);
  } catch (err) {
    // the same payload raced in twice: both are registered, which only adds the same documents again
    log?.('an import payload could not be counted in the network change', err);
  }
  return registered;
}
