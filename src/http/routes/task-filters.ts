/**
 * The query parameters shared by `GET /tasks`, `GET /batches`, `POST /tasks/cancel` and
 * `DELETE /tasks` (tasks-batches.md §5, §6), parsed into the queue's TaskFilter.
 */
import type { TaskFilter, TaskQuery } from '../../tasks/query.js';
import {
  compileQuery,
  describedLike,
  parseIndexUid,
  parseBoolean,
  parseTaskDate,
  parseTaskStatus,
  parseTaskType,
  parseU32,
  starOr,
  starOrList,
  type ParsedQuery,
} from '../../validation/index.js';

const uids = { parse: starOrList(parseU32), code: 'invalid_task_uids' } as const;
const batchUids = { parse: starOrList(parseU32), code: 'invalid_batch_uids' } as const;
const LATER_FILTERS = {
  canceledBy: { parse: starOrList(parseU32), code: 'invalid_task_canceled_by' },
  types: { parse: starOrList(parseTaskType), code: 'invalid_task_types' },
  statuses: { parse: starOrList(parseTaskStatus), code: 'invalid_task_statuses' },
  indexUids: { parse: starOrList(parseIndexUid), code: 'invalid_index_uid' },
  afterEnqueuedAt: { parse: starOr(parseTaskDate('after')), code: 'invalid_task_after_enqueued_at' },
  beforeEnqueuedAt: { parse: starOr(parseTaskDate('before')), code: 'invalid_task_before_enqueued_at' },
  afterStartedAt: { parse: starOr(parseTaskDate('after')), code: 'invalid_task_after_started_at' },
  beforeStartedAt: { parse: starOr(parseTaskDate('before')), code: 'invalid_task_before_started_at' },
  afterFinishedAt: { parse: starOr(parseTaskDate('after')), code: 'invalid_task_after_finished_at' },
  beforeFinishedAt: { parse: starOr(parseTaskDate('before')), code: 'invalid_task_before_finished_at' },
} as const;

// The key order is the order of the "Unknown parameter" lists, which differs between the two
// Meilisearch query structs: `uids, batchUids` for cancel/delete, `batchUids, uids` for listing.
const FILTER_SPEC = { uids, batchUids, ...LATER_FILTERS } as const;

const LIST_SPEC = {
  // a `u32`, as v1.50's `TasksFilterQuery.limit`
  limit: { parse: parseU32, code: 'invalid_task_limit' },
  from: { parse: parseU32, code: 'invalid_task_from' },
  reverse: { parse: parseBoolean, code: 'invalid_task_reverse' },
  batchUids,
  uids,
  ...LATER_FILTERS,
} as const;

const FILTER_NAMES = Object.keys(FILTER_SPEC) as (keyof typeof FILTER_SPEC)[];

function list<T>(value: '*' | T[] | undefined): readonly ('*' | T)[] | undefined {
  return value === undefined ? undefined : value === '*' ? ['*'] : value;
}

function date(value: '*' | bigint | undefined): bigint | undefined {
  return value === '*' ? undefined : value;
}

function toFilter(q: ParsedQuery<typeof FILTER_SPEC>): TaskFilter {
  return {
    uids: list(q.uids),
    batchUids: list(q.batchUids),
    canceledBy: list(q.canceledBy),
    types: list(q.types),
    statuses: list(q.statuses),
    indexUids: list(q.indexUids),
    afterEnqueuedAt: date(q.afterEnqueuedAt),
    beforeEnqueuedAt: date(q.beforeEnqueuedAt),
    afterStartedAt: date(q.afterStartedAt),
    beforeStartedAt: date(q.beforeStartedAt),
    afterFinishedAt: date(q.afterFinishedAt),
    beforeFinishedAt: date(q.beforeFinishedAt),
  };
}

const parseList = compileQuery(LIST_SPEC);
const parseFilterOnly = compileQuery(FILTER_SPEC);

/** `GET /tasks` and `GET /batches`. */
export const parseTaskQuery = describedLike(parseList, (raw: string): TaskQuery => {
  const q = parseList(raw);
  return { ...toFilter(q), limit: q.limit, from: q.from, reverse: q.reverse };
});

/** `POST /tasks/cancel` and `DELETE /tasks`: the filter, whether any was given, the raw query. */
export const parseTaskSelection = describedLike(parseFilterOnly, (raw: string): { filter: TaskFilter; hasFilter: boolean; raw: string } => {
  const q = parseFilterOnly(raw);
  return { filter: toFilter(q), hasFilter: FILTER_NAMES.some((name) => q[name] !== undefined), raw };
});
