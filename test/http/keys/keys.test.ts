import { Meilisearch, MeilisearchApiError } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';
import { call, errorBody } from '../auth/request.js';

const MASTER_KEY = 'MASTER_KEY';
const UID = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8';
const KEY = 'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c';
const RFC3339_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

let server: TestServer;
let client: Meilisearch;

beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
  client = new Meilisearch({ host: server.url, apiKey: MASTER_KEY });
});
afterAll(async () => {
  await server.dispose();
});

async function apiError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MeilisearchApiError);
  return { status: (error as MeilisearchApiError).response.status, body: (error as MeilisearchApiError).cause };
}

describe('default keys', () => {
  it('lists the four default keys, newest first, each with its derived value', async () => {
    const { results, offset, limit, total } = (await call(server, 'GET', '/keys', { key: MASTER_KEY })).body as {
      results: Record<string, string>[];
      offset: number;
      limit: number;
      total: number;
    };
    expect({ offset, limit, total }).toEqual({ offset: 0, limit: 20, total: 4 });
    expect(results.map((k) => k.name)).toEqual([
      'Default Search API Key',
      'Default Admin API Key',
      'Default Read-Only Admin API Key',
      'Default Chat API Key',
    ]);
    for (const key of results) {
      expect(Object.keys(key)).toEqual(['name', 'description', 'key', 'uid', 'actions', 'indexes', 'expiresAt', 'createdAt', 'updatedAt']);
      expect(key.key).toMatch(/^[0-9a-f]{64}$/);
      expect(key.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(key.createdAt).toMatch(RFC3339_UTC);
      expect(key.updatedAt).toBe(key.createdAt);
    }
  });

  it('lets the default admin key manage keys and the default search key search only', async () => {
    const { results } = await client.getKeys();
    const admin = results.find((k) => k.name === 'Default Admin API Key')!;
    const search = results.find((k) => k.name === 'Default Search API Key')!;
    expect((await new Meilisearch({ host: server.url, apiKey: admin.key }).getKeys()).total).toBeGreaterThanOrEqual(4);
    expect((await call(server, 'GET', '/keys', { key: search.key })).status).toBe(403);
  });
});

describe('key lifecycle through the meilisearch client', () => {
  it('creates a key whose value is derived from its uid, then reads, updates and deletes it', async () => {
    const created = await client.createKey({
      uid: UID,
      name: 'indexing-key',
      description: 'Indexing API key',
      actions: ['search', 'documents.add'],
      indexes: ['products'],
      expiresAt: new Date('2050-11-13T00:00:00Z'),
    });
    expect(created).toMatchObject({
      name: 'indexing-key',
      description: 'Indexing API key',
      key: KEY,
      uid: UID,
      actions: ['search', 'documents.add'],
      indexes: ['products'],
      expiresAt: '2050-11-13T00:00:00Z',
    });
    expect(created.createdAt).toEqual(created.updatedAt);

    expect(await client.getKey(UID)).toEqual(created);
    expect(await client.getKey(KEY)).toEqual(created);
    expect((await client.getKeys()).results[0]).toMatchObject({ uid: UID, key: KEY, name: 'indexing-key' });
    expect(((await call(server, 'GET', '/keys', { key: MASTER_KEY })).body as { results: unknown[] }).results[0]).toEqual(
      (await call(server, 'GET', `/keys/${UID}`, { key: MASTER_KEY })).body,
    );

    const updated = await client.updateKey(KEY, { name: 'renamed' });
    expect(updated).toMatchObject({ name: 'renamed', description: 'Indexing API key', createdAt: created.createdAt });
    expect(updated.updatedAt > created.updatedAt).toBe(true);

    await client.deleteKey(UID);
    expect(await apiError(client.getKey(UID))).toEqual({
      status: 404,
      body: errorBody('api_key_not_found', `API key \`${UID}\` not found.`),
    });
    expect(await apiError(client.deleteKey(KEY))).toEqual({
      status: 404,
      body: errorBody('api_key_not_found', `API key \`${KEY}\` not found.`),
    });
  });

  it('works for authorization as soon as it is created and stops as soon as it is deleted', async () => {
    const key = await client.createKey({ actions: ['version'], indexes: ['*'], expiresAt: null });
    expect((await call(server, 'GET', '/version', { key: key.key })).status).toBe(200);
    await client.deleteKey(key.key);
    expect(await call(server, 'GET', '/version', { key: key.key })).toEqual({
      status: 403,
      body: errorBody('invalid_api_key', 'The provided API key is invalid.', 'auth'),
    });
  });
});

describe('POST /keys', () => {
  it('answers 201, keeps actions and indexes as given and the offset of expiresAt', async () => {
    const res = await call(server, 'POST', '/keys', {
      key: MASTER_KEY,
      body: { actions: ['search', 'search', '*.get'], indexes: ['movies_*', 'books'], expiresAt: '2050-11-13T00:00:00+02:00' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: null,
      description: null,
      actions: ['search', 'search', '*.get'],
      indexes: ['movies_*', 'books'],
      expiresAt: '2050-11-13T00:00:00+02:00',
    });
  });

  it('reads dates without an offset as UTC', async () => {
    for (const [given, stored] of [
      ['2050-11-13', '2050-11-13T00:00:00Z'],
      ['2050-11-13 10:20:30', '2050-11-13T10:20:30Z'],
      ['2050-11-13T10:20:30', '2050-11-13T10:20:30Z'],
    ]) {
      const res = await call(server, 'POST', '/keys', { key: MASTER_KEY, body: { actions: [], indexes: [], expiresAt: given } });
      expect((res.body as { expiresAt: string }).expiresAt).toBe(stored);
    }
  });

  it('accepts an uppercase or simple uid and shows it canonical', async () => {
    const uid = 'A1B2C3D4E5F6478899AABBCCDDEEFF00';
    const res = await call(server, 'POST', '/keys', { key: MASTER_KEY, body: { uid, actions: [], indexes: [], expiresAt: null } });
    expect((res.body as { uid: string }).uid).toBe('a1b2c3d4-e5f6-4788-99aa-bbccddeeff00');
  });
});

describe('GET /keys', () => {
  it('paginates with offset and limit and counts every key', async () => {
    const all = (await call(server, 'GET', '/keys?limit=1000', { key: MASTER_KEY })).body as { results: unknown[]; total: number };
    const page = await call(server, 'GET', '/keys?offset=1&limit=2', { key: MASTER_KEY });
    expect(page.body).toEqual({ results: all.results.slice(1, 3), offset: 1, limit: 2, total: all.total });
    expect(await call(server, 'GET', `/keys?offset=${all.total}`, { key: MASTER_KEY })).toEqual({
      status: 200,
      body: { results: [], offset: all.total, limit: 20, total: all.total },
    });
  });

  it('keeps listing expired keys', async () => {
    const expiresAt = new Date(Date.now() + 1000).toISOString();
    const key = (await call(server, 'POST', '/keys', { key: MASTER_KEY, body: { actions: ['version'], indexes: ['*'], expiresAt } }))
      .body as { uid: string; key: string };
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await call(server, 'GET', '/version', { key: key.key })).status).toBe(403);
    expect((await client.getKeys({ limit: 1000 })).results.map((k) => k.uid)).toContain(key.uid);
    expect((await client.getKey(key.uid)).uid).toBe(key.uid);
  });

  it('never shows the master key', async () => {
    const res = await call(server, 'GET', '/keys?limit=1000', { key: MASTER_KEY });
    expect(JSON.stringify(res.body)).not.toContain(MASTER_KEY);
  });
});

describe('PATCH /keys/{key}', () => {
  it('clears a field set to null and leaves absent ones unchanged', async () => {
    const key = await client.createKey({ name: 'n', description: 'd', actions: [], indexes: [], expiresAt: null });
    const res = await call(server, 'PATCH', `/keys/${key.uid}`, { key: MASTER_KEY, body: { name: null } });
    expect(res).toMatchObject({ status: 200, body: { name: null, description: 'd' } });
    const untouched = await call(server, 'PATCH', `/keys/${key.uid}`, { key: MASTER_KEY, body: {} });
    expect(untouched.body).toMatchObject({ name: null, description: 'd' });
  });
});

describe('without a master key', () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startServer();
  });
  afterAll(async () => {
    await open.dispose();
  });

  it('answers missing_master_key on every /keys route, with or without a token', async () => {
    const missing = { status: 401, body: errorBody('missing_master_key', 'Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.', 'auth') };
    for (const [method, path] of [['GET', '/keys'], ['POST', '/keys'], ['GET', `/keys/${UID}`], ['PATCH', `/keys/${UID}`], ['DELETE', `/keys/${UID}`]] as const) {
      expect(await call(open, method, path), `${method} ${path}`).toEqual(missing);
      expect(await call(open, method, path, { key: 'anything' }), `${method} ${path}`).toEqual(missing);
    }
  });

  it('still refuses a malformed Authorization header first', async () => {
    expect((await call(open, 'GET', '/keys', { authorization: 'Basic x' })).body).toMatchObject({ code: 'missing_authorization_header' });
  });
});
