/**
 * Table-driven ports of Meilisearch's query-parameter error tests (tasks/errors.rs,
 * batches/errors.rs): one server for the file, each Rust test a describe block, each request of it
 * a case compared on status and exact error body; and the messages those tests repeat.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call, expectError } from './api.js';
import { startServer, type TestServer } from './server.js';

/** A Rust server helper, as the method and route it calls. */
export type QueryRoutes = Record<string, readonly [method: string, route: string]>;

export type QueryErrorCase<R extends QueryRoutes> = [helper: keyof R & string, query: string, status: number, code: string, message: string];

export function describeQueryErrors<R extends QueryRoutes>(routes: R, cases: Record<string, QueryErrorCase<R>[]>): void {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  }, 60_000);
  afterAll(async () => {
    await server.dispose();
  });

  for (const [name, list] of Object.entries(cases)) {
    describe(name, () => {
      it.each(list)('%s ?%s answers %i %s', async (helper, query, status, code, message) => {
        const [method, route] = routes[helper];
        expectError(await call(server, method, `${route}?${query}`), status, code, message);
      });
    });
  }
}

export const NOT_AN_INTEGER = (param: string, value: string): string => `Invalid value in parameter \`${param}\`: could not parse \`${value}\` as a positive integer`;
export const NOT_A_DATE = (param: string): string =>
  `Invalid value in parameter \`${param}\`: \`doggo\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`;

/** The answers to `types=doggo`, `statuses=doggo` and `indexUids=the%20good%20doggo`. */
export const BAD_TYPES =
  'Invalid value in parameter `types`: `doggo` is not a valid task type. Available types are `documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`.';
export const BAD_STATUSES =
  'Invalid value in parameter `statuses`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.';
export const BAD_INDEX_UIDS =
  'Invalid value in parameter `indexUids`: `the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.';
