// Port of Meilisearch's crates/meilisearch/tests/batches/errors.rs: the query-parameter errors of
// `GET /batches` (bad uids, canceledBy, types, statuses, index uids and dates), each with v1.50's
// status, code and message.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call, expectError } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

/** The Rust test's server helpers, as the route each one calls. */
const ROUTES = {
  batches_filter: ['GET', '/batches'],
} as const;

type Case = [helper: keyof typeof ROUTES, query: string, status: number, code: string, message: string];

const CASES: Record<string, Case[]> = {
  batch_bad_uids: [
    ['batches_filter', 'uids=doggo', 400, 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `doggo` as a positive integer'],
  ],
  batch_bad_canceled_by: [
    ['batches_filter', 'canceledBy=doggo', 400, 'invalid_task_canceled_by', 'Invalid value in parameter `canceledBy`: could not parse `doggo` as a positive integer'],
  ],
  batch_bad_types: [
    ['batches_filter', 'types=doggo', 400, 'invalid_task_types', 'Invalid value in parameter `types`: `doggo` is not a valid task type. Available types are `documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`.'],
  ],
  batch_bad_statuses: [
    ['batches_filter', 'statuses=doggo', 400, 'invalid_task_statuses', 'Invalid value in parameter `statuses`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.'],
  ],
  batch_bad_index_uids: [
    ['batches_filter', 'indexUids=the%20good%20doggo', 400, 'invalid_index_uid', 'Invalid value in parameter `indexUids`: `the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'],
  ],
  batch_bad_limit: [
    ['batches_filter', 'limit=doggo', 400, 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
  ],
  batch_bad_from: [
    ['batches_filter', 'from=doggo', 400, 'invalid_task_from', 'Invalid value in parameter `from`: could not parse `doggo` as a positive integer'],
  ],
  bask_bad_reverse: [
    ['batches_filter', 'reverse=doggo', 400, 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['batches_filter', 'reverse=*', 400, 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `*` as a boolean, expected either `true` or `false`'],
  ],
  batch_bad_after_enqueued_at: [
    ['batches_filter', 'afterEnqueuedAt=doggo', 400, 'invalid_task_after_enqueued_at', 'Invalid value in parameter `afterEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  batch_bad_before_enqueued_at: [
    ['batches_filter', 'beforeEnqueuedAt=doggo', 400, 'invalid_task_before_enqueued_at', 'Invalid value in parameter `beforeEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  batch_bad_after_started_at: [
    ['batches_filter', 'afterStartedAt=doggo', 400, 'invalid_task_after_started_at', 'Invalid value in parameter `afterStartedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  batch_bad_before_started_at: [
    ['batches_filter', 'beforeStartedAt=doggo', 400, 'invalid_task_before_started_at', 'Invalid value in parameter `beforeStartedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  batch_bad_after_finished_at: [
    ['batches_filter', 'afterFinishedAt=doggo', 400, 'invalid_task_after_finished_at', 'Invalid value in parameter `afterFinishedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
  ],
  batch_bad_before_finished_at: [
    ['batches_filter', 'beforeFinishedAt=doggo', 400, 'invalid_task_before_finished_at', 'Invalid value in parameter `beforeFinishedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.'],
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
