/**
 * The datasets of Meilisearch's own search integration tests (crates/meilisearch/tests/common/mod.rs),
 * and the few steps the meili-*.test.ts ports share: enqueue and require success, search (POST, or POST
 * and GET like Meilisearch's `index.search`) and require 200, compare JSON including key order
 * (Meilisearch's snapshots are order-preserving); a finished task as its snapshots show it; and v1.50's experimental-features body with every
 * flag off, which the features and dumps ports both expect.
 */
import { expect } from 'vitest';
import { call, run, uniqueUid } from './api.js';
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

/**
 * The later tests/common/mod.rs also makes `cattos` filterable in its nested index: filters.rs and
 * multi-search rely on it (`cattos = pésti`, and the patterns listed in filter errors).
 */
export const NESTED_DOCUMENTS_CATTOS_SETTINGS = { filterableAttributes: ['father', 'doggos', 'cattos'], sortableAttributes: ['doggos'] };

export const SCORE_DOCUMENTS = [
  { title: 'Batman the dark knight returns: Part 1', id: 'A' },
  { title: 'Batman the dark knight returns: Part 2', id: 'B' },
  { title: 'Batman Returns', id: 'C' },
  { title: 'Batman', id: 'D' },
  { title: 'Badman', id: 'E' },
];

/** Settings of Meilisearch's shared index of SCORE_DOCUMENTS. */
export const SCORE_DOCUMENTS_SETTINGS = DOCUMENTS_SETTINGS;

/** One `_geo` of numbers, one of numeric strings, one document without `_geo`. */
export const GEO_DOCUMENTS = [
  { id: 1, name: 'Taco Truck', address: '444 Salsa Street, Burritoville', type: 'Mexican', rating: 9, _geo: { lat: 34.0522, lng: -118.2437 } },
  { id: 2, name: 'La Bella Italia', address: '456 Elm Street, Townsville', type: 'Italian', rating: 9, _geo: { lat: '45.4777599', lng: '9.1967508' } },
  { id: 3, name: 'Crêpe Truck', address: '2 Billig Avenue, Rouenville', type: 'French', rating: 10 },
];

/** Settings of Meilisearch's shared index of GEO_DOCUMENTS. */
export const GEO_DOCUMENTS_SETTINGS = { filterableAttributes: ['_geo'], sortableAttributes: ['_geo'] };

/** The documents of the federated `BOOST` tests of multi-search. */
export const FRUITS_DOCUMENTS = [
  { name: 'Exclusive sale: green apple', id: 'green-apple-boosted', BOOST: true },
  { name: 'Pear', id: 'pear' },
  { name: 'Red apple gala', id: 'red-apple-gala' },
  { name: 'Exclusive sale: Red Tomato', id: 'red-tomatoes-boosted', BOOST: true },
  { name: 'Exclusive sale: Red delicious apple', id: 'red-delicious-boosted', BOOST: true },
];

/** A document as hits show it: `_vectors` is never displayed without `retrieveVectors`. */
export function shown<T extends object>(doc: T): Omit<T, '_vectors'> {
  const { _vectors: _, ...rest } = doc as T & { _vectors?: unknown };
  return rest;
}

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

/**
 * Meilisearch's `test_settings_documents_indexing_swapping_and_search`: `check` runs on a new index
 * given the documents then the settings, and on another given the settings first.
 */
export async function inBothOrders(server: TestServer, documents: unknown[], settings: object, check: (uid: string) => Promise<void>): Promise<void> {
  const afterDocuments = uniqueUid('docs-first');
  await seed(server, afterDocuments, documents, settings);
  await check(afterDocuments);
  const beforeDocuments = uniqueUid('settings-first');
  await succeed(server, 'PATCH', `/indexes/${beforeDocuments}/settings`, settings);
  await succeed(server, 'POST', `/indexes/${beforeDocuments}/documents`, documents);
  await check(beforeDocuments);
}

/** A search response without what differs from one request to the next. */
export function stableResponse(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, key === 'processingTimeMs' ? '[duration]' : key === 'requestUid' ? '[uuid]' : value]),
  );
}

/** Deep equality plus the same key order at every level, as an insta JSON snapshot checks. */
export function expectJson(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

/** `GET /experimental-features` of an instance with every flag off: v1.50's full set, in its order (misc-routes.md §4). */
export const NO_EXPERIMENTAL_FEATURES = {
  metrics: false,
  logsRoute: false,
  editDocumentsByFunction: false,
  containsFilter: false,
  dynamicSearchRules: false,
  network: false,
  getTaskDocumentsRoute: false,
  taskQueueCompactionRoute: false,
  compositeEmbedders: false,
  chatCompletions: false,
  multimodal: false,
  foreignKeys: false,
  disableDocumentsFetchQueue: false,
  legacySearch: false,
  renderRoute: false,
};

/**
 * A finished task as Meilisearch's snapshots show it, in its key order, times blanked (`[duration]`,
 * `[date]`); `uid` and `batchUid` (`[batch]` unless given) as the caller's redaction leaves them.
 */
export function finishedTask(task: {
  uid: unknown;
  batchUid?: unknown;
  indexUid: string | null;
  status: string;
  type: string;
  details: object;
  error?: object | null;
}): Record<string, unknown> {
  return {
    uid: task.uid,
    batchUid: task.batchUid === undefined ? '[batch]' : task.batchUid,
    indexUid: task.indexUid,
    status: task.status,
    type: task.type,
    canceledBy: null,
    details: task.details,
    error: task.error ?? null,
    duration: '[duration]',
    enqueuedAt: '[date]',
    startedAt: '[date]',
    finishedAt: '[date]',
  };
}
