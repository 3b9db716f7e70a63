/** `/batches` routes (tasks-batches.md §7, §8). */
import { ApiError } from '../../errors/api-error.js';
import { batchView } from '../../tasks/views/batch-view.js';
import { mapPage } from '../../tasks/query.js';
import { defineRoute } from '../route.js';
import { parseTaskQuery } from './task-filters.js';
import { parsePathUid } from './tasks.js';
import { streamedWhenLong } from '../../search/streamed-answer.js';

export const batchRoutes = [
  defineRoute({
    route: 'GET /batches',
    query: parseTaskQuery,
    handler: (ctx, deps) => {
      const page = mapPage(deps.queue.queryBatches(ctx.query, ctx.caller.indexFilter()), batchView);
      return streamedWhenLong(page, page.results.length);
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
