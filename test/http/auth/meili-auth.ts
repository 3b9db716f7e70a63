/**
 * What the meili-*.test.ts ports of Meilisearch's tests/auth/*.rs share: its master key, key
 * creation, tenant tokens signed as its tests sign them (the `jsonwebtoken` crate's default HS256
 * header), task waiting with a key, and its error texts (keys-auth.md §7–9); and what
 * tenant_token.rs and tenant_token_multi_search.rs share for index `sales`: the parent keys that may
 * or may not search it and the token lists of the scenarios both files run.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { TestServer } from '../../helpers/server.js';
import { RESTRICTED_WITHOUT_SEARCH, WITHOUT_SEARCH } from './meili-authorizations.js';
import { call, errorBody, type CallResult } from './request.js';

export const MASTER_KEY = 'MASTER_KEY';
export const INVALID_API_KEY = 'The provided API key is invalid.';
const MISSING_HEADER = 'The Authorization header is missing. It must use the bearer authorization method.';

/** The 403 `invalid_api_key` answer carrying `message`. */
export function forbidden(message = INVALID_API_KEY): CallResult {
  return { status: 403, body: errorBody('invalid_api_key', message, 'auth') };
}

/** The 401 answer to a request without an Authorization header. */
export const MISSING_HEADER_REPLY: CallResult = {
  status: 401,
  body: errorBody('missing_authorization_header', MISSING_HEADER, 'auth'),
};

export interface CreatedKey {
  uid: string;
  key: string;
}

/** `POST /keys` with the master key, requiring a 201. */
export async function addKey(server: TestServer, body: object): Promise<CreatedKey> {
  const res = await call(server, 'POST', '/keys', { key: MASTER_KEY, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as CreatedKey;
}

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * A tenant token as Meilisearch's tests generate it: `claims` plus `apiKeyUid`, HS256-signed with
 * the parent key's value, under the header the `jsonwebtoken` crate writes by default.
 */
export function tenantToken(apiKeyUid: string, apiKey: string, claims: Record<string, unknown>): string {
  return signJwt({ ...claims, apiKeyUid }, apiKey);
}

/** Any JSON claims, HS256-signed with `secret`. */
export function signJwt(claims: unknown, secret: string): string {
  const signed = `${base64url('{"typ":"JWT","alg":"HS256"}')}.${base64url(JSON.stringify(claims))}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

/** Unix seconds `hours` from now (negative: in the past), as the tests' `exp` claims. */
export function unixIn(hours: number): number {
  return Math.floor(Date.now() / 1000) + Math.round(hours * 3600);
}

/** An RFC 3339 instant `ms` from now, as the tests' `expiresAt`. */
export function rfc3339In(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

/** Sleeps until `expiresAt` is past. */
export async function waitUntilPast(expiresAt: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now() + 20)));
}

/** Polls a task with `key` (master by default) until it is finished. */
export async function waitTask(server: TestServer, taskUid: number, key = MASTER_KEY): Promise<any> {
  for (const deadline = Date.now() + 10_000; ; ) {
    const { body } = await call(server, 'GET', `/tasks/${taskUid}`, { key });
    const task = body as { status: string };
    if (['succeeded', 'failed', 'canceled'].includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskUid} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Enqueues with `key` (202 required) and returns the finished task. */
export async function runTask(server: TestServer, method: string, path: string, body: unknown, key = MASTER_KEY): Promise<any> {
  const res = await call(server, method, path, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return waitTask(server, (res.body as { taskUid: number }).taskUid);
}

/** Enqueues with the master key and requires the task to succeed. */
export async function succeed(server: TestServer, method: string, path: string, body?: unknown): Promise<void> {
  const task = await runTask(server, method, path, body);
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
}

/** A tenant token's claims. */
export type Claims = Record<string, unknown>;

/** The test files' tokens: `searchRules` with `exp` in an hour, or `null`, or an hour ago. */
export const inAnHour = (searchRules: unknown): Claims => ({ searchRules, exp: unixIn(1) });
export const noExp = (searchRules: unknown): Claims => ({ searchRules, exp: null });
export const anHourAgo = (searchRules: unknown): Claims => ({ searchRules, exp: unixIn(-1) });

/** The message refusing a token whose `exp` is past (keys-auth.md §9). */
export const EXPIRED_TOKEN = /^Tenant token expired\. Was valid up to `\d+` and we're now `\d+`\.$/;

/** Requires `res` to be the 403 `invalid_api_key` answer with `message` (a text, or a pattern of it). */
export function expectRefused(res: CallResult, message: string | RegExp, context: string): void {
  if (typeof message === 'string') expect(res, context).toEqual(forbidden(message));
  else {
    expect(res, context).toMatchObject({ status: 403, body: { code: 'invalid_api_key', type: 'auth' } });
    expect((res.body as { message: string }).message, context).toMatch(message);
  }
}

/** `token` with its payload replaced by `other`'s, its signature kept (error_access_modified_token). */
export function withPayloadOf(token: string, other: string): string {
  const [header, , signature] = token.split('.');
  return `${header}.${other.split('.')[1]}.${signature}`;
}

/** The parent keys a token may search `sales` with (`ACCEPTED_KEYS`, `ACCEPTED_KEYS_SINGLE`). */
export const SALES_ACCEPTED_KEYS: readonly object[] = [
  { indexes: ['*'], actions: ['*'] },
  { indexes: ['*'], actions: ['search'] },
  { indexes: ['sales'], actions: ['*'] },
  { indexes: ['sales'], actions: ['search'] },
  { indexes: ['sal*', 'prod*'], actions: ['search'] },
];

/**
 * The parent keys a token cannot search `sales` with (`REFUSED_KEYS`, `SINGLE_REFUSED_KEYS`): the
 * first {@link SALES_REFUSED_KEYS_WITHOUT_SEARCH} lack the action, the others the index.
 */
export const SALES_REFUSED_KEYS: readonly object[] = [
  { indexes: ['*'], actions: WITHOUT_SEARCH },
  { indexes: ['sales'], actions: RESTRICTED_WITHOUT_SEARCH },
  { indexes: ['products'], actions: ['*'] },
  { indexes: ['prod*', 'p*'], actions: ['*'] },
  { indexes: ['products'], actions: ['search'] },
];
export const SALES_REFUSED_KEYS_WITHOUT_SEARCH = 2;

/** Tokens whose rules open all of `sales` (search_authorized_simple_token, single_search_authorized_simple_token). */
export const salesTokens = (): Claims[] => [
  inAnHour({ '*': {} }),
  inAnHour(['*']),
  inAnHour({ sales: {} }),
  inAnHour(['sales']),
  noExp({ '*': {} }),
  noExp({ '*': null }),
  noExp(['*']),
  noExp({ sales: {} }),
  noExp({ sales: null }),
  noExp(['sales']),
  noExp(['sa*']),
];

/**
 * Tokens whose most specific rule for `sales` filters `color = blue`, the rule on `sales` beating
 * the one on `*` (search_authorized_filter_token, single_search_authorized_filter_token).
 */
export const salesBlueTokens = (): Claims[] => [
  inAnHour({ '*': { filter: 'color = blue' } }),
  inAnHour({ sales: { filter: 'color = blue' } }),
  inAnHour({ '*': { filter: ['color = blue'] } }),
  inAnHour({ sales: { filter: ['color = blue'] } }),
  inAnHour({ '*': { filter: 'color = green' }, sales: { filter: 'color = blue' } }),
  inAnHour({ '*': {}, sales: { filter: 'color = blue' } }),
  inAnHour({ '*': { filter: 'color = green' }, sales: { filter: ['color = blue'] } }),
  inAnHour({ '*': {}, sales: { filter: ['color = blue'] } }),
];

/**
 * {@link salesBlueTokens} and one whose filter comes from a pattern rule, as the tests ANDing it
 * with a query filter list them (filter_search_authorized_filter_token, filter_single_search_authorized_filter_token).
 */
export const salesBlueTokensWithPattern = (): Claims[] => [...salesBlueTokens(), inAnHour({ '*': {}, 'sal*': { filter: ['color = blue'] } })];

/** Tokens opening `sales`, refused for their parent key (error_search_token_forbidden_parent_key, error_single_search_token_forbidden_parent_key). */
export const salesTokensForRefusedKeys = (): Claims[] => [
  inAnHour({ '*': {} }),
  inAnHour({ '*': null }),
  inAnHour(['*']),
  inAnHour({ sales: {} }),
  inAnHour({ sales: null }),
  inAnHour(['sales']),
  inAnHour(['sali*', 's*', 'sales*']),
];

/**
 * Tokens refused `sales` (error_search_forbidden_token, error_single_search_forbidden_token): the
 * first {@link SALES_FORBIDDEN_BY_RULES} open only `products`, the others expired.
 */
export const salesForbiddenTokens = (): Claims[] => [
  inAnHour({ products: {} }),
  inAnHour(['products']),
  noExp({ products: {} }),
  noExp({ products: null }),
  noExp(['products']),
  anHourAgo({ '*': {} }),
  anHourAgo({ '*': null }),
  anHourAgo(['*']),
  anHourAgo({ sales: {} }),
  anHourAgo({ sales: null }),
  anHourAgo(['sales']),
];
export const SALES_FORBIDDEN_BY_RULES = 5;
