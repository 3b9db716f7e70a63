// Port of Meilisearch's crates/meilisearch/tests/search/multi/proxy.rs: remote federated search
// (`federationOptions.remote`, `useNetwork`) across several real Quarry instances on loopback — the
// feature gate and parameter errors, merging of remote hits by weighted ranking score, how remote
// failures end up in `remoteErrors` (unregistered remote, missing weighted score values, non-JSON
// answer, 4xx, auth, 5xx always / once, timeout), a remote's pinned documents (kept at their
// position, counted in pages and facets, pumped past the ranked hits), a leader's writes spread
// over shards (custom metadata, dynamic search rules) and query vectors gathered from every
// instance. The sharded searches, facet searches and document fetches are in
// meili-proxy-sharding.test.ts; the cases ignored upstream and `sharding_not_enterprise` (Quarry
// is the enterprise edition) are not ported.
//
// Meilisearch's `LocalMeili` (a wiremock server forwarding to the test server, optionally delaying,
// failing with a 500, overriding the body or dropping the request headers) is `LocalMeili` below:
// a node:http loopback proxy in front of a Quarry instance. Where Meilisearch starts new servers
// for every case, the cases here take instances a previous case left, reset (`meili`), but for
// those that join a leader's network.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { callRaw, errorBody, expectError, type Reply } from '../../helpers/api.js';
import { expectJson, NESTED_DOCUMENTS, SCORE_DOCUMENTS, stableResponse } from '../../helpers/meili-datasets.js';
import { localMeili as startLocalMeili, type LocalMeiliParams } from '../../helpers/local-meili.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { mockEmbedder } from '../../unit/embedders/mock-embedder.js';

const ARGS = ['--experimental-allowed-ip-networks', 'any'];

/** A Quarry instance and the key the test uses against it (`use_api_key`), if any. */
interface Ms {
  server: TestServer;
  key?: string;
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  const pending = cleanup;
  cleanup = [];
  await Promise.all(pending.map((dispose) => dispose()));
});

/**
 * Instances a case left, reset, by master key and environment (each start costs ~1 s of CPU and
 * the file needs ~70): a case gets one as a fresh server would answer it, but for its task and
 * batch numbers, which no case here reads. The cases whose instances join a leader's network
 * (`fresh`) get new ones: they read task numbers, and a leader's network outlives a reset.
 */
const spare = new Map<string, Ms[]>();
afterAll(async () => {
  await Promise.all([...spare.values()].flat().map((ms) => ms.server.dispose()));
});

async function meili(masterKey?: string, env?: Record<string, string>, fresh = false): Promise<Ms> {
  const kind = JSON.stringify([masterKey ?? null, env ?? null]);
  const reused = fresh ? undefined : spare.get(kind)?.pop();
  const ms = reused ?? { server: await startServer({ args: ARGS, masterKey, env }), key: masterKey };
  cleanup.push(async () => {
    if (fresh || !(await reset(ms))) return ms.server.dispose();
    if (!spare.has(kind)) spare.set(kind, []);
    spare.get(kind)!.push(ms);
  });
  return ms;
}

/** Whether `ms` could be brought back to a fresh instance's state: no index, network, feature, rule or key of a case's. */
async function reset(ms: Ms): Promise<boolean> {
  try {
    const features = (await req(ms, 'GET', '/experimental-features')).body;
    if (features.network === true) {
      const network = (await req(ms, 'GET', '/network')).body;
      if (network.leader !== null || Object.keys(network.shards).length > 0) return false;
      if ((await req(ms, 'PATCH', '/network', { self: null, remotes: null })).status !== 200) return false;
    }
    const uids: number[] = [];
    const enqueue = async (method: string, route: string) => {
      const reply = await req(ms, method, route);
      if (reply.status !== 202) throw new Error(`${method} ${route}: ${reply.text}`);
      uids.push(reply.body.taskUid);
    };
    if (features.dynamicSearchRules === true) {
      for (const rule of (await req(ms, 'POST', '/dynamic-search-rules', {})).body.results) await enqueue('DELETE', `/dynamic-search-rules/${rule.uid}`);
    }
    for (const index of (await req(ms, 'GET', '/indexes?limit=1000')).body.results) await enqueue('DELETE', `/indexes/${index.uid}`);
    for (const uid of uids) if ((await waitTask(ms, uid)).status !== 'succeeded') return false;
    if (ms.key !== undefined) {
      for (const key of (await req(ms, 'GET', '/keys?limit=1000')).body.results) {
        if (!String(key.name).startsWith('Default ') && (await req(ms, 'DELETE', `/keys/${key.uid}`)).status !== 204) return false;
      }
    }
    const off = Object.fromEntries(Object.entries(features).filter(([, on]) => on === true).map(([name]) => [name, false]));
    return Object.keys(off).length === 0 || (await req(ms, 'PATCH', '/experimental-features', off)).status === 200;
  } catch {
    return false;
  }
}

function req(ms: Ms, method: string, route: string, body?: unknown): Promise<Reply> {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return callRaw(ms.server, method, route, text, {
    ...(ms.key === undefined ? {} : { authorization: `Bearer ${ms.key}` }),
    ...(text === undefined ? {} : { 'content-type': 'application/json' }),
  });
}

async function waitTask(ms: Ms, uid: number): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { status, body } = await req(ms, 'GET', `/tasks/${uid}`);
    if (status === 200 && ['succeeded', 'failed', 'canceled'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`task ${uid} still ${body?.status ?? status}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

async function succeed(ms: Ms, method: string, route: string, body: unknown): Promise<void> {
  const reply = await req(ms, method, route, body);
  expect(reply.status, reply.text).toBe(202);
  const task = await waitTask(ms, reply.body.taskUid);
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
}

async function enableNetwork(ms: Ms): Promise<void> {
  const reply = await req(ms, 'PATCH', '/experimental-features', { network: true });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.network).toBe(true);
}

/** `set_network({"self": name})` on a fresh instance, with its snapshot. */
async function setSelf(ms: Ms, name: string): Promise<void> {
  const reply = await req(ms, 'PATCH', '/network', { self: name });
  expect(reply.status, reply.text).toBe(200);
  expectJson({ ...reply.body, version: '[version]' }, { self: name, remotes: {}, shards: {}, leader: null, version: '[version]' });
}

async function setNetwork(ms: Ms, network: unknown): Promise<void> {
  const reply = await req(ms, 'PATCH', '/network', network);
  expect(reply.status, reply.text).toBe(200);
}

/** A `LocalMeili` in front of `ms`, closed after the test; its url. */
async function localMeili(ms: Ms, params: LocalMeiliParams = {}): Promise<string> {
  const proxy = await startLocalMeili(ms.server, params);
  cleanup.push(proxy.close);
  return proxy.url;
}

async function multiSearch(ms: Ms, body: unknown): Promise<Reply> {
  return req(ms, 'POST', '/multi-search', body);
}

/** A federated answer with `processingTimeMs` and `requestUid` redacted, compared as the snapshot. */
function expectFederated(reply: Reply, expected: Record<string, unknown>): void {
  expect(reply.status, reply.text).toBe(200);
  expect(typeof reply.body.processingTimeMs).toBe('number');
  expect(typeof reply.body.requestUid).toBe('string');
  expectJson(stableResponse(reply.body), expected);
}

const hit = (title: string, id: string, indexUid: string, queriesPosition: number, weightedRankingScore: number, remote: string) => ({
  title,
  id,
  _federation: { indexUid, queriesPosition, weightedRankingScore, remote },
});
const A = (remote = 'ms0', pos = 0, indexUid = 'test') => hit('Batman the dark knight returns: Part 1', 'A', indexUid, pos, 0.7028218694885362, remote);
const B = (remote = 'ms0', pos = 0, indexUid = 'test') => hit('Batman the dark knight returns: Part 2', 'B', indexUid, pos, 0.7028218694885362, remote);
const C = (remote = 'ms1', pos = 1, indexUid = 'test') => hit('Batman Returns', 'C', indexUid, pos, 0.8317901234567902, remote);
const D = (remote = 'ms2', pos = 2) => hit('Batman', 'D', 'test', pos, 0.23106060606060605, remote);
const E = (remote = 'ms2', pos = 2) => hit('Badman', 'E', 'test', pos, 0.5, remote);

function federated(hits: unknown[], estimatedTotalHits: number, remoteErrors: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { hits, processingTimeMs: '[duration]', limit: 20, offset: 0, estimatedTotalHits, ...extra, requestUid: '[uuid]', remoteErrors };
}

const QUERY = 'badman returns';
const remoteQuery = (remote: string, indexUid = 'test') => ({ q: QUERY, indexUid, federationOptions: { remote } });

const remoteError = (code: string, type: string, message: string) => errorBody(code, message, type);
const BAD_REQUEST_HINTS =
  '\n  - hint: check that the remote instance has the correct index configuration for that request\n  - hint: check that the `network` experimental feature is enabled on the remote instance';

/**
 * The common setup of the two-instance cases: ms0 holds SCORE_DOCUMENTS[0..2] in `index0`, ms1
 * SCORE_DOCUMENTS[2..3] in `index1`, both named with `self`, each behind a `LocalMeili`.
 */
async function twoInstances(options: { ms1?: Ms; index0?: string; index1?: string; rms1?: LocalMeiliParams; env?: Record<string, string> } = {}) {
  const [ms0, ms1] = await Promise.all([meili(undefined, options.env), options.ms1 ?? meili(undefined, options.env)]);
  await enableNetwork(ms0);
  await enableNetwork(ms1);
  await setSelf(ms0, 'ms0');
  await setSelf(ms1, 'ms1');
  await succeed(ms0, 'POST', `/indexes/${options.index0 ?? 'test'}/documents`, SCORE_DOCUMENTS.slice(0, 2));
  await succeed(ms1, 'POST', `/indexes/${options.index1 ?? 'test'}/documents`, SCORE_DOCUMENTS.slice(2, 3));
  const rms0 = await localMeili(ms0);
  const rms1 = await localMeili(ms1, options.rms1);
  return { ms0, ms1, rms0, rms1 };
}

describe('remote federated search (search/multi/proxy.rs)', () => {
  it('error_feature: remote and queryPosition need the network feature', async () => {
    const ms = await meili();
    expectError(
      await multiSearch(ms, { federation: {}, queries: [{ indexUid: 'test', federationOptions: { remote: 'toto' } }] }),
      400,
      'feature_not_enabled',
      'Inside `.queries[0]`: Performing a remote federated search requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805',
    );
    expectError(
      await multiSearch(ms, { federation: {}, queries: [{ indexUid: 'test', federationOptions: { queryPosition: 42 } }] }),
      400,
      'feature_not_enabled',
      'Inside `.queries[0]`: Using `federationOptions.queryPosition` requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805',
    );
  });

  it('error_params: remote must be a string, queryPosition a positive integer', async () => {
    const ms = await meili();
    expectError(
      await multiSearch(ms, { federation: {}, queries: [{ indexUid: 'test', federationOptions: { remote: 42 } }] }),
      400,
      'invalid_multi_search_remote',
      'Invalid value type at `.queries[0].federationOptions.remote`: expected a string, but found a positive integer: `42`',
    );
    expectError(
      await multiSearch(ms, { federation: {}, queries: [{ indexUid: 'test', federationOptions: { queryPosition: 'toto' } }] }),
      400,
      'invalid_multi_search_query_position',
      'Invalid value type at `.queries[0].federationOptions.queryPosition`: expected a positive integer, but found a string: `"toto"`',
    );
  });

  it('remote_sharding: three instances merge their hits by weighted ranking score, whichever is asked', async () => {
    const [ms0, ms1, ms2] = await Promise.all([meili(), meili(), meili()]);
    for (const ms of [ms0, ms1, ms2]) await enableNetwork(ms);
    await setSelf(ms0, 'ms0');
    await setSelf(ms1, 'ms1');
    await setSelf(ms2, 'ms2');
    await succeed(ms0, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(0, 2));
    await succeed(ms1, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(2, 3));
    await succeed(ms2, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(3, 5));
    const network = { remotes: { ms0: { url: await localMeili(ms0) }, ms1: { url: await localMeili(ms1) }, ms2: { url: await localMeili(ms2) } } };
    for (const ms of [ms0, ms1, ms2]) await setNetwork(ms, network);
    const request = { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1'), remoteQuery('ms2')] };
    for (const ms of [ms0, ms1, ms2]) expectFederated(await multiSearch(ms, request), federated([C(), A(), B(), E(), D()], 5));
  });

  it('error_unregistered_remote: a query naming an unknown remote is refused', async () => {
    const { ms0, ms1, rms0, rms1 } = await twoInstances();
    const network = { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } };
    await setNetwork(ms0, network);
    await setNetwork(ms1, network);
    const request = { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1'), remoteQuery('ms2')] };
    for (const ms of [ms0, ms1]) {
      expectError(
        await multiSearch(ms, request),
        400,
        'invalid_multi_search_remote',
        'Inside `.queries[2]`: Invalid `.federation_options.remote`: remote `ms2` is not registered',
      );
    }
  });

  it('error_no_weighted_score: a remote answering without the proxy header’s score values is a remote_bad_response', async () => {
    const { ms0, rms0, rms1 } = await twoInstances({ rms1: { gobbleHeaders: true } });
    await setNetwork(ms0, { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } });
    expectFederated(
      await multiSearch(ms0, { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1')] }),
      federated([A(), B()], 2, {
        ms1: remoteError(
          'remote_bad_response',
          'system',
          'remote hit does not contain `._federation.weightedScoreValues`\n  - hint: check that the remote instance is a Meilisearch instance running the same version',
        ),
      }),
    );
  });

  it('error_bad_response: a remote answering HTML is a remote_bad_response quoting it', async () => {
    const { ms0, rms0, rms1 } = await twoInstances({ rms1: { overrideResponseBody: '<html>Returning an HTML page</html>' } });
    await setNetwork(ms0, { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } });
    expectFederated(
      await multiSearch(ms0, { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1')] }),
      federated([A(), B()], 2, {
        ms1: remoteError(
          'remote_bad_response',
          'system',
          'could not parse response from the remote host as a federated search response:\n  - response from remote: <html>Returning an HTML page</html>\n  - hint: check that the remote instance is a Meilisearch instance running the same version',
        ),
      }),
    );
  });

  it('error_bad_request: a remote 400 (missing index) is a remote_bad_request quoting the remote error', async () => {
    const { ms0, rms0, rms1 } = await twoInstances();
    await setNetwork(ms0, { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } });
    expectFederated(
      await multiSearch(ms0, { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1', 'nottest')] }),
      federated([A(), B()], 2, {
        ms1: remoteError(
          'remote_bad_request',
          'invalid_request',
          'remote host responded with code 400:\n  - response from remote: {"message":"Inside `.queries[1]`: Index `nottest` not found.","code":"index_not_found","type":"invalid_request","link":"https://docs.meilisearch.com/errors#index_not_found"}' +
            BAD_REQUEST_HINTS,
        ),
      }),
    );
  });

  it('error_bad_request_facets_by_index: facetsByIndex naming an index the remote lacks fails that remote only', async () => {
    const { ms0, rms0, rms1 } = await twoInstances({ index0: 'test0', index1: 'test1' });
    await setNetwork(ms0, { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } });
    expectFederated(
      await multiSearch(ms0, { federation: { facetsByIndex: { test0: [] } }, queries: [remoteQuery('ms0', 'test0'), remoteQuery('ms1', 'test1')] }),
      federated(
        [A('ms0', 0, 'test0'), B('ms0', 0, 'test0')],
        2,
        {
          ms1: remoteError(
            'remote_bad_request',
            'invalid_request',
            'remote host responded with code 400:\n  - response from remote: {"message":"Inside `.federation.facetsByIndex.test0`: Index `test0` not found.\\n - Note: index `test0` is not used in queries","code":"index_not_found","type":"invalid_request","link":"https://docs.meilisearch.com/errors#index_not_found"}' +
              BAD_REQUEST_HINTS,
          ),
        },
        { facetsByIndex: { test0: { distribution: {}, stats: {} } } },
      ),
    );
  });

  it('error_bad_request_facets_by_index_facet: a facet not filterable on the remote fails that remote only', async () => {
    const { ms0, rms0, rms1 } = await twoInstances();
    await succeed(ms0, 'PATCH', '/indexes/test/settings', { filterableAttributes: ['id'] });
    await setNetwork(ms0, { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } });
    expectFederated(
      await multiSearch(ms0, { federation: { facetsByIndex: { test: ['id'] } }, queries: [remoteQuery('ms0'), remoteQuery('ms1')] }),
      federated(
        [A(), B()],
        2,
        {
          ms1: remoteError(
            'remote_bad_request',
            'invalid_request',
            'remote host responded with code 400:\n  - response from remote: {"message":"Inside `.queries[1]`: Inside `.federation.facetsByIndex.test`: Invalid facet distribution: Pattern `id` is not filterable. This index does not have configured filterable attributes.","code":"invalid_search_facets","type":"invalid_request","link":"https://docs.meilisearch.com/errors#invalid_search_facets"}' +
              BAD_REQUEST_HINTS,
          ),
        },
        { facetsByIndex: { test: { distribution: { id: { A: 1, B: 1 } }, stats: {} } } },
      ),
    );
  });

  it('error_remote_sharding_auth: remote keys without the index or without `search` give remote_invalid_api_key', async () => {
    const ms1: Ms = await meili('MASTER_KEY');
    const addKey = async (actions: string[], indexes: string[]) => {
      const reply = await req(ms1, 'POST', '/keys', { actions, indexes, expiresAt: null });
      expect(reply.status, reply.text).toBe(201);
      return reply.body.key as string;
    };
    const notEnoughIndexes = await addKey(['search'], ['nottest']);
    const notSearch = await addKey(['documents.*'], ['*']);
    const { ms0, rms0, rms1 } = await twoInstances({ ms1 });
    await setNetwork(ms0, {
      remotes: { ms0: { url: rms0 }, 'ms1-nottest': { url: rms1, searchApiKey: notEnoughIndexes }, 'ms1-notsearch': { url: rms1, searchApiKey: notSearch } },
    });
    const invalidKey = remoteError(
      'remote_invalid_api_key',
      'auth',
      'could not authenticate against the remote host\n  - hint: check that the remote instance was registered with a valid API key having the `search` action',
    );
    expectFederated(
      await multiSearch(ms0, { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1-nottest'), remoteQuery('ms1-notsearch')] }),
      federated([A(), B()], 2, { 'ms1-notsearch': invalidKey, 'ms1-nottest': invalidKey }),
    );
  });

  it('remote_sharding_auth: a remote is searched with its registered master or search key', async () => {
    const ms1: Ms = await meili('MASTER_KEY');
    const reply = await req(ms1, 'POST', '/keys', { actions: ['search'], indexes: ['*'], expiresAt: null });
    expect(reply.status, reply.text).toBe(201);
    const searchApiKey = reply.body.key as string;
    const { ms0, rms0, rms1 } = await twoInstances({ ms1 });
    await setNetwork(ms0, {
      remotes: { ms0: { url: rms0 }, ms1: { url: rms1, searchApiKey: 'MASTER_KEY' }, 'ms1-alias': { url: rms1, searchApiKey } },
    });
    expectFederated(
      await multiSearch(ms0, { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1'), remoteQuery('ms1-alias')] }),
      federated([C(), C('ms1-alias', 2), A(), B()], 4),
    );
  });

  it('error_remote_500: a remote always answering 500 is a remote_remote_error quoting its body', async () => {
    const { ms0, ms1, rms0, rms1 } = await twoInstances({ rms1: { fails: 'always' } });
    const network = { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } };
    await setNetwork(ms0, network);
    await setNetwork(ms1, network);
    const request = { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1')] };
    expectFederated(
      await multiSearch(ms0, request),
      federated([A(), B()], 2, {
        ms1: remoteError(
          'remote_remote_error',
          'system',
          'remote host responded with code 500:\n  - response from remote: {"error":"provoked error","code":"test_error","link":"https://docs.meilisearch.com/errors#test_error"}',
        ),
      }),
    );
    // the answer is full when asking the instance that works
    expectFederated(await multiSearch(ms1, request), federated([C(), A(), B()], 3));
  });

  it('error_remote_500_once: a single 500 is retried', async () => {
    const { ms0, ms1, rms0, rms1 } = await twoInstances({ rms1: { fails: 'once' } });
    const network = { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } };
    await setNetwork(ms0, network);
    await setNetwork(ms1, network);
    const request = { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1')] };
    expectFederated(await multiSearch(ms0, request), federated([C(), A(), B()], 3));
    expectFederated(await multiSearch(ms1, request), federated([C(), A(), B()], 3));
  });

  // `#[ignore]` upstream (a 31 s delay against the 25 s default deadline, and a snapshot of the
  // network predating `shards`/`leader`); here the deadline is shortened with
  // MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS, which v1.50 reads per request (proxy.rs
  // `ProxySearchParams::new_with_deadline_from_env`), and the answers are v1.50's current shape.
  it('error_remote_timeout: a remote that does not answer before the deadline is a remote_timeout', async () => {
    const env = { MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS: '1' };
    const { ms0, ms1, rms0, rms1 } = await twoInstances({ rms1: { delayMs: 3_000 }, env });
    const network = { remotes: { ms0: { url: rms0 }, ms1: { url: rms1 } } };
    await setNetwork(ms0, network);
    await setNetwork(ms1, network);
    const request = { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1')] };
    expectFederated(
      await multiSearch(ms0, request),
      federated([A(), B()], 2, { ms1: remoteError('remote_timeout', 'system', 'remote host did not answer before the deadline') }),
    );
    expectFederated(await multiSearch(ms1, request), federated([C(), A(), B()], 3));
  });
  it('remote_sharding_federated_pattern_facets: a replicated shard answers facet patterns once, from the leader', async () => {
    const [ms0, ms1, ms2] = await Promise.all([0, 1, 2].map(() => meili(undefined, undefined, true)));
    for (const ms of [ms0, ms1, ms2]) await enableNetwork(ms);
    await setSelf(ms0, 'ms0');
    await setSelf(ms1, 'ms1');
    await setSelf(ms2, 'ms2');
    const [rms0, rms1, rms2] = [await localMeili(ms0), await localMeili(ms1), await localMeili(ms2)];
    const network = await req(ms0, 'PATCH', '/network', {
      self: 'ms0',
      leader: 'ms0',
      remotes: { ms0: { url: rms0 }, ms1: { url: rms1 }, ms2: { url: rms2 } },
      // full replication
      shards: { shard1: { remotes: ['ms0', 'ms1', 'ms2'] } },
    });
    expect(network.status, network.text).toBe(202);
    /** waits for a leader task and for the tasks it registered on ms1 and ms2 */
    const waitEverywhere = async (uid: number) => {
      expect((await waitTask(ms0, uid)).status).toBe('succeeded');
      const task = (await req(ms0, 'GET', `/tasks/${uid}`)).body;
      const t1 = task?.network?.remote_tasks?.ms1?.taskUid;
      const t2 = task?.network?.remote_tasks?.ms2?.taskUid;
      expect(typeof t1, JSON.stringify(task)).toBe('number');
      expect(typeof t2, JSON.stringify(task)).toBe('number');
      expect((await waitTask(ms1, t1)).status).toBe('succeeded');
      expect((await waitTask(ms2, t2)).status).toBe('succeeded');
    };
    await waitEverywhere(network.body.taskUid);
    const features = { facetSearch: true, filter: { equality: true, comparison: true } };
    await succeed(ms0, 'PUT', '/indexes/test/settings/filterable-attributes', [{ attributePatterns: ['doggos.*'], features }]);
    const added = await req(ms0, 'POST', '/indexes/test/documents', NESTED_DOCUMENTS);
    expect(added.status, added.text).toBe(202);
    await waitEverywhere(added.body.taskUid);

    const fed = { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: 'ms0' };
    const expected = {
      hits: [
        { id: 852, father: 'jean', mother: 'michelle', doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }], cattos: 'pésti', _federation: fed },
        { id: 654, father: 'pierre', mother: 'sabine', doggos: [{ name: 'gros bill', age: 8 }], cattos: ['simba', 'pestiféré'], _federation: fed },
        { id: 750, father: 'romain', mother: 'michelle', cattos: ['enigma'], _federation: fed },
        { id: 951, father: 'jean-baptiste', mother: 'sophie', doggos: [{ name: 'turbo', age: 5 }, { name: 'fast', age: 6 }], cattos: ['moumoute', 'gomez'], _federation: fed },
      ],
      query: '',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 4,
      facetDistribution: {
        'doggos.age': { '2': 1, '4': 1, '5': 1, '6': 1, '8': 1 },
        'doggos.name': { bobby: 1, buddy: 1, fast: 1, 'gros bill': 1, turbo: 1 },
      },
      facetStats: { 'doggos.age': { min: 2.0, max: 8.0 } },
      requestUid: '[uuid]',
      remoteErrors: {},
    };
    expectFederated(await req(ms0, 'POST', '/indexes/test/search', { q: null, facets: ['doggos.name', 'doggos.age'], useNetwork: true }), expected);
    await succeed(ms0, 'PUT', '/indexes/test/settings/filterable-attributes', [{ attributePatterns: ['doggos.name', 'doggos.age'], features }]);
    expectFederated(await req(ms0, 'POST', '/indexes/test/search', { q: null, facets: ['doggos.*'], useNetwork: true }), expected);
  });

  it('remote_sharding_auto_search: useNetwork on an index search federates over every remote', async () => {
    const [ms0, ms1, ms2] = await Promise.all([meili(), meili(), meili()]);
    for (const ms of [ms0, ms1, ms2]) await enableNetwork(ms);
    await setSelf(ms0, 'ms0');
    await setSelf(ms1, 'ms1');
    await setSelf(ms2, 'ms2');
    await succeed(ms0, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(0, 2));
    await succeed(ms1, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(2, 3));
    await succeed(ms2, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(3, 5));
    const network = { remotes: { ms0: { url: await localMeili(ms0) }, ms1: { url: await localMeili(ms1) }, ms2: { url: await localMeili(ms2) } } };
    for (const ms of [ms0, ms1, ms2]) await setNetwork(ms, network);
    const request = { q: QUERY, useNetwork: true };
    const expected = {
      hits: [C('ms1', 0), A('ms0', 0), B('ms0', 0), E('ms2', 0), D('ms2', 0)],
      query: QUERY,
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 5,
      requestUid: '[uuid]',
      remoteErrors: {},
    };
    for (const ms of [ms0, ms1, ms2]) expectFederated(await req(ms, 'POST', '/indexes/test/search', request), expected);
    const detailed = await req(ms2, 'POST', '/indexes/test/search', { ...request, showPerformanceDetails: true });
    expect(detailed.status, detailed.text).toBe(200);
    expect(typeof detailed.body.performanceDetails === 'object' && detailed.body.performanceDetails !== null && !Array.isArray(detailed.body.performanceDetails)).toBe(true);
  });

  it('remote_search_filters_out_pinned_documents_excluded_by_filters: a remote pin the filter excludes is not returned', async () => {
    const [ms0, ms1] = await Promise.all([meili(), meili()]);
    await enableNetwork(ms0);
    await enableNetwork(ms1);
    const dsr = await req(ms1, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
    expect(dsr.status, dsr.text).toBe(200);
    expect(dsr.body.dynamicSearchRules).toBe(true);
    await succeed(ms0, 'PUT', '/indexes/test/settings/filterable-attributes', ['kind']);
    await succeed(ms1, 'PUT', '/indexes/test/settings/filterable-attributes', ['kind']);
    await succeed(ms0, 'POST', '/indexes/test/documents', [{ id: 'local-non-match', title: 'Spider-Man', kind: 'keep' }]);
    await succeed(ms1, 'POST', '/indexes/test/documents', [
      { id: 'remote-keep', title: 'Batman Returns', kind: 'keep' },
      { id: 'remote-filtered', title: 'The Matrix', kind: 'drop' },
    ]);
    await succeed(ms1, 'PATCH', '/dynamic-search-rules/pin-filtered-remote', {
      active: true,
      conditions: { query: { words: 'returns' } },
      actions: [{ selector: { id: 'remote-filtered' }, action: { type: 'pin', position: 0 } }],
    });
    const network = { remotes: { ms0: { url: await localMeili(ms0) }, ms1: { url: await localMeili(ms1) } } };
    await setNetwork(ms0, network);
    await setNetwork(ms1, network);
    expectFederated(await req(ms0, 'POST', '/indexes/test/search', { q: 'Batman Returns', filter: 'kind = keep', useNetwork: true }), {
      hits: [{ id: 'remote-keep', title: 'Batman Returns', kind: 'keep', _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: 'ms1' } }],
      query: 'Batman Returns',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
      remoteErrors: {},
    });
  });

  it('remote_search_keeps_remote_pins: a document pinned on a remote comes first in the merged hits', async () => {
    const [ms0, ms1] = await Promise.all([meili(), meili()]);
    await enableNetwork(ms0);
    await enableNetwork(ms1);
    const dsr = await req(ms1, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
    expect(dsr.status, dsr.text).toBe(200);
    expect(dsr.body.dynamicSearchRules).toBe(true);
    await succeed(ms0, 'POST', '/indexes/test/documents', [{ id: 'local', title: 'Batman Returns' }]);
    await succeed(ms1, 'POST', '/indexes/test/documents', [{ id: 'remote', title: 'Batman' }]);
    await succeed(ms1, 'PATCH', '/dynamic-search-rules/pin-remote', {
      active: true,
      actions: [{ selector: { id: 'remote' }, action: { type: 'pin', position: 0 } }],
    });
    const network = { remotes: { ms0: { url: await localMeili(ms0) }, ms1: { url: await localMeili(ms1) } } };
    await setNetwork(ms0, network);
    await setNetwork(ms1, network);
    const reply = await req(ms0, 'POST', '/indexes/test/search', { q: 'batman returns', useNetwork: true });
    expect(reply.status, reply.text).toBe(200);
    // snapshots/proxy.rs/remote_search_keeps_remote_pins/1.snap
    expectJson(reply.body.hits, [
      { id: 'remote', title: 'Batman', _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: 'ms1' } },
      { id: 'local', title: 'Batman Returns', _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore: 1.0, remote: 'ms0' } },
    ]);
  });

  /**
   * The pin cases' two instances: ms0 holding `local`, ms1 holding `remote` with dynamic search
   * rules on and `rule` as `pin-rule`, both filterable on `filterable`, a network of the two (no
   * `self`), each behind a `LocalMeili`. Returns ms0.
   */
  async function pinNetwork(local: unknown[], remote: unknown[], rule: unknown, filterable: string[] = []): Promise<Ms> {
    const [ms0, ms1] = await Promise.all([meili(), meili()]);
    await enableNetwork(ms0);
    await enableNetwork(ms1);
    const dsr = await req(ms1, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
    expect(dsr.status, dsr.text).toBe(200);
    for (const ms of [ms0, ms1]) if (filterable.length > 0) await succeed(ms, 'PUT', '/indexes/test/settings/filterable-attributes', filterable);
    await succeed(ms0, 'POST', '/indexes/test/documents', local);
    await succeed(ms1, 'POST', '/indexes/test/documents', remote);
    await succeed(ms1, 'PATCH', '/dynamic-search-rules/pin-rule', rule);
    const network = { remotes: { ms0: { url: await localMeili(ms0) }, ms1: { url: await localMeili(ms1) } } };
    await setNetwork(ms0, network);
    await setNetwork(ms1, network);
    return ms0;
  }

  const remoteHit = (id: string, title: string, extra: Record<string, unknown> = {}, weightedRankingScore: unknown = 1.0) => ({
    id,
    title,
    ...extra,
    _federation: { indexUid: 'test', queriesPosition: 0, weightedRankingScore, remote: 'ms1' },
  });
  const pinRule = (id: string, position: number, words?: string) => ({
    active: true,
    ...(words === undefined ? {} : { conditions: { query: { words } } }),
    actions: [{ selector: { id }, action: { type: 'pin', position } }],
  });
  const scoreless = (body: any) => ({ ...stableResponse(body), hits: body.hits.map((hit: any) => ({ ...hit, _federation: { ...hit._federation, weightedRankingScore: '[score]' } })) });

  it('remote_search_pagination_counts_pins_that_miss_query: a remote pin the query misses counts in the pages', async () => {
    const ms0 = await pinNetwork(
      [{ id: 'local-non-match', title: 'Spider-Man' }],
      [
        { id: 'remote-organic', title: 'Batman Returns' },
        { id: 'remote-pinned', title: 'The Matrix' },
      ],
      pinRule('remote-pinned', 0, 'returns'),
    );
    const reply = await req(ms0, 'POST', '/indexes/test/search', { q: 'Batman Returns', page: 2, hitsPerPage: 1, useNetwork: true });
    expectFederated(reply, {
      hits: [remoteHit('remote-organic', 'Batman Returns')],
      query: 'Batman Returns',
      processingTimeMs: '[duration]',
      hitsPerPage: 1,
      page: 2,
      totalPages: 2,
      totalHits: 2,
      requestUid: '[uuid]',
      remoteErrors: {},
    });
  });

  it('remote_search_pumps_pins_when_organic_results_run_out: remote pins past the ranked hits follow them', async () => {
    const ms0 = await pinNetwork(
      [{ id: 'local-non-match', title: 'Spider-Man' }],
      [
        { id: 'organic-1', title: 'Batman Returns' },
        { id: 'late-pin-1', title: 'The Matrix' },
        { id: 'organic-2', title: 'Batman Forever' },
        { id: 'late-pin-2', title: 'Superman' },
      ],
      {
        active: true,
        conditions: { query: { words: 'batman' } },
        actions: [
          { selector: { id: 'late-pin-1' }, action: { type: 'pin', position: 10 } },
          { selector: { id: 'late-pin-2' }, action: { type: 'pin', position: 20 } },
        ],
      },
    );
    const hits = [
      remoteHit('organic-1', 'Batman Returns', {}, '[score]'),
      remoteHit('organic-2', 'Batman Forever', {}, '[score]'),
      remoteHit('late-pin-1', 'The Matrix', {}, '[score]'),
      remoteHit('late-pin-2', 'Superman', {}, '[score]'),
    ];
    const page = (body: unknown, limit: number, offset: number, shown: unknown[]) => {
      const reply = body as Reply;
      expect(reply.status, reply.text).toBe(200);
      expectJson(scoreless(reply.body), { hits: shown, query: 'Batman', processingTimeMs: '[duration]', limit, offset, estimatedTotalHits: 4, requestUid: '[uuid]', remoteErrors: {} });
    };
    page(await req(ms0, 'POST', '/indexes/test/search', { q: 'Batman', limit: 10, useNetwork: true }), 10, 0, hits);
    page(await req(ms0, 'POST', '/indexes/test/search', { q: 'Batman', offset: 2, limit: 2, useNetwork: true }), 2, 2, hits.slice(2));
  });

  it('remote_search_facet_distribution_counts_pins_that_miss_query: a remote pin the query misses counts in the facets', async () => {
    const ms0 = await pinNetwork(
      [{ id: 'local-non-match', title: 'Spider-Man', color: 'green' }],
      [
        { id: 'remote-organic', title: 'Batman Returns', color: 'red' },
        { id: 'remote-pinned', title: 'The Matrix', color: 'blue' },
      ],
      pinRule('remote-pinned', 0, 'returns'),
      ['color'],
    );
    const reply = await req(ms0, 'POST', '/indexes/test/search', { q: 'Batman Returns', facets: ['color'], useNetwork: true });
    expectFederated(reply, {
      hits: [remoteHit('remote-pinned', 'The Matrix', { color: 'blue' }), remoteHit('remote-organic', 'Batman Returns', { color: 'red' })],
      query: 'Batman Returns',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 2,
      facetDistribution: { color: { blue: 1, red: 1 } },
      facetStats: {},
      requestUid: '[uuid]',
      remoteErrors: {},
    });
  });

  /**
   * `remote_auto_sharding`'s network: three instances, each its own shard, ms0 the leader, each
   * behind a `LocalMeili`, set once `before` has run; the leader's network task and the tasks it
   * sent the others succeed.
   */
  async function shardedNetwork(before: (servers: Ms[]) => Promise<void> = async () => {}): Promise<Ms[]> {
    const servers = await Promise.all([0, 1, 2].map(() => meili(undefined, undefined, true)));
    for (const ms of servers) await enableNetwork(ms);
    await before(servers);
    const urls = await Promise.all(servers.map((ms) => localMeili(ms)));
    const names = ['ms0', 'ms1', 'ms2'];
    const network = {
      self: 'ms0',
      leader: 'ms0',
      remotes: Object.fromEntries(names.map((name, i) => [name, { url: urls[i] }])),
      shards: Object.fromEntries(names.map((name) => [name, { remotes: [name] }])),
    };
    const reply = await req(servers[0]!, 'PATCH', '/network', network);
    expect(reply.status, reply.text).toBe(202);
    await succeededEverywhere(servers, reply.body.taskUid);
    for (const [i, ms] of servers.entries()) {
      const got = await req(ms, 'GET', '/network');
      expect(got.status).toBe(200);
      const redacted = { ...got.body, version: '[version]', remotes: Object.fromEntries(Object.entries(got.body.remotes).map(([name, remote]: [string, any]) => [name, { ...remote, url: '[url]' }])) };
      expectJson(redacted, {
        self: names[i],
        remotes: Object.fromEntries(names.map((name) => [name, { url: '[url]', searchApiKey: null, writeApiKey: null, status: 'available' }])),
        shards: network.shards,
        leader: 'ms0',
        version: '[version]',
      });
    }
    return servers;
  }

  /** The leader's task `uid` and the tasks it sent ms1 and ms2 (its `network.remote_tasks`) all succeed. */
  async function succeededEverywhere(servers: Ms[], uid: number): Promise<void> {
    const task = (await req(servers[0]!, 'GET', `/tasks/${uid}`)).body;
    const sent = [1, 2].map((i) => task.network.remote_tasks[`ms${i}`].taskUid as number);
    expect((await waitTask(servers[0]!, uid)).status).toBe('succeeded');
    for (const [i, taskUid] of sent.entries()) expect((await waitTask(servers[i + 1]!, taskUid)).status).toBe('succeeded');
  }

  it('remote_auto_sharding: documents sent to the leader are spread over the shards and every instance federates them alike', async () => {
    const servers = await shardedNetwork();
    const reply = await req(servers[0]!, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS);
    expect(reply.status, reply.text).toBe(202);
    await succeededEverywhere(servers, reply.body.taskUid);
    const request = { federation: {}, queries: [remoteQuery('ms0'), remoteQuery('ms1'), remoteQuery('ms2')] };
    for (const ms of servers) {
      expectFederated(await multiSearch(ms, request), federated([C('ms2', 2), A('ms1', 1), B('ms1', 1), E('ms2', 2), D('ms0', 0)], 5));
    }
  });

  it('remote_auto_sharding_with_custom_metadata: customMetadata follows a write to the shards, and each task says where it comes from', async () => {
    const servers = await shardedNetwork();
    const metadata = 'remote_auto_sharding_with_custom_metadata';
    const reply = await req(servers[0]!, 'POST', `/indexes/test/documents?customMetadata=${metadata}`, SCORE_DOCUMENTS);
    expect(reply.status, reply.text).toBe(202);
    await succeededEverywhere(servers, reply.body.taskUid);
    const stable = (task: any) => {
      const { uid: _uid, batchUid: _batch, duration: _duration, enqueuedAt: _enqueued, startedAt: _started, finishedAt: _finished, ...rest } = task;
      const network = rest.network.origin === undefined ? { ...rest.network, network_version: '[version]' } : { origin: { ...rest.network.origin, networkVersion: '[version]' } };
      return { ...rest, network };
    };
    const task = (indexed: number, network: unknown) => ({
      indexUid: 'test',
      status: 'succeeded',
      type: 'documentAdditionOrUpdate',
      canceledBy: null,
      details: { receivedDocuments: 5, indexedDocuments: indexed },
      error: null,
      network,
      customMetadata: metadata,
    });
    expectJson(
      stable((await req(servers[0]!, 'GET', `/tasks/${reply.body.taskUid}`)).body),
      task(1, { remote_tasks: { ms1: { taskUid: 1, error: null }, ms2: { taskUid: 1, error: null } }, network_version: '[version]' }),
    );
    for (const ms of servers.slice(1)) {
      expectJson(stable((await req(ms, 'GET', '/tasks/1')).body), task(2, { origin: { remoteName: 'ms0', taskUid: 1, networkVersion: '[version]' } }));
    }
  });

  it('remote_auto_sharding_dsrs: sharding copies the leader’s dynamic search rules to the shards, drops theirs, and forwards new ones', async () => {
    const rule = (position: number) => ({ active: true, actions: [{ selector: { id: 'remote' }, action: { type: 'pin', position } }] });
    const servers = await shardedNetwork(async ([ms0, ms1, ms2]) => {
      for (const ms of [ms0!, ms1!, ms2!]) expect((await req(ms, 'PATCH', '/experimental-features', { dynamicSearchRules: true })).status).toBe(200);
      await succeed(ms0!, 'PATCH', '/dynamic-search-rules/propagated-to-all-remotes', rule(0));
      await succeed(ms1!, 'PATCH', '/dynamic-search-rules/deleted-after-sharding', rule(2));
    });
    const listed = (uids: [string, number][]) => ({
      results: uids.map(([uid, position]) => ({ uid, active: true, conditions: {}, actions: rule(position).actions })),
      offset: 0,
      limit: 20,
      total: uids.length,
    });
    const rules = async (ms: Ms) => {
      const reply = await req(ms, 'POST', '/dynamic-search-rules', {});
      expect(reply.status, reply.text).toBe(200);
      return reply.body;
    };
    for (const ms of servers) expectJson(await rules(ms), listed([['propagated-to-all-remotes', 0]]));
    const reply = await req(servers[0]!, 'PATCH', '/dynamic-search-rules/propagated-too', rule(1));
    expect(reply.status, reply.text).toBe(202);
    await succeededEverywhere(servers, reply.body.taskUid);
    for (const ms of servers) expectJson(await rules(ms), listed([['propagated-to-all-remotes', 0], ['propagated-too', 1]]));
  });

  it('remote_sharding_federated_auto_search: federated queries with useNetwork search every remote, whichever instance is asked', async () => {
    const [ms0, ms1, ms2] = await Promise.all([meili(), meili(), meili()]);
    for (const ms of [ms0, ms1, ms2]) await enableNetwork(ms);
    await setSelf(ms0, 'ms0');
    await setSelf(ms1, 'ms1');
    await setSelf(ms2, 'ms2');
    await succeed(ms0, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(0, 2));
    await succeed(ms1, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(2, 3));
    await succeed(ms2, 'POST', '/indexes/test/documents', SCORE_DOCUMENTS.slice(3, 5));
    const network = { remotes: { ms0: { url: await localMeili(ms0) }, ms1: { url: await localMeili(ms1) }, ms2: { url: await localMeili(ms2) } } };
    for (const ms of [ms0, ms1, ms2]) await setNetwork(ms, network);
    const request = {
      federation: {},
      queries: [
        { q: 'badman', indexUid: 'test', useNetwork: true },
        { q: 'returns', indexUid: 'test', useNetwork: true },
      ],
    };
    const hits = [
      hit('Badman', 'E', 'test', 0, 1.0, 'ms2'),
      hit('Batman Returns', 'C', 'test', 1, 0.9242424242424242, 'ms1'),
      hit('Batman the dark knight returns: Part 1', 'A', 'test', 1, 0.8787878787878788, 'ms0'),
      hit('Batman the dark knight returns: Part 2', 'B', 'test', 1, 0.8787878787878788, 'ms0'),
      hit('Batman', 'D', 'test', 0, 0.4621212121212121, 'ms2'),
    ];
    for (const ms of [ms0, ms1, ms2]) expectFederated(await multiSearch(ms, request), federated(hits, 5));
  });

  it('remote_sharding_retrieve_vectors: queryVectors gathers every semantic query’s vector from the instance that embedded it', async () => {
    const servers = await Promise.all([meili(), meili(), meili()]);
    const embedder = await mockEmbedder((req) => {
      const text = String(req.body).toLowerCase();
      const patterns: [string, number[]][] = [
        ['batman', [1.0, 0.0, 0.0]],
        ['dark', [0.0, 0.1, 0.0]],
        ['knight', [0.1, 0.1, 0.0]],
        ['returns', [0.0, 0.0, 0.2]],
        ['part', [0.05, 0.1, 0.0]],
        ['1', [0.3, 0.05, 0.0]],
        ['2', [0.2, 0.05, 0.0]],
      ];
      const embedding = [0, 0, 0];
      for (const [pattern, vector] of patterns) if (text.includes(pattern)) vector.forEach((v, i) => (embedding[i]! += v));
      return { status: 200, text: JSON.stringify({ data: embedding }) };
    });
    cleanup.push(() => embedder.close());
    for (const [i, ms] of servers.entries()) {
      await enableNetwork(ms);
      await setSelf(ms, `ms${i}`);
      await succeed(ms, 'PATCH', '/indexes/test/settings', {
        embedders: { rest: { source: 'rest', url: embedder.url, dimensions: 3, request: '{{text}}', response: { data: '{{embedding}}' }, documentTemplate: '{{doc.name}}' } },
      });
    }
    const network = { remotes: Object.fromEntries(await Promise.all(servers.map(async (ms, i) => [`ms${i}`, { url: await localMeili(ms) }]))) };
    for (const ms of servers) await setNetwork(ms, network);
    const query = (q: string, remote: string, semanticRatio = 1.0) => ({ q, indexUid: 'test', hybrid: { semanticRatio, embedder: 'rest' }, retrieveVectors: true, federationOptions: { remote } });
    const vectors = { 0: [1.0, 0.0, 0.0], 1: [0.1, 0.2, 0.0], 2: [0.0, 0.0, 0.2] };
    const answer = (queryVectors: Record<number, number[]>, semanticHitCount?: number) => ({
      hits: [],
      queryVectors,
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 0,
      requestUid: '[uuid]',
      remoteErrors: {},
      ...(semanticHitCount === undefined ? {} : { semanticHitCount }),
    });
    const search = (...queries: unknown[]) => multiSearch(servers[0]!, { federation: {}, queries });
    expectFederated(await search(query('batman', 'ms0'), query('dark knight', 'ms1'), query('returns', 'ms2')), answer(vectors, 0));
    expectFederated(await search(query('batman', 'ms0'), query('dark knight', 'ms0'), query('returns', 'ms2')), answer(vectors, 0));
    expectFederated(await search(query('batman', 'ms0'), query('dark knight', 'ms1'), query('returns', 'ms1')), answer(vectors, 0));
    expectFederated(await search(query('batman', 'ms0'), query('dark knight', 'ms1', 0.0), query('returns', 'ms1')), answer({ 0: vectors[0], 2: vectors[2] }, 0));
    expectFederated(await search(query('batman', 'ms1'), query('dark knight', 'ms1'), query('returns', 'ms1')), answer(vectors));
  });
});
