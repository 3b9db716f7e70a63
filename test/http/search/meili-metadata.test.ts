// Port of Meilisearch's crates/meilisearch/tests/search/metadata.rs and search/multi/metadata.rs:
// `Meili-Include-Metadata: true` adds `metadata` {query, queryUid, indexUid, primaryKey} after
// `requestUid` to a search result and to each result of a non-federated multi-search (v1.50 runs
// them as federated searches of one query), and to a federated answer an array with an entry per
// query; `query` is the query's `q`, absent without one; without the header, or with `false`,
// `metadata` is absent.
// The primary key is inferred or given at indexing time, as in the Rust test; a given one takes the
// first field id, so it leads each hit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS, expectJson, SCORE_DOCUMENTS, seed, shown, stableResponse, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const DOCS = DOCUMENTS.map(shown);
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Document `id` as a hit of index `uid`: fields in the index's field-id order. */
function hit(uid: string, id: string): Record<string, unknown> {
  const { title, color } = DOCS.find((doc) => doc.id === id)!;
  return uid === 'given' ? { id, title, color } : { title, id, color };
}

beforeAll(async () => {
  server = await startServer();
  await seed(server, 'inferred', DOCUMENTS);
  await succeed(server, 'POST', '/indexes/given/documents?primaryKey=id', DOCUMENTS);
  await seed(server, 'scores', SCORE_DOCUMENTS);
  await succeed(server, 'POST', '/indexes', { uid: 'empty' });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, any>;
}

/** The result without what changes per request: durations, request and query uids. */
function stable(result: Record<string, any>): Record<string, unknown> {
  const out = stableResponse(result);
  if (result.metadata !== undefined) {
    expect(result.metadata.queryUid).toMatch(UUID_V7);
    out.metadata = { ...result.metadata, queryUid: '[uuid]' };
  }
  return out;
}

const glassResult = (uid: string) => ({
  hits: [hit(uid, '450465')],
  query: 'glass',
  processingTimeMs: '[duration]',
  limit: 20,
  offset: 0,
  estimatedTotalHits: 1,
  requestUid: '[uuid]',
});
const metadataOf = (uid: string, query = 'glass') => ({ metadata: { query, queryUid: '[uuid]', indexUid: uid, primaryKey: 'id' } });

describe('Meili-Include-Metadata', () => {
  it('leaves metadata out of a search without the header', async () => {
    expectJson(stable(await post('/indexes/inferred/search', { q: 'glass' })), glassResult('inferred'));
  });

  it('adds metadata after requestUid when the header is true', async () => {
    expectJson(stable(await post('/indexes/inferred/search', { q: 'glass' }, { 'Meili-Include-Metadata': 'true' })), { ...glassResult('inferred'), ...metadataOf('inferred') });
  });

  it('names the primary key given with the documents in metadata', async () => {
    const result = await post('/indexes/given/search', { q: 'glass' }, { 'Meili-Include-Metadata': 'true' });
    expectJson(stable(result).metadata, metadataOf('given').metadata);
  });

  // A key declared with `?primaryKey=` takes the index's first field id (the snapshot's hits read
  // id, title, color), where an inferred one keeps its place in the documents (title, id, color).
  it('lists the declared primary key first in each hit', async () => {
    expectJson(stable(await post('/indexes/given/search', { q: 'glass' }, { 'Meili-Include-Metadata': 'true' })), { ...glassResult('given'), ...metadataOf('given') });
  });

  it('adds the same metadata to a search with GET', async () => {
    const res = await fetch(`${server.url}/indexes/inferred/search?q=glass`, { headers: { 'Meili-Include-Metadata': 'true' } });
    expect(res.status).toBe(200);
    expectJson(stable((await res.json()) as Record<string, any>), { ...glassResult('inferred'), ...metadataOf('inferred') });
  });

  it('accepts 1 and any case of true, and leaves metadata out for false', async () => {
    for (const value of ['1', 'TRUE']) {
      expect((await post('/indexes/inferred/search', { q: 'glass' }, { 'Meili-Include-Metadata': value })).metadata).toMatchObject({ indexUid: 'inferred' });
    }
    expectJson(stable(await post('/indexes/inferred/search', { q: 'glass' }, { 'Meili-Include-Metadata': 'false' })), glassResult('inferred'));
  });

  it('gives each search a new queryUid while indexUid and primaryKey stay', async () => {
    const uids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const result = await post('/indexes/inferred/search', { q: 'glass' }, { 'Meili-Include-Metadata': 'true' });
      expectJson(stable(result), { ...glassResult('inferred'), ...metadataOf('inferred') });
      uids.add(result.metadata.queryUid);
    }
    expect(uids.size).toBe(3);
  });

  it('adds metadata to every result of a multi-search only with the header', async () => {
    const queries = { queries: [{ indexUid: 'inferred', q: 'glass' }, { indexUid: 'inferred', q: 'dragon' }] };
    const dragonResult = { ...glassResult('inferred'), hits: [hit('inferred', '166428')], query: 'dragon' };

    const without = await post('/multi-search', queries);
    expectJson(without.results.map(stable), [{ indexUid: 'inferred', ...glassResult('inferred') }, { indexUid: 'inferred', ...dragonResult }]);

    const withHeader = await post('/multi-search', queries, { 'Meili-Include-Metadata': 'true' });
    expectJson(withHeader.results.map(stable), [
      { indexUid: 'inferred', ...glassResult('inferred'), ...metadataOf('inferred') },
      { indexUid: 'inferred', ...dragonResult, ...metadataOf('inferred', 'dragon') },
    ]);
    expect(withHeader.results[0].metadata.queryUid).not.toBe(withHeader.results[1].metadata.queryUid);
  });

  it('adds an entry per query, in request order, to a federated answer', async () => {
    const queries = ['the bat', 'badman returns', 'batman', 'batman returns'].map((q) => ({ indexUid: 'scores', q }));
    const result = await post('/multi-search', { federation: {}, queries }, { 'Meili-Include-Metadata': 'true' });
    // the snapshot of federated_search_with_metadata_header
    expect(result.hits.map((hit: any) => [hit.id, hit._federation.queriesPosition])).toEqual([
      ['D', 2],
      ['C', 3],
      ['A', 2],
      ['B', 2],
      ['E', 1],
    ]);
    expect(Object.keys(result)).toEqual(['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid', 'metadata']);
    for (const entry of result.metadata) expect(entry.queryUid).toMatch(UUID_V7);
    expect(new Set(result.metadata.map((entry: any) => entry.queryUid)).size).toBe(4);
    expectJson(
      result.metadata.map((entry: any) => ({ ...entry, queryUid: '[queryUid]' })),
      queries.map(({ q }) => ({ query: q, queryUid: '[queryUid]', indexUid: 'scores', primaryKey: 'id' })),
    );
    expect((await post('/multi-search', { federation: {}, queries })).metadata).toBeUndefined();
  });

  it('leaves out the query of a query without q (and keeps an empty one), and the primary key of an index without one', async () => {
    const result = await post('/multi-search', { federation: {}, queries: [{ indexUid: 'empty' }, { indexUid: 'scores', q: '' }] }, { 'Meili-Include-Metadata': 'true' });
    expectJson(
      result.metadata.map((entry: any) => ({ ...entry, queryUid: '[queryUid]' })),
      [
        { queryUid: '[queryUid]', indexUid: 'empty' },
        { query: '', queryUid: '[queryUid]', indexUid: 'scores', primaryKey: 'id' },
      ],
    );
    const single = await post('/indexes/empty/search', {}, { 'Meili-Include-Metadata': 'true' });
    expectJson({ ...single.metadata, queryUid: '[uuid]' }, { queryUid: '[uuid]', indexUid: 'empty' });
    const placeholder = await post('/indexes/scores/search', { q: '' }, { 'Meili-Include-Metadata': 'true' });
    expectJson({ ...placeholder.metadata, queryUid: '[uuid]' }, { query: '', queryUid: '[uuid]', indexUid: 'scores', primaryKey: 'id' });
  });
});
