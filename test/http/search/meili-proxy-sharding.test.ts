// Port of Meilisearch's crates/meilisearch/tests/search/multi/proxy.rs, its sharded-network cases
// (`remote_auto_sharding_*`): a leader spreading the documents and settings it receives over
// shards of one or two instances each, then searches, federated searches, facet searches and
// document fetches answered over the whole network by whichever instance is asked, with the
// exact answers of the snapshots (the auto-sharding hash decides which instance holds a document).
//
// Each case is a replay of the Rust test's requests: `do` steps (to the instance `on`), each
// write waited for on the leader and on the instances it forwarded the write to
// (`network.remote_tasks`), and after each read the snapshot it must answer, its redacted paths
// taken from the snapshot. Every instance is reached through a loopback proxy, as the Rust
// test's `LocalMeili`.
import { afterEach, describe, expect, it } from 'vitest';
import { call, waitTask, type Reply } from '../../helpers/api.js';
import { localMeili } from '../../helpers/local-meili.js';
import { expectJson } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  const pending = cleanup;
  cleanup = [];
  await Promise.all(pending.map((dispose) => dispose()));
});

/** A `LocalMeili` in front of `server`, closed after the test; its url. */
async function proxied(server: TestServer): Promise<string> {
  const proxy = await localMeili(server);
  cleanup.push(proxy.close);
  return proxy.url;
}

type Step =
  | { do: string; on: number; payload: unknown }
  | { expect: unknown; select?: string; redact?: string[] };

/** The write's task, and the tasks the leader forwarded it as, all succeed. */
async function settled(servers: TestServer[], reply: Reply): Promise<void> {
  expect([200, 202], reply.text).toContain(reply.status);
  if (reply.status === 200) return;
  const task = await waitTask(servers[0]!, reply.body.taskUid, 30_000);
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
  const sent = (await call(servers[0]!, 'GET', `/tasks/${reply.body.taskUid}`)).body.network?.remote_tasks ?? {};
  for (const [name, { taskUid }] of Object.entries(sent) as [string, { taskUid: number }][]) {
    const forwarded = await waitTask(servers[Number(name.slice(2))]!, taskUid, 30_000);
    expect(forwarded.status, JSON.stringify(forwarded.error)).toBe('succeeded');
  }
}

/** `actual` with each redacted path (`.a.b`, `*` for every element or value) given the snapshot's value there. */
function redacted(actual: any, expected: any, paths: readonly string[]): any {
  const copy = structuredClone(actual);
  const apply = (target: any, model: any, keys: string[]): void => {
    if (target === null || typeof target !== 'object' || model === null || typeof model !== 'object') return;
    const [key, ...rest] = keys;
    const entries = key === '*' ? Object.keys(target) : [key!];
    for (const k of entries) {
      if (!(k in target) || !(k in model)) continue;
      if (rest.length === 0) target[k] = model[k];
      else apply(target[k], model[k], rest);
    }
  };
  for (const path of paths) apply(copy, expected, path.slice(1).split('.'));
  return copy;
}

/** Runs a case's steps against `count` fresh instances with the network feature on. */
async function replay(count: number, steps: Step[]): Promise<void> {
  // started together: a start is mostly the process's own loading
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = await startServer({ args: ['--experimental-allowed-ip-networks', 'any'] });
      cleanup.push(() => server.dispose());
      expect((await call(server, 'PATCH', '/experimental-features', { network: true })).status).toBe(200);
      return server;
    }),
  );
  const urls = await Promise.all(servers.map(proxied));
  let last: Reply | null = null;
  let request = '';
  for (const step of steps) {
    if ('expect' in step) {
      const body = step.select === undefined ? last!.body : last!.body[step.select];
      const failed = step.expect !== null && typeof step.expect === 'object' && 'code' in step.expect && 'message' in step.expect;
      expect(last!.status >= 400, last!.text).toBe(failed);
      try {
        expectJson(redacted(body, step.expect, step.redact ?? []), step.expect);
      } catch (error) {
        (error as Error).message = `after ${request}: ${(error as Error).message}`;
        throw error;
      }
      last = null;
      continue;
    }
    const server = servers[step.on]!;
    request = `${step.do} on ms${step.on} ${JSON.stringify(step.payload)}`;
    const index = '/indexes/test';
    switch (step.do) {
      case 'set_network':
        await settled(servers, await call(server, 'PATCH', '/network', JSON.parse(JSON.stringify(step.payload).replace(/"@rms(\d)"/g, (_, i) => JSON.stringify(urls[Number(i)])))));
        break;
      case 'add_documents':
        await settled(servers, await call(server, 'POST', `${index}/documents`, step.payload));
        break;
      case 'update_settings':
        await settled(servers, await call(server, 'PATCH', `${index}/settings`, step.payload));
        break;
      case 'update_settings_filterable_attributes':
        await settled(servers, await call(server, 'PUT', `${index}/settings/filterable-attributes`, step.payload));
        break;
      case 'update_settings_sortable_attributes':
        await settled(servers, await call(server, 'PUT', `${index}/settings/sortable-attributes`, step.payload));
        break;
      case 'search_post':
        last = await call(server, 'POST', `${index}/search`, step.payload);
        break;
      case 'multi_search':
        last = await call(server, 'POST', '/multi-search', step.payload);
        break;
      case 'facet_search':
        last = await call(server, 'POST', `${index}/facet-search`, step.payload);
        break;
      case 'fetch_documents':
        last = await call(server, 'POST', `${index}/documents/fetch`, step.payload);
        break;
      case 'get_document':
        last = await call(server, 'GET', `${index}/documents/${String(step.payload).split(',')[0]}`);
        break;
      default:
        throw new Error(`no such step: ${step.do}`);
    }
  }
}

const DOCUMENTS = [
  { title: 'Shazam!', id: '287947', color: ['green', 'blue'], _vectors: { manual: [1, 2, 3] } },
  { title: 'Captain Marvel', id: '299537', color: ['yellow', 'blue'], _vectors: { manual: [1, 2, 54] } },
  { title: 'Escape Room', id: '522681', color: ['yellow', 'red'], _vectors: { manual: [10, -23, 32] } },
  {
    title: 'How to Train Your Dragon: The Hidden World',
    id: '166428',
    color: ['green', 'red'],
    _vectors: { manual: [-100, 231, 32] },
  },
  { title: 'Gläss', id: '450465', color: ['blue', 'red'], _vectors: { manual: [-100, 340, 90] } },
];

const SCORE_DOCUMENTS = [
  { title: 'Batman the dark knight returns: Part 1', id: 'A' },
  { title: 'Batman the dark knight returns: Part 2', id: 'B' },
  { title: 'Batman Returns', id: 'C' },
  { title: 'Batman', id: 'D' },
  { title: 'Badman', id: 'E' },
];

const C_EST_FRANÇAIS_DOCUMENTS = [
  { id: 'A', facette: "L'école" },
  { id: 'B', facette: "L'avion" },
  { id: 'C', facette: "L'aventure" },
  { id: 'D', facette: "L'école" },
  { id: 'E', facette: "L'école" },
  { id: 'F', facette: '"Lécole' },
  { id: 'G', facette: '"Lécole' },
];

describe('sharded network search (search/multi/proxy.rs)', () => {
  it('remote_auto_sharding_distinct: federation.distinct and a network search with distinct over three shards, with merged facets', async () => {
    await replay(3, [
      { do: 'update_settings_filterable_attributes', on: 0, payload: ['color', 'title'] },
      { do: 'set_network', on: 0, payload: {
        self: 'ms0',
        leader: 'ms0',
        remotes: { ms0: { url: '@rms0' }, ms1: { url: '@rms1' }, ms2: { url: '@rms2' } },
        shards: { ms0: { remotes: ['ms0'] }, ms1: { remotes: ['ms1'] }, ms2: { remotes: ['ms2'] } },
      } },
      { do: 'add_documents', on: 0, payload: DOCUMENTS },
      { do: 'multi_search', on: 0, payload: {
        federation: { facetsByIndex: { test: ['title', 'color'] }, mergeFacets: {} },
        queries: [
          { q: '', attributesToRetrieve: ['title'], indexUid: 'test', federationOptions: { remote: 'ms0' } },
          { q: '', attributesToRetrieve: ['title'], indexUid: 'test', federationOptions: { remote: 'ms1' } },
          { q: '', attributesToRetrieve: ['title'], indexUid: 'test', federationOptions: { remote: 'ms2' } },
        ],
      } },
      {
        expect: {
          hits: [
            {
              title: 'Escape Room',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 1.0, remote: 'ms1' },
            },
            {
              title: 'Gläss',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 1.0, remote: 'ms1' },
            },
            {
              title: 'Shazam!',
              _federation: { indexUid: 'test', queriesPosition: 2, weightedRankingScore: 1.0, remote: 'ms2' },
            },
            {
              title: 'Captain Marvel',
              _federation: { indexUid: 'test', queriesPosition: 2, weightedRankingScore: 1.0, remote: 'ms2' },
            },
            {
              title: 'How to Train Your Dragon: The Hidden World',
              _federation: { indexUid: 'test', queriesPosition: 2, weightedRankingScore: 1.0, remote: 'ms2' },
            },
          ],
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          facetDistribution: {
            color: { blue: 3, green: 2, red: 3, yellow: 2 },
            title: {
              'Captain Marvel': 1,
              'Escape Room': 1,
              'Gläss': 1,
              'How to Train Your Dragon: The Hidden World': 1,
              'Shazam!': 1,
            },
          },
          facetStats: {},
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'multi_search', on: 0, payload: {
        federation: { distinct: 'color', facetsByIndex: { test: ['title', 'color'] }, mergeFacets: {} },
        queries: [
          { q: '', attributesToRetrieve: ['title'], indexUid: 'test', federationOptions: { remote: 'ms0' } },
          { q: '', attributesToRetrieve: ['title'], indexUid: 'test', federationOptions: { remote: 'ms1' } },
          { q: '', attributesToRetrieve: ['title'], indexUid: 'test', federationOptions: { remote: 'ms2' } },
        ],
      } },
      {
        expect: {
          hits: [
            {
              title: 'Escape Room',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 1.0, remote: 'ms1' },
            },
            {
              title: 'Shazam!',
              _federation: { indexUid: 'test', queriesPosition: 2, weightedRankingScore: 1.0, remote: 'ms2' },
            },
          ],
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 2,
          facetDistribution: { color: { blue: 1, green: 1, red: 1, yellow: 1 }, title: { 'Escape Room': 1, 'Shazam!': 1 } },
          facetStats: {},
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'search_post', on: 0, payload: { q: '', useNetwork: true, facets: ['title', 'color'], attributesToRetrieve: ['title'], distinct: 'color' } },
      {
        expect: {
          hits: [
            {
              title: 'Escape Room',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: 'ms1' },
            },
            {
              title: 'Shazam!',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: 'ms2' },
            },
          ],
          query: '',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 2,
          facetDistribution: { color: { blue: 1, green: 1, red: 1, yellow: 1 }, title: { 'Escape Room': 1, 'Shazam!': 1 } },
          facetStats: {},
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
    ]);
  });

  it('remote_auto_sharding_auto_search: an index search uses the network by default in a sharded network, and not with useNetwork false', async () => {
    await replay(3, [
      { do: 'set_network', on: 0, payload: {
        self: 'ms0',
        leader: 'ms0',
        remotes: { ms0: { url: '@rms0' }, ms1: { url: '@rms1' }, ms2: { url: '@rms2' } },
        shards: { ms0: { remotes: ['ms0'] }, ms1: { remotes: ['ms1'] }, ms2: { remotes: ['ms2'] } },
      } },
      { do: 'add_documents', on: 0, payload: SCORE_DOCUMENTS },
      { do: 'search_post', on: 0, payload: { q: 'badman returns', useNetwork: true } },
      {
        expect: {
          hits: [
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.8317901234567902, remote: 'ms2' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: 'ms1' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: 'ms1' },
            },
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.5, remote: 'ms2' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.23106060606060605, remote: 'ms0' },
            },
          ],
          query: 'badman returns',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'search_post', on: 1, payload: { q: 'badman returns', useNetwork: true } },
      {
        expect: {
          hits: [
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.8317901234567902, remote: 'ms2' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: 'ms1' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: 'ms1' },
            },
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.5, remote: 'ms2' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.23106060606060605, remote: 'ms0' },
            },
          ],
          query: 'badman returns',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'search_post', on: 2, payload: { q: 'badman returns', useNetwork: true } },
      {
        expect: {
          hits: [
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.8317901234567902, remote: 'ms2' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: 'ms1' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: 'ms1' },
            },
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.5, remote: 'ms2' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.23106060606060605, remote: 'ms0' },
            },
          ],
          query: 'badman returns',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'search_post', on: 0, payload: { q: 'badman returns' } },
      {
        expect: {
          hits: [
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.8317901234567902, remote: 'ms2' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: 'ms1' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: 'ms1' },
            },
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.5, remote: 'ms2' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.23106060606060605, remote: 'ms0' },
            },
          ],
          query: 'badman returns',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'search_post', on: 0, payload: { q: 'badman returns', useNetwork: false } },
      {
        expect: {
          hits: [{ title: 'Batman', id: 'D' }],
          query: 'badman returns',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 1,
          requestUid: '[uuid]',
        }, redact: ['.processingTimeMs', '.requestUid']
      },
    ]);
  });

  it('remote_auto_sharding_federated_auto_search: searches and federated searches over shards held by two instances each answer every document once', async () => {
    await replay(3, [
      { do: 'set_network', on: 0, payload: {
        self: 'ms0',
        leader: 'ms0',
        remotes: { ms0: { url: '@rms0' }, ms1: { url: '@rms1' }, ms2: { url: '@rms2' } },
        shards: { s0: { remotes: ['ms0', 'ms1'] }, s1: { remotes: ['ms1', 'ms2'] }, s2: { remotes: ['ms2', 'ms0'] } },
      } },
      { do: 'add_documents', on: 0, payload: SCORE_DOCUMENTS },
      { do: 'search_post', on: 0, payload: { q: 'badman returns', useNetwork: true } },
      {
        expect: {
          hits: [
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.8317901234567902, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: '[remote]' },
            },
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.5, remote: '[remote]' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.23106060606060605, remote: '[remote]' },
            },
          ],
          query: 'badman returns',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
      { do: 'search_post', on: 1, payload: { q: 'badman returns', useNetwork: true } },
      {
        expect: {
          hits: [
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.8317901234567902, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: '[remote]' },
            },
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.5, remote: '[remote]' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.23106060606060605, remote: '[remote]' },
            },
          ],
          query: 'badman returns',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
      { do: 'search_post', on: 2, payload: { q: 'badman returns', useNetwork: true } },
      {
        expect: {
          hits: [
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.8317901234567902, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.7028218694885362, remote: '[remote]' },
            },
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.5, remote: '[remote]' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.23106060606060605, remote: '[remote]' },
            },
          ],
          query: 'badman returns',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
      { do: 'multi_search', on: 0, payload: {
        federation: {},
        queries: [{ q: 'badman', indexUid: 'test', useNetwork: true }, { q: 'returns', indexUid: 'test', useNetwork: true }],
      } },
      {
        expect: {
          hits: [
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.9242424242424242, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.8787878787878788, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.8787878787878788, remote: '[remote]' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.4621212121212121, remote: '[remote]' },
            },
          ],
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
      { do: 'multi_search', on: 1, payload: {
        federation: {},
        queries: [{ q: 'badman', indexUid: 'test', useNetwork: true }, { q: 'returns', indexUid: 'test', useNetwork: true }],
      } },
      {
        expect: {
          hits: [
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.9242424242424242, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.8787878787878788, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.8787878787878788, remote: '[remote]' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.4621212121212121, remote: '[remote]' },
            },
          ],
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
      { do: 'multi_search', on: 2, payload: {
        federation: {},
        queries: [{ q: 'badman', indexUid: 'test', useNetwork: true }, { q: 'returns', indexUid: 'test', useNetwork: true }],
      } },
      {
        expect: {
          hits: [
            {
              title: 'Badman',
              id: 'E',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              title: 'Batman Returns',
              id: 'C',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.9242424242424242, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 1',
              id: 'A',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.8787878787878788, remote: '[remote]' },
            },
            {
              title: 'Batman the dark knight returns: Part 2',
              id: 'B',
              _federation: { indexUid: 'test', queriesPosition: 1, weightedRankingScore: 0.8787878787878788, remote: '[remote]' },
            },
            {
              title: 'Batman',
              id: 'D',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 0.4621212121212121, remote: '[remote]' },
            },
          ],
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 5,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
    ]);
  });

  it('remote_auto_sharding_auto_search_apostrophe_catastrophe: a filter on a value with an apostrophe is forwarded intact to the shards', async () => {
    await replay(2, [
      { do: 'set_network', on: 0, payload: {
        self: 'ms0',
        leader: 'ms0',
        remotes: { ms0: { url: '@rms0' }, ms1: { url: '@rms1' } },
        shards: { ms0: { remotes: ['ms0'] }, ms1: { remotes: ['ms1'] } },
      } },
      { do: 'add_documents', on: 0, payload: C_EST_FRANÇAIS_DOCUMENTS },
      { do: 'update_settings', on: 0, payload: { filterableAttributes: ['facette'] } },
      { do: 'search_post', on: 0, payload: { filter: "facette = \"L'école\"", useNetwork: true } },
      {
        expect: {
          hits: [
            {
              id: 'D',
              facette: "L'école",
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              id: 'E',
              facette: "L'école",
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              id: 'A',
              facette: "L'école",
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
          ],
          query: '',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 3,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
      { do: 'search_post', on: 1, payload: { filter: "facette = \"L'école\"", useNetwork: true } },
      {
        expect: {
          hits: [
            {
              id: 'A',
              facette: "L'école",
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              id: 'D',
              facette: "L'école",
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              id: 'E',
              facette: "L'école",
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
          ],
          query: '',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 3,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
      { do: 'search_post', on: 0, payload: { filter: "facette = '\"Lécole'", useNetwork: true } },
      {
        expect: {
          hits: [
            {
              id: 'G',
              facette: '"Lécole',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              id: 'F',
              facette: '"Lécole',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
          ],
          query: '',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 2,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
      { do: 'search_post', on: 1, payload: { filter: "facette = '\"Lécole'", useNetwork: true } },
      {
        expect: {
          hits: [
            {
              id: 'F',
              facette: '"Lécole',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
            {
              id: 'G',
              facette: '"Lécole',
              _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: '[remote]' },
            },
          ],
          query: '',
          processingTimeMs: '[time]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 2,
          requestUid: '[uuid]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid', '.hits.*._federation.remote']
      },
    ]);
  });

  it('remote_auto_sharding_auto_facet_search: facet search counts each document once over replicated shards', async () => {
    await replay(3, [
      { do: 'set_network', on: 0, payload: {
        self: 'ms0',
        leader: 'ms0',
        remotes: { ms0: { url: '@rms0' }, ms1: { url: '@rms1' }, ms2: { url: '@rms2' } },
        shards: { a: { remotes: ['ms0', 'ms1'] }, b: { remotes: ['ms1', 'ms2'] }, c: { remotes: ['ms2', 'ms0'] } },
      } },
      { do: 'add_documents', on: 0, payload: [
        {
          id: 1,
          title: 'Carol',
          genres: ['Romance', 'Drama'],
          color: ['red'],
          platforms: ['MacOS', 'Linux', 'Windows'],
        },
        { id: 2, title: 'Wonder Woman', genres: ['Action', 'Adventure'], color: ['green'], platforms: ['MacOS'] },
        { id: 3, title: 'Life of Pi', genres: ['Adventure', 'Drama'], color: ['blue'], platforms: ['Windows'] },
        {
          id: 4,
          title: 'Mad Max: Fury Road',
          genres: ['Adventure', 'Science Fiction'],
          color: ['red'],
          platforms: ['MacOS', 'Linux'],
        },
        { id: 5, title: 'Moana', genres: ['Fantasy', 'Action'], color: ['red'], platforms: ['Windows'] },
        { id: 6, title: 'Philadelphia', genres: ['Drama'], color: ['blue'], platforms: ['MacOS', 'Linux', 'Windows'] },
      ] },
      { do: 'update_settings_filterable_attributes', on: 0, payload: ['genres', 'color', 'platforms'] },
      { do: 'facet_search', on: 0, payload: { facetName: 'platforms' } },
      {
        expect: {
          facetHits: [{ value: 'Linux', count: 3 }, { value: 'MacOS', count: 4 }, { value: 'Windows', count: 4 }],
          facetQuery: null,
          processingTimeMs: '[time]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'facet_search', on: 0, payload: { facetName: 'platforms', useNetwork: false } },
      {
        expect: {
          facetHits: [{ value: 'Linux', count: 2 }, { value: 'MacOS', count: 3 }, { value: 'Windows', count: 4 }],
          facetQuery: null,
          processingTimeMs: '[time]',
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'facet_search', on: 0, payload: { facetName: 'genres', facetQuery: 'A' } },
      {
        expect: {
          facetHits: [{ value: 'Action', count: 2 }, { value: 'Adventure', count: 3 }],
          facetQuery: 'A',
          processingTimeMs: '[time]',
          remoteErrors: {},
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'facet_search', on: 0, payload: { facetName: 'genres', facetQuery: 'A', filter: 'platforms = Linux OR genres = Drama' } },
      {
        expect: { facetHits: [{ value: 'Adventure', count: 2 }], facetQuery: 'A', processingTimeMs: '[time]', remoteErrors: {} }, redact: ['.processingTimeMs', '.requestUid']
      },
    ]);
  });

  it('remote_auto_sharding_auto_documents_fetch: document fetches merge the lists of the shards by their sort values, geo sorts as v1.50 merges them', async () => {
    await replay(3, [
      { do: 'set_network', on: 0, payload: {
        self: 'ms0',
        leader: 'ms0',
        remotes: { ms0: { url: '@rms0' }, ms1: { url: '@rms1' }, ms2: { url: '@rms2' } },
        shards: { a: { remotes: ['ms0', 'ms1'] }, b: { remotes: ['ms1', 'ms2'] }, c: { remotes: ['ms2', 'ms0'] } },
      } },
      { do: 'add_documents', on: 0, payload: [
        {
          id: 1,
          title: 'Carol',
          genres: ['Romance', 'Drama'],
          color: ['red'],
          platforms: ['MacOS', 'Linux', 'Windows'],
          _geo: { lat: 34.0522, lng: -118.2437 },
        },
        {
          id: 2,
          title: 'Wonder Woman',
          genres: ['Action', 'Adventure'],
          color: ['green'],
          platforms: ['MacOS'],
          _geo: { lat: '45.4777599', lng: '9.1967508' },
        },
        {
          id: 3,
          title: 'Life of Pi',
          genres: ['Adventure', 'Drama'],
          color: ['blue'],
          platforms: ['Windows'],
          _geo: { lat: 42.4777599, lng: 12.1967508 },
        },
        {
          id: 4,
          title: 'Mad Max: Fury Road',
          genres: ['Adventure', 'Science Fiction'],
          color: ['red'],
          platforms: ['MacOS', 'Linux'],
          _geo: { lat: 61.4777599, lng: 23.1967508 },
        },
        { id: 5, title: 'Moana', genres: ['Fantasy', 'Action'], color: ['red'], platforms: ['Windows'] },
        { id: 6, title: 'Philadelphia', genres: ['Drama'], color: ['blue'], platforms: ['MacOS', 'Linux', 'Windows'] },
      ] },
      { do: 'update_settings_sortable_attributes', on: 0, payload: ['genres', 'color', 'platforms', '_geo'] },
      { do: 'update_settings_filterable_attributes', on: 0, payload: ['genres', 'color', 'platforms', '_geo'] },
      { do: 'fetch_documents', on: 0, payload: { offset: 0, limit: 5, sort: ['platforms:asc'] } },
      {
        expect: {
          results: [
            {
              id: 1,
              title: 'Carol',
              genres: ['Romance', 'Drama'],
              color: ['red'],
              platforms: ['MacOS', 'Linux', 'Windows'],
              _geo: { lat: 34.0522, lng: -118.2437 },
            },
            {
              id: 6,
              title: 'Philadelphia',
              genres: ['Drama'],
              color: ['blue'],
              platforms: ['MacOS', 'Linux', 'Windows'],
            },
            {
              id: 4,
              title: 'Mad Max: Fury Road',
              genres: ['Adventure', 'Science Fiction'],
              color: ['red'],
              platforms: ['MacOS', 'Linux'],
              _geo: { lat: 61.4777599, lng: 23.1967508 },
            },
            {
              id: 2,
              title: 'Wonder Woman',
              genres: ['Action', 'Adventure'],
              color: ['green'],
              platforms: ['MacOS'],
              _geo: { lat: '45.4777599', lng: '9.1967508' },
            },
            {
              id: 3,
              title: 'Life of Pi',
              genres: ['Adventure', 'Drama'],
              color: ['blue'],
              platforms: ['Windows'],
              _geo: { lat: 42.4777599, lng: 12.1967508 },
            },
          ],
          offset: 0,
          limit: 5,
          total: 6,
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'fetch_documents', on: 0, payload: { offset: 0, limit: 5, sort: ['platforms:asc'], useNetwork: false } },
      {
        expect: {
          results: [
            {
              id: 1,
              title: 'Carol',
              genres: ['Romance', 'Drama'],
              color: ['red'],
              platforms: ['MacOS', 'Linux', 'Windows'],
              _geo: { lat: 34.0522, lng: -118.2437 },
            },
            {
              id: 6,
              title: 'Philadelphia',
              genres: ['Drama'],
              color: ['blue'],
              platforms: ['MacOS', 'Linux', 'Windows'],
            },
            {
              id: 2,
              title: 'Wonder Woman',
              genres: ['Action', 'Adventure'],
              color: ['green'],
              platforms: ['MacOS'],
              _geo: { lat: '45.4777599', lng: '9.1967508' },
            },
            {
              id: 3,
              title: 'Life of Pi',
              genres: ['Adventure', 'Drama'],
              color: ['blue'],
              platforms: ['Windows'],
              _geo: { lat: 42.4777599, lng: 12.1967508 },
            },
            { id: 5, title: 'Moana', genres: ['Fantasy', 'Action'], color: ['red'], platforms: ['Windows'] },
          ],
          offset: 0,
          limit: 5,
          total: 5,
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'fetch_documents', on: 0, payload: { offset: 0, limit: 5, sort: ['genres:asc'], filter: 'platforms = Linux' } },
      {
        expect: {
          results: [
            {
              id: 4,
              title: 'Mad Max: Fury Road',
              genres: ['Adventure', 'Science Fiction'],
              color: ['red'],
              platforms: ['MacOS', 'Linux'],
              _geo: { lat: 61.4777599, lng: 23.1967508 },
            },
            {
              id: 1,
              title: 'Carol',
              genres: ['Romance', 'Drama'],
              color: ['red'],
              platforms: ['MacOS', 'Linux', 'Windows'],
              _geo: { lat: 34.0522, lng: -118.2437 },
            },
            {
              id: 6,
              title: 'Philadelphia',
              genres: ['Drama'],
              color: ['blue'],
              platforms: ['MacOS', 'Linux', 'Windows'],
            },
          ],
          offset: 0,
          limit: 5,
          total: 3,
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'fetch_documents', on: 0, payload: { offset: 0, limit: 5, sort: ['_geoPoint(48.8561446,2.2978204):asc'] } },
      {
        expect: {
          results: [
            {
              id: 1,
              title: 'Carol',
              genres: ['Romance', 'Drama'],
              color: ['red'],
              platforms: ['MacOS', 'Linux', 'Windows'],
              _geo: { lat: 34.0522, lng: -118.2437 },
            },
            {
              id: 4,
              title: 'Mad Max: Fury Road',
              genres: ['Adventure', 'Science Fiction'],
              color: ['red'],
              platforms: ['MacOS', 'Linux'],
              _geo: { lat: 61.4777599, lng: 23.1967508 },
            },
            {
              id: 6,
              title: 'Philadelphia',
              genres: ['Drama'],
              color: ['blue'],
              platforms: ['MacOS', 'Linux', 'Windows'],
            },
            {
              id: 2,
              title: 'Wonder Woman',
              genres: ['Action', 'Adventure'],
              color: ['green'],
              platforms: ['MacOS'],
              _geo: { lat: '45.4777599', lng: '9.1967508' },
            },
            {
              id: 3,
              title: 'Life of Pi',
              genres: ['Adventure', 'Drama'],
              color: ['blue'],
              platforms: ['Windows'],
              _geo: { lat: 42.4777599, lng: 12.1967508 },
            },
          ],
          offset: 0,
          limit: 5,
          total: 6,
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'fetch_documents', on: 0, payload: { offset: 0, limit: 5, fields: ['id', 'title', '_geo'] } },
      {
        expect: {
          results: [
            { id: 1, title: 'Carol', _geo: { lat: 34.0522, lng: -118.2437 } },
            { id: 6, title: 'Philadelphia' },
            { id: 4, title: 'Mad Max: Fury Road', _geo: { lat: 61.4777599, lng: 23.1967508 } },
            { id: 2, title: 'Wonder Woman', _geo: { lat: '45.4777599', lng: '9.1967508' } },
            { id: 3, title: 'Life of Pi', _geo: { lat: 42.4777599, lng: 12.1967508 } },
          ],
          offset: 0,
          limit: 5,
          total: 6,
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'get_document', on: 0, payload: '1, None' },
      {
        expect: {
          id: 1,
          title: 'Carol',
          genres: ['Romance', 'Drama'],
          color: ['red'],
          platforms: ['MacOS', 'Linux', 'Windows'],
          _geo: { lat: 34.0522, lng: -118.2437 },
        }, redact: ['.processingTimeMs', '.requestUid']
      },
      { do: 'get_document', on: 1, payload: '1, None' },
      {
        expect: {
          id: 1,
          title: 'Carol',
          genres: ['Romance', 'Drama'],
          color: ['red'],
          platforms: ['MacOS', 'Linux', 'Windows'],
          _geo: { lat: 34.0522, lng: -118.2437 },
        }, redact: ['.processingTimeMs', '.requestUid']
      },
    ]);
  });

});
