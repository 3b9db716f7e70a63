/**
 * `--upgrade-db` at startup (dumps-snapshots-upgrade.md §6.1): a database in an older storage
 * format (the store opened only because the flag was set, store/env.ts) gets its `upgradeDatabase`
 * task, registered before the scheduler starts and the server listens, so it comes before any
 * task a client sends and runs first (process/upgrade.ts). An upgrade task already waiting
 * (enqueued, or failed before this restart) runs again instead of being doubled.
 */
import type { InstanceStore } from '../store/env.js';
import { StorageFormat } from '../store/storage-format.js';
import type { TaskQueue } from './queue.js';

export function startDatabaseUpgrade(store: InstanceStore, queue: TaskQueue, pkgVersion: string): StorageFormat {
  const storage = new StorageFormat(store, pkgVersion);
  if (storage.upToDate) return storage;
  const waiting = queue.matchUids({ types: ['upgradeDatabase'], statuses: ['enqueued', 'failed'] });
  if (waiting.length === 0) {
    const [from, to] = storage.upgradeVersions();
    queue.register({ kind: { name: 'upgradeDatabase', from, to } });
  }
  return storage;
}
