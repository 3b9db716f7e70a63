// Facet search on a tiny index answers `processingTimeMs: 0`, as v1.50 does (its time is the whole
// milliseconds of the search, `as_millis()` truncation): the meilisearch-js suite's facet search
// snapshots (its movies_test data) expect 0. A fresh server, the client's data and bodies, the
// searches right after the write. Wall time on a shared machine includes descheduling (other test
// files run alongside), so the check is that they do answer 0 (the fastest of 20), which a path
// costing a millisecond or more per search (the 7–15 ms this issue started from) never does.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DATA = [
  { id: 123, title: 'Pride and Prejudice', genres: ['romance', 'action'] },
  { id: 456, title: 'Le Petit Prince', genres: ['adventure', 'comedy'] },
  { id: 2, title: 'Le Rouge et le Noir', genres: 'romance' },
  { id: 1, title: 'Alice In Wonderland', genres: ['adventure'] },
];

const BODIES: [Record<string, unknown>, { value: string; count: number }[]][] = [
  [{ facetQuery: 'a', facetName: 'genres' }, [{ value: 'action', count: 1 }, { value: 'adventure', count: 2 }]],
  [{ facetName: 'genres' }, [{ value: 'action', count: 1 }, { value: 'adventure', count: 2 }, { value: 'comedy', count: 1 }, { value: 'romance', count: 2 }]],
  [{ facetName: 'genres', facetQuery: 'a', filter: ['genres = action'] }, [{ value: 'action', count: 1 }]],
  [{ facetName: 'genres', facetQuery: 'a', q: 'Alice' }, [{ value: 'adventure', count: 1 }]],
  [{ facetName: 'genres', facetQuery: 'a', q: 'Alice', exhaustiveFacetCount: true }, [{ value: 'adventure', count: 1 }]],
];

let server: TestServer;

async function waitForWarmUp(target: TestServer): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!target.output().includes('search path warmed up')) {
    expect(Date.now() < deadline, `no warm-up line in:\n${target.output()}`).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function settle(taskUid: number, target: TestServer = server): Promise<void> {
  for (;;) {
    const { body } = await call(target, 'GET', `/tasks/${taskUid}`);
    if (body.status === 'succeeded') return;
    expect(body.status).not.toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  server = await startServer();
  await settle((await call(server, 'POST', '/indexes', { uid: 'movies_test' })).body.taskUid);
  await settle((await call(server, 'PATCH', '/indexes/movies_test/settings', { filterableAttributes: ['genres', 'title'] })).body.taskUid);
  await settle((await call(server, 'POST', '/indexes/movies_test/documents', DATA)).body.taskUid);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

it('answers processingTimeMs 0 (whole milliseconds) for facet searches on a tiny index right after the write', async () => {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const [body, hits] = BODIES[i % BODIES.length]!;
    const res = await call(server, 'POST', '/indexes/movies_test/facet-search', body);
    expect(res.status).toBe(200);
    expect(res.body.facetHits).toEqual(hits);
    expect(Number.isInteger(res.body.processingTimeMs)).toBe(true);
    times.push(res.body.processingTimeMs);
  }
  expect(Math.min(...times), `processingTimeMs: ${times.join(' ')}`).toBe(0);
});

// The first facet search of a process used to pay V8's compilation of the whole search path (5–11 ms,
// every time); the startup warm-up (src/search/thread-warm-up.ts) pays it after the listen, on a
// throwaway index. One sample can also be descheduled for milliseconds when other test files load the
// machine, so up to three fresh servers are tried: a cold path fails all three, descheduling does not.
async function firstFacetSearchTime(): Promise<number> {
  const fresh = await startServer({ args: ['--log-level', 'DEBUG'] });
  try {
    await settle((await call(fresh, 'POST', '/indexes', { uid: 'movies_test' })).body.taskUid, fresh);
    await settle((await call(fresh, 'PATCH', '/indexes/movies_test/settings', { filterableAttributes: ['genres', 'title'] })).body.taskUid, fresh);
    await settle((await call(fresh, 'POST', '/indexes/movies_test/documents', DATA)).body.taskUid, fresh);
    await waitForWarmUp(fresh);
    const [body, hits] = BODIES[0]!;
    const res = await call(fresh, 'POST', '/indexes/movies_test/facet-search', body);
    expect(res.body.facetHits).toEqual(hits);
    // the warm-up's index shows nowhere
    expect((await call(fresh, 'GET', '/indexes')).body.results.map((index: { uid: string }) => index.uid)).toEqual(['movies_test']);
    expect(Object.keys((await call(fresh, 'GET', '/stats')).body.indexes)).toEqual(['movies_test']);
    return res.body.processingTimeMs as number;
  } finally {
    await fresh.dispose();
  }
}

it('answers the first facet search of a fresh server within a millisecond once the startup warm-up is done', async () => {
  const times: number[] = [];
  while (times.length < 3 && !times.some((time) => time <= 1)) times.push(await firstFacetSearchTime());
  expect(Math.min(...times), `processingTimeMs of each fresh server's first facet search: ${times.join(' ')}`).toBeLessThanOrEqual(1);
}, 120_000);
