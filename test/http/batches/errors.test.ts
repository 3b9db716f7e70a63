/**
 * Every bad input of `GET /batches` and `GET /batches/{uid}`, with Meilisearch's exact status,
 * code and message (the filters and their codes are those of `GET /tasks`).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { INVALID_UID, call, expectError } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const positive = (param: string, value: string) => `Invalid value in parameter \`${param}\`: could not parse \`${value}\` as a positive integer`;
const badDate = (param: string, value: string) =>
  `Invalid value in parameter \`${param}\`: \`${value}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`;

describe('GET /batches', () => {
  it.each([
    ['lol=pied', 'bad_request', 'Unknown parameter `lol`: expected one of `limit`, `from`, `reverse`, `batchUids`, `uids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'],
    ['uids=pied', 'invalid_task_uids', positive('uids', 'pied')],
    ['batchUids=pied', 'invalid_batch_uids', positive('batchUids', 'pied')],
    ['batchUids=1,-2', 'invalid_batch_uids', positive('batchUids[1]', '-2')],
    ['canceledBy=pied', 'invalid_task_canceled_by', positive('canceledBy', 'pied')],
    ['types=pied', 'invalid_task_types', 'Invalid value in parameter `types`: `pied` is not a valid task type. Available types are `documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`.'],
    ['statuses=pied', 'invalid_task_statuses', 'Invalid value in parameter `statuses`: `pied` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.'],
    ['indexUids=pi%20ed', 'invalid_index_uid', `Invalid value in parameter \`indexUids\`: ${INVALID_UID('pi ed')}`],
    ['limit=pied', 'invalid_task_limit', positive('limit', 'pied')],
    ['from=pied', 'invalid_task_from', positive('from', 'pied')],
    ['reverse=pied', 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `pied` as a boolean, expected either `true` or `false`'],
    ['afterEnqueuedAt=pied', 'invalid_task_after_enqueued_at', badDate('afterEnqueuedAt', 'pied')],
    ['beforeEnqueuedAt=pied', 'invalid_task_before_enqueued_at', badDate('beforeEnqueuedAt', 'pied')],
    ['afterStartedAt=pied', 'invalid_task_after_started_at', badDate('afterStartedAt', 'pied')],
    ['beforeStartedAt=pied', 'invalid_task_before_started_at', badDate('beforeStartedAt', 'pied')],
    ['afterFinishedAt=pied', 'invalid_task_after_finished_at', badDate('afterFinishedAt', 'pied')],
    ['beforeFinishedAt=pied', 'invalid_task_before_finished_at', badDate('beforeFinishedAt', 'pied')],
  ])('?%s answers 400 %s', async (query, code, message) => {
    expectError(await call(server, 'GET', `/batches?${query}`), 400, code, message);
  });
});

describe('GET /batches/{uid}', () => {
  it.each(['abc', '-1', '1.5', '4294967296'])('with %s answers 400 invalid_batch_uids', async (uid) => {
    expectError(await call(server, 'GET', `/batches/${uid}`), 400, 'invalid_batch_uids', `Batch uid \`${uid}\` is invalid. It should only contain numeric characters.`);
  });

  it('answers 404 batch_not_found for a batch that does not exist', async () => {
    expectError(await call(server, 'GET', '/batches/4294967295'), 404, 'batch_not_found', 'Batch `4294967295` not found.');
    expectError(await call(server, 'GET', '/batches/0'), 404, 'batch_not_found', 'Batch `0` not found.');
  });
});
