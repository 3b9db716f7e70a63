// Port of Meilisearch's crates/meilisearch/tests/batches/errors.rs: the query-parameter errors of
// `GET /batches` (bad uids, canceledBy, types, statuses, index uids and dates), each with v1.50's
// status, code and message.
import { BAD_INDEX_UIDS, BAD_STATUSES, BAD_TYPES, describeQueryErrors, NOT_A_DATE, NOT_AN_INTEGER, type QueryErrorCase } from '../../helpers/query-errors.js';

/** The Rust test's server helpers, as the route each one calls. */
const ROUTES = {
  batches_filter: ['GET', '/batches'],
} as const;

const CASES: Record<string, QueryErrorCase<typeof ROUTES>[]> = {
  batch_bad_uids: [
    ['batches_filter', 'uids=doggo', 400, 'invalid_task_uids', NOT_AN_INTEGER('uids', 'doggo')],
  ],
  batch_bad_canceled_by: [
    ['batches_filter', 'canceledBy=doggo', 400, 'invalid_task_canceled_by', NOT_AN_INTEGER('canceledBy', 'doggo')],
  ],
  batch_bad_types: [
    ['batches_filter', 'types=doggo', 400, 'invalid_task_types', BAD_TYPES],
  ],
  batch_bad_statuses: [
    ['batches_filter', 'statuses=doggo', 400, 'invalid_task_statuses', BAD_STATUSES],
  ],
  batch_bad_index_uids: [
    ['batches_filter', 'indexUids=the%20good%20doggo', 400, 'invalid_index_uid', BAD_INDEX_UIDS],
  ],
  batch_bad_limit: [
    ['batches_filter', 'limit=doggo', 400, 'invalid_task_limit', NOT_AN_INTEGER('limit', 'doggo')],
  ],
  batch_bad_from: [
    ['batches_filter', 'from=doggo', 400, 'invalid_task_from', NOT_AN_INTEGER('from', 'doggo')],
  ],
  bask_bad_reverse: [
    ['batches_filter', 'reverse=doggo', 400, 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['batches_filter', 'reverse=*', 400, 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `*` as a boolean, expected either `true` or `false`'],
  ],
  batch_bad_after_enqueued_at: [
    ['batches_filter', 'afterEnqueuedAt=doggo', 400, 'invalid_task_after_enqueued_at', NOT_A_DATE('afterEnqueuedAt')],
  ],
  batch_bad_before_enqueued_at: [
    ['batches_filter', 'beforeEnqueuedAt=doggo', 400, 'invalid_task_before_enqueued_at', NOT_A_DATE('beforeEnqueuedAt')],
  ],
  batch_bad_after_started_at: [
    ['batches_filter', 'afterStartedAt=doggo', 400, 'invalid_task_after_started_at', NOT_A_DATE('afterStartedAt')],
  ],
  batch_bad_before_started_at: [
    ['batches_filter', 'beforeStartedAt=doggo', 400, 'invalid_task_before_started_at', NOT_A_DATE('beforeStartedAt')],
  ],
  batch_bad_after_finished_at: [
    ['batches_filter', 'afterFinishedAt=doggo', 400, 'invalid_task_after_finished_at', NOT_A_DATE('afterFinishedAt')],
  ],
  batch_bad_before_finished_at: [
    ['batches_filter', 'beforeFinishedAt=doggo', 400, 'invalid_task_before_finished_at', NOT_A_DATE('beforeFinishedAt')],
  ],
};

describeQueryErrors(ROUTES, CASES);
