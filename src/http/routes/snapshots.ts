/**
 * `POST /snapshots` (dumps-snapshots-upgrade.md §4.1): enqueues a `snapshotCreation` task. A
 * body, if any, is ignored.
 */
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute } from '../route.js';

export const snapshotRoutes = [
  defineRoute({
    route: 'POST /snapshots',
    status: 202,
    handler: (ctx, deps) => enqueue(deps, { kind: { name: 'snapshotCreation' }, ...replicationOf(deps, ctx.headers) }),
  }),
];
