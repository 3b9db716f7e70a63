/**
 * Every bad input of the task routes (`GET /tasks`, `GET /tasks/{uid}`, `POST /tasks/cancel`,
 * `DELETE /tasks`) with Meilisearch's exact status, code and message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_UID, call, expectError } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const TYPES =
  '`documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`';
const STATUSES = '`enqueued`, `processing`, `succeeded`, `failed`, `canceled`';
const positive = (param: string, value: string) => `Invalid value in parameter \`${param}\`: could not parse \`${value}\` as a positive integer`;
const badDate = (param: string, value: string) =>
  `Invalid value in parameter \`${param}\`: \`${value}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`;

/** Bad filter values: the same answer on the three routes that take filters. */
const FILTER_ERRORS: [string, string, string][] = [
  ['uids=doggo', 'invalid_task_uids', positive('uids', 'doggo')],
  ['uids=1,dogo', 'invalid_task_uids', positive('uids[1]', 'dogo')],
  ['uids=-1', 'invalid_task_uids', positive('uids', '-1')],
  ['uids=4294967296', 'invalid_task_uids', positive('uids', '4294967296')],
  ['batchUids=doggo', 'invalid_batch_uids', positive('batchUids', 'doggo')],
  ['batchUids=0,1.5', 'invalid_batch_uids', positive('batchUids[1]', '1.5')],
  ['canceledBy=doggo', 'invalid_task_canceled_by', positive('canceledBy', 'doggo')],
  ['types=doggo', 'invalid_task_types', `Invalid value in parameter \`types\`: \`doggo\` is not a valid task type. Available types are ${TYPES}.`],
  ['types=indexCreation,databaseUpgrades', 'invalid_task_types', `Invalid value in parameter \`types[1]\`: \`databaseUpgrades\` is not a valid task type. Available types are ${TYPES}.`],
  ['statuses=doggo', 'invalid_task_statuses', `Invalid value in parameter \`statuses\`: \`doggo\` is not a valid task status. Available statuses are ${STATUSES}.`],
  ['statuses=*,doggo', 'invalid_task_statuses', `Invalid value in parameter \`statuses[1]\`: \`doggo\` is not a valid task status. Available statuses are ${STATUSES}.`],
  ['indexUids=the%20good%20doggo', 'invalid_index_uid', `Invalid value in parameter \`indexUids\`: ${INVALID_UID('the good doggo')}`],
  ['indexUids=ok,b%20c', 'invalid_index_uid', `Invalid value in parameter \`indexUids[1]\`: ${INVALID_UID('b c')}`],
  ['afterEnqueuedAt=doggo', 'invalid_task_after_enqueued_at', badDate('afterEnqueuedAt', 'doggo')],
  ['beforeEnqueuedAt=doggo', 'invalid_task_before_enqueued_at', badDate('beforeEnqueuedAt', 'doggo')],
  ['afterStartedAt=doggo', 'invalid_task_after_started_at', badDate('afterStartedAt', 'doggo')],
  ['beforeStartedAt=2024-08-08%2016:37:09', 'invalid_task_before_started_at', badDate('beforeStartedAt', '2024-08-08 16:37:09')],
  ['afterFinishedAt=2024-13-01', 'invalid_task_after_finished_at', badDate('afterFinishedAt', '2024-13-01')],
  ['beforeFinishedAt=2024-02-30', 'invalid_task_before_finished_at', badDate('beforeFinishedAt', '2024-02-30')],
];

describe('filters', () => {
  it.each(FILTER_ERRORS)('GET /tasks?%s answers 400 %s', async (query, code, message) => {
    expectError(await call(server, 'GET', `/tasks?${query}`), 400, code, message);
  });

  it.each(FILTER_ERRORS)('POST /tasks/cancel?%s answers 400 %s', async (query, code, message) => {
    expectError(await call(server, 'POST', `/tasks/cancel?${query}`), 400, code, message);
  });

  it.each(FILTER_ERRORS)('DELETE /tasks?%s answers 400 %s', async (query, code, message) => {
    expectError(await call(server, 'DELETE', `/tasks?${query}`), 400, code, message);
  });

  it('reports the first bad parameter of the query string', async () => {
    expectError(await call(server, 'GET', '/tasks?statuses=doggo&uids=doggo'), 400, 'invalid_task_statuses', `Invalid value in parameter \`statuses\`: \`doggo\` is not a valid task status. Available statuses are ${STATUSES}.`);
  });
});

describe('GET /tasks paging parameters', () => {
  it.each([
    ['limit=doggo', 'invalid_task_limit', positive('limit', 'doggo')],
    ['limit=-1', 'invalid_task_limit', positive('limit', '-1')],
    // a u32, as v1.50's TasksFilterQuery
    ['limit=4294967296', 'invalid_task_limit', positive('limit', '4294967296')],
    ['from=doggo', 'invalid_task_from', positive('from', 'doggo')],
    ['from=4294967296', 'invalid_task_from', positive('from', '4294967296')],
    ['reverse=doggo', 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['reverse=*', 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `*` as a boolean, expected either `true` or `false`'],
    ['reverse=True', 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `True` as a boolean, expected either `true` or `false`'],
  ])('?%s answers 400 %s', async (query, code, message) => {
    expectError(await call(server, 'GET', `/tasks?${query}`), 400, code, message);
  });

  it('an unknown parameter lists the accepted ones in Meilisearch order', async () => {
    expectError(
      await call(server, 'GET', '/tasks?lol=pied'),
      400,
      'bad_request',
      'Unknown parameter `lol`: expected one of `limit`, `from`, `reverse`, `batchUids`, `uids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`',
    );
  });
});

describe('POST /tasks/cancel and DELETE /tasks', () => {
  const CANCEL_DELETE_PARAMS =
    '`uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`';
  const routes = [
    ['POST', '/tasks/cancel', 'cancel'],
    ['DELETE', '/tasks', 'delete'],
  ] as const;

  it.each(routes)('%s %s without any filter answers 400 missing_task_filters', async (method, path, verb) => {
    const message = `Query parameters to filter the tasks to ${verb} are missing. Available query parameters are: \`uids\`, \`indexUids\`, \`statuses\`, \`types\`, \`canceledBy\`, \`beforeEnqueuedAt\`, \`afterEnqueuedAt\`, \`beforeStartedAt\`, \`afterStartedAt\`, \`beforeFinishedAt\`, \`afterFinishedAt\`.`;
    expectError(await call(server, method, path), 400, 'missing_task_filters', message);
    expectError(await call(server, method, `${path}?`), 400, 'missing_task_filters', message);
  });

  it.each(routes)('%s %s refuses limit, from and reverse as unknown parameters', async (method, path) => {
    for (const param of ['limit', 'from', 'reverse']) {
      expectError(
        await call(server, method, `${path}?${param}=doggo`),
        400,
        'bad_request',
        `Unknown parameter \`${param}\`: expected one of ${CANCEL_DELETE_PARAMS}`,
      );
    }
  });

  it.each(routes)('%s %s validates the parameters before asking for a filter', async (method, path) => {
    expectError(await call(server, method, `${path}?uids=doggo`), 400, 'invalid_task_uids', positive('uids', 'doggo'));
  });

  it('enqueues nothing when the request is refused', async () => {
    const before = (await call(server, 'GET', '/tasks?limit=0')).body.total;
    await call(server, 'POST', '/tasks/cancel');
    await call(server, 'DELETE', '/tasks?types=doggo');
    expect((await call(server, 'GET', '/tasks?limit=0')).body.total).toBe(before);
  });
});

describe('GET /tasks/{uid}', () => {
  it.each(['abc', '-1', '1.5', '4294967296', '1e3', '++1'])('with %s answers 400 invalid_task_uids', async (uid) => {
    expectError(await call(server, 'GET', `/tasks/${uid}`), 400, 'invalid_task_uids', `Task uid \`${uid}\` is invalid. It should only contain numeric characters.`);
  });

  it('reads the uid as a u32, a leading + and zeros included', async () => {
    const { taskUid } = (await call(server, 'POST', '/tasks/cancel?uids=0')).body;
    expect((await call(server, 'GET', `/tasks/+${taskUid}`)).body.uid).toBe(taskUid);
    expect((await call(server, 'GET', `/tasks/000${taskUid}`)).body.uid).toBe(taskUid);
  });

  it('answers 404 task_not_found for a task that does not exist', async () => {
    expectError(await call(server, 'GET', '/tasks/4294967295'), 404, 'task_not_found', 'Task `4294967295` not found.');
  });
});
