// showPerformanceDetails (search.md §14): a `performanceDetails` object of step paths → Rust
// durations (the wait for a search-queue permit first; a keyword search's tokenizing, query
// evaluation and ranking as v1.50 names them) on search, multi-search (one timer for the request: later results include earlier
// queries), federated search (`federation.showPerformanceDetails`, the last key) and similar;
// absent when not asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DURATION = /^\d+\.\d{2}(ns|µs|ms|s)$/;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await run(server, 'PATCH', '/indexes/books/settings', { filterableAttributes: ['genre'], embedders: { manual: { source: 'userProvided', dimensions: 2 } } });
  await run(server, 'POST', '/indexes/books/documents', [
    { id: 1, title: 'Carol', genre: 'novel', _vectors: { manual: [1, 0] } },
    { id: 2, title: 'The Price of Salt', genre: 'novel', _vectors: { manual: [0.9, 0.1] } },
    { id: 3, title: 'Strangers on a Train', genre: 'thriller', _vectors: { manual: [0, 1] } },
  ]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

function expectDetails(details: Record<string, string>, paths: string[]): void {
  expect(Object.keys(details)).toEqual(paths);
  for (const value of Object.values(details)) expect(value).toMatch(DURATION);
}

describe('search', () => {
  it('times a keyword search with a filter and facets, the total last', async () => {
    const reply = await call(server, 'POST', '/indexes/books/search', { q: 'carol', filter: 'genre = novel', facets: ['genre'], showPerformanceDetails: true });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).slice(-2)).toEqual(['requestUid', 'performanceDetails']);
    expectDetails(reply.body.performanceDetails, [
      'wait in queue',
      'search > execute local search > evaluate filter',
      'search > execute local search > tokenize query',
      'search > execute local search > evaluate query',
      'search > execute local search > keyword ranking',
      'search > execute local search > format',
      'search > execute local search',
      'search > merge facets',
      'search',
    ]);
  });

  it('names the placeholder and semantic rankings', async () => {
    const placeholder = await call(server, 'GET', '/indexes/books/search?showPerformanceDetails=true');
    expect(Object.keys(placeholder.body.performanceDetails)).toContain('search > execute local search > placeholder ranking');
    const semantic = await call(server, 'POST', '/indexes/books/search', { vector: [1, 0], hybrid: { embedder: 'manual', semanticRatio: 1 }, showPerformanceDetails: true });
    expect(semantic.status).toBe(200);
    expect(Object.keys(semantic.body.performanceDetails)).toContain('search > execute local search > semantic ranking');
  });

  it('answers no performanceDetails unless asked', async () => {
    const reply = await call(server, 'POST', '/indexes/books/search', { q: 'carol', showPerformanceDetails: false });
    expect(reply.body).not.toHaveProperty('performanceDetails');
  });
});

describe('multi-search', () => {
  it('shares one timer: a later result counts the earlier queries too', async () => {
    const reply = await call(server, 'POST', '/multi-search', {
      queries: [
        { indexUid: 'books', q: 'carol', showPerformanceDetails: true },
        { indexUid: 'books', q: 'price' },
        { indexUid: 'books', q: 'train', showPerformanceDetails: true },
      ],
    });
    expect(reply.status).toBe(200);
    const [first, second, third] = reply.body.results;
    expect(first.performanceDetails).toBeDefined();
    expect(second).not.toHaveProperty('performanceDetails');
    expectDetails(third.performanceDetails, ['wait in queue', 'search > execute local search > tokenize query', 'search > execute local search > evaluate query', 'search > execute local search > keyword ranking', 'search > execute local search > format', 'search > execute local search', 'search']);
  });

  it('answers federated details as the last key, and refuses them inside a federated query', async () => {
    const federated = await call(server, 'POST', '/multi-search', {
      federation: { showPerformanceDetails: true },
      queries: [{ indexUid: 'books', q: 'carol' }, { indexUid: 'books', q: 'train' }],
    });
    expect(federated.status).toBe(200);
    expect(Object.keys(federated.body).at(-1)).toBe('performanceDetails');
    expectDetails(federated.body.performanceDetails, [
      'wait in queue',
      'search > partition queries',
      'search > start remote search',
      'search > execute local search > tokenize query',
      'search > execute local search > evaluate query',
      'search > execute local search > keyword ranking',
      'search > execute local search',
      'search > wait for remote results',
      'search > merge results',
      'search > hydrate documents',
      'search',
    ]);
    const refused = await call(server, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: 'books', q: 'carol', showPerformanceDetails: true }] });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_multi_search_query_show_performance_details');
  });
});

describe('similar', () => {
  it('times the filter and the formatting', async () => {
    const reply = await call(server, 'POST', '/indexes/books/similar', { id: 1, embedder: 'manual', filter: 'genre = novel', showPerformanceDetails: true });
    expect(reply.status).toBe(200);
    expect(reply.body.hits.map((hit: { id: number }) => hit.id)).toEqual([2]);
    expectDetails(reply.body.performanceDetails, ['search > evaluate filter', 'search > format', 'search']);
  });
});
