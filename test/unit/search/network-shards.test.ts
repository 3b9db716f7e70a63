// Searching a sharded network with other remotes (network.md §7.1, §7.6), against mock remotes on
// loopback that record what they receive: one copy per shard, to a random available owner,
// filtered on its (escaped) shard and carrying `useNetwork: false`; a shard with no available
// owner skipped; a remote failing with a 5xx marked unavailable, one refusing the key not; facet
// search and document fetches partitioned the same way. This instance (ms0) owns no shard but in
// the last tests, where its index answers for its own shard only.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Caller } from '../../../src/auth/caller.js';
import { RemoteAvailability } from '../../../src/network/availability.js';
import type { Saved } from '../../../src/network/network.js';
import { OutgoingClient } from '../../../src/outgoing/client.js';
import { IpPolicy } from '../../../src/outgoing/ip-policy.js';
import type { SearchContext } from '../../../src/search/context.js';
import { documentsRequest } from '../../../src/search/network-documents.js';
import { facetSearchRequest } from '../../../src/search/network-facet-search.js';
import { RemoteSearch } from '../../../src/search/remote-search.js';
import { searchRequest } from '../../../src/search/search-request.js';
import { fromUnsorted } from '../../../src/engine/docset.js';
import { DocumentStore } from '../../../src/engine/documents/store.js';
import { writeShardDocids } from '../../../src/engine/shards/shard-docids.js';
import { openSearchFixture, type SearchFixture } from './fixture.js';

interface Received {
  readonly remote: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
}

const NAMES = ['ms1', 'ms2', 'ms3'] as const;
const SHARD = 'q"é';
let received: Received[] = [];
/** a status a remote answers everything with, instead of its results */
const forced = new Map<string, number>();
const servers: Server[] = [];
let fixture: SearchFixture;
let saved: Saved;
let availability: RemoteAvailability;
let ctx: SearchContext;

/** What a mock remote answers on `path` for `body`: one result per query (or request), named after the remote and the filter it got. */
function answer(remote: string, path: string, body: any): unknown {
  const tag = (filter: unknown) => `${remote} ${JSON.stringify(filter ?? null)}`;
  if (path === '/multi-search') {
    const hits = body.queries.map((query: any) => ({
      id: tag(query.filter),
      _federation: { indexUid: query.indexUid, queriesPosition: query.federationOptions.queryPosition, weightedRankingScore: 0.5, weightedScoreValues: [{ weightedScore: 0.5 }] },
    }));
    return { hits, processingTimeMs: 1, limit: 20, offset: 0, estimatedTotalHits: hits.length };
  }
  if (path.endsWith('/facet-search')) return { facetHits: [{ value: 'drama', count: 1 }], facetQuery: null, processingTimeMs: 1 };
  return { results: [{ id: tag(body.filter), _federation: { weightedScoreValues: [] } }], offset: 0, limit: body.limit, total: 1 };
}

async function mockRemote(remote: string): Promise<string> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ remote, path: request.url!, headers: request.headers, body });
      const status = forced.get(remote) ?? 200;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(status === 200 ? answer(remote, request.url!, body) : { message: 'provoked error', code: 'test_error' }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const remote = (url: string) => ({ url, searchApiKey: null, writeApiKey: null });
  const urls = await Promise.all(NAMES.map(mockRemote));
  saved = {
    self: 'ms0',
    remotes: { ms0: remote('http://127.0.0.1:9'), ...Object.fromEntries(NAMES.map((name, i) => [name, remote(urls[i]!)])) },
    shards: { s1: ['ms1'], s2: ['ms2', 'ms3'], [SHARD]: ['ms1'] },
    leader: 'ms0',
    version: '00000000-0000-0000-0000-000000000000',
  };
  // books 1 and 2 in shard `mine`, 4 in ms1's shard `s1` (left over), 3 in none (written before the network)
  const books = [1, 2, 3, 4].map((id) => ({ id, title: `carol ${id}`, genre: id % 2 === 0 ? 'comedy' : 'drama' }));
  fixture = openSearchFixture({ books: { settings: { filterableAttributes: ['genre'] }, docs: books } }, ['network']);
  const index = fixture.index('books');
  const store = new DocumentStore(index.env);
  const docids = (...ids: number[]) => fromUnsorted(ids.map((id) => store.lookup(String(id))!.docid));
  index.env.root.transactionSync(() =>
    writeShardDocids(
      index.env,
      new Map([
        ['mine', docids(1, 2)],
        ['s1', docids(4)],
        ['s2', docids()],
        [SHARD, docids()],
      ]),
    ),
  );
});
afterAll(async () => {
  for (const server of servers) server.close();
  await fixture?.close();
});
beforeEach(() => {
  saved = { ...saved, shards: { s1: ['ms1'], s2: ['ms2', 'ms3'], [SHARD]: ['ms1'] } };
  received = [];
  forced.clear();
  availability = new RemoteAvailability();
  ctx = {
    ...fixture.ctx,
    network: {
      names: () => ({ self: saved.self, remotes: Object.keys(saved.remotes).sort() }),
      remoteAddress: (name) => (Object.hasOwn(saved.remotes, name) ? { url: saved.remotes[name]!.url, searchApiKey: null } : null),
      sharding: () => true,
      current: () => saved,
      availability,
    },
    remoteSearch: new RemoteSearch(new OutgoingClient(IpPolicy.fromNetworks(['127.0.0.0/8']))),
  };
});

const caller = Caller.open();
const search = async (query: object = {}) => (await searchRequest(ctx, caller, 'books', { q: 'carol', ...query }, false)).body;
const ESCAPED = '_shard = "q\\"\\u{e9}"';

describe('a search over a sharded network', () => {
  it('sends one copy per shard, filtered on its escaped shard (after the canonical filter), with useNetwork: false', async () => {
    availability.markFailed('ms2');
    const body = await search({ filter: 'genre = drama' });
    const sent = received.filter(({ path }) => path === '/multi-search');
    expect(sent.map(({ remote }) => remote).sort()).toEqual(['ms1', 'ms3']);
    const toMs1 = sent.find(({ remote }) => remote === 'ms1')!.body;
    expect(toMs1.queries.map((query: any) => query.filter)).toEqual([
      ['"genre" = "drama"', ESCAPED],
      ['"genre" = "drama"', '_shard = "s1"'],
    ]);
    for (const query of toMs1.queries) expect(query).toMatchObject({ indexUid: 'books', q: 'carol', useNetwork: false, federationOptions: { weight: 1, queryPosition: 0 } });
    expect(sent.find(({ remote }) => remote === 'ms3')!.body.queries.map((query: any) => query.filter)).toEqual([['"genre" = "drama"', '_shard = "s2"']]);
    expect(body.remoteErrors).toEqual({});
    expect((body.hits as any[]).map((hit) => hit._federation.remote).sort()).toEqual(['ms1', 'ms1', 'ms3']);
  });

  it('picks the available owner of a shard every time', async () => {
    availability.markFailed('ms3');
    for (let i = 0; i < 8; i++) await search();
    expect(new Set(received.filter(({ body }) => JSON.stringify(body).includes('s2')).map(({ remote }) => remote))).toEqual(new Set(['ms2']));
  });

  it('marks a remote failing with a 5xx unavailable, then skips the shards only it owns', async () => {
    forced.set('ms1', 500);
    const failed = await search();
    expect(failed.remoteErrors).toEqual({
      ms1: {
        message: 'remote host responded with code 500:\n  - response from remote: {"message":"provoked error","code":"test_error"}',
        code: 'remote_remote_error',
        type: 'system',
        link: 'https://docs.meilisearch.com/errors#remote_remote_error',
      },
    });
    expect(availability.status('ms1')).toBe('unavailable');
    expect(availability.status('ms2')).toBe('available');
    received = [];
    const next = await search();
    expect(received.map(({ remote }) => remote)).not.toContain('ms1');
    expect(received).toHaveLength(1);
    expect(next.remoteErrors).toEqual({});
    expect(next.hits).toHaveLength(1);
  });

  it('leaves a remote that refuses the key available', async () => {
    forced.set('ms1', 403);
    expect(((await search()).remoteErrors as any).ms1.code).toBe('remote_invalid_api_key');
    expect(availability.status('ms1')).toBe('available');
  });
});

describe('a facet search over a sharded network', () => {
  it('sends the request per shard to its owner, filtered on the shard, and sums the counts', async () => {
    const body = await facetSearchRequest(ctx, caller, 'books', { facetName: 'genre', filter: 'genre = drama' });
    const sent = received.filter(({ remote }) => remote === 'ms1');
    expect(sent.map(({ path }) => path)).toEqual(['/indexes/books/facet-search', '/indexes/books/facet-search']);
    expect(sent.map(({ body: request }) => request)).toEqual(
      expect.arrayContaining([
        { facetName: 'genre', filter: ['genre = drama', ESCAPED], useNetwork: false },
        { facetName: 'genre', filter: ['genre = drama', '_shard = "s1"'], useNetwork: false },
      ]),
    );
    expect(sent[0]!.headers['meili-proxy-search']).toBe('true');
    // three copies answer drama 1 each; owning no shard, this instance counts its whole index as
    // v1.50 does (books 1 and 3 are drama)
    expect(body).toEqual({ facetHits: [{ value: 'drama', count: 5 }], facetQuery: null, processingTimeMs: expect.any(Number), remoteErrors: {} });
  });
});

describe('a document fetch over a sharded network', () => {
  it('asks each shard for the whole window and concatenates the lists in shard order', async () => {
    availability.markFailed('ms2');
    const body = await documentsRequest(ctx, 'books', { offset: 1, limit: 2 }, false);
    const sent = received.map(({ remote, path, body: request }) => ({ remote, path, request }));
    expect(sent).toHaveLength(3);
    for (const { path, request } of sent) {
      expect(path).toBe('/indexes/books/documents/fetch');
      expect(request).toMatchObject({ offset: 0, limit: 3, useNetwork: false });
    }
    expect(sent.map(({ remote, request }) => [remote, request.filter]).sort()).toEqual([
      ['ms1', ESCAPED],
      ['ms1', '_shard = "s1"'],
      ['ms3', '_shard = "s2"'],
    ]);
    // shards in escaped order: q\"\u{e9}, s1, s2; the window skips the first
    expect(body).toEqual({ results: [{ id: 'ms1 "_shard = \\"s1\\""' }, { id: 'ms3 "_shard = \\"s2\\""' }], offset: 1, limit: 2, total: 3 });
  });

  it('lists a failed remote in remoteErrors', async () => {
    availability.markFailed('ms2');
    forced.set('ms3', 404);
    const body = (await documentsRequest(ctx, 'books', {}, false)) as Record<string, unknown>;
    expect(body.total).toBe(2);
    expect(Object.keys(body.remoteErrors as object)).toEqual(['ms3']);
    expect((body.remoteErrors as any).ms3.code).toBe('remote_bad_request');
  });
});

describe('with a shard of its own', () => {
  beforeEach(() => {
    saved = { ...saved, shards: { mine: ['ms0', 'ms1'], s1: ['ms1'] } };
  });

  it('searches its own shard here and only that, the others on their owners', async () => {
    const body = await search({ q: '' });
    expect(received.map(({ remote, body: sent }) => [remote, sent.queries.map((query: any) => query.filter)])).toEqual([['ms1', ['_shard = "s1"']]]);
    const hits = body.hits as any[];
    expect(hits.filter((hit) => typeof hit.id === 'number').map((hit) => [hit.id, hit._federation.remote])).toEqual([
      [1, 'ms0'],
      [2, 'ms0'],
    ]);
    expect(hits.filter((hit) => typeof hit.id === 'string').map((hit) => hit._federation.remote)).toEqual(['ms1']);
    expect(body.estimatedTotalHits).toBe(3);
  });

  it('counts facet values of its own shard here', async () => {
    const body = await facetSearchRequest(ctx, caller, 'books', { facetName: 'genre' });
    expect(received.map(({ body: sent }) => sent.filter)).toEqual(['_shard = "s1"']);
    // here: 1 (drama) and 2 (comedy); ms1 answers drama 1
    expect(body.facetHits).toEqual([
      { value: 'comedy', count: 1 },
      { value: 'drama', count: 2 },
    ]);
  });

  it('lists the documents of its own shard here, in partition order', async () => {
    const body = await documentsRequest(ctx, 'books', { fields: ['id'] }, false);
    expect(body).toEqual({ results: [{ id: 1 }, { id: 2 }, { id: 'ms1 "_shard = \\"s1\\""' }], offset: 0, limit: 20, total: 3 });
  });
});
