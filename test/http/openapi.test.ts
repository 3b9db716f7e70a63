// The API document at /openapi.json (development environment): a structurally valid OpenAPI 3.1
// document (checked by the small validator below: versions, operations, responses, path
// parameters, security scopes, every $ref resolving) that covers every registered route, with its
// auth action, request schema and error responses; and Scalar's reference at /scalar, served
// without any outside request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_ACTIONS, type KnownRoute } from '../../src/auth/route-actions.js';
import { API_ROUTES } from '../../src/http/app.js';
import { SETTINGS, SETTING_KEYS } from '../../src/settings/catalogue.js';
import { startServer, type TestServer } from '../helpers/server.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Resolves a local JSON pointer (`#/components/schemas/ApiError`) in `document`. */
function resolvePointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(1).split('/').filter((part) => part !== '')) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !(part in node)) return undefined;
    node = (node as Json)[part];
  }
  return node;
}

/** Every structural problem of an OpenAPI 3.1 document, as readable lines (none when valid). */
export function openApiProblems(document: Json): string[] {
  const problems: string[] = [];
  if (typeof document.openapi !== 'string' || !/^3\.1\.\d+$/.test(document.openapi)) problems.push(`openapi is ${JSON.stringify(document.openapi)}, not 3.1.x`);
  if (typeof document.info?.title !== 'string' || typeof document.info?.version !== 'string') problems.push('info needs a title and a version');
  if (typeof document.paths !== 'object' || document.paths === null) problems.push('paths is missing');
  const schemes = document.components?.securitySchemes ?? {};
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    if (!path.startsWith('/')) problems.push(`${path}: a path starts with /`);
    const operations = METHODS.filter((method) => item[method] !== undefined);
    if (operations.length === 0) problems.push(`${path}: no operation`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    for (const method of operations) {
      const op = item[method] as Json;
      const where = `${method.toUpperCase()} ${path}`;
      if (typeof op.operationId === 'string') {
        if (operationIds.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} is not unique`);
        operationIds.add(op.operationId);
      }
      const responses = Object.entries<Json>(op.responses ?? {});
      if (responses.length === 0) problems.push(`${where}: no response`);
      for (const [status, response] of responses) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${where}: response key ${status}`);
        if (typeof response.description !== 'string') problems.push(`${where}: response ${status} has no description`);
      }
      const parameters = (op.parameters ?? []) as Json[];
      for (const parameter of parameters) {
        if (typeof parameter.name !== 'string' || !['query', 'header', 'path', 'cookie'].includes(parameter.in)) problems.push(`${where}: bad parameter ${JSON.stringify(parameter)}`);
        if (parameter.schema === undefined && parameter.content === undefined) problems.push(`${where}: parameter ${parameter.name} has no schema`);
        if (parameter.in === 'path' && (parameter.required !== true || !templated.includes(parameter.name))) problems.push(`${where}: path parameter ${parameter.name} not required or not in the path`);
      }
      for (const name of templated) {
        if (!parameters.some((p) => p.in === 'path' && p.name === name)) problems.push(`${where}: {${name}} is not declared`);
      }
      for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
        if (media.schema === undefined) problems.push(`${where}: request body ${type} has no schema`);
      }
      for (const requirement of (op.security ?? []) as Json[]) {
        for (const scheme of Object.keys(requirement)) if (schemes[scheme] === undefined) problems.push(`${where}: unknown security scheme ${scheme}`);
      }
    }
  }
  const walk = (node: unknown, at: string): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && (typeof value !== 'string' || resolvePointer(document, value) === undefined)) problems.push(`${at}: $ref ${JSON.stringify(value)} does not resolve`);
      walk(value, `${at}/${key}`);
    }
  };
  walk(document, '#');
  return problems;
}

/** The document's operations for a registered route (`:setting` is listed once per setting). */
function documentedAs(route: KnownRoute): string[] {
  const [method, url] = route.split(' ') as [string, string];
  const path = url.replace(/:(\w+)/g, '{$1}');
  if (!path.endsWith('/{setting}')) return [`${method} ${path}`];
  return SETTING_KEYS.filter((key) => method === 'GET' || method === 'DELETE' || SETTINGS[key].verb === method).map(
    (key) => `${method} ${path.replace('{setting}', SETTINGS[key].route)}`,
  );
}

let server: TestServer;
let document: Json;
beforeAll(async () => {
  server = await startServer();
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.status).toBe(200);
  document = (await response.json()) as Json;
});
afterAll(async () => {
  await server.dispose();
});

describe('the OpenAPI document', () => {
  it('is a structurally valid OpenAPI 3.1 document', () => {
    expect(openApiProblems(document)).toEqual([]);
  });

  it('the validator finds what is wrong in a broken document', () => {
    const broken = structuredClone(document);
    broken.openapi = '3.0.3';
    broken.paths['/empty'] = {};
    broken.paths['/health'].get.responses = {};
    broken.paths['/version'].get.responses['200'] = { $ref: '#/components/schemas/Nope' };
    expect(openApiProblems(broken)).toEqual([
      'openapi is "3.0.3", not 3.1.x',
      'GET /health: no response',
      'GET /version: response 200 has no description',
      '/empty: no operation',
      '#/paths//version/get/responses/200: $ref "#/components/schemas/Nope" does not resolve',
    ]);
  });

  it('covers every registered route, and lists nothing else', () => {
    const registered = API_ROUTES.flatMap((spec) => documentedAs(spec.route)).sort();
    const documented = Object.entries<Json>(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(registered);
  });

  it("gives each protected route its auth action as the security requirement's scopes", () => {
    for (const spec of API_ROUTES) {
      const actions = ROUTE_ACTIONS[spec.route];
      for (const operation of documentedAs(spec.route)) {
        const [method, path] = operation.split(' ') as [string, string];
        const op = document.paths[path][method.toLowerCase()] as Json;
        if (actions === null) expect(op.security, operation).toBeUndefined();
        else expect(op.security, operation).toEqual([{ apiKey: [...actions] }]);
      }
    }
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes request bodies with the schemas the routes validate with, and their error codes', () => {
    const create = document.paths['/indexes'].post as Json;
    expect(create.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', properties: { uid: { type: 'string' } }, required: ['uid'] });
    expect(create.responses['202'].content['application/json'].schema.$ref).toBe('#/components/schemas/SummarizedTask');
    expect(create.responses['400'].description).toContain('`invalid_index_uid`');
    expect(create.responses['401'].description).toBe('Error codes: `missing_authorization_header`');
    expect(create.responses['403'].description).toBe('Error codes: `invalid_api_key`');
    expect(create.responses['413'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiError');
    const filterable = document.paths['/indexes/{indexUid}/settings/filterable-attributes'] as Json;
    expect(Object.keys(filterable).sort()).toEqual(['delete', 'get', 'put']);
    expect(filterable.put.requestBody.content['application/json'].schema.type).toEqual(['array', 'null']);
    const documents = document.paths['/indexes/{indexUid}/documents'].post as Json;
    expect(Object.keys(documents.requestBody.content).sort()).toEqual(['application/json', 'application/x-ndjson', 'text/csv']);
  });

  it('describes query parameters with their types and error codes', () => {
    const parameters = document.paths['/tasks'].get.parameters as Json[];
    expect(parameters.find((p) => p.name === 'limit')).toEqual({
      in: 'query',
      name: 'limit',
      required: false,
      // a u32, as v1.50's TasksFilterQuery
      schema: { type: 'integer', minimum: 0, maximum: 4294967295 },
      description: 'Invalid values answer `invalid_task_limit`.',
    });
    expect(document.paths['/tasks'].get.responses['400'].description).toContain('`invalid_task_limit`');
  });

  it('is browsable at /scalar with the bundled reference, which reads /openapi.json', async () => {
    const page = await fetch(`${server.url}/scalar/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/openapi.json');
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const url = new URL(src, `${server.url}/scalar/`);
      expect(url.origin, `${src} is served by Quarry`).toBe(server.url);
      expect((await fetch(url)).status).toBe(200);
    }
    // paths Scalar does not serve answer as every unknown path does
    const unknown = await fetch(`${server.url}/scalar/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('');
  });
});
