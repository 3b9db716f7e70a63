/**
 * Port of Meilisearch's tests/auth/authorization.rs: which actions open which routes (its
 * AUTHORIZATIONS table, extended to the v1.50 routes Quarry serves and to the `*.get` action),
 * for keys with and without index restriction, expired keys, keys lacking the action or the index,
 * and the index-scoped behaviour of lists, stats, task lists and lazy index creation.
 *
 * Adapted to v1.50 (keys-auth.md §4.2 wins over the test file): a key restricted to some indexes
 * may not hold a global action (`POST /keys` answers index_scoped_api_key_with_global_action), so
 * the test file's restricted keys holding every action are split into a restricted key without
 * the global actions and an unrestricted one; a restricted key holding a composite action (`*`,
 * `*.get`, `x.*`) reaches the index-less routes only for handler-checked actions, which also
 * makes the test file's `/metrics` message for restricted keys unreachable: they get the generic
 * one. Messages the test file blanks are asserted as keys-auth.md §7 words them.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_UID } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';
import { INVALID_API_KEY, MASTER_KEY, addKey, forbidden, rfc3339In, runTask, succeed, waitTask, waitUntilPast } from './meili-auth.js';
import { ALL_ACTIONS, AUTHORIZATIONS, GLOBAL_ONLY, HANDLER_CHECKED, outcome, type RouteCase } from './meili-authorizations.js';
import { call, errorBody } from './request.js';

const restrictable = (actions: readonly string[]) => actions.filter((action) => !GLOBAL_ONLY.has(action));
const hasIndexInPath = (r: RouteCase) => r.path.startsWith('/indexes/');
const label = (r: RouteCase) => `${r.method} ${r.path}`;
const inOneHour = () => rfc3339In(3_600_000);

/** Runs `check` over the routes and reports every route whose outcome differs, at once. */
async function expectPerRoute(routes: readonly RouteCase[], check: (r: RouteCase) => Promise<[unknown, unknown]>): Promise<void> {
  const actual: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const r of routes) [actual[label(r)], expected[label(r)]] = await check(r);
  expect(actual).toEqual(expected);
}

describe('the route × action table', () => {
  let server: TestServer;
  const snapshotDir = tempDir('quarry-snapshots-');
  beforeAll(async () => {
    server = await startServer({ masterKey: MASTER_KEY, args: ['--experimental-enable-metrics', '--snapshot-dir', snapshotDir] });
  });
  afterAll(async () => {
    await server.dispose();
    rmSync(snapshotDir, { recursive: true, force: true });
  });

  it('refuses an expired key on every route, restricted or not (error_access_expired_key)', async () => {
    const expiresAt = rfc3339In(1000);
    const unrestricted = await addKey(server, { indexes: ['*'], actions: ALL_ACTIONS, expiresAt });
    const restricted = await addKey(server, { indexes: ['products'], actions: restrictable(ALL_ACTIONS), expiresAt });
    await waitUntilPast(expiresAt);
    for (const key of [unrestricted.key, restricted.key]) {
      await expectPerRoute(AUTHORIZATIONS, async (r) => [await outcome(server, r, key), forbidden()]);
    }
  });

  it('refuses a key restricted to another index on the routes of index products, naming its indexes (error_access_unauthorized_index)', async () => {
    const { key } = await addKey(server, { indexes: ['sales'], actions: restrictable(ALL_ACTIONS), expiresAt: inOneHour() });
    const message = 'The API key cannot acces the index `products`, authorized indexes are ["sales"].';
    await expectPerRoute(AUTHORIZATIONS.filter(hasIndexInPath), async (r) => [await outcome(server, r, key), forbidden(message)]);
  });

  it('refuses a key holding every action but those opening the route (error_access_unauthorized_action)', async () => {
    await expectPerRoute(AUTHORIZATIONS, async (r) => {
      const others = ALL_ACTIONS.filter((action) => !r.opens.includes(action));
      const unrestricted = await addKey(server, { indexes: ['*'], actions: others, expiresAt: inOneHour() });
      const restricted = await addKey(server, { indexes: ['products'], actions: restrictable(others), expiresAt: inOneHour() });
      return [
        [await outcome(server, r, unrestricted.key), await outcome(server, r, restricted.key)],
        [forbidden(), forbidden()],
      ];
    });
  });

  it('lets the master key through every route (access_authorized_master_key)', async () => {
    await expectPerRoute(AUTHORIZATIONS, async (r) => [await outcome(server, r, MASTER_KEY), 'allowed']);
  });

  it('lets a key restricted to products through with each action opening the route, global actions aside (access_authorized_restricted_index)', async () => {
    await expectPerRoute(AUTHORIZATIONS, async (r) => {
      const actual: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const action of r.opens) {
        const created = await call(server, 'POST', '/keys', { key: MASTER_KEY, body: { indexes: ['products'], actions: [action], expiresAt: inOneHour() } });
        if (GLOBAL_ONLY.has(action)) {
          actual[action] = created.status;
          expected[action] = 400;
          continue;
        }
        actual[action] = await outcome(server, r, (created.body as { key: string }).key);
        expected[action] = hasIndexInPath(r) || HANDLER_CHECKED.has(r.opens[0]!) ? 'allowed' : forbidden();
      }
      return [actual, expected];
    });
  });

  it('lets an unrestricted key through with each action opening the route (access_authorized_no_index_restriction)', async () => {
    await expectPerRoute(AUTHORIZATIONS, async (r) => {
      const actual: Record<string, unknown> = {};
      for (const action of r.opens) {
        const { key } = await addKey(server, { indexes: ['*'], actions: [action], expiresAt: inOneHour() });
        actual[action] = await outcome(server, r, key);
      }
      return [actual, Object.fromEntries(r.opens.map((action) => [action, 'allowed']))];
    });
  });
});

describe('index restrictions inside handlers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ masterKey: MASTER_KEY });
    await succeed(server, 'POST', '/indexes', { uid: 'test', primaryKey: 'id' });
    await succeed(server, 'POST', '/indexes', { uid: 'products', primaryKey: 'product_id' });
  });
  afterAll(async () => {
    await server.dispose();
  });

  const get = async (path: string, key: string) => {
    const res = await call(server, 'GET', path, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as any;
  };
  const keyFor = async (indexes: string[], actions: string[]) => (await addKey(server, { indexes, actions, expiresAt: inOneHour() })).key;
  const documents = [{ id: 1, content: 'foo' }];
  /** The JSON string `"test"` (request.ts sends string bodies as they are). */
  const distinct = JSON.stringify('test');
  const cannotAccess = (index: string, patterns: string) => forbidden(`The API key cannot acces the index \`${index}\`, authorized indexes are [${patterns}].`);

  it('counts only the authorized indexes in /stats (access_authorized_stats_restricted_index, _no_index_restriction)', async () => {
    expect(Object.keys((await get('/stats', await keyFor(['products'], ['stats.get']))).indexes)).toEqual(['products']);
    expect(Object.keys((await get('/stats', await keyFor(['*'], ['stats.get']))).indexes).sort()).toEqual(['products', 'test']);
  });

  it('lists only the authorized indexes (list_authorized_indexes_restricted_index, _no_index_restriction)', async () => {
    const uids = async (key: string) => (await get('/indexes', key)).results.map((index: { uid: string }) => index.uid);
    expect(await uids(await keyFor(['products'], ['indexes.get']))).toEqual(['products']);
    expect(await uids(await keyFor(['*'], ['indexes.get']))).toEqual(['products', 'test']);
  });

  it('lists only the tasks of the authorized indexes (list_authorized_tasks_restricted_index, _no_index_restriction)', async () => {
    const indexUids = async (key: string) => new Set((await get('/tasks', key)).results.map((task: { indexUid: string }) => task.indexUid));
    expect(await indexUids(await keyFor(['products'], ['tasks.get']))).toEqual(new Set(['products']));
    expect(await indexUids(await keyFor(['*'], ['tasks.get']))).toEqual(new Set(['products', 'test']));
  });

  it('lets documents.* on products_* add documents to products_1 only (access_authorized_index_patterns)', async () => {
    await succeed(server, 'POST', '/indexes', { uid: 'products_1', primaryKey: 'id' });
    const key = await keyFor(['products_*'], ['documents.*']);
    const task = await runTask(server, 'POST', '/indexes/products_1/documents', documents, key);
    expect(task.status).toBe('succeeded');
    expect(await call(server, 'POST', '/indexes/products/documents', { key, body: documents })).toEqual(cannotAccess('products', '"products_*"'));
  });

  it('refuses documents.* on products_* for index test (raise_error_non_authorized_index_patterns)', async () => {
    await succeed(server, 'POST', '/indexes', { uid: 'products_2', primaryKey: 'id' });
    const key = await keyFor(['products_*'], ['documents.*']);
    for (const uid of ['products_1', 'products_2']) expect((await runTask(server, 'POST', `/indexes/${uid}/documents`, documents, key)).status).toBe('succeeded');
    expect(await call(server, 'POST', '/indexes/test/documents', { key, body: documents })).toEqual(cannotAccess('test', '"products_*"'));
  });

  it('lets indexes.* on products_* create matching indexes only (pattern_indexes)', async () => {
    const key = await keyFor(['products_*'], ['indexes.*']);
    expect((await call(server, 'POST', '/indexes', { key, body: { uid: 'products_3', primaryKey: 'id' } })).status).toBe(202);
    expect(await call(server, 'POST', '/indexes', { key, body: { uid: 'products_*', primaryKey: 'id' } })).toEqual({
      status: 400,
      body: errorBody('invalid_index_uid', `Invalid value at \`.uid\`: ${INVALID_UID('products_*')}`),
    });
    expect(await call(server, 'POST', '/indexes', { key, body: { uid: 'test_1', primaryKey: 'id' } })).toEqual(forbidden(INVALID_API_KEY));
  });

  it('fails the tasks of a key without indexes.create that would create an index (error_creating_index_without_action)', async () => {
    // The test file's index `test` already exists on this server: `absent` stands for it.
    const actions = ALL_ACTIONS.filter((action) => !['indexes.create', 'indexes.*', '*'].includes(action));
    const key = (await addKey(server, { indexes: ['*'], actions, expiresAt: '2050-11-13T00:00:00Z' })).key;
    const notFound = errorBody('index_not_found', 'Index `absent` not found.');
    for (const [method, path, body] of [
      ['POST', '/indexes/absent/documents', documents],
      ['PATCH', '/indexes/absent/settings', { distinctAttribute: 'test' }],
      ['PUT', '/indexes/absent/settings/distinct-attribute', distinct],
    ] as const) {
      const task = await runTask(server, method, path, body, key);
      expect([task.status, task.error], `${method} ${path}`).toEqual(['failed', notFound]);
    }
  });

  it('lets keys holding indexes.create lazily create indexes through documents and settings (lazy_create_index)', async () => {
    // The test file's `test`, `test1`, `test2`: `test` already exists on this server.
    for (const actions of [['*'], ['indexes.*', 'documents.*', 'settings.*', 'tasks.*'], ['indexes.create', 'documents.add', 'settings.update', 'tasks.get']]) {
      const key = (await addKey(server, { indexes: ['*'], actions, expiresAt: '2050-11-13T00:00:00Z' })).key;
      for (const [method, path, body] of [
        ['POST', '/indexes/lazy/documents', documents],
        ['PATCH', '/indexes/lazy1/settings', { distinctAttribute: 'test' }],
        ['PUT', '/indexes/lazy2/settings/distinct-attribute', distinct],
      ] as const) {
        const task = await runTask(server, method, path, body, key);
        expect((await waitTask(server, task.uid, key)).status, `${actions} ${method} ${path}`).toBe('succeeded');
      }
    }
  });

  it('lets keys on products_* lazily create matching indexes only (lazy_create_index_from_pattern)', async () => {
    for (const actions of [['*'], ['indexes.*', 'documents.*', 'settings.*', 'tasks.*'], ['indexes.create', 'documents.add', 'settings.update', 'tasks.get']]) {
      const key = (await addKey(server, { indexes: ['products_*'], actions, expiresAt: '2050-11-13T00:00:00Z' })).key;
      const refused = cannotAccess('test', '"products_*"');
      expect((await runTask(server, 'POST', '/indexes/products_1/documents', documents, key)).status).toBe('succeeded');
      expect(await call(server, 'POST', '/indexes/test/documents', { key, body: documents })).toEqual(refused);
      expect((await runTask(server, 'PATCH', '/indexes/products_2/settings', { distinctAttribute: 'test' }, key)).status).toBe('succeeded');
      expect(await call(server, 'PATCH', '/indexes/test/settings', { key, body: { distinctAttribute: 'test' } })).toEqual(refused);
      expect((await runTask(server, 'PUT', '/indexes/products_3/settings/distinct-attribute', distinct, key)).status).toBe('succeeded');
      expect(await call(server, 'PATCH', '/indexes/test/settings', { key, body: { distinctAttribute: 'test' } })).toEqual(refused);
    }
  });

  it('refuses a key on other indexes every way of creating one (error_creating_index_without_index)', async () => {
    const key = (await addKey(server, { indexes: ['unexpected', 'products_*'], actions: ['*'], expiresAt: '2050-11-13T00:00:00Z' })).key;
    const patterns = '"products_*", "unexpected"';
    // One index per way for `test`, as the test file; all four ways for `products`.
    for (const [docs, settings, setting, created] of [['test', 'test1', 'test2', 'test3'], ['products', 'products', 'products', 'products']]) {
      expect(await call(server, 'POST', `/indexes/${docs}/documents`, { key, body: documents })).toEqual(cannotAccess(docs!, patterns));
      expect(await call(server, 'PATCH', `/indexes/${settings}/settings`, { key, body: { distinctAttribute: 'test' } })).toEqual(cannotAccess(settings!, patterns));
      expect(await call(server, 'PUT', `/indexes/${setting}/settings/distinct-attribute`, { key, body: distinct })).toEqual(cannotAccess(setting!, patterns));
      expect(await call(server, 'POST', '/indexes', { key, body: { uid: created } })).toEqual(forbidden());
    }
  });
});
