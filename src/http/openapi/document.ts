/**
 * The parts of the API document that are not one route's: its header, the shared schemas (the
 * error envelope, the summarized task), the security scheme, and the settings sub-routes, which
 * the server routes through one `/settings/{setting}` pattern but the document lists one by one
 * (`/settings/filterable-attributes`…), each with its own verb and the schema its value is
 * validated with (settings/schemas.ts).
 */
import { SETTINGS, SETTING_KEYS } from '../../settings/catalogue.js';
import { settingSchema } from '../../settings/schemas.js';
import { ERROR_SCHEMA_ID, SECURITY_SCHEME, TASK_SCHEMA_ID } from './operation.js';

export const SHARED_SCHEMAS = [
  {
    $id: ERROR_SCHEMA_ID,
    type: 'object',
    description: 'Every error answer: a message, a code from the error catalogue, its type and its documentation link.',
    properties: {
      message: { type: 'string' },
      code: { type: 'string' },
      type: { type: 'string', enum: ['invalid_request', 'internal', 'auth', 'system'] },
      link: { type: 'string' },
    },
    required: ['message', 'code', 'type', 'link'],
  },
  {
    $id: TASK_SCHEMA_ID,
    type: 'object',
    description: 'The task a write registered; follow it with GET /tasks/{taskUid}.',
    properties: {
      taskUid: { type: 'integer' },
      indexUid: { type: ['string', 'null'] },
      status: { type: 'string', enum: ['enqueued'] },
      type: { type: 'string' },
      enqueuedAt: { type: 'string', format: 'date-time' },
    },
    required: ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'],
  },
] as const;

export function documentHeader(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quarry',
      version,
      description: 'The Meilisearch v1.50 HTTP API as Quarry serves it. A protected route lists the key actions it needs as its security scopes.',
    },
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The master key or an API key, as `Authorization: Bearer <key>`.' },
      },
    },
  } as const;
}

type Operation = Record<string, unknown> & { parameters?: { in: string; name: string }[]; operationId?: string; summary?: string };
type PathItem = Record<string, Operation>;

const SETTING_PATTERN = '/indexes/{indexUid}/settings/{setting}';

/** Replaces the `/settings/{setting}` pattern by one path per setting. */
export function expandSettingRoutes(paths: Record<string, PathItem>): void {
  const pattern = paths[SETTING_PATTERN];
  if (pattern === undefined) return;
  delete paths[SETTING_PATTERN];
  for (const key of SETTING_KEYS) {
    const { route, verb } = SETTINGS[key];
    const path = SETTING_PATTERN.replace('{setting}', route);
    const item: PathItem = {};
    for (const method of ['get', verb.toLowerCase(), 'delete']) {
      const generic = pattern[method];
      if (generic === undefined) continue;
      const operation: Operation = {
        ...generic,
        summary: `${method.toUpperCase()} ${path}`,
        operationId: `${generic.operationId ?? method}${key[0]!.toUpperCase()}${key.slice(1)}`,
        parameters: (generic.parameters ?? []).filter((p) => !(p.in === 'path' && p.name === 'setting')),
      };
      if (method === verb.toLowerCase()) {
        operation.requestBody = { required: true, content: { 'application/json': { schema: settingSchema(key).schema } } };
      }
      item[method] = operation;
    }
    paths[path] = item;
  }
}
