/**
 * `/indexes` routes (indexes.md §3): listing and reading are synchronous reads of the registry;
 * creation, update and deletion enqueue tasks.
 */
import { indexUidProblem } from '../../types/index-uid.js';
import { validateIndexUid } from '../../indexes/uid.js';
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute } from '../route.js';
import { compileBody, compileQuery, parsePositiveInteger } from '../../validation/index.js';
import { indexView } from '../views/index-view.js';
import { offsetPage } from '../views/offset-page.js';

const parseList = compileQuery({
  offset: { parse: parsePositiveInteger, code: 'invalid_index_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_index_limit' },
});

const parseCreate = compileBody<{ uid: string; primaryKey?: string | null }>(
  {
    type: 'object',
    properties: { uid: { type: 'string' }, primaryKey: { type: ['string', 'null'] } },
    required: ['uid'],
    additionalProperties: false,
  },
  { '.uid': 'invalid_index_uid', '.primaryKey': 'invalid_index_primary_key' },
  { missing: { uid: 'missing_index_uid' }, validators: { '.uid': indexUidProblem } },
);

const parseUpdate = compileBody<{ primaryKey?: string | null; uid?: string | null }>(
  {
    type: 'object',
    properties: { primaryKey: { type: ['string', 'null'] }, uid: { type: ['string', 'null'] } },
    additionalProperties: false,
  },
  { '.uid': 'invalid_index_uid', '.primaryKey': 'invalid_index_primary_key' },
  { immutable: { createdAt: 'immutable_index_created_at', updatedAt: 'immutable_index_updated_at' } },
);

export const indexRoutes = [
  defineRoute({
    route: 'GET /indexes',
    query: parseList,
    handler: (ctx, deps) =>
      offsetPage(
        deps.indexes.list().filter((record) => ctx.caller.canSeeIndex(record.uid)),
        ctx.query,
        indexView,
      ),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid',
    handler: (ctx, deps) => indexView(deps.indexReader.record(ctx.params.indexUid!)),
  }),
  defineRoute({
    route: 'POST /indexes',
    body: parseCreate,
    status: 202,
    handler: (ctx, deps) => {
      ctx.caller.assertIndexAction('indexes.create', ctx.body.uid);
      return enqueue(deps, { kind: { name: 'indexCreation', indexUid: ctx.body.uid, primaryKey: ctx.body.primaryKey ?? null }, ...replicationOf(deps, ctx.headers) }, { ctx, body: { kind: 'json', value: ctx.body } });
    },
  }),
  defineRoute({
    route: 'PATCH /indexes/:indexUid',
    body: parseUpdate,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      const newUid = ctx.body.uid ?? null;
      if (newUid !== null) validateIndexUid(newUid);
      return enqueue(
        deps,
        { kind: { name: 'indexUpdate', indexUid: uid, primaryKey: ctx.body.primaryKey ?? null, newIndexUid: newUid }, ...replicationOf(deps, ctx.headers) },
        { ctx, body: { kind: 'json', value: ctx.body } },
      );
    },
  }),
  defineRoute({
    route: 'DELETE /indexes/:indexUid',
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueue(deps, { kind: { name: 'indexDeletion', indexUid: uid }, ...replicationOf(deps, ctx.headers) }, { ctx, body: { kind: 'none' } });
    },
  }),
];
