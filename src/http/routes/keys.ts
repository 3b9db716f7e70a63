/**
 * `/keys` routes (keys-auth.md §6): list, read, create, update and delete API keys. Synchronous,
 * no task. Authorization (master key required, `keys.*` actions) happened before the handler.
 *
 * Bodies are validated before any lookup, so 400s come before 404s. The key value in each
 * response is derived from the uid and the master key; the master key itself is never shown.
 */
import { firstGlobalOnlyAction } from '../../auth/actions.js';
import { invalidExpiresAtMessage, parseExpiresAt, type ExpirationDate } from '../../auth/dates.js';
import { nowNs } from '../../types/dates.js';
import { indexPatternProblem } from '../../auth/index-pattern.js';
import type { ApiKey, KeyStore } from '../../auth/key-store.js';
import { parseUuid } from '../../auth/uuid.js';
import { ApiError } from '../../errors/api-error.js';
import { ACTIONS, type Action } from '../../types/key.js';
import { defineRoute } from '../route.js';
import { offsetPage } from '../views/offset-page.js';
import { compileBody, compileQuery, parsePositiveInteger } from '../../validation/index.js';

const parseList = compileQuery({
  offset: { parse: parsePositiveInteger, code: 'invalid_api_key_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_api_key_limit' },
});

export interface CreateKeyBody {
  description?: string | null;
  name?: string | null;
  uid?: string;
  actions: Action[];
  indexes: string[];
  expiresAt: string | null;
}

const parseCreate = compileBody<CreateKeyBody>(
  {
    type: 'object',
    // Declaration order is the order of Meilisearch's "expected one of" lists.
    properties: {
      description: { type: ['string', 'null'] },
      name: { type: ['string', 'null'] },
      uid: { type: 'string' },
      actions: { type: 'array', items: { type: 'string', enum: [...ACTIONS] } },
      indexes: { type: 'array', items: { type: 'string' } },
      expiresAt: { type: ['string', 'null'] },
    },
    required: ['actions', 'indexes', 'expiresAt'],
    additionalProperties: false,
  },
  {
    '.description': 'invalid_api_key_description',
    '.name': 'invalid_api_key_name',
    '.uid': 'invalid_api_key_uid',
    '.actions': 'invalid_api_key_actions',
    '.indexes': 'invalid_api_key_indexes',
    '.expiresAt': 'invalid_api_key_expires_at',
  },
  {
    missing: {
      actions: 'missing_api_key_actions',
      indexes: 'missing_api_key_indexes',
      expiresAt: 'missing_api_key_expires_at',
    },
    validators: {
      '.uid': (uid) => {
        const parsed = parseUuid(uid as string);
        return parsed.ok ? undefined : parsed.error;
      },
      '.indexes[]': (pattern) => indexPatternProblem(pattern as string),
      '.expiresAt': (date) =>
        date === null || parseExpiresAt(date as string, nowNs()) !== undefined ? undefined : invalidExpiresAtMessage(date as string),
    },
  },
);

const parsePatch = compileBody<{ description?: string | null; name?: string | null }>(
  {
    type: 'object',
    properties: { description: { type: ['string', 'null'] }, name: { type: ['string', 'null'] } },
    additionalProperties: false,
  },
  { '.description': 'invalid_api_key_description', '.name': 'invalid_api_key_name' },
  {
    immutable: {
      uid: 'immutable_api_key_uid',
      actions: 'immutable_api_key_actions',
      indexes: 'immutable_api_key_indexes',
      expiresAt: 'immutable_api_key_expires_at',
      createdAt: 'immutable_api_key_created_at',
      updatedAt: 'immutable_api_key_updated_at',
    },
  },
);

/** The public key object, fields in Meilisearch's order. */
function keyView(key: ApiKey, keys: KeyStore) {
  return {
    name: key.name,
    description: key.description,
    key: keys.valueOf(key.uid),
    uid: key.uid,
    actions: key.actions,
    indexes: key.indexes,
    expiresAt: key.expiresAt,
    createdAt: key.createdAt,
    updatedAt: key.updatedAt,
  };
}

/** A key restricted to some indexes (non-empty, no `*`) cannot hold actions that ignore indexes. */
function checkIndexScope(actions: readonly Action[], indexes: readonly string[]): void {
  if (indexes.length === 0 || indexes.includes('*')) return;
  const global = firstGlobalOnlyAction(actions);
  if (global === undefined) return;
  const quoted = JSON.stringify(global);
  throw new ApiError(
    'index_scoped_api_key_with_global_action',
    `cannot create index-scoped API key with global action \`${quoted}\`\n  - Hint: remove action \`${quoted}\` from the action list, or remove \`indexes\` to make the key global`,
  );
}

export const keyRoutes = [
  defineRoute({
    route: 'GET /keys',
    query: parseList,
    handler: (ctx, deps) => offsetPage(deps.keys.list(), ctx.query, (key) => keyView(key, deps.keys)),
  }),
  defineRoute({
    route: 'GET /keys/:key',
    handler: (ctx, deps) => keyView(deps.keys.resolve(ctx.params.key!), deps.keys),
  }),
  defineRoute({
    route: 'POST /keys',
    body: parseCreate,
    status: 201,
    handler: (ctx, deps) => {
      const { body } = ctx;
      checkIndexScope(body.actions, body.indexes);
      let expiresAt: ExpirationDate | null = null;
      if (body.expiresAt !== null) {
        const parsed = parseExpiresAt(body.expiresAt, nowNs());
        // Validated a moment ago; it can only have passed since.
        if (parsed === undefined) {
          throw new ApiError('invalid_api_key_expires_at', `Invalid value at \`.expiresAt\`: ${invalidExpiresAtMessage(body.expiresAt)}`);
        }
        expiresAt = parsed;
      }
      const key = deps.keys.create({
        ...(body.uid === undefined ? {} : { uid: (parseUuid(body.uid) as { uuid: string }).uuid }),
        name: body.name ?? null,
        description: body.description ?? null,
        actions: body.actions,
        indexes: body.indexes,
        expiresAt,
      });
      return keyView(key, deps.keys);
    },
  }),
  defineRoute({
    route: 'PATCH /keys/:key',
    body: parsePatch,
    handler: (ctx, deps) => {
      const key = deps.keys.resolve(ctx.params.key!);
      return keyView(deps.keys.update(key.uid, ctx.body), deps.keys);
    },
  }),
  defineRoute({
    route: 'DELETE /keys/:key',
    status: 204,
    handler: (ctx, deps) => {
      deps.keys.delete(deps.keys.resolve(ctx.params.key!).uid);
    },
  }),
];
