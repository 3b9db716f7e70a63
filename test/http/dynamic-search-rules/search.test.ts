/**
 * Dynamic search rules at search time through the real server (docs/dynamic-search-rules.md):
 * v1.50's pins in keyword, placeholder, hybrid and federated searches, with its tests' documents
 * and expectations (crates/meilisearch/tests/dynamic_search_rules).
 */
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { runCli, startServer, tempDir, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  expect((await call(server, 'PATCH', '/experimental-features', { dynamicSearchRules: true })).status).toBe(200);
});
afterAll(async () => {
  await server?.dispose();
});
beforeEach(async () => {
  await run(server, 'DELETE', '/dynamic-search-rules');
});

const pin = (id: string, position: number, indexUid?: string) => ({ selector: indexUid === undefined ? { id } : { indexUid, id }, action: { type: 'pin', position } });

async function index(docs: unknown[], settings?: unknown): Promise<string> {
  const uid = uniqueUid('dsr');
  if (settings !== undefined) expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, settings)).status).toBe('succeeded');
  expect((await run(server, 'POST', `/indexes/${uid}/documents`, docs)).status).toBe('succeeded');
  return uid;
}

async function rule(uid: string, body: unknown): Promise<void> {
  expect((await run(server, 'PATCH', `/dynamic-search-rules/${uid}`, body)).status).toBe('succeeded');
}

async function search(uid: string, body: unknown): Promise<any> {
  const reply = await call(server, 'POST', `/indexes/${uid}/search`, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

const ids = (body: any) => body.hits.map((hit: any) => hit.id);

const batman = [
  { id: 'local', title: 'Batman Returns' },
  { id: 'remote', title: 'Batman' },
];

describe('pins', () => {
  it('pins a document when the query holds the rule words, and not once the feature is off', async () => {
    const uid = await index(batman);
    await rule('pin-when-returns', { conditions: { query: { words: 'returns' } }, actions: [pin('remote', 0)] });
    expect(ids(await search(uid, { q: 'Batman Returns' }))).toEqual(['remote', 'local']);
    await call(server, 'PATCH', '/experimental-features', { dynamicSearchRules: false });
    try {
      expect(ids(await search(uid, { q: 'Batman Returns' }))).toEqual(['local', 'remote']);
    } finally {
      await call(server, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
    }
  });

  it('needs every rule word in the query, each once', async () => {
    const uid = await index([{ id: 'pinned' }, { id: 'mario' }]);
    await rule('double-words', { conditions: { query: { words: 'Mario Luigi' } }, actions: [pin('pinned', 1)] });
    expect(ids(await search(uid, { q: 'mario luigi' }))).toEqual(['mario', 'pinned']);
    expect(ids(await search(uid, { q: 'mario' }))).toEqual(['mario']);
    expect(ids(await search(uid, { q: 'mario mario' }))).toEqual(['mario']);
  });

  it('keeps pins that miss the query but not those the filter excludes, and counts them', async () => {
    const uid = await index(
      [
        { id: 'organic-match', title: 'Batman Returns', kind: 'keep', color: 'red' },
        { id: 'pinned-query-miss', title: 'The Matrix', kind: 'keep', color: 'blue' },
        { id: 'filtered-pin', title: 'Batman Returns', kind: 'drop', color: 'green' },
      ],
      { filterableAttributes: ['kind', 'color'] },
    );
    await rule('pin-query-miss', { conditions: { query: { words: 'returns' } }, actions: [pin('pinned-query-miss', 0), pin('filtered-pin', 1)] });
    const body = await search(uid, { q: 'Batman Returns', filter: 'kind = keep', facets: ['color'] });
    expect(ids(body)).toEqual(['pinned-query-miss', 'organic-match']);
    expect(body.estimatedTotalHits).toBe(2);
    expect(body.facetDistribution).toEqual({ color: { blue: 1, red: 1 } });
    const page = await search(uid, { q: 'Batman Returns', filter: 'kind = keep', page: 2, hitsPerPage: 1 });
    expect(ids(page)).toEqual(['organic-match']);
    expect(page).toMatchObject({ page: 2, hitsPerPage: 1, totalPages: 2, totalHits: 2 });
  });

  it('drops a pin the filter excludes from a placeholder search', async () => {
    const uid = await index(
      [
        { id: 'organic-1', kind: 'keep' },
        { id: 'filtered-pin', kind: 'drop' },
        { id: 'organic-2', kind: 'keep' },
      ],
      { filterableAttributes: ['kind'] },
    );
    await rule('pin-filtered', { actions: [pin('filtered-pin', 0)] });
    expect(ids(await search(uid, { filter: 'kind = keep', limit: 10 }))).toEqual(['organic-1', 'organic-2']);
  });

  it('pumps late pins forward when the organic hits run out', async () => {
    const uid = await index([{ id: 'organic-1' }, { id: 'late-pin-1' }, { id: 'organic-2' }, { id: 'late-pin-2' }]);
    await rule('pump-pins', { actions: [pin('late-pin-1', 10), pin('late-pin-2', 20)] });
    expect(ids(await search(uid, { limit: 10 }))).toEqual(['organic-1', 'organic-2', 'late-pin-1', 'late-pin-2']);
    expect(ids(await search(uid, { offset: 2, limit: 2 }))).toEqual(['late-pin-1', 'late-pin-2']);
  });

  it('shows a pinned hit as a pin with score 1, and orders rules by precedence first', async () => {
    const uid = await index(batman);
    await rule('without-precedence', { actions: [pin('local', 1)] });
    await rule('with-precedence', { precedence: 10, actions: [pin('remote', 0)] });
    const body = await search(uid, { q: 'Missing', showRankingScoreDetails: true, showRankingScore: true });
    expect(body.hits).toEqual([
      { id: 'remote', title: 'Batman', _rankingScore: 1, _rankingScoreDetails: { pin: { order: 0, position: 0 } } },
      { id: 'local', title: 'Batman Returns', _rankingScore: 1, _rankingScoreDetails: { pin: { order: 0, position: 1 } } },
    ]);
    // the same document pinned twice: the rule of lower precedence wins; with no organic hit to
    // fill position 0, the first pin in rule order takes it
    await rule('late-remote', { precedence: 1, actions: [pin('remote', 1)] });
    expect((await search(uid, { q: 'Missing', showRankingScoreDetails: true })).hits.map((hit: any) => [hit.id, hit._rankingScoreDetails.pin.position])).toEqual([
      ['remote', 1],
      ['local', 1],
    ]);
  });

  it('applies the isEmpty, time, active (not null) and selector conditions', async () => {
    const uid = await index(batman);
    const other = await index(batman);
    await rule('empty-only', { conditions: { query: { isEmpty: true } }, actions: [pin('remote', 0)] });
    expect(ids(await search(uid, {}))).toEqual(['remote', 'local']);
    expect(ids(await search(uid, { q: 'batman returns' }))).toEqual(['local', 'remote']);
    await rule('empty-only', { conditions: { time: { end: '2000-01-01T00:00:00Z' } } });
    expect(ids(await search(uid, {}))).toEqual(['local', 'remote']);
    await rule('empty-only', { conditions: { time: { start: '2000-01-01T00:00:00Z', end: '2999-01-01T00:00:00+02:00' } } });
    expect(ids(await search(uid, {}))).toEqual(['remote', 'local']);
    await rule('empty-only', { conditions: { time: { start: '2999-01-01T00:00:00Z' } } });
    expect(ids(await search(uid, {}))).toEqual(['local', 'remote']);
    await rule('empty-only', { conditions: {}, active: false });
    expect(ids(await search(uid, {}))).toEqual(['local', 'remote']);
    // `active: null` is stored as such: the rule is not active (v1.50 reads the `true` facet only)
    await rule('empty-only', { active: null });
    expect(ids(await search(uid, {}))).toEqual(['local', 'remote']);
    await rule('empty-only', { active: true, actions: [pin('remote', 0, other)] });
    expect(ids(await search(uid, {}))).toEqual(['local', 'remote']);
    expect(ids(await search(other, {}))).toEqual(['remote', 'local']);
  });

  it('places pins by position after a hybrid merge', async () => {
    const uid = await index(
      [
        { id: 'organic-match', title: 'Batman Returns', kind: 'keep', _vectors: { default: [1.0, 1.0] } },
        { id: 'pinned-query-miss', title: 'The Matrix', kind: 'keep', _vectors: { default: [-1.0, -1.0] } },
        { id: 'filtered-pin', title: 'Batman Returns', kind: 'drop', _vectors: { default: [1.0, 1.0] } },
      ],
      { filterableAttributes: ['kind'], embedders: { default: { source: 'userProvided', dimensions: 2 } } },
    );
    await rule('hybrid', { conditions: { query: { words: 'returns' } }, actions: [pin('pinned-query-miss', 0), pin('filtered-pin', 1)] });
    const body = await search(uid, { q: 'Batman Returns', filter: 'kind = keep', vector: [1.0, 1.0], hybrid: { embedder: 'default', semanticRatio: 0.5 } });
    expect(ids(body)).toEqual(['pinned-query-miss', 'organic-match']);
    expect(body.estimatedTotalHits).toBe(2);
    expect(body.semanticHitCount).toBe(1);
  });

  it('places pins in a federated search', async () => {
    const first = await index([{ id: 'a', title: 'Batman Returns' }, { id: 'b', title: 'Batman' }]);
    const second = await index([{ id: 'c', title: 'Batman Begins' }, { id: 'd', title: 'Superman' }]);
    await rule('federated', { actions: [pin('d', 0, second)] });
    const reply = await call(server, 'POST', '/multi-search', {
      federation: {},
      queries: [
        { indexUid: first, q: 'batman' },
        { indexUid: second, q: 'batman' },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.hits[0]).toMatchObject({ id: 'd', _federation: { indexUid: second, queriesPosition: 1, weightedRankingScore: 1 } });
    expect(reply.body.hits).toHaveLength(4);
    expect(reply.body.estimatedTotalHits).toBe(4);
  });
});

describe('query words', () => {
  it('takes a quoted phrase as one word, and stop words out of the query', async () => {
    const uid = await index(batman, { stopWords: ['the'] });
    await rule('phrase', { conditions: { query: { words: 'returns' } }, actions: [pin('remote', 0)] });
    expect(ids(await search(uid, { q: '"batman returns"' }))).toEqual(['local']);
    expect(ids(await search(uid, { q: 'batman "returns"' }))).toEqual(['remote', 'local']);
    await rule('phrase', { conditions: { query: { words: 'the returns' } } });
    expect(ids(await search(uid, { q: 'the batman returns' }))).toEqual(['local', 'remote']);
  });
});

describe('limits from the environment', () => {
  it('keeps at most MEILI_EXPERIMENTAL_DSR_FUEL_MAX_PIN_ACTIONS pins, and refuses to start on a value that is no integer', async () => {
    const limited = await startServer({ env: { MEILI_EXPERIMENTAL_DSR_FUEL_MAX_PIN_ACTIONS: '1' } });
    try {
      await call(limited, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
      expect((await run(limited, 'POST', '/indexes/limited/documents', [{ id: 'a' }, { id: 'b' }, { id: 'c' }])).status).toBe('succeeded');
      expect((await run(limited, 'PATCH', '/dynamic-search-rules/two-pins', { actions: [pin('c', 0), pin('b', 1)] })).status).toBe('succeeded');
      const reply = await call(limited, 'POST', '/indexes/limited/search', {});
      // `b`'s pin is past the limit: it comes as an organic hit
      expect(reply.body.hits.map((hit: any) => hit.id)).toEqual(['c', 'a', 'b']);
    } finally {
      await limited.dispose();
    }
    const dir = tempDir('quarry-dsr-fuel-');
    const { code, stderr } = await runCli(['--db-path', path.join(dir, 'db'), '--http-addr', '127.0.0.1:0'], { MEILI_EXPERIMENTAL_DSR_FUEL_WORD_FUEL: 'lots' });
    expect(code).toBe(1);
    expect(stderr).toContain('Error: invalid digit found in string');
  }, 60_000);
});
