// Searches that name the network (network.md §7), with real instances on loopback: `useNetwork`
// and `federationOptions.remote` need the network feature; a remote must be registered; `self` is
// searched locally; other remotes get one proxied multi-search each and their hits merge with the
// local ones; a remote that is down, slow or refuses the key shows in `remoteErrors` while the
// others' hits still answer.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, errorBody, run } from '../../helpers/api.js';
import { freePort, startServer, type TestServer } from '../../helpers/server.js';

const B_KEY = 'network-test-master-key-b';
const ALL = [
  { id: 1, title: 'Carol', genre: 'drama' },
  { id: 2, title: 'Carol and the cat', genre: 'comedy' },
  { id: 3, title: 'The carol singers', genre: 'drama' },
  { id: 4, title: 'A christmas carol', genre: 'drama' },
  { id: 5, title: 'Carols', genre: 'music' },
];

let a: TestServer; // ms0: the instance asked
let b: TestServer; // ms1: a remote with a master key
let whole: TestServer; // every document on one instance, to compare with
let hanging: Server; // a remote that never answers
let hangingPort: number;

async function onB(method: string, path: string, body?: unknown) {
  const reply = await callRaw(b, method, path, body === undefined ? undefined : JSON.stringify(body), { authorization: `Bearer ${B_KEY}`, 'content-type': 'application/json' });
  if (reply.status === 202) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const task = await callRaw(b, 'GET', `/tasks/${reply.body.taskUid}`, undefined, { authorization: `Bearer ${B_KEY}` });
      if (['succeeded', 'failed'].includes(task.body.status) || Date.now() > deadline) return task.body;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return reply.body;
}

beforeAll(async () => {
  a = await startServer({ args: ['--experimental-allowed-ip-networks', 'any'], env: { MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS: '2' } });
  b = await startServer({ masterKey: B_KEY });
  whole = await startServer();
  hangingPort = await freePort();
  hanging = createServer(() => {});
  await new Promise<void>((resolve) => hanging.listen(hangingPort, '127.0.0.1', resolve));
  const settings = { filterableAttributes: ['genre'], sortableAttributes: ['id'] };
  await run(a, 'POST', '/indexes/books/documents', ALL.filter(({ id }) => id % 2 === 1));
  await run(a, 'PATCH', '/indexes/books/settings', settings);
  expect((await onB('POST', '/indexes/books/documents', ALL.filter(({ id }) => id % 2 === 0))).status).toBe('succeeded');
  expect((await onB('PATCH', '/indexes/books/settings', settings)).status).toBe('succeeded');
  await run(whole, 'POST', '/indexes/books/documents', ALL);
  await run(whole, 'PATCH', '/indexes/books/settings', settings);
});
afterAll(async () => {
  hanging?.closeAllConnections();
  hanging?.close();
  await Promise.all([a, b, whole].filter((server) => server !== undefined).map((server) => server.dispose()));
});

const gate = (action: string) => errorBody('feature_not_enabled', `${action} requires enabling the \`network\` experimental feature. See https://github.com/orgs/meilisearch/discussions/805`);
const federated = (federationOptions: object, extra: object = {}) => ({ federation: {}, queries: [{ indexUid: 'books', q: 'carol', ...extra, federationOptions }] });
const ids = (hits: { id: number }[]) => hits.map((hit) => hit.id);

describe('without the network feature', () => {
  it('refuses useNetwork, even false, on search, multi-search and facet search', async () => {
    for (const useNetwork of [true, false]) {
      expect(await call(a, 'POST', '/indexes/books/search', { q: 'carol', useNetwork })).toMatchObject({ status: 400, body: gate('passing `useNetwork` in a search query') });
    }
    expect((await call(a, 'POST', '/multi-search', { queries: [{ indexUid: 'books', useNetwork: false }] })).body.code).toBe('feature_not_enabled');
    expect((await call(a, 'GET', '/indexes/books/search?useNetwork=false')).body.code).toBe('feature_not_enabled');
  });

  it('refuses a federated query naming a remote, and a search another instance proxies', async () => {
    expect(await call(a, 'POST', '/multi-search', federated({ remote: 'ms0' }))).toMatchObject({ status: 400, body: gate('Inside `.queries[0]`: Performing a remote federated search') });
    const proxied = await callRaw(a, 'POST', '/multi-search', JSON.stringify(federated({})), { 'content-type': 'application/json', 'meili-proxy-search': 'true' });
    expect(proxied).toMatchObject({ status: 400, body: gate('Performing a remote federated search') });
  });
});

describe('with the network feature', () => {
  beforeAll(async () => {
    await call(a, 'PATCH', '/experimental-features', { network: true });
    await onB('PATCH', '/experimental-features', { network: true });
    await call(a, 'PATCH', '/network', {
      self: 'ms0',
      remotes: {
        ms0: { url: a.url },
        ms1: { url: b.url, searchApiKey: B_KEY },
      },
    });
  });

  it('searches locally with useNetwork: false', async () => {
    const reply = await call(a, 'POST', '/indexes/books/search', { q: 'carol', useNetwork: false });
    expect(reply.status).toBe(200);
    expect(ids(reply.body.hits).sort()).toEqual([1, 3, 5]);
    expect(reply.body.remoteErrors).toBeUndefined();
  });

  it('answers a useNetwork search with the hits, order and scores of one instance holding everything', async () => {
    const query = { q: 'carol', showRankingScore: true, facets: ['genre'], limit: 4 };
    const [network, alone] = await Promise.all([call(a, 'POST', '/indexes/books/search', { ...query, useNetwork: true }), call(whole, 'POST', '/indexes/books/search', query)]);
    expect(network.status).toBe(200);
    expect(network.body.hits.map(({ id, _rankingScore }: { id: number; _rankingScore: number }) => [id, _rankingScore])).toEqual(
      alone.body.hits.map(({ id, _rankingScore }: { id: number; _rankingScore: number }) => [id, _rankingScore]),
    );
    expect(network.body.estimatedTotalHits).toBe(alone.body.estimatedTotalHits);
    expect(network.body.facetDistribution).toEqual(alone.body.facetDistribution);
    expect(network.body.remoteErrors).toEqual({});
    // each hit says which instance it comes from
    for (const hit of network.body.hits) expect(hit._federation.remote).toBe(hit.id % 2 === 1 ? 'ms0' : 'ms1');
    expect(Object.keys(network.body)).toEqual(['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetDistribution', 'facetStats', 'requestUid', 'remoteErrors']);
  });

  it('merges federated queries sent to a remote with local ones, with each hit naming its instance', async () => {
    const reply = await call(a, 'POST', '/multi-search', {
      federation: { limit: 10 },
      queries: [
        { indexUid: 'books', q: 'carol', federationOptions: { remote: 'ms1' } },
        { indexUid: 'books', q: 'carol', filter: 'genre = drama', federationOptions: { remote: 'ms0', weight: 0.5 } },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.remoteErrors).toEqual({});
    expect(reply.body.estimatedTotalHits).toBe(4);
    const origin = reply.body.hits.map((hit: { id: number; _federation: { remote: string; queriesPosition: number } }) => [hit.id, hit._federation.remote, hit._federation.queriesPosition]);
    expect(origin.sort()).toEqual([
      [1, 'ms0', 1],
      [2, 'ms1', 0],
      [3, 'ms0', 1],
      [4, 'ms1', 0],
    ]);
    expect(Object.keys(reply.body.hits[0]._federation)).toEqual(['indexUid', 'queriesPosition', 'weightedRankingScore', 'remote']);
    // the weighted local hits come after the remote's full-score ones
    expect(reply.body.hits.slice(0, 2).every((hit: { _federation: { remote: string } }) => hit._federation.remote === 'ms1')).toBe(true);
  });

  it('gives a proxied request each hit weighted score values, for the instance that merges them', async () => {
    const reply = await callRaw(
      b,
      'POST',
      '/multi-search',
      JSON.stringify({ federation: {}, queries: [{ indexUid: 'books', q: 'carol', sort: ['id:desc'], federationOptions: { weight: 0.5, queryPosition: 3 } }] }),
      { 'content-type': 'application/json', 'meili-proxy-search': 'true', authorization: `Bearer ${B_KEY}` },
    );
    expect(reply.status).toBe(200);
    const federation = reply.body.hits[0]._federation;
    expect(Object.keys(federation)).toEqual(['indexUid', 'queriesPosition', 'weightedRankingScore', 'weightedScoreValues', 'extra_document']);
    expect(federation.queriesPosition).toBe(3);
    expect(federation.weightedScoreValues[0]).toEqual({ weightedScore: expect.any(Number) });
    expect(federation.weightedScoreValues).toContainEqual({ sort: { asc: false, value: reply.body.hits[0].id } });
    expect(reply.body.remoteErrors).toBeUndefined();
  });

  it('reports a remote that refuses the key, is down or does not answer in time, and still answers with the others', async () => {
    const downPort = await freePort();
    await call(a, 'PATCH', '/network', {
      remotes: {
        badKey: { url: b.url, searchApiKey: 'not-the-key' },
        down: { url: `http://127.0.0.1:${downPort}` },
        slow: { url: `http://127.0.0.1:${hangingPort}` },
      },
    });
    try {
      const started = Date.now();
      const reply = await call(a, 'POST', '/indexes/books/search', { q: 'carol', useNetwork: true });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(reply.status).toBe(200);
      expect(ids(reply.body.hits).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(Object.keys(reply.body.remoteErrors)).toEqual(['badKey', 'down', 'slow']);
      expect(reply.body.remoteErrors.badKey).toEqual(
        errorBody('remote_invalid_api_key', 'could not authenticate against the remote host\n  - hint: check that the remote instance was registered with a valid API key having the `search` action', 'auth'),
      );
      expect(reply.body.remoteErrors.down).toEqual(errorBody('remote_could_not_send_request', 'error sending request', 'system'));
      expect(reply.body.remoteErrors.slow).toEqual(errorBody('remote_timeout', 'remote host did not answer before the deadline', 'system'));
    } finally {
      await call(a, 'PATCH', '/network', { remotes: { badKey: null, down: null, slow: null } });
    }
  });

  it('gives a federated answer metadata per query, with the remote that answered it and the primary key it knows', async () => {
    const reply = await callRaw(
      a,
      'POST',
      '/multi-search',
      JSON.stringify({
        federation: {},
        queries: [
          { indexUid: 'books', q: 'carol', federationOptions: { remote: 'ms1' } },
          { indexUid: 'books', q: 'cat', federationOptions: { remote: 'ms0' } },
          { indexUid: 'books', q: 'singers' },
        ],
      }),
      { 'content-type': 'application/json', 'meili-include-metadata': 'true' },
    );
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).slice(-3)).toEqual(['requestUid', 'metadata', 'remoteErrors']);
    // ms1's key comes from the metadata it answered with; a query naming this instance finds none
    // (v1.50 looks the local keys up under no remote), one naming no remote is answered here
    expect(reply.body.metadata.map(({ queryUid, ...entry }: { queryUid: string }) => (expect(queryUid).toMatch(/^[0-9a-f-]{36}$/), entry))).toEqual([
      { query: 'carol', indexUid: 'books', primaryKey: 'id', remote: 'ms1' },
      { query: 'cat', indexUid: 'books', remote: 'ms0' },
      { query: 'singers', indexUid: 'books', primaryKey: 'id', remote: 'ms0' },
    ]);
  });

  it('gives a useNetwork search the metadata of its last copy, as v1.50 keeps it', async () => {
    const reply = await callRaw(a, 'POST', '/indexes/books/search', JSON.stringify({ q: 'carol', useNetwork: true }), { 'content-type': 'application/json', 'meili-include-metadata': 'true' });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).slice(-3)).toEqual(['requestUid', 'metadata', 'remoteErrors']);
    // copies go to ms0 then ms1 (remote names in order): the last is ms1's
    const { queryUid, ...entry } = reply.body.metadata;
    expect(queryUid).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry).toEqual({ query: 'carol', indexUid: 'books', primaryKey: 'id', remote: 'ms1' });
  });

  it('drops the whole answer of a remote whose hits lack their _federation scores, reporting why', async () => {
    // a remote answering a search's shape without what a proxied search adds to each hit
    const answers: Record<string, unknown>[][] = [
      [{ id: 9, title: 'Carol the odd' }],
      [{ id: 9, title: 'Carol the odd', _federation: { weightedRankingScore: 1 } }],
      [{ id: 9, title: 'Carol the odd', _federation: [1] }],
    ];
    let next = 0;
    const odd = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ hits: answers[next++], processingTimeMs: 1, limit: 20, offset: 0, estimatedTotalHits: 1 }));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => odd.listen(port, '127.0.0.1', resolve));
    await call(a, 'PATCH', '/network', { remotes: { odd: { url: `http://127.0.0.1:${port}` } } });
    const hint = '\n  - hint: check that the remote instance is a Meilisearch instance running the same version';
    try {
      for (const message of [
        `remote hit does not contain \`._federation\`${hint}`,
        `remote hit does not contain \`._federation.weightedScoreValues\`${hint}`,
        `remote hit contains an unexpected value at path \`._federation\`: expected map, received \`[1]\`${hint}`,
      ]) {
        const reply = await call(a, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: 'books', q: 'carol', federationOptions: { remote: 'odd' } }, { indexUid: 'books', q: 'carol' }] });
        expect(reply.status).toBe(200);
        expect(ids(reply.body.hits).sort()).toEqual([1, 3, 5]);
        expect(reply.body.remoteErrors).toEqual({ odd: errorBody('remote_bad_response', message, 'system') });
      }
    } finally {
      await call(a, 'PATCH', '/network', { remotes: { odd: null } });
      odd.close();
    }
  });

  it('reports a remote whose totals or facet counts are not counts as a bad response, counting none of them', async () => {
    // no hit, so that only the totals and facets can make them bad
    const answers: Record<string, unknown>[] = [
      { hits: [], processingTimeMs: 1, limit: 20, offset: 0, estimatedTotalHits: -5 },
      { hits: [], processingTimeMs: 1, limit: 20, offset: 0, estimatedTotalHits: 1e300 },
      { hits: [], processingTimeMs: 1, limit: 20, offset: 0, estimatedTotalHits: 'lots' },
      { hits: [], processingTimeMs: 1 },
      { hits: [], processingTimeMs: 1, limit: 20, offset: 0, estimatedTotalHits: 1, facetsByIndex: { books: { distribution: { genre: { Drama: 'x' } }, stats: {} } } },
    ];
    // the same answer to every attempt of one search (a bad response is tried again)
    let current = 0;
    const odd = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(answers[current]));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => odd.listen(port, '127.0.0.1', resolve));
    await call(a, 'PATCH', '/network', { remotes: { odd: { url: `http://127.0.0.1:${port}` } } });
    try {
      for (let k = 0; k < answers.length; k++) {
        current = k;
        const reply = await call(a, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: 'books', q: 'carol', federationOptions: { remote: 'odd' } }, { indexUid: 'books', q: 'carol' }] });
        expect(reply.status).toBe(200);
        expect(ids(reply.body.hits).sort(), `answer ${k}`).toEqual([1, 3, 5]);
        expect(reply.body.estimatedTotalHits, `answer ${k}`).toBe(3);
        expect(reply.body.remoteErrors.odd.code, `answer ${k}`).toBe('remote_bad_response');
        expect(reply.body.remoteErrors.odd.message, `answer ${k}`).toMatch(/^could not parse response from the remote host as a federated search response:/);
      }
    } finally {
      await call(a, 'PATCH', '/network', { remotes: { odd: null } });
      odd.close();
    }
  });

  it('refuses a remote that is not registered, naming the query', async () => {
    expect(await call(a, 'POST', '/multi-search', federated({ remote: 'ms2' }))).toMatchObject({
      status: 400,
      body: errorBody('invalid_multi_search_remote', 'Inside `.queries[0]`: Invalid `.federation_options.remote`: remote `ms2` is not registered'),
    });
  });

  it('searches locally for the remote that is this instance, each hit naming it', async () => {
    const reply = await call(a, 'POST', '/multi-search', federated({ remote: 'ms0' }));
    expect(reply.status).toBe(200);
    expect(ids(reply.body.hits).sort()).toEqual([1, 3, 5]);
    expect(Object.keys(reply.body.hits[0]._federation)).toEqual(['indexUid', 'queriesPosition', 'weightedRankingScore', 'remote']);
    expect(reply.body.hits[0]._federation.remote).toBe('ms0');
    expect(reply.body.remoteErrors).toEqual({});
  });

  it('refuses useNetwork: true and a remote in one query', async () => {
    const reply = await call(a, 'POST', '/multi-search', federated({ remote: 'ms0' }, { useNetwork: true }));
    expect(reply.body).toMatchObject({ code: 'invalid_multi_search_federation_options' });
    expect(reply.body.message).toMatch(/^Inside `\.queries\[0\]`: Using `\.useNetwork` is not allowed as the same time as `\.federationOptions\.remote`\./);
    expect((await call(a, 'POST', '/multi-search', federated({ remote: 'ms0' }, { useNetwork: false }))).status).toBe(200);
  });

  it('refuses a remote the IP policy does not allow, worded as v1.50 words an address it refuses', async () => {
    await call(whole, 'PATCH', '/experimental-features', { network: true });
    await call(whole, 'PATCH', '/network', { self: 'solo', remotes: { ms1: { url: b.url, searchApiKey: B_KEY } } });
    const reply = await call(whole, 'POST', '/multi-search', federated({ remote: 'ms1' }));
    expect(reply.status).toBe(200);
    expect(reply.body.hits).toEqual([]);
    // the remote's URL names its address (127.0.0.1): v1.50's policy refuses it before reqwest sends anything
    expect(reply.body.remoteErrors.ms1).toMatchObject({ code: 'remote_could_not_send_request', message: 'Rejected IP' });
  });
});
