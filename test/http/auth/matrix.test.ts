/**
 * The authorization matrix: every route of auth/route-actions.ts that the server registers,
 * called with each kind of credential, against the outcome Meilisearch gives (keys-auth.md §7–9).
 * A cell is "allowed" when the answer is neither 401 nor 403 (the handler may then refuse the
 * dummy request for its own reasons); otherwise the exact status, code and message. Routes the
 * server does not register yet (404/405 with an empty body for the master key) are skipped, so
 * the matrix grows as routes are added.
 */
import { generateTenantToken } from 'meilisearch/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_ACTIONS, type KnownRoute } from '../../../src/auth/route-actions.js';
import type { Action } from '../../../src/types/key.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { call, type CallOptions } from './request.js';

const MASTER_KEY = 'MASTER_KEY';
/** The index in paths: matched by the restricted key's pattern and the tenant token's rules. */
const INDEX = 'products';
const PATTERN = 'prod*';
/** An index neither of them opens. */
const OTHER_INDEX = 'other';

const PATH_VALUES: Record<string, string> = {
  taskUid: '0',
  batchUid: '0',
  key: '33333333-3333-4333-8333-333333333333',
  documentId: '1',
  setting: 'displayed-attributes',
  uuid: '00000000-0000-0000-0000-000000000000',
  workspace: 'workspace',
  ruleUid: 'rule',
};

const COLUMNS = [
  'no header',
  'malformed header',
  'Bearer without token',
  'unknown key',
  'default search key',
  'default admin key',
  'restricted key',
  'restricted key, other index',
  'expired key',
  'deleted key',
  'tenant token',
  'tenant token, other index',
  'master key',
] as const;
type Column = (typeof COLUMNS)[number];

const ALLOWED = 'allowed';
const MISSING_HEADER = '401 missing_authorization_header: The Authorization header is missing. It must use the bearer authorization method.';
const INVALID = '403 invalid_api_key: The provided API key is invalid.';

function url(route: KnownRoute, index: string): string {
  const path = route.slice(route.indexOf(' ') + 1);
  return path.replace(/:(\w+)/g, (_, name: string) => (name === 'indexUid' ? index : (PATH_VALUES[name] ?? 'x')));
}

/** Meilisearch's answer for a credential on a route needing `actions` (null: public). */
function expected(route: KnownRoute, actions: readonly Action[] | null, column: Column): string {
  if (actions === null) return ALLOWED;
  const searchOnly = actions.every((action) => action === 'search');
  const indexInPath = route.includes(':indexUid');
  switch (column) {
    case 'no header':
    case 'malformed header':
      return MISSING_HEADER;
    case 'Bearer without token':
    case 'unknown key':
    case 'expired key':
    case 'deleted key':
      return INVALID;
    case 'master key':
    case 'default admin key':
      return ALLOWED;
    case 'default search key':
    case 'restricted key':
    case 'tenant token':
      return searchOnly ? ALLOWED : INVALID;
    case 'restricted key, other index':
      if (indexInPath) return `403 invalid_api_key: The API key cannot acces the index \`${OTHER_INDEX}\`, authorized indexes are ["${PATTERN}"].`;
      return searchOnly ? ALLOWED : INVALID;
    case 'tenant token, other index':
      if (!searchOnly) return INVALID;
      if (indexInPath) return `403 invalid_api_key: The provided tenant token cannot acces the index \`${OTHER_INDEX}\`, allowed indexes are ["${PATTERN}"].`;
      return ALLOWED;
  }
}

let server: TestServer;
const credentials = {} as Record<Column, CallOptions>;

async function createKey(body: object): Promise<{ uid: string; key: string; expiresAt: string | null }> {
  const res = await call(server, 'POST', '/keys', { key: MASTER_KEY, body });
  expect(res.status).toBe(201);
  return res.body as { uid: string; key: string; expiresAt: string | null };
}

beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
  const defaults = ((await call(server, 'GET', '/keys', { key: MASTER_KEY })).body as { results: { name: string; uid: string; key: string }[] }).results;
  const search = defaults.find((k) => k.name === 'Default Search API Key')!;
  const admin = defaults.find((k) => k.name === 'Default Admin API Key')!;
  const restricted = await createKey({ actions: ['search'], indexes: [PATTERN], expiresAt: null });
  const expiring = await createKey({ actions: ['*'], indexes: ['*'], expiresAt: new Date(Date.now() + 1500).toISOString() });
  const deleted = await createKey({ actions: ['*'], indexes: ['*'], expiresAt: null });
  expect((await call(server, 'DELETE', `/keys/${deleted.uid}`, { key: MASTER_KEY })).status).toBe(204);
  const tenantToken = await generateTenantToken({ apiKey: search.key, apiKeyUid: search.uid, searchRules: [PATTERN] });

  Object.assign(credentials, {
    'no header': {},
    'malformed header': { authorization: `Basic ${MASTER_KEY}` },
    'Bearer without token': { authorization: 'Bearer' },
    'unknown key': { key: 'a'.repeat(64) },
    'default search key': { key: search.key },
    'default admin key': { key: admin.key },
    'restricted key': { key: restricted.key },
    'restricted key, other index': { key: restricted.key },
    'expired key': { key: expiring.key },
    'deleted key': { key: deleted.key },
    'tenant token': { key: tenantToken },
    'tenant token, other index': { key: tenantToken },
    'master key': { key: MASTER_KEY },
  } satisfies Record<Column, CallOptions>);

  // The expiring key must be past its date before any cell uses it.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiring.expiresAt!) - Date.now() + 50)));
});

afterAll(async () => {
  await server.dispose();
});

async function outcome(method: string, path: string, options: CallOptions): Promise<string> {
  const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
  const res = await call(server, method, path, { ...options, body });
  if (res.status !== 401 && res.status !== 403) return ALLOWED;
  const { code, message } = res.body as { code: string; message: string };
  return `${res.status} ${code}: ${message}`;
}

describe('authorization matrix', () => {
  for (const [route, actions] of Object.entries(ROUTE_ACTIONS) as [KnownRoute, readonly Action[] | null][]) {
    it(`${route} answers each credential as Meilisearch does`, async (ctx) => {
      const method = route.slice(0, route.indexOf(' '));
      const probe = await call(server, method, url(route, INDEX), { key: MASTER_KEY, body: ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined });
      if ((probe.status === 404 || probe.status === 405) && probe.body === null) ctx.skip();

      const actual: Partial<Record<Column, string>> = {};
      const wanted: Partial<Record<Column, string>> = {};
      for (const column of COLUMNS) {
        const index = column.endsWith('other index') ? OTHER_INDEX : INDEX;
        actual[column] = await outcome(method, url(route, index), credentials[column]);
        wanted[column] = expected(route, actions, column);
      }
      expect(actual).toEqual(wanted);
    });
  }
});
