// Port of Meilisearch's crates/meilisearch/tests/tasks/errors.rs: the query-parameter errors of
// `GET /tasks`, `POST /tasks/cancel` and `DELETE /tasks` (bad uids, canceledBy, types, statuses,
// index uids, dates, `reverse`, and the cancel/delete routes' unknown parameters), each with
// v1.50's status, code and message.
import { BAD_INDEX_UIDS, BAD_STATUSES, BAD_TYPES, describeQueryErrors, NOT_A_DATE, NOT_AN_INTEGER, type QueryErrorCase } from '../../helpers/query-errors.js';

/** The Rust test's server helpers, as the route each one calls. */
const ROUTES = {
  tasks_filter: ['GET', '/tasks'],
  cancel_tasks: ['POST', '/tasks/cancel'],
  delete_tasks: ['DELETE', '/tasks'],
} as const;

/** The answer of the cancel and delete routes to a listing parameter they do not take. */
const UNKNOWN_PARAMETER = (param: string): string =>
  `Unknown parameter \`${param}\`: expected one of \`uids\`, \`batchUids\`, \`canceledBy\`, \`types\`, \`statuses\`, \`indexUids\`, \`afterEnqueuedAt\`, \`beforeEnqueuedAt\`, \`afterStartedAt\`, \`beforeStartedAt\`, \`afterFinishedAt\`, \`beforeFinishedAt\``;

const CASES: Record<string, QueryErrorCase<typeof ROUTES>[]> = {
  task_bad_uids: [
    ['tasks_filter', 'uids=doggo', 400, 'invalid_task_uids', NOT_AN_INTEGER('uids', 'doggo')],
    ['cancel_tasks', 'uids=doggo', 400, 'invalid_task_uids', NOT_AN_INTEGER('uids', 'doggo')],
    ['delete_tasks', 'uids=doggo', 400, 'invalid_task_uids', NOT_AN_INTEGER('uids', 'doggo')],
    ['delete_tasks', 'uids=1,dogo', 400, 'invalid_task_uids', NOT_AN_INTEGER('uids[1]', 'dogo')],
  ],
  task_bad_canceled_by: [
    ['tasks_filter', 'canceledBy=doggo', 400, 'invalid_task_canceled_by', NOT_AN_INTEGER('canceledBy', 'doggo')],
    ['cancel_tasks', 'canceledBy=doggo', 400, 'invalid_task_canceled_by', NOT_AN_INTEGER('canceledBy', 'doggo')],
    ['delete_tasks', 'canceledBy=doggo', 400, 'invalid_task_canceled_by', NOT_AN_INTEGER('canceledBy', 'doggo')],
  ],
  task_bad_types: [
    ['tasks_filter', 'types=doggo', 400, 'invalid_task_types', BAD_TYPES],
    ['cancel_tasks', 'types=doggo', 400, 'invalid_task_types', BAD_TYPES],
    ['delete_tasks', 'types=doggo', 400, 'invalid_task_types', BAD_TYPES],
  ],
  task_bad_statuses: [
    ['tasks_filter', 'statuses=doggo', 400, 'invalid_task_statuses', BAD_STATUSES],
    ['cancel_tasks', 'statuses=doggo', 400, 'invalid_task_statuses', BAD_STATUSES],
    ['delete_tasks', 'statuses=doggo', 400, 'invalid_task_statuses', BAD_STATUSES],
  ],
  task_bad_index_uids: [
    ['tasks_filter', 'indexUids=the%20good%20doggo', 400, 'invalid_index_uid', BAD_INDEX_UIDS],
    ['cancel_tasks', 'indexUids=the%20good%20doggo', 400, 'invalid_index_uid', BAD_INDEX_UIDS],
    ['delete_tasks', 'indexUids=the%20good%20doggo', 400, 'invalid_index_uid', BAD_INDEX_UIDS],
  ],
  task_bad_limit: [
    ['tasks_filter', 'limit=doggo', 400, 'invalid_task_limit', NOT_AN_INTEGER('limit', 'doggo')],
    ['cancel_tasks', 'limit=doggo', 400, 'bad_request', UNKNOWN_PARAMETER('limit')],
    ['delete_tasks', 'limit=doggo', 400, 'bad_request', UNKNOWN_PARAMETER('limit')],
  ],
  task_bad_from: [
    ['tasks_filter', 'from=doggo', 400, 'invalid_task_from', NOT_AN_INTEGER('from', 'doggo')],
    ['cancel_tasks', 'from=doggo', 400, 'bad_request', UNKNOWN_PARAMETER('from')],
    ['delete_tasks', 'from=doggo', 400, 'bad_request', UNKNOWN_PARAMETER('from')],
  ],
  task_bad_reverse: [
    ['tasks_filter', 'reverse=doggo', 400, 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['tasks_filter', 'reverse=*', 400, 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `*` as a boolean, expected either `true` or `false`'],
    ['cancel_tasks', 'reverse=doggo', 400, 'bad_request', UNKNOWN_PARAMETER('reverse')],
    ['delete_tasks', 'reverse=doggo', 400, 'bad_request', UNKNOWN_PARAMETER('reverse')],
  ],
  task_bad_after_enqueued_at: [
    ['tasks_filter', 'afterEnqueuedAt=doggo', 400, 'invalid_task_after_enqueued_at', NOT_A_DATE('afterEnqueuedAt')],
    ['cancel_tasks', 'afterEnqueuedAt=doggo', 400, 'invalid_task_after_enqueued_at', NOT_A_DATE('afterEnqueuedAt')],
    ['delete_tasks', 'afterEnqueuedAt=doggo', 400, 'invalid_task_after_enqueued_at', NOT_A_DATE('afterEnqueuedAt')],
  ],
  task_bad_before_enqueued_at: [
    ['tasks_filter', 'beforeEnqueuedAt=doggo', 400, 'invalid_task_before_enqueued_at', NOT_A_DATE('beforeEnqueuedAt')],
    ['cancel_tasks', 'beforeEnqueuedAt=doggo', 400, 'invalid_task_before_enqueued_at', NOT_A_DATE('beforeEnqueuedAt')],
    ['delete_tasks', 'beforeEnqueuedAt=doggo', 400, 'invalid_task_before_enqueued_at', NOT_A_DATE('beforeEnqueuedAt')],
  ],
  task_bad_after_started_at: [
    ['tasks_filter', 'afterStartedAt=doggo', 400, 'invalid_task_after_started_at', NOT_A_DATE('afterStartedAt')],
    ['cancel_tasks', 'afterStartedAt=doggo', 400, 'invalid_task_after_started_at', NOT_A_DATE('afterStartedAt')],
    ['delete_tasks', 'afterStartedAt=doggo', 400, 'invalid_task_after_started_at', NOT_A_DATE('afterStartedAt')],
  ],
  task_bad_before_started_at: [
    ['tasks_filter', 'beforeStartedAt=doggo', 400, 'invalid_task_before_started_at', NOT_A_DATE('beforeStartedAt')],
    ['cancel_tasks', 'beforeStartedAt=doggo', 400, 'invalid_task_before_started_at', NOT_A_DATE('beforeStartedAt')],
    ['delete_tasks', 'beforeStartedAt=doggo', 400, 'invalid_task_before_started_at', NOT_A_DATE('beforeStartedAt')],
  ],
  task_bad_after_finished_at: [
    ['tasks_filter', 'afterFinishedAt=doggo', 400, 'invalid_task_after_finished_at', NOT_A_DATE('afterFinishedAt')],
    ['cancel_tasks', 'afterFinishedAt=doggo', 400, 'invalid_task_after_finished_at', NOT_A_DATE('afterFinishedAt')],
    ['delete_tasks', 'afterFinishedAt=doggo', 400, 'invalid_task_after_finished_at', NOT_A_DATE('afterFinishedAt')],
  ],
  task_bad_before_finished_at: [
    ['tasks_filter', 'beforeFinishedAt=doggo', 400, 'invalid_task_before_finished_at', NOT_A_DATE('beforeFinishedAt')],
    ['cancel_tasks', 'beforeFinishedAt=doggo', 400, 'invalid_task_before_finished_at', NOT_A_DATE('beforeFinishedAt')],
    ['delete_tasks', 'beforeFinishedAt=doggo', 400, 'invalid_task_before_finished_at', NOT_A_DATE('beforeFinishedAt')],
  ],
};

describeQueryErrors(ROUTES, CASES);
