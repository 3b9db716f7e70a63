/**
 * `POST /dumps` (dumps-snapshots-upgrade.md §3.8): enqueues a `dumpCreation` task. The keys are
 * captured now, as Meilisearch does: the dump holds the keys of when it was asked for. A body,
 * if any, is ignored.
 */
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute } from '../route.js';

export const dumpRoutes = [
  defineRoute({
    route: 'POST /dumps',
    status: 202,
    handler: (ctx, deps) =>
      enqueue(deps, { kind: { name: 'dumpCreation', keys: deps.keys.list(), instanceUid: deps.instanceUid }, ...replicationOf(deps, ctx.headers) }),
  }),
];
