/**
 * Compaction routes: `POST /indexes/{uid}/compact` (indexes.md §3) enqueues an `indexCompaction`
 * task; `POST /tasks/compact` (tasks-batches.md §11, feature `taskQueueCompactionRoute`)
 * compacts the instance environment synchronously.
 *
 * The task store is compacted by copying it (LMDB's compacting copy) and renaming the copy over
 * `data.mdb`. The open environment keeps mapping the old, now unlinked file, so anything written
 * afterwards would be lost at restart: writers are stopped BEFORE the copy (so the copy misses
 * nothing) and stay stopped until the restart Meilisearch asks for.
 */
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { humanSize } from '../../tasks/details.js';
import { validateIndexUid } from '../../indexes/uid.js';
import type { AppDeps } from '../deps.js';
import { enqueue } from '../enqueue.js';
import { defineRoute } from '../route.js';

async function compactInstanceStore(deps: AppDeps): Promise<{ preSize: string; postSize: string }> {
  const folder = path.join(deps.store.dbPath, 'instance');
  const live = path.join(folder, 'data.mdb');
  const scratch = path.join(deps.store.dbPath, 'instance.compacting');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  try {
    const copy = path.join(scratch, 'data.mdb');
    const preSize = statSync(live).size;
    // The environment lives in a folder, so LMDB writes the copy as `<folder>/data.mdb`.
    await deps.store.root.backup(scratch, true);
    const postSize = statSync(copy).size;
    renameSync(copy, live);
    return { preSize: humanSize(preSize), postSize: humanSize(postSize) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const compactionRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/compact',
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueue(deps, { kind: { name: 'indexCompaction', indexUid: uid } });
    },
  }),
  defineRoute({
    route: 'POST /tasks/compact',
    handler: async (ctx, deps) => {
      deps.features.require(
        'taskQueueCompactionRoute',
        'Compacting the task queue',
        'task queue compaction route',
        'https://github.com/orgs/meilisearch/discussions/801',
      );
      // Even a failed attempt leaves writers stopped: the instance then needs the restart anyway.
      await deps.mustRestart();
      try {
        const sizes = await compactInstanceStore(deps);
        return { ...sizes, status: 'succeeded', actionRequired: 'you must restart your instance' };
      } catch (err) {
        ctx.reply.code(500);
        return { status: 'failed', errorMessage: err instanceof Error ? err.message : String(err) };
      }
    },
  }),
];
