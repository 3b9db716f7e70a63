/** `/batches` routes (tasks-batches.md §7, §8). */
import { ApiError } from '../../errors/api-error.js';
import { batchView } from '../../tasks/views/batch-view.js';
import { defineRoute } from '../route.js';
import { parseTaskQuery } from './task-filters.js';
import { parsePathUid } from './tasks.js';

export const batchRoutes = [
  defineRoute({
    route: 'GET /batches',
    query: parseTaskQuery,
    handler: (ctx, deps) => {
      const page = deps.queue.queryBatches(ctx.query, ctx.caller.indexFilter());
      return { results: page.results.map(batchView), total: page.total, limit: page.limit, from: page.from, next: page.next };
    },
  }),
  defineRoute({
    route: 'GET /batches/:batchUid',
    handler: (ctx, deps) => {
      const uid = parsePathUid(ctx.params.batchUid!, 'Batch');
      const batch = deps.queue.getBatch(uid, ctx.caller.indexFilter());
      if (batch === undefined) throw new ApiError('batch_not_found', `Batch \`${uid}\` not found.`);
      return batchView(batch);
    },
  }),
];
