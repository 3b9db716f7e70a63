/**
 * Compaction routes: `POST /indexes/{uid}/compact` (indexes.md §3) enqueues an `indexCompaction`
 * task; `POST /tasks/compact` (tasks-batches.md §11, feature `taskQueueCompactionRoute`) stops
 * every writer, then compacts the task queue's store synchronously (tasks/queue-compaction.ts).
 */
import { compactTaskQueue } from '../../tasks/queue-compaction.js';
import { validateIndexUid } from '../../indexes/uid.js';
import { enqueue } from '../enqueue.js';
import { defineRoute } from '../route.js';

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
        const sizes = await compactTaskQueue(deps.store);
        return { ...sizes, status: 'succeeded', actionRequired: 'you must restart your instance' };
      } catch (err) {
        ctx.reply.code(500);
        return { status: 'failed', errorMessage: err instanceof Error ? err.message : String(err) };
      }
    },
  }),
];
