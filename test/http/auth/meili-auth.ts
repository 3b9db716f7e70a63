/**
 * What the meili-*.test.ts ports of Meilisearch's tests/auth/*.rs share: its master key, key
 * creation, tenant tokens signed as its tests sign them (the `jsonwebtoken` crate's default HS256
 * header), task waiting with a key, and its error texts (keys-auth.md §7–9).
 */
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { TestServer } from '../../helpers/server.js';
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
