/**
 * Compaction of the task queue's store, the instance environment (`POST /tasks/compact`,
 * tasks-batches.md §11): LMDB's compacting copy renamed over `data.mdb`.
 *
 * The open environment keeps mapping the old, now unlinked file, so anything written afterwards
 * would be lost at restart: the caller stops every writer BEFORE the copy (so the copy misses
 * nothing), and they stay stopped until the restart Meilisearch asks for.
 */
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { InstanceStore } from '../store/env.js';
import { humanSize } from './details.js';

/** Compacts the instance environment in place; answers its sizes before and after, as Meilisearch prints them. */
export async function compactTaskQueue(store: InstanceStore): Promise<{ preSize: string; postSize: string }> {
  const folder = path.join(store.dbPath, 'instance');
  const live = path.join(folder, 'data.mdb');
  const scratch = path.join(store.dbPath, 'instance.compacting');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  try {
    const copy = path.join(scratch, 'data.mdb');
    const preSize = statSync(live).size;
    // The environment lives in a folder, so LMDB writes the copy as `<folder>/data.mdb`.
    await store.root.backup(scratch, true);
    const postSize = statSync(copy).size;
    renameSync(copy, live);
    return { preSize: humanSize(preSize), postSize: humanSize(postSize) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
