// Port of Meilisearch's crates/meilisearch/tests/tasks/errors.rs: the query-parameter errors of
// `GET /tasks`, `POST /tasks/cancel` and `DELETE /tasks` (bad uids, canceledBy, types, statuses,
// index uids, dates, `reverse`, and the cancel/delete routes' unknown parameters), each with
// v1.50's status, code and message.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call, expectError } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

/** The Rust test's server helpers, as the route each one calls. */
const ROUTES = {
  tasks_filter: ['GET', '/tasks'],
  cancel_tasks: ['POST', '/tasks/cancel'],
  delete_tasks: ['DELETE', '/tasks'],
} as const;

type Case = [helper: keyof typeof ROUTES, query: string, status: number, code: string, message: string];

const CASES: Record<string, Case[]> = {
  task_bad_uids: [
    ['tasks_filter', 'uids=doggo', 400, 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `doggo` as a positive integer'],
    ['cancel_tasks', 'uids=doggo', 400, 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `doggo` as a positive integer'],
    ['delete_tasks', 'uids=doggo', 400, 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `doggo` as a positive integer'],
    ['delete_tasks', 'uids=1,dogo', 400, 'invalid_task_uids', 'Invalid value in parameter `uids[1]`: could not parse `dogo` as a positive integer'],
  ],
  task_bad_canceled_by: [
    ['tasks_filter', 'canceledBy=doggo', 400, 'invalid_task_canceled_by', 'Invalid value in parameter `canceledBy`: could not parse `doggo` as a positive integer'],
    ['cancel_tasks', 'canceledBy=doggo', 400, 'invalid_task_canceled_by', 'Invalid value in parameter `canceledBy`: could not parse `doggo` as a positive integer'],
    ['delete_tasks', 'canceledBy=doggo', 400, 'invalid_task_canceled_by', 'Invalid value in parameter `canceledBy`: could not parse `doggo` as a positive integer'],
  ],
  task_bad_types: [
    ['tasks_filter', 'types=doggo', 400, 'invalid_task_types', 'Invalid value in parameter `types`: `doggo` is not a valid task type. Available types are `documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`.'],
    ['cancel_tasks', 'types=doggo', 400, 'invalid_task_types', 'Invalid value in parameter `types`: `doggo` is not a valid task type. Available types are `documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`.'],
    ['delete_tasks', 'types=doggo', 400, 'invalid_task_types', 'Invalid value in parameter `types`: `doggo` is not a valid task type. Available types are `documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`.'],
  ],
  task_bad_statuses: [
    ['tasks_filter', 'statuses=doggo', 400, 'invalid_task_statuses', 'Invalid value in parameter `statuses`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.'],
    ['cancel_tasks', 'statuses=doggo', 400, 'invalid_task_statuses', 'Invalid value in parameter `statuses`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.'],
    ['delete_tasks', 'statuses=doggo', 400, 'invalid_task_statuses', 'Invalid value in parameter `statuses`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.'],
  ],
  task_bad_index_uids: [
    ['tasks_filter', 'indexUids=the%20good%20doggo', 400, 'invalid_index_uid', 'Invalid value in parameter `indexUids`: `the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'],
    ['cancel_tasks', 'indexUids=the%20good%20doggo', 400, 'invalid_index_uid', 'Invalid value in parameter `indexUids`: `the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'],
    ['delete_tasks', 'indexUids=the%20good%20doggo', 400, 'invalid_index_uid', 'Invalid value in parameter `indexUids`: `the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'],
  ],
  task_bad_limit: [
    ['tasks_filter', 'limit=doggo', 400, 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
    ['cancel_tasks', 'limit=doggo', 400, 'bad_request', 'Unknown parameter `limit`: expected one of `uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'],
    ['delete_tasks', 'limit=doggo', 400, 'bad_request', 'Unknown parameter `limit`: expected one of `uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'],
  ],
  task_bad_from: [
    ['tasks_filter', 'from=doggo', 400, 'invalid_task_from', 'Invalid value in parameter `from`: could not parse `doggo` as a positive integer'],
    ['cancel_tasks', 'from=doggo', 400, 'bad_request', 'Unknown parameter `from`: expected one of `uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'],
    ['delete_tasks', 'from=doggo', 400, 'bad_request', 'Unknown parameter `from`: expected one of `uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'],
  ],
  task_bad_reverse: [
    ['tasks_filter', 'reverse=doggo', 400, 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['tasks_filter', 'reverse=*', 400, 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `*` as a boolean, expected either `true` or `false`'],
    ['cancel_tasks', 'reverse=doggo', 400, 'bad_request', 'Unknown parameter `reverse`: expected one of `uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'],
    ['delete_tasks', 'reverse=doggo', 400, 'bad_request', 'Unknown parameter `reverse`: expected one of `uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'],
  ],
  task_bad_after_enqueued_at: [
    ['tasks_filter', 'afterEnqueuedAt=doggo', 400, 'invalid_task_after_enqueued_at', 'Invalid value in parameter `afterEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['cancel_tasks', 'afterEnqueuedAt=doggo', 400, 'invalid_task_after_enqueued_at', 'Invalid value in parameter `afterEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['delete_tasks', 'afterEnqueuedAt=doggo', 400, 'invalid_task_after_enqueued_at', 'Invalid value in parameter `afterEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  task_bad_before_enqueued_at: [
    ['tasks_filter', 'beforeEnqueuedAt=doggo', 400, 'invalid_task_before_enqueued_at', 'Invalid value in parameter `beforeEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['cancel_tasks', 'beforeEnqueuedAt=doggo', 400, 'invalid_task_before_enqueued_at', 'Invalid value in parameter `beforeEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['delete_tasks', 'beforeEnqueuedAt=doggo', 400, 'invalid_task_before_enqueued_at', 'Invalid value in parameter `beforeEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  task_bad_after_started_at: [
    ['tasks_filter', 'afterStartedAt=doggo', 400, 'invalid_task_after_started_at', 'Invalid value in parameter `afterStartedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['cancel_tasks', 'afterStartedAt=doggo', 400, 'invalid_task_after_started_at', 'Invalid value in parameter `afterStartedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['delete_tasks', 'afterStartedAt=doggo', 400, 'invalid_task_after_started_at', 'Invalid value in parameter `afterStartedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  task_bad_before_started_at: [
    ['tasks_filter', 'beforeStartedAt=doggo', 400, 'invalid_task_before_started_at', 'Invalid value in parameter `beforeStartedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['cancel_tasks', 'beforeStartedAt=doggo', 400, 'invalid_task_before_started_at', 'Invalid value in parameter `beforeStartedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['delete_tasks', 'beforeStartedAt=doggo', 400, 'invalid_task_before_started_at', 'Invalid value in parameter `beforeStartedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  task_bad_after_finished_at: [
    ['tasks_filter', 'afterFinishedAt=doggo', 400, 'invalid_task_after_finished_at', 'Invalid value in parameter `afterFinishedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['cancel_tasks', 'afterFinishedAt=doggo', 400, 'invalid_task_after_finished_at', 'Invalid value in parameter `afterFinishedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['delete_tasks', 'afterFinishedAt=doggo', 400, 'invalid_task_after_finished_at', 'Invalid value in parameter `afterFinishedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  task_bad_before_finished_at: [
    ['tasks_filter', 'beforeFinishedAt=doggo', 400, 'invalid_task_before_finished_at', 'Invalid value in parameter `beforeFinishedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['cancel_tasks', 'beforeFinishedAt=doggo', 400, 'invalid_task_before_finished_at', 'Invalid value in parameter `beforeFinishedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
    ['delete_tasks', 'beforeFinishedAt=doggo', 400, 'invalid_task_before_finished_at', 'Invalid value in parameter `beforeFinishedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
};

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

for (const [name, cases] of Object.entries(CASES)) {
  describe(name, () => {
    it.each(cases)('%s ?%s answers %i %s', async (helper, query, status, code, message) => {
      const [method, route] = ROUTES[helper];
      expectError(await call(server, method, `${route}?${query}`), status, code, message);
    });
  });
}
