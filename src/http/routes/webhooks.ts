/**
 * `/webhooks` CRUD (misc-routes.md §9): synchronous, no task. POST and PATCH share Meilisearch's
 * `WebhookSettings` body; the path uuid is parsed in the handler, after the body, as Meilisearch
 * does.
 */
import { parseUuid } from '../../auth/uuid.js';
import { ApiError } from '../../errors/api-error.js';
import type { WebhookChanges } from '../../webhooks/store.js';
import { defineRoute } from '../route.js';
import { compileBody } from '../../validation/index.js';

const parseSettings = compileBody<WebhookChanges>(
  {
    type: 'object',
    properties: {
      url: { type: ['string', 'null'] },
      headers: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] } },
    },
    additionalProperties: false,
  },
  { '.url': 'invalid_webhook_url', '.headers': 'invalid_webhook_headers' },
  { immutable: { uuid: 'immutable_webhook_uuid', isEditable: 'immutable_webhook_is_editable' } },
);

function pathUuid(params: Record<string, string>): string {
  const parsed = parseUuid(params.uuid!);
  if (!parsed.ok) throw new ApiError('invalid_webhook_uuid', `Invalid UUID: ${parsed.error}`);
  return parsed.uuid;
}

export const webhookRoutes = [
  defineRoute({
    route: 'GET /webhooks',
    handler: (_ctx, deps) => ({ results: deps.webhooks.list() }),
  }),
  defineRoute({
    route: 'GET /webhooks/:uuid',
    handler: (ctx, deps) => deps.webhooks.get(pathUuid(ctx.params)),
  }),
  defineRoute({
    route: 'POST /webhooks',
    body: parseSettings,
    status: 201,
    handler: (ctx, deps) => deps.webhooks.create(ctx.body),
  }),
  defineRoute({
    route: 'PATCH /webhooks/:uuid',
    body: parseSettings,
    handler: (ctx, deps) => deps.webhooks.update(pathUuid(ctx.params), ctx.body),
  }),
  defineRoute({
    route: 'DELETE /webhooks/:uuid',
    status: 204,
    handler: (ctx, deps) => {
      deps.webhooks.delete(pathUuid(ctx.params));
      return undefined;
    },
  }),
];
