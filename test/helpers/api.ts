/**
 * Raw HTTP calls to a test server (exact statuses and bodies, no client library in between), task
 * waiting, unique index uids, and the shapes of Meilisearch's dates and errors. Shared by the
 * index, task and batch HTTP tests.
 */
import { expect } from 'vitest';
import type { TestServer } from './server.js';

export interface Reply<T = any> {
  status: number;
  body: T;
  /** the raw body text, for key-order and number-format checks */
  text: string;
}

/** One request; a body is sent as JSON (a string body is sent as is, to test malformed payloads). */
export async function call<T = any>(server: TestServer, method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), text };
}

/**
 * One request with a raw body and exactly the given headers (a Buffer body, so fetch adds no
 * Content-Type of its own): for content types, encodings and malformed payloads.
 */
export async function callRaw<T = any>(
  server: TestServer,
  method: string,
  path: string,
  body: string | Buffer | undefined,
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : Buffer.from(body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), text };
}

const FINISHED = new Set(['succeeded', 'failed', 'canceled']);

/** Polls `GET /tasks/{uid}` until the task is finished, and returns it. */
export async function waitTask(server: TestServer, uid: number, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await call(server, 'GET', `/tasks/${uid}`);
    if (status === 200 && FINISHED.has(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`task ${uid} still ${body?.status ?? status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Enqueues with a raw request (202, or 200 for cancel and delete) and waits for the task. */
export async function run(server: TestServer, method: string, path: string, body?: unknown): Promise<any> {
  const reply = await call(server, method, path, body);
  expect([200, 202], reply.text).toContain(reply.status);
  return waitTask(server, reply.body.taskUid);
}

let counter = 0;

/** An index uid no other test of the file uses. */
export function uniqueUid(prefix = 'idx'): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** RFC 3339 in UTC with `Z`, fraction trimmed of trailing zeros. */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d*[1-9])?Z$/;
/** ISO 8601 duration as Meilisearch prints it. */
export const DURATION = /^P(\d+D)?(T\d+(\.(\d{3}|\d{6}|\d{9}))?S)?$/;

export function errorBody(code: string, message: string, type = 'invalid_request') {
  return { message, code, type, link: `https://docs.meilisearch.com/errors#${code}` };
}

/** Asserts an error answer: status, and the exact 4-key body. */
export function expectError(reply: Reply, status: number, code: string, message: string, type = 'invalid_request'): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body).toStrictEqual(errorBody(code, message, type));
  expect(Object.keys(reply.body)).toEqual(['message', 'code', 'type', 'link']);
}

export const INVALID_UID = (uid: string): string =>
  `\`${uid}\` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.`;

export const TASK_KEYS = ['uid', 'batchUid', 'indexUid', 'status', 'type', 'canceledBy', 'details', 'error', 'duration', 'enqueuedAt', 'startedAt', 'finishedAt'];
export const SUMMARY_KEYS = ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'];
export const BATCH_KEYS = ['uid', 'progress', 'details', 'stats', 'duration', 'startedAt', 'finishedAt', 'batchStrategy'];

/** A finished task object with its run-dependent fields (dates, duration, batch uid) checked and blanked. */
export function stable(task: any): any {
  expect(Object.keys(task)).toEqual(TASK_KEYS.filter((key) => key !== 'details' || 'details' in task));
  expect(FINISHED.has(task.status), task.status).toBe(true);
  expect(task.enqueuedAt).toMatch(RFC3339);
  expect(task.startedAt).toMatch(RFC3339);
  expect(task.finishedAt).toMatch(RFC3339);
  expect(task.duration).toMatch(DURATION);
  expect(typeof task.batchUid).toBe('number');
  return { ...task, batchUid: '[batch]', duration: '[duration]', enqueuedAt: '[date]', startedAt: '[date]', finishedAt: '[date]' };
}

/** An RFC 3339 date as nanoseconds since the epoch, so that dates of any precision compare exactly. */
export function nanos(date: string): bigint {
  const [whole, fraction = ''] = date.replace(/Z$/, '').split('.');
  return BigInt(Date.parse(`${whole}Z`)) * 1_000_000n + BigInt(fraction.padEnd(9, '0'));
}
