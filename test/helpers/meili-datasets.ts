/**
 * The datasets of Meilisearch's own search integration tests (crates/meilisearch/tests/common/mod.rs),
 * and the few steps the meili-*.test.ts ports share: enqueue and require success, search (POST, or POST
 * and GET like Meilisearch's `index.search`) and require 200, compare JSON including key order
 * (Meilisearch's snapshots are order-preserving).
 */
import { expect } from 'vitest';
import { call, run } from './api.js';
import type { TestServer } from './server.js';

export const DOCUMENTS = [
  { title: 'Shazam!', id: '287947', color: ['green', 'blue'], _vectors: { manual: [1, 2, 3] } },
  { title: 'Captain Marvel', id: '299537', color: ['yellow', 'blue'], _vectors: { manual: [1, 2, 54] } },
  { title: 'Escape Room', id: '522681', color: ['yellow', 'red'], _vectors: { manual: [10, -23, 32] } },
  { title: 'How to Train Your Dragon: The Hidden World', id: '166428', color: ['green', 'red'], _vectors: { manual: [-100, 231, 32] } },
  { title: 'Gläss', id: '450465', color: ['blue', 'red'], _vectors: { manual: [-100, 340, 90] } },
];

/** Settings of Meilisearch's shared index of DOCUMENTS. */
export const DOCUMENTS_SETTINGS = { filterableAttributes: ['id', 'title'], sortableAttributes: ['id', 'title'] };

export const NESTED_DOCUMENTS = [
  {
    id: 852,
    father: 'jean',
    mother: 'michelle',
    doggos: [
      { name: 'bobby', age: 2 },
      { name: 'buddy', age: 4 },
    ],
    cattos: 'pésti',
    _vectors: { manual: [1, 2, 3] },
  },
  {
    id: 654,
    father: 'pierre',
    mother: 'sabine',
    doggos: [{ name: 'gros bill', age: 8 }],
    cattos: ['simba', 'pestiféré'],
    _vectors: { manual: [1, 2, 54] },
  },
  { id: 750, father: 'romain', mother: 'michelle', cattos: ['enigma'], _vectors: { manual: [10, 23, 32] } },
  {
    id: 951,
    father: 'jean-baptiste',
    mother: 'sophie',
    doggos: [
      { name: 'turbo', age: 5 },
      { name: 'fast', age: 6 },
    ],
    cattos: ['moumoute', 'gomez'],
    _vectors: { manual: [10, 23, 32] },
  },
];

/** Settings of Meilisearch's shared index of NESTED_DOCUMENTS. */
export const NESTED_DOCUMENTS_SETTINGS = { filterableAttributes: ['father', 'doggos'], sortableAttributes: ['doggos'] };

/** Enqueues a task with a raw request and requires it to succeed. */
export async function succeed(server: TestServer, method: string, path: string, body?: unknown): Promise<void> {
  const task = await run(server, method, path, body);
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
}

/** Adds `documents` to `uid`, then applies each settings object in turn. */
export async function seed(server: TestServer, uid: string, documents: unknown[], ...settings: object[]): Promise<void> {
  await succeed(server, 'POST', `/indexes/${uid}/documents`, documents);
  for (const patch of settings) await succeed(server, 'PATCH', `/indexes/${uid}/settings`, patch);
}

/** POST search on `uid`, requiring a 200; returns the body. */
export async function search(server: TestServer, uid: string, body: Record<string, unknown>): Promise<any> {
  const reply = await call(server, 'POST', `/indexes/${uid}/search`, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** The GET form of a search body: lists comma-separated, as Meilisearch's tests encode it. */
function queryString(body: Record<string, unknown>): string {
  const pairs = Object.entries(body).map(([key, value]) => `${key}=${encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value))}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/**
 * Sends `body` as a POST search and as the equivalent GET query, and runs `check` on both answers,
 * as Meilisearch's `index.search` test helper does.
 */
export async function searchBoth(server: TestServer, uid: string, body: Record<string, unknown>, check: (answer: any) => void): Promise<void> {
  const replies = [
    ['POST', await call(server, 'POST', `/indexes/${uid}/search`, body)],
    ['GET', await call(server, 'GET', `/indexes/${uid}/search${queryString(body)}`)],
  ] as const;
  for (const [route, reply] of replies) {
    expect(reply.status, `${route}: ${reply.text}`).toBe(200);
    try {
      check(reply.body);
    } catch (err) {
      if (err instanceof Error) err.message = `${route} search: ${err.message}`;
      throw err;
    }
  }
}

/** Deep equality plus the same key order at every level, as an insta JSON snapshot checks. */
export function expectJson(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}
