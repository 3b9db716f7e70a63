/**
 * What one instance accepts from the others during a topology change (network.md §4, §6):
 * `POST /network/control` (manual availability, malformed bodies, messages with no change
 * running), the leader's forwarded PATCH (no leader refused; otherwise this instance's own change
 * with the leader's origin), and import payloads checked against the running change (503 without
 * one, 412 for another version, an unknown sender, a payload received twice), whatever they
 * import: documents, an index and its settings, or the leader's dynamic search rules, each counted
 * toward the change finishing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importHeaders, originHeaders } from '../../../src/network/proxy-headers.js';
import type { NetworkOrigin } from '../../../src/types/task.js';
import { api, startInstance, type Instance } from './topology-helpers.js';

let me: Instance;
/** the leader `ghost`: a loopback mock that takes every request and keeps the `/network/control` messages */
let ghost: Server;
const messages: unknown[] = [];
beforeAll(async () => {
  me = await startInstance('me');
  await api(me, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
  ghost = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/network/control') messages.push(JSON.parse(body));
      res.end();
    });
  });
  await new Promise<void>((resolve) => ghost.listen(0, '127.0.0.1', resolve));
}, 20_000);
afterAll(async () => {
  await me?.server.dispose();
  ghost?.close();
});

const ghostUrl = () => `http://127.0.0.1:${(ghost.address() as AddressInfo).port}`;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// later than any version this instance makes itself, so never `network_version_too_old`
const VERSION = 'fff00000-0000-7000-8000-000000000000';
const OTHER_VERSION = 'fff00000-0000-7000-8000-000000000001';
const origin = (networkVersion = VERSION): NetworkOrigin => ({ remoteName: 'ghost', taskUid: 5, networkVersion });

/** A payload of `ghost`'s export of index `movies`. */
function importing(taskKey: number, from = 'ghost', networkVersion = VERSION): Promise<{ status: number; body: any }> {
  const headers = {
    ...originHeaders(origin(networkVersion)),
    ...importHeaders({ remoteName: from, indexName: 'movies', documentCount: 1 }, { indexCount: 1, taskKey, totalIndexDocuments: 2 }),
  };
  return api(me, 'POST', '/indexes/movies/documents', [{ id: taskKey }], headers);
}

/** The rule `ghost` exports, as v1.50's leader sends it (its uid in the path). */
const RULE = { description: 'promo', precedence: 1, active: true, conditions: { query: { words: 'dune' } }, actions: [{ selector: { indexUid: 'books', id: '1' }, action: { type: 'pin', position: 0 } }] };

/** A request of `ghost`'s export of two indexes, `books` (no documents) and its search rules (one). */
function exporting(
  method: string,
  path: string,
  body: unknown,
  index: string,
  { documents = 0, total = 0, taskKey = null as number | null, from = 'ghost', version = VERSION } = {},
): Promise<{ status: number; body: any }> {
  const headers = {
    ...originHeaders(origin(version)),
    ...importHeaders({ remoteName: from, indexName: index, documentCount: documents }, { indexCount: 2, taskKey, totalIndexDocuments: total }),
  };
  return api(me, method, path, body, headers);
}
const createBooks = (options = {}) => exporting('POST', '/indexes', { uid: 'books', primaryKey: 'id' }, 'books', options);
const booksSettings = (options = {}) => exporting('PATCH', '/indexes/books/settings', { filterableAttributes: ['year'] }, 'books', options);
const clearRules = (options = {}) => exporting('DELETE', '/dynamic-search-rules', undefined, '.meili_dsr', { total: 1, ...options });
const putRule = (options = {}) => exporting('PATCH', '/dynamic-search-rules/promo', RULE, '.meili_dsr', { documents: 1, total: 1, ...options });

const control = (message: object, networkVersion = VERSION) => api(me, 'POST', '/network/control', { origin: origin(networkVersion), message });

describe('network control messages', () => {
  it('set a remote’s availability by hand, shown by GET /network', async () => {
    expect((await api(me, 'PATCH', '/network', { remotes: { r1: { url: 'http://127.0.0.1:9' } } })).status).toBe(200);
    expect(await control({ type: 'statusChangeForRemote', remote: 'r1', status: 'unavailable' })).toEqual({ status: 200, body: undefined });
    expect((await api(me, 'GET', '/network')).body.remotes.r1.status).toBe('unavailable');
    await control({ type: 'statusChangeForRemote', remote: 'r1', status: 'available' });
    expect((await api(me, 'GET', '/network')).body.remotes.r1.status).toBe('available');
  });

  it('refuse a malformed body, and the change messages when no change runs', async () => {
    expect(await control({ type: 'shout', remote: 'r1' })).toMatchObject({
      status: 400,
      body: { code: 'bad_request', message: 'Json deserialize error: unknown variant `shout`, expected one of `exportNoIndexForRemote`, `importFinishedForRemote`, `statusChangeForRemote`' },
    });
    expect(await control({ type: 'importFinishedForRemote', remote: 'r1' })).toMatchObject({ status: 400, body: { message: 'Json deserialize error: missing field `successful`' } });
    const none = { status: 503, body: { code: 'import_task_without_network_task', message: 'No network topology change task is currently enqueued or processing' } };
    expect(await control({ type: 'importFinishedForRemote', remote: 'r1', successful: true })).toMatchObject(none);
    expect(await control({ type: 'exportNoIndexForRemote', remote: 'r1' })).toMatchObject(none);
    expect(await importing(1)).toMatchObject(none);
    for (const request of [createBooks, booksSettings, clearRules, putRule]) expect(await request()).toMatchObject(none);
    const registered = await api(me, 'GET', '/tasks?types=indexCreation,settingsUpdate,dsrUpdate,dsrClear');
    expect(registered.body.total).toBe(0);
  });
});

describe('a change forwarded by the leader', () => {
  const forwarded = () => ({
    remotes: { ghost: { url: ghostUrl() }, me: { url: 'http://127.0.0.1:9', writeApiKey: 'k' } },
    shards: { a: { remotes: ['ghost'] }, b: { remotes: ['me'] } },
    previousRemotes: {},
    previousShards: {},
    self: 'me',
  });
  let changeUid: number;

  it('needs a leader, and remotes with urls', async () => {
    expect(await api(me, 'PATCH', '/network', forwarded(), originHeaders(origin()))).toMatchObject({
      status: 400,
      body: { code: 'invalid_network_leader', message: 'Duplicated task without leader' },
    });
    const relative = { ...forwarded(), leader: 'ghost', remotes: { ...forwarded().remotes, me: { url: 'no-http-scheme' } } };
    expect(await api(me, 'PATCH', '/network', relative, originHeaders(origin()))).toMatchObject({
      status: 400,
      body: { code: 'invalid_network_url', message: 'Invalid `.remotes.me.url` (`no-http-scheme`): relative URL without a base' },
    });
  });

  it('registers this instance’s change with the leader’s origin and network version', async () => {
    const reply = await api(me, 'PATCH', '/network', { ...forwarded(), leader: 'ghost' }, originHeaders(origin()));
    expect(reply).toMatchObject({ status: 202, body: { type: 'networkTopologyChange', status: 'enqueued', indexUid: null } });
    changeUid = reply.body.taskUid;
    const task = (await api(me, 'GET', `/tasks/${changeUid}`)).body;
    expect(task.network).toEqual({ origin: origin() });
    expect((await api(me, 'GET', '/network')).body).toMatchObject({ self: 'me', leader: 'ghost', version: VERSION, shards: { a: { remotes: ['ghost'] }, b: { remotes: ['me'] } } });
  });

  it('accepts each import payload of the change once, from a remote it expects', async () => {
    const accepted = await importing(7);
    expect(accepted).toMatchObject({ status: 202, body: { type: 'documentAdditionOrUpdate' } });
    const task = (await api(me, 'GET', `/tasks/${accepted.body.taskUid}`)).body;
    expect(task.network).toEqual({ import_from: { remoteName: 'ghost', indexName: 'movies', documentCount: 1 }, network_change: origin() });
    expect(await importing(7)).toMatchObject({ status: 412, body: { code: 'import_task_already_received', message: 'The import task with key `7` was already received' } });
    expect(await importing(8, 'nobody')).toMatchObject({ status: 412, body: { code: 'import_task_unknown_remote', message: 'The import task emanates from an unknown remote `nobody`' } });
    expect(await importing(9, 'ghost', OTHER_VERSION)).toMatchObject({
      status: 412,
      body: { code: 'network_version_mismatch', message: `The network task version (\`${VERSION}\`) does not match the import task version (\`${OTHER_VERSION}\`)` },
    });
    expect(await control({ type: 'importFinishedForRemote', remote: 'nobody', successful: true })).toMatchObject({
      status: 412,
      body: { code: 'receive_import_finished_unknown_remote', message: 'The finished import notification emanates from an unknown remote `nobody`' },
    });
  });

  it('runs as the remote’s payloads and messages arrive, shown processing until it is done', async () => {
    const change = () => api(me, 'GET', `/tasks/${changeUid}`).then(({ body }) => body);
    // this instance has no index: it told the leader so, and waits for the second payload
    expect(messages).toContainEqual({ origin: origin(), message: { type: 'exportNoIndexForRemote', remote: 'me' } });
    const importing1 = await until(change, (task) => task.details.message.includes('processed 1'));
    expect(importing1).toMatchObject({
      status: 'processing',
      details: { movedDocuments: 0, message: 'Importing documents from 1 remotes, awaiting 1 and processed 1 out of 2 documents in 1 indexes from `ghost`, 0 remotes finished processing' },
    });
    expect((await importing(8)).status).toBe(202);
    const waiting = await until(change, (task) => task.details.message.startsWith('Waiting'));
    expect(waiting).toMatchObject({ status: 'processing', details: { message: 'Waiting for `ghost` to finish importing' } });
    await until(async () => messages.length, (count) => count >= 2);
    expect(messages).toContainEqual({ origin: origin(), message: { type: 'importFinishedForRemote', remote: 'me', successful: true } });
    expect(await control({ type: 'importFinishedForRemote', remote: 'ghost', successful: true })).toEqual({ status: 200, body: undefined });
    expect(await until(change, (task) => task.status !== 'processing')).toMatchObject({ status: 'succeeded', details: { message: 'Finished' } });
  });
});

describe('a second change whose remote sends an index without documents and its search rules', () => {
  const SECOND = 'fff00000-0000-7000-8000-000000000002';
  const LATER = 'fff00000-0000-7000-8000-000000000009';
  const network = {
    remotes: { ghost: { url: '' }, me: { url: 'http://127.0.0.1:9', writeApiKey: 'k' } },
    shards: { a: { remotes: ['ghost'] }, b: { remotes: ['me'] } },
  };
  let changeUid: number;
  const change = () => api(me, 'GET', `/tasks/${changeUid}`).then(({ body }) => body);

  it('refuses an index creation, settings or rules not of this change, or received twice', async () => {
    network.remotes.ghost.url = ghostUrl();
    const reply = await api(me, 'PATCH', '/network', { ...network, previousRemotes: network.remotes, previousShards: network.shards, leader: 'ghost', self: 'me' }, originHeaders(origin(SECOND)));
    expect(reply).toMatchObject({ status: 202, body: { type: 'networkTopologyChange' } });
    changeUid = reply.body.taskUid;
    const options = { version: SECOND };
    expect(await createBooks({ ...options, taskKey: 1 })).toMatchObject({ status: 202, body: { type: 'indexCreation' } });
    expect(await createBooks({ ...options, taskKey: 1 })).toMatchObject({ status: 412, body: { code: 'import_task_already_received' } });
    expect(await booksSettings({ ...options, from: 'nobody' })).toMatchObject({ status: 412, body: { code: 'import_task_unknown_remote' } });
    expect(await clearRules({ version: LATER })).toMatchObject({ status: 412, body: { code: 'network_version_mismatch' } });
    expect(await putRule({ ...options, from: 'nobody' })).toMatchObject({ status: 412, body: { code: 'import_task_unknown_remote' } });
    expect((await api(me, 'GET', '/tasks?types=settingsUpdate,dsrUpdate,dsrClear')).body.total).toBe(0);
  });

  it('counts them toward the change: it waits for the rules after the index, then finishes', async () => {
    const options = { version: SECOND };
    const settings = await booksSettings(options);
    expect(settings).toMatchObject({ status: 202, body: { type: 'settingsUpdate' } });
    expect(await until(() => api(me, 'GET', `/tasks/${settings.body.taskUid}`).then(({ body }) => body.status), (status) => status === 'succeeded')).toBe('succeeded');
    // the index is done, but two indexes were announced: the change still imports
    expect((await change()).details.message).toMatch(/^Importing documents from 1 remotes, awaiting 0 and processed 0 out of 0 documents in 2 indexes from `ghost`/);
    expect(await clearRules(options)).toMatchObject({ status: 202, body: { type: 'dsrClear' } });
    const rule = await putRule(options);
    expect(rule).toMatchObject({ status: 202, body: { type: 'dsrUpdate' } });
    const waiting = await until(change, (task) => task.details.message.startsWith('Waiting'));
    expect(waiting).toMatchObject({ status: 'processing', details: { message: 'Waiting for `ghost` to finish importing' } });
    expect(await control({ type: 'importFinishedForRemote', remote: 'ghost', successful: true }, SECOND)).toEqual({ status: 200, body: undefined });
    expect(await until(change, (task) => task.status !== 'processing')).toMatchObject({ status: 'succeeded', details: { message: 'Finished' } });

    expect((await api(me, 'GET', '/dynamic-search-rules/promo')).body).toEqual({ uid: 'promo', ...RULE });
    expect((await api(me, 'GET', '/indexes/books/settings/filterable-attributes')).body).toEqual(['year']);
    const task = (await api(me, 'GET', `/tasks/${rule.body.taskUid}`)).body;
    expect(task).toMatchObject({ status: 'succeeded', indexUid: '.meili_dsr' });
    expect(task.network).toEqual({ import_from: { remoteName: 'ghost', indexName: '.meili_dsr', documentCount: 1 }, network_change: origin(SECOND) });
  });
});
