/**
 * `/tasks` routes (tasks-batches.md §5, §6): listing and reading tasks, and enqueuing
 * cancelations and deletions whose target set is frozen at enqueue time.
 */
import { ApiError } from '../../errors/api-error.js';
import { taskView } from '../../tasks/views/task-view.js';
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { mapPage } from '../../tasks/query.js';
import { defineRoute } from '../route.js';
import { parseTaskQuery, parseTaskSelection } from './task-filters.js';
import { streamedWhenLong } from '../../search/streamed-answer.js';

const FILTER_LIST =
  '`uids`, `indexUids`, `statuses`, `types`, `canceledBy`, `beforeEnqueuedAt`, `afterEnqueuedAt`, `beforeStartedAt`, `afterStartedAt`, `beforeFinishedAt`, `afterFinishedAt`';

function missingFilters(verb: 'cancel' | 'delete'): ApiError {
  return new ApiError(
    'missing_task_filters',
    `Query parameters to filter the tasks to ${verb} are missing. Available query parameters are: ${FILTER_LIST}.`,
  );
}

/**
 * Path uids are read as Rust reads a u32 (decimal digits, an optional `+`); anything else is
 * `invalid_task_uids` / `invalid_batch_uids`.
 */
export function parsePathUid(raw: string, what: 'Task' | 'Batch'): number {
  if (!/^\+?[0-9]+$/.test(raw) || Number(raw) > 0xffffffff) {
    throw new ApiError(
      what === 'Task' ? 'invalid_task_uids' : 'invalid_batch_uids',
      `${what} uid \`${raw}\` is invalid. It should only contain numeric characters.`,
    );
  }
  return Number(raw);
}

export const taskRoutes = [
  defineRoute({
    route: 'GET /tasks',
    query: parseTaskQuery,
    handler: (ctx, deps) => {
      const page = mapPage(deps.queue.query(ctx.query, ctx.caller.indexFilter()), taskView);
      return streamedWhenLong(page, page.results.length);
    },
  }),
  defineRoute({
    route: 'GET /tasks/:taskUid',
    handler: (ctx, deps) => {
      const uid = parsePathUid(ctx.params.taskUid!, 'Task');
      const task = deps.queue.get(uid, ctx.caller.indexFilter());
      if (task === undefined) throw new ApiError('task_not_found', `Task \`${uid}\` not found.`);
      return taskView(task);
    },
  }),
  defineRoute({
    route: 'POST /tasks/cancel',
    query: parseTaskSelection,
    handler: (ctx, deps) => {
      if (!ctx.query.hasFilter) throw missingFilters('cancel');
      const tasks = deps.queue.matchUids(ctx.query.filter, ctx.caller.indexFilter());
      return enqueue(deps, { kind: { name: 'taskCancelation', query: `?${ctx.query.raw}`, tasks }, ...replicationOf(deps, ctx.headers) });
    },
  }),
  defineRoute({
    route: 'DELETE /tasks',
    query: parseTaskSelection,
    handler: (ctx, deps) => {
      if (!ctx.query.hasFilter) throw missingFilters('delete');
      const tasks = deps.queue.matchUids(ctx.query.filter, ctx.caller.indexFilter());
      return enqueue(deps, { kind: { name: 'taskDeletion', query: `?${ctx.query.raw}`, tasks }, ...replicationOf(deps, ctx.headers) });
    },
  }),
];
