/**
 * The write path of a sharded network (network.md §5, §8): the real server leads a network of
 * itself, two mock remotes (loopback HTTP servers that record what they receive) and a second
 * Quarry instance. Its writes
 * are registered, re-sent to both remotes before the 202 (same method, path and query, the
 * remote's write key, the origin headers, documents as NDJSON, settings as a settings object), and
 * each remote's task or error lands in the task's `network`; forwarded writes are accepted with
 * their origin unless their network version is old, and a node that does not lead refuses
 * clients' writes.
 *
 * A leader with other remotes cannot be set through `PATCH /network` yet (topology, issue 26): the
 * test writes that network into the stopped server's store, then restarts it.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openInstanceStore } from '../../../src/store/env.js';
import { MAIN_KEYS } from '../../../src/store/dbs.js';
import { call, callRaw, errorBody, waitTask } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A remote that records every request and answers as `answer` says (a task, by default). */
class MockRemote {
  readonly hits: Hit[] = [];
  answer: (hit: Hit, res: ServerResponse) => void = (_hit, res) => this.accept(res);
  private nextUid = 100;
  private readonly server: Server;
  url = '';

  constructor(private readonly base: number) {
    this.nextUid = base;
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const hit = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
        this.hits.push(hit);
        this.answer(hit, res);
      });
    });
  }

  accept(res: ServerResponse): void {
    const task = { taskUid: this.nextUid++, indexUid: null, status: 'enqueued', type: 'documentAdditionOrUpdate', enqueuedAt: '2025-01-01T00:00:00Z' };
    res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify(task));
  }

  reset(): void {
    this.hits.length = 0;
    this.nextUid = this.base;
    this.answer = (_hit, res) => this.accept(res);
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const VERSION = '0198f3a2-6c1e-7b0a-9d7e-2f4c1b8a9e10';
const OLDER = '0198f3a2-6c1e-7b0a-9d7e-000000000000';
// a failing remote is tried again for 2 s, each attempt waiting 3 s at most: an answer of 500 then
// none at all gives up after about 3.5 s, with the timeout
const ENV = { MEILI_EXPERIMENTAL_PROXY_REQUEST_TIMEOUT_SECONDS: '3', MEILI_EXPERIMENTAL_PROXY_BACKOFF_TIMEOUT_SECONDS: '2' };

const ms1 = new MockRemote(100);
const ms2 = new MockRemote(200);
let dir: string;
let dbPath: string;
let server: TestServer;
/** a real Quarry instance as the network's fourth member (no network of its own) */
let follower: TestServer;

/** Restarts the server on `network`, written into its store while it is stopped. */
async function restartWith(network: object): Promise<void> {
  await server.stop();
  const store = openInstanceStore(dbPath, 'test');
  store.main.putSync(MAIN_KEYS.network, network);
  await store.close();
  server = await startServer({ dbPath, env: ENV, args: ['--experimental-allowed-ip-networks', 'any'] });
}

function network(self: string, leader: string) {
  return {
    self,
    leader,
    remotes: {
      ms0: { url: server.url, searchApiKey: null, writeApiKey: null },
      ms1: { url: ms1.url, searchApiKey: null, writeApiKey: 'key-1' },
      ms2: { url: ms2.url, searchApiKey: null, writeApiKey: null },
      ms3: { url: follower.url, searchApiKey: null, writeApiKey: null },
    },
    shards: { s0: ['ms0'], s1: ['ms1'], s2: ['ms2'], s3: ['ms3'] },
    version: VERSION,
  };
}

beforeAll(async () => {
  await Promise.all([ms1.listen(), ms2.listen()]);
  dir = tempDir();
  dbPath = path.join(dir, 'data.ms');
  follower = await startServer({ args: ['--experimental-allowed-ip-networks', 'any'] });
  server = await startServer({ dbPath, env: ENV, args: ['--experimental-allowed-ip-networks', 'any'] });
  await call(server, 'PATCH', '/experimental-features', { network: true });
  await restartWith(network('ms0', 'ms0'));
});
afterAll(async () => {
  await server?.kill();
  await follower?.dispose();
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([ms1.close(), ms2.close()]);
});
beforeEach(() => {
  ms1.reset();
  ms2.reset();
});

/** The origin headers a leader sends for its task `uid`, in both forms. */
function origin(uid: number) {
  return {
    'x-meili-proxy-origin-remote': 'ms0',
    'meili-proxy-origin-remote': 'ms0',
    'x-meili-proxy-origin-taskuid': String(uid),
    'meili-proxy-origin-taskuid': String(uid),
    'x-meili-proxy-origin-network-version': VERSION,
    'meili-proxy-origin-network-version': VERSION,
  };
}

describe('the leader', () => {
  it('re-sends a document addition to every other remote as NDJSON, with its query string, write key and origin', async () => {
    const reply = await call(server, 'POST', '/indexes/movies/documents?primaryKey=id&customMetadata=batch-1', [
      { id: 1, title: 'Carol' },
      { id: 2, title: 'Heat' },
    ]);
    expect(reply.status).toBe(202);
    expect(Object.keys(reply.body)).toEqual(['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt', 'customMetadata']);
    const uid = reply.body.taskUid;
    for (const remote of [ms1, ms2]) {
      expect(remote.hits).toHaveLength(1);
      const [hit] = remote.hits;
      expect(hit).toMatchObject({ method: 'POST', path: '/indexes/movies/documents?primaryKey=id&customMetadata=batch-1' });
      expect(hit!.body.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
        { id: 1, title: 'Carol' },
        { id: 2, title: 'Heat' },
      ]);
      expect(hit!.headers).toMatchObject({ 'content-type': 'application/x-ndjson', ...origin(uid) });
    }
    expect(ms1.hits[0]!.headers.authorization).toBe('Bearer key-1');
    expect(ms2.hits[0]!.headers.authorization).toBeUndefined();

    const task = await waitTask(server, uid);
    expect(task.status).toBe('succeeded');
    expect(task.network).toEqual({
      remote_tasks: { ms1: { taskUid: 100, error: null }, ms2: { taskUid: 200, error: null }, ms3: { taskUid: expect.any(Number), error: null } },
      network_version: VERSION,
    });
  });

  it('re-sends a settings sub-route as PATCH /indexes/{uid}/settings with the change as a settings object', async () => {
    const put = await call(server, 'PUT', '/indexes/movies/settings/filterable-attributes', ['genre']);
    expect(put.status).toBe(202);
    expect(ms1.hits[0]).toMatchObject({ method: 'PATCH', path: '/indexes/movies/settings' });
    expect(JSON.parse(ms1.hits[0]!.body)).toEqual({ filterableAttributes: ['genre'] });
    expect(ms1.hits[0]!.headers['content-type']).toBe('application/json');

    const reset = await call(server, 'DELETE', '/indexes/movies/settings/stop-words');
    expect(reset.status).toBe(202);
    expect(ms2.hits[1]).toMatchObject({ method: 'PATCH', path: '/indexes/movies/settings', body: '{"stopWords":null}' });
    expect(ms2.hits[1]!.headers).toMatchObject({ 'content-type': 'application/json', ...origin(reset.body.taskUid) });
  });

  it('re-sends deletions with their own method and body', async () => {
    const one = await call(server, 'DELETE', '/indexes/movies/documents/3');
    expect(ms1.hits[0]).toMatchObject({ method: 'DELETE', path: '/indexes/movies/documents/3', body: '' });
    const byFilter = await call(server, 'POST', '/indexes/movies/documents/delete', { filter: 'genre = drama' });
    expect(ms1.hits[1]).toMatchObject({ method: 'POST', path: '/indexes/movies/documents/delete', body: '{"filter":"genre = drama"}' });
    expect(ms1.hits[1]!.headers['content-type']).toBe('application/json');
    const index = await call(server, 'POST', '/indexes', { uid: 'books', primaryKey: 'isbn' });
    expect(JSON.parse(ms2.hits[2]!.body)).toEqual({ uid: 'books', primaryKey: 'isbn' });
    for (const reply of [one, byFilter, index]) expect(reply.status).toBe(202);
  });

  it('records a remote that keeps failing as an error, and still answers 202 and runs the task', async () => {
    ms2.answer = (_hit, res) => {
      // a 500 first, then no answer at all
      if (ms2.hits.length === 1) res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"provoked"}');
    };
    const reply = await call(server, 'DELETE', '/indexes/movies/documents/4');
    expect(reply.status).toBe(202);
    expect(ms2.hits).toHaveLength(2);
    const task = await waitTask(server, reply.body.taskUid);
    expect(task.status).toBe('succeeded');
    expect(task.network.remote_tasks).toMatchObject({
      ms1: { taskUid: 100, error: null },
      ms2: { error: { message: 'remote host did not answer before the deadline', code: 'remote_timeout', type: 'system', link: 'https://docs.meilisearch.com/errors#remote_timeout' } },
    });
  });

  it('records a remote that refuses the write, without trying again', async () => {
    ms1.answer = (_hit, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"nope"}');
    const reply = await call(server, 'DELETE', '/indexes/movies');
    expect(ms1.hits).toHaveLength(1);
    const task = await waitTask(server, reply.body.taskUid);
    expect(task.network.remote_tasks.ms1.error.code).toBe('remote_bad_request');
    expect(task.network.remote_tasks.ms1.taskUid).toBeUndefined();
  });

  it('does not re-send what is not forwarded (a task cancelation)', async () => {
    expect((await call(server, 'POST', '/tasks/cancel?uids=0')).status).toBe(200);
    expect(ms1.hits).toHaveLength(0);
  });
});

describe('a write forwarded by another instance', () => {
  it('is registered with its origin and not re-sent', async () => {
    const headers = { 'content-type': 'application/json', 'X-Meili-Proxy-Origin-Remote': 'ms9', 'X-Meili-Proxy-Origin-TaskUid': '7', 'X-Meili-Proxy-Origin-Network-Version': VERSION };
    const reply = await callRaw(server, 'POST', '/indexes', JSON.stringify({ uid: 'forwarded' }), headers);
    expect(reply.status).toBe(202);
    expect(ms1.hits).toHaveLength(0);
    const task = await waitTask(server, reply.body.taskUid);
    expect(task.network).toEqual({ origin: { remoteName: 'ms9', taskUid: 7, networkVersion: VERSION } });
  });

  it('is refused when its network version is older than ours', async () => {
    const headers = { 'Meili-Proxy-Origin-Remote': 'ms9', 'Meili-Proxy-Origin-TaskUid': '8', 'Meili-Proxy-Origin-Network-Version': OLDER };
    const reply = await callRaw(server, 'DELETE', '/indexes/movies/documents', undefined, headers);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(errorBody('network_version_too_old', `The network version in request is too old.\n  - Received: ${OLDER}\n  - Expected at least: ${VERSION}`));
  });

  it('is refused when its headers are inconsistent or unreadable', async () => {
    const partial = await callRaw(server, 'DELETE', '/indexes/movies/documents', undefined, { 'X-Meili-Proxy-Origin-Remote': 'ms9' });
    expect(partial.body.code).toBe('inconsistent_document_change_headers');
    const bad = await callRaw(server, 'DELETE', '/indexes/movies/documents', undefined, { 'X-Meili-Proxy-Origin-Remote': 'ms9', 'X-Meili-Proxy-Origin-TaskUid': 'x' });
    expect(bad.body).toEqual(errorBody('invalid_header_value', 'Invalid value for header `X-Meili-Proxy-Origin-TaskUid`: while parsing as an integer: invalid digit found in string'));
  });
});

describe('a Quarry instance as remote', () => {
  it("registers the leader's write as its own task, naming its origin, and the leader records that task", async () => {
    const reply = await call(server, 'POST', '/indexes/films/documents', [{ id: 'a' }, { id: 'b' }]);
    expect(reply.status).toBe(202);
    const leaderTask = await waitTask(server, reply.body.taskUid);
    const remoteUid = leaderTask.network.remote_tasks.ms3.taskUid;
    expect(leaderTask.network.remote_tasks.ms3).toEqual({ taskUid: remoteUid, error: null });
    const remoteTask = await waitTask(follower, remoteUid);
    expect(remoteTask).toMatchObject({ status: 'succeeded', type: 'documentAdditionOrUpdate', indexUid: 'films', details: { receivedDocuments: 2 } });
    expect(remoteTask.network).toEqual({ origin: { remoteName: 'ms0', taskUid: reply.body.taskUid, networkVersion: VERSION } });
  });
});

describe('a node that does not lead', () => {
  it("refuses a client's write with not_leader, before reading its documents", async () => {
    await restartWith(network('ms0', 'ms1'));
    const reply = await callRaw(server, 'POST', '/indexes/movies/documents', 'not json', { 'content-type': 'application/json' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(errorBody('not_leader', 'This remote is not the leader of the network.\n  - Note: only the leader `ms1` can receive new tasks.'));
    const settings = await call(server, 'PATCH', '/indexes/movies/settings', { stopWords: ['a'] });
    expect(settings.body.code).toBe('not_leader');
    expect(ms1.hits).toHaveLength(0);
  });
});
