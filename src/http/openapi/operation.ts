/**
 * One route of the API as an OpenAPI operation, from what the route itself declares (route.ts's
 * RouteSpec): its path parameters, its query parameters and body schema (the very ones its
 * parsers compiled, src/validation/described.ts), its auth action (auth/route-actions.ts) as the
 * security requirement's scopes, and its error responses in the error envelope, with the codes it
 * can answer. Consumed by @fastify/swagger's `transform` (routes/openapi.ts).
 */
import { ROUTE_ACTIONS } from '../../auth/route-actions.js';
import { ERROR_CODES, type ErrorCode } from '../../errors/codes.js';
import type { AnyRouteSpec } from '../route.js';
import { descriptionOf, parseBoolean, parsePositiveInteger, parseU32 } from '../../validation/index.js';

/** The `$id` of the error envelope schema (registered by routes/openapi.ts). */
export const ERROR_SCHEMA_ID = 'ApiError';
/** The `$id` of the summarized task of a 202 answer. */
export const TASK_SCHEMA_ID = 'SummarizedTask';
/** The security scheme's name; a requirement's scopes are the actions a key needs. */
export const SECURITY_SCHEME = 'apiKey';

// Query values are strings on the wire: the parsers that read numbers and booleans say which.
const QUERY_VALUE_SCHEMAS = new Map<unknown, object>([
  [parsePositiveInteger, { type: 'integer', minimum: 0 }],
  [parseU32, { type: 'integer', minimum: 0, maximum: 2 ** 32 - 1 }],
  [parseBoolean, { type: 'boolean' }],
]);

const BODY_ERRORS: ErrorCode[] = ['missing_payload', 'malformed_payload', 'payload_too_large', 'invalid_content_type', 'missing_content_type'];

export interface OperationSchema {
  summary: string;
  operationId: string;
  tags: string[];
  security?: Record<string, string[]>[];
  params?: object;
  querystring?: object;
  body?: object;
  consumes?: string[];
  response: Record<string, object>;
}

/** `/indexes/:indexUid/search` → `/indexes/{indexUid}/search` */
export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

/** The tag of a route: the resource after an index (`search`, `settings`), else the first segment. */
function tagOf(url: string): string {
  const parts = url.split('/').filter((part) => part !== '' && !part.startsWith(':'));
  if (parts[0] === 'indexes' && parts.length > 1) return parts[1]!;
  return parts[0] ?? 'health';
}

function operationId(method: string, url: string): string {
  const words = url.split(/[/:-]/).filter((w) => w !== '');
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function errorResponses(codes: Iterable<ErrorCode>): Record<string, object> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const code of codes) {
    const { status } = ERROR_CODES[code];
    if (!byStatus.has(status)) byStatus.set(status, new Set());
    byStatus.get(status)!.add(code);
  }
  const responses: Record<string, object> = {};
  for (const [status, set] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Error codes: ${[...set].map((code) => `\`${code}\``).join(', ')}`,
      content: { 'application/json': { schema: { $ref: `${ERROR_SCHEMA_ID}#` } } },
    };
  }
  return responses;
}

/** The operation of `spec`'s route. */
export function operationOf(spec: AnyRouteSpec): OperationSchema {
  const [method, url] = spec.route.split(' ') as [string, string];
  const actions = ROUTE_ACTIONS[spec.route as keyof typeof ROUTE_ACTIONS] as readonly string[] | null;
  const errors = new Set<ErrorCode>();
  const operation: OperationSchema = {
    summary: `${method} ${openApiPath(url)}`,
    operationId: operationId(method, url),
    tags: [tagOf(url)],
    response: {},
  };
  if (actions !== null) {
    operation.security = [{ [SECURITY_SCHEME]: [...actions] }];
    errors.add('missing_authorization_header').add('invalid_api_key');
  }
  const pathParams = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  if (pathParams.length > 0) {
    operation.params = { type: 'object', properties: Object.fromEntries(pathParams.map((name) => [name, { type: 'string' }])), required: pathParams };
  }
  if (pathParams.includes('indexUid')) errors.add('index_not_found');

  const query = descriptionOf(spec.query);
  if (query?.kind === 'query') {
    const properties = Object.fromEntries(
      Object.entries(query.spec).map(([name, param]) => {
        errors.add(param.code);
        return [name, { ...(QUERY_VALUE_SCHEMAS.get(param.parse) ?? { type: 'string' }), description: `Invalid values answer \`${param.code}\`.` }];
      }),
    );
    operation.querystring = { type: 'object', properties };
    errors.add('bad_request');
  }

  if (spec.body !== undefined) {
    BODY_ERRORS.forEach((code) => errors.add(code));
    const body = typeof spec.body === 'function' ? descriptionOf(spec.body) : undefined;
    if (body?.kind === 'body') {
      operation.body = body.schema;
      Object.values(body.codes).forEach((code) => errors.add(code));
      errors.add('bad_request');
    } else if (spec.body === 'stream') {
      // a payload read as it arrives: documents (JSON array, NDJSON or CSV) or a setting's value
      operation.body = { description: 'Streamed payload.' };
    }
    operation.consumes = [...(spec.contentTypes ?? ['application/json'])];
  }

  const status = spec.status ?? 200;
  operation.response[String(status)] =
    status === 202
      ? { description: 'The task registered.', content: { 'application/json': { schema: { $ref: `${TASK_SCHEMA_ID}#` } } } }
      : { description: 'Success.' };
  Object.assign(operation.response, errorResponses(errors));
  return operation;
}
