/**
 * Port of Meilisearch's tests/auth/api_keys.rs: creating, reading, listing, updating and deleting
 * API keys, and the errors of each route, with the full bodies its snapshots show (field order,
 * `key` derived from `uid`, `expiresAt` normalised). Where the test file and keys-auth.md disagree
 * (the uuid crate's wording of an invalid uid; `dumps.create` on an index-restricted key, which
 * v1.50 refuses with index_scoped_api_key_with_global_action), keys-auth.md, written for v1.50, wins.
 * Not ported here: error_access_api_key_routes_no_master_key_set, already in keys/keys.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJson } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { INVALID_API_KEY, MASTER_KEY, MISSING_HEADER_REPLY, addKey, forbidden } from './meili-auth.js';
import { call, errorBody, type CallResult } from './request.js';

const UID = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8';
const KEY = 'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c';
/** A well-formed key value no key of the tests derives to. */
const BAD_KEY = 'd4000bd7225f77d1eb22cc706ed36772bbc36767c016a27f76def7537b68600d';
const UNKNOWN_REF = 'd0552b41536279a0ad88bd595327b96f01176a60c2243e906c52ac02375f9bc4';
const UNKNOWN_LONG_REF = 'd0552b41d0552b41536279a0ad88bd595327b96f01176a60c2243e906c52ac02375f9bc4';
const RFC3339_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/**
 * The actions of the test file's keys on index `products`, without its last one, `dumps.create`:
 * a global action, which v1.50 refuses on an index-restricted key (keys-auth.md §4.2).
 */
const INDEXING_ACTIONS = [
  'search', 'documents.add', 'documents.get', 'documents.delete', 'indexes.create', 'indexes.get', 'indexes.update',
  'indexes.delete', 'tasks.get', 'settings.get', 'settings.update', 'stats.get',
];
/** The actions of the patch tests' keys, `dumps.create` left out likewise. */
const PATCH_ACTIONS = [
  'search', 'documents.add', 'documents.get', 'documents.delete', 'indexes.create', 'indexes.get', 'indexes.update',
  'indexes.delete', 'stats.get',
];
/** Every action, in the order of keys-auth.md §4 (the test file's list predates the last ones). */
const ALL_ACTIONS_LISTED = [
  '*', 'search', 'documents.*', 'documents.add', 'documents.get', 'documents.delete', 'indexes.*', 'indexes.create',
  'indexes.get', 'indexes.update', 'indexes.delete', 'indexes.swap', 'tasks.*', 'tasks.cancel', 'tasks.delete',
  'tasks.get', 'settings.*', 'settings.get', 'settings.update', 'stats.*', 'stats.get', 'metrics.*', 'metrics.get',
  'dumps.*', 'dumps.create', 'snapshots.*', 'snapshots.create', 'version', 'keys.create', 'keys.get', 'keys.update',
  'keys.delete', 'experimental.get', 'experimental.update', 'export', 'network.get', 'network.update',
  'chatCompletions', 'chats.*', 'chats.get', 'chats.delete', 'chatsSettings.*', 'chatsSettings.get',
  'chatsSettings.update', '*.get', 'webhooks.get', 'webhooks.update', 'webhooks.delete', 'webhooks.create',
  'webhooks.*', 'indexes.compact', 'fields.post', 'tasks.compact', 'dynamicSearchRules.get',
  'dynamicSearchRules.create', 'dynamicSearchRules.update', 'dynamicSearchRules.delete', 'dynamicSearchRules.*',
]
  .map((action) => `\`${action}\``)
  .join(', ');

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
});
afterAll(async () => {
  await server.dispose();
});

const asMaster = (method: string, path: string, body?: unknown) => call(server, method, path, { key: MASTER_KEY, body });
const create = (body: unknown) => asMaster('POST', '/keys', body);
const bad = (code: string, message: string, status = 400): CallResult => ({ status, body: errorBody(code, message) });

/** A key object with its run-dependent fields checked and replaced by `[ignored]`, as the snapshots redact them. */
function redacted(key: any, fields: readonly string[] = ['createdAt', 'updatedAt']): any {
  expect(Object.keys(key)).toEqual(['name', 'description', 'key', 'uid', 'actions', 'indexes', 'expiresAt', 'createdAt', 'updatedAt']);
  expect(key.createdAt).toMatch(RFC3339_UTC);
  expect(key.updatedAt).toMatch(RFC3339_UTC);
  return { ...key, ...Object.fromEntries(fields.map((field) => [field, '[ignored]'])) };
}
const ALL_REDACTED = ['key', 'uid', 'createdAt', 'updatedAt'];

/** The key object the snapshots show, in its field order. */
function keyObject(fields: { name?: string | null; description?: string | null; key?: string; uid?: string; actions: string[]; indexes: string[]; expiresAt: string | null }) {
  return {
    name: fields.name ?? null,
    description: fields.description ?? null,
    key: fields.key ?? '[ignored]',
    uid: fields.uid ?? '[ignored]',
    actions: fields.actions,
    indexes: fields.indexes,
    expiresAt: fields.expiresAt,
    createdAt: '[ignored]',
    updatedAt: '[ignored]',
  };
}

async function deleteKey(ref: string): Promise<void> {
  expect((await asMaster('DELETE', `/keys/${ref}`)).status).toBe(204);
}

describe('POST /keys', () => {
  it('answers 201 with the key derived from the given uid and every field as sent (add_valid_api_key)', async () => {
    const res = await create({
      name: 'indexing-key',
      description: 'Indexing API key',
      uid: UID,
      indexes: ['products'],
      actions: INDEXING_ACTIONS,
      expiresAt: '2050-11-13T00:00:00Z',
    });
    try {
      expect(res.status).toBe(201);
      expectJson(
        redacted(res.body),
        keyObject({ name: 'indexing-key', description: 'Indexing API key', key: KEY, uid: UID, actions: INDEXING_ACTIONS, indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z' }),
      );
      expect((res.body as any).createdAt).toBe((res.body as any).updatedAt);
    } finally {
      await deleteKey(UID);
    }
  });

  it('refuses the test file\'s own key, dumps.create being global and its indexes restricted (v1.50)', async () => {
    const res = await create({ uid: UID, indexes: ['products'], actions: [...INDEXING_ACTIONS, 'dumps.create'], expiresAt: '2050-11-13T00:00:00Z' });
    expect(res).toEqual(
      bad(
        'index_scoped_api_key_with_global_action',
        'cannot create index-scoped API key with global action `"dumps.create"`\n  - Hint: remove action `"dumps.create"` from the action list, or remove `indexes` to make the key global',
      ),
    );
  });

  it('reads a bare date as UTC midnight (add_valid_api_key_expired_at)', async () => {
    const res = await create({ description: 'Indexing API key', indexes: ['products'], actions: INDEXING_ACTIONS, expiresAt: '2050-11-13' });
    expect(res.status).toBe(201);
    expectJson(
      redacted(res.body, ALL_REDACTED),
      keyObject({ description: 'Indexing API key', actions: INDEXING_ACTIONS, indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z' }),
    );
  });

  it('shows an absent or null description as null, and a date-time without offset as UTC (add_valid_api_key_no_description, _null_description)', async () => {
    for (const extra of [{}, { description: null }]) {
      const res = await create({ ...extra, indexes: ['products'], actions: ['documents.add'], expiresAt: '2050-11-13T00:00:00' });
      expect(res.status).toBe(201);
      expectJson(redacted(res.body, ALL_REDACTED), keyObject({ actions: ['documents.add'], indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z' }));
    }
  });

  it('answers 401 without an Authorization header and 403 with an unknown key (error_add_api_key_no_header, _bad_key)', async () => {
    const body = { description: 'Indexing API key', indexes: ['products'], actions: ['documents.add'], expiresAt: '2050-11-13T00:00:00Z' };
    expect(await call(server, 'POST', '/keys', { body })).toEqual(MISSING_HEADER_REPLY);
    expect(await call(server, 'POST', '/keys', { key: BAD_KEY, body })).toEqual(forbidden(INVALID_API_KEY));
  });

  it('names each missing required field with its own code (error_add_api_key_missing_parameter)', async () => {
    expect(await create({ description: 'Indexing API key', actions: ['documents.add'], expiresAt: '2050-11-13T00:00:00Z' })).toEqual(
      bad('missing_api_key_indexes', 'Missing field `indexes`'),
    );
    expect(await create({ description: 'Indexing API key', indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z' })).toEqual(
      bad('missing_api_key_actions', 'Missing field `actions`'),
    );
    expect(await create({ description: 'Indexing API key', indexes: ['products'], actions: ['documents.add'] })).toEqual(
      bad('missing_api_key_expires_at', 'Missing field `expiresAt`'),
    );
  });

  it('refuses an object where a string or an array is expected, printing it compactly (error_add_api_key_invalid_parameters_*)', async () => {
    const valid = { description: 'Indexing API key', indexes: ['products'], actions: ['documents.add'], expiresAt: '2050-11-13T00:00:00Z' };
    const object = { name: 'products' };
    const found = 'but found an object: `{"name":"products"}`';
    expect(await create({ ...valid, description: object })).toEqual(
      bad('invalid_api_key_description', `Invalid value type at \`.description\`: expected a string, ${found}`),
    );
    expect(await create({ name: object, ...valid })).toEqual(bad('invalid_api_key_name', `Invalid value type at \`.name\`: expected a string, ${found}`));
    expect(await create({ ...valid, indexes: object })).toEqual(
      bad('invalid_api_key_indexes', `Invalid value type at \`.indexes\`: expected an array, ${found}`),
    );
    expect(await create({ ...valid, actions: object })).toEqual(
      bad('invalid_api_key_actions', `Invalid value type at \`.actions\`: expected an array, ${found}`),
    );
    expect(await create({ ...valid, expiresAt: object })).toEqual(
      bad('invalid_api_key_expires_at', `Invalid value type at \`.expiresAt\`: expected a string, ${found}`),
    );
  });

  it('refuses an index pattern with forbidden characters, quoting it as sent (error_add_api_key_invalid_index_uids)', async () => {
    const pattern = 'invalid index # / \\name with spaces';
    expect(await create({ description: null, indexes: [pattern], actions: ['documents.add'], expiresAt: '2050-11-13T00:00:00' })).toEqual(
      bad(
        'invalid_api_key_indexes',
        `Invalid value at \`.indexes[0]\`: \`${pattern}\` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).`,
      ),
    );
  });

  it('refuses an unknown action, listing every valid one (error_add_api_key_invalid_parameters_actions)', async () => {
    expect(await create({ description: 'Indexing API key', indexes: ['products'], actions: ['doc.add'], expiresAt: '2050-11-13T00:00:00Z' })).toEqual(
      bad('invalid_api_key_actions', `Unknown value \`doc.add\` at \`.actions[0]\`: expected one of ${ALL_ACTIONS_LISTED}`),
    );
  });

  it('refuses an expiresAt in the past, the message ending with a newline (error_add_api_key_invalid_parameters_expires_at_in_the_past)', async () => {
    expect(await create({ description: 'Indexing API key', indexes: ['products'], actions: ['documents.add'], expiresAt: '2010-11-13T00:00:00Z' })).toEqual(
      bad(
        'invalid_api_key_expires_at',
        "Invalid value at `.expiresAt`: `2010-11-13T00:00:00Z` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n",
      ),
    );
  });

  it('refuses a uid of the wrong length (error_add_api_key_invalid_parameters_uid)', async () => {
    expect(await create({ description: 'Indexing API key', uid: 'aaaaabbbbbccc', indexes: ['products'], actions: ['documents.add'], expiresAt: '2050-11-13T00:00:00Z' })).toEqual(
      bad('invalid_api_key_uid', 'Invalid value at `.uid`: invalid length: found 13'),
    );
  });

  it('answers 409 for a uid already used (error_add_api_key_parameters_uid_already_exist)', async () => {
    const body = { uid: UID, indexes: ['products'], actions: ['search'], expiresAt: '2050-11-13T00:00:00Z' };
    const first = await create(body);
    try {
      expect(first.status).toBe(201);
      expectJson(redacted(first.body), keyObject({ key: KEY, uid: UID, actions: ['search'], indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z' }));
      expect(await create(body)).toEqual(bad('api_key_already_exists', `\`uid\` field value \`${UID}\` is already an existing API key.`, 409));
    } finally {
      await deleteKey(UID);
    }
  });
});

describe('GET /keys/{key}', () => {
  it('finds a key by its uid and by its value (get_api_key)', async () => {
    const created = await create({ description: 'Indexing API key', indexes: ['products'], uid: UID, actions: INDEXING_ACTIONS, expiresAt: '2050-11-13T00:00:00Z' });
    try {
      const expected = keyObject({ description: 'Indexing API key', key: KEY, uid: UID, actions: INDEXING_ACTIONS, indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z' });
      expectJson(redacted(created.body), expected);
      for (const ref of [UID, KEY]) {
        const res = await asMaster('GET', `/keys/${ref}`);
        expect(res.status).toBe(200);
        expectJson(redacted(res.body), expected);
      }
    } finally {
      await deleteKey(UID);
    }
  });

  it('answers 401 without a header, 403 with an unknown key, 404 naming an unknown reference (error_get_api_key_*)', async () => {
    expect(await call(server, 'GET', `/keys/${UNKNOWN_REF}`)).toEqual(MISSING_HEADER_REPLY);
    expect(await call(server, 'GET', `/keys/${UNKNOWN_REF}`, { key: BAD_KEY })).toEqual(forbidden());
    expect(await asMaster('GET', `/keys/${UNKNOWN_LONG_REF}`)).toEqual(bad('api_key_not_found', `API key \`${UNKNOWN_LONG_REF}\` not found.`, 404));
  });
});

describe('GET /keys', () => {
  let fresh: TestServer;
  beforeAll(async () => {
    fresh = await startServer({ masterKey: MASTER_KEY });
  });
  afterAll(async () => {
    await fresh.dispose();
  });

  it('lists the new key first, then the four default keys, with offset, limit and total (list_api_keys)', async () => {
    const created = await call(fresh, 'POST', '/keys', {
      key: MASTER_KEY,
      body: { description: 'Indexing API key', indexes: ['products'], actions: INDEXING_ACTIONS, expiresAt: '2050-11-13T00:00:00Z' },
    });
    expect(created.status).toBe(201);
    const res = await call(fresh, 'GET', '/keys', { key: MASTER_KEY });
    expect(res.status).toBe(200);
    const body = res.body as { results: any[] };
    expectJson(
      { ...body, results: body.results.map((key) => redacted(key, ALL_REDACTED)) },
      {
        results: [
          keyObject({ description: 'Indexing API key', actions: INDEXING_ACTIONS, indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z' }),
          keyObject({ name: 'Default Search API Key', description: 'Use it to search from the frontend', actions: ['search'], indexes: ['*'], expiresAt: null }),
          keyObject({
            name: 'Default Admin API Key',
            description: 'Use it for anything that is not a search operation. Caution! Do not expose it on a public frontend',
            actions: ['*'],
            indexes: ['*'],
            expiresAt: null,
          }),
          keyObject({
            name: 'Default Read-Only Admin API Key',
            description: 'Use it to read information across the whole database. Caution! Do not expose this key on a public frontend',
            actions: ['*.get', 'keys.get'],
            indexes: ['*'],
            expiresAt: null,
          }),
          keyObject({ name: 'Default Chat API Key', description: 'Use it to chat and search from the frontend', actions: ['chatCompletions', 'search'], indexes: ['*'], expiresAt: null }),
        ],
        offset: 0,
        limit: 20,
        total: 5,
      },
    );
  });

  it('answers 401 without a header and 403 with an unknown key (error_list_api_keys_no_header, _bad_key)', async () => {
    expect(await call(server, 'GET', '/keys')).toEqual(MISSING_HEADER_REPLY);
    expect(await call(server, 'GET', '/keys', { key: BAD_KEY })).toEqual(forbidden());
  });
});

describe('DELETE /keys/{key}', () => {
  it('answers 204 with no body, after which the key is not found (delete_api_key)', async () => {
    const { uid } = await addKey(server, { description: 'Indexing API key', indexes: ['products'], actions: INDEXING_ACTIONS, expiresAt: '2050-11-13T00:00:00Z' });
    expect(await asMaster('DELETE', `/keys/${uid}`)).toEqual({ status: 204, body: null });
    expect(await asMaster('GET', `/keys/${uid}`)).toEqual(bad('api_key_not_found', `API key \`${uid}\` not found.`, 404));
  });

  it('answers 401 without a header, 403 with an unknown key, 404 naming an unknown reference (error_delete_api_key_*)', async () => {
    expect(await call(server, 'DELETE', `/keys/${UNKNOWN_REF}`)).toEqual(MISSING_HEADER_REPLY);
    expect(await call(server, 'DELETE', `/keys/${UNKNOWN_REF}`, { key: BAD_KEY })).toEqual(forbidden());
    expect(await asMaster('DELETE', `/keys/${UNKNOWN_LONG_REF}`)).toEqual(bad('api_key_not_found', `API key \`${UNKNOWN_LONG_REF}\` not found.`, 404));
  });
});

describe('PATCH /keys/{key}', () => {
  const patchKey = { indexes: ['products'], actions: PATCH_ACTIONS, expiresAt: '2050-11-13T00:00:00Z' };
  const patched = (name: string | null, description: string | null) =>
    keyObject({ name, description, actions: PATCH_ACTIONS, indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z' });

  async function patch(uid: string, body: object): Promise<any> {
    const res = await asMaster('PATCH', `/keys/${uid}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  it('sets, changes and clears the description, leaving the rest as created (patch_api_key_description)', async () => {
    const { uid } = await addKey(server, patchKey);
    expectJson(redacted(await patch(uid, { description: 'Indexing API key', name: 'bob' }), ALL_REDACTED), patched('bob', 'Indexing API key'));
    expectJson(redacted(await patch(uid, { description: 'Product API key' }), ALL_REDACTED), patched('bob', 'Product API key'));
    expectJson(redacted(await patch(uid, { description: null }), ALL_REDACTED), patched('bob', null));
  });

  it('sets, changes and clears the name, moving updatedAt but not createdAt (patch_api_key_name)', async () => {
    const created = (await create(patchKey)).body as { uid: string; createdAt: string; updatedAt: string };
    await new Promise((resolve) => setTimeout(resolve, 5));
    const first = await patch(created.uid, { name: 'Indexing API key', description: 'The doggoscription' });
    expectJson(redacted(first, ALL_REDACTED), patched('Indexing API key', 'The doggoscription'));
    expect(first.updatedAt).not.toBe(created.updatedAt);
    expect(first.createdAt).toBe(created.createdAt);
    expectJson(redacted(await patch(created.uid, { name: 'Product API key' }), ALL_REDACTED), patched('Product API key', 'The doggoscription'));
    expectJson(redacted(await patch(created.uid, { name: null }), ALL_REDACTED), patched(null, 'The doggoscription'));
  });

  it('refuses indexes, actions and expiresAt as immutable (error_patch_api_key_indexes, _actions, _expiration_date)', async () => {
    const { uid } = await addKey(server, { description: 'Indexing API key', ...patchKey });
    const immutable = (field: string, code: string) => bad(code, `Immutable field \`${field}\`: expected one of \`description\`, \`name\``);
    expect(await asMaster('PATCH', `/keys/${uid}`, { indexes: ['products', 'prices'] })).toEqual(immutable('indexes', 'immutable_api_key_indexes'));
    expect(await asMaster('PATCH', `/keys/${uid}`, { actions: ['search', 'documents.get', 'indexes.get', 'tasks.get', 'settings.get'] })).toEqual(
      immutable('actions', 'immutable_api_key_actions'),
    );
    expect(await asMaster('PATCH', `/keys/${uid}`, { expiresAt: '2055-11-13T00:00:00Z' })).toEqual(immutable('expiresAt', 'immutable_api_key_expires_at'));
  });

  it('answers 401 without a header, 403 with an unknown key, 404 naming an unknown reference (error_patch_api_key_*)', async () => {
    expect(await call(server, 'PATCH', `/keys/${UNKNOWN_REF}`, { body: {} })).toEqual(MISSING_HEADER_REPLY);
    expect(await call(server, 'PATCH', `/keys/${UNKNOWN_REF}`, { key: BAD_KEY, body: {} })).toEqual(forbidden());
    expect(await asMaster('PATCH', `/keys/${UNKNOWN_LONG_REF}`, {})).toEqual(bad('api_key_not_found', `API key \`${UNKNOWN_LONG_REF}\` not found.`, 404));
  });

  it('refuses a description or name that is a number (error_patch_api_key_indexes_invalid_parameters)', async () => {
    const { uid } = await addKey(server, { description: 'Indexing API key', indexes: ['products'], actions: ['search'], expiresAt: '2050-11-13T00:00:00Z' });
    expect(await asMaster('PATCH', `/keys/${uid}`, { description: 13 })).toEqual(
      bad('invalid_api_key_description', 'Invalid value type at `.description`: expected a string, but found a positive integer: `13`'),
    );
    expect(await asMaster('PATCH', `/keys/${uid}`, { name: 13 })).toEqual(
      bad('invalid_api_key_name', 'Invalid value type at `.name`: expected a string, but found a positive integer: `13`'),
    );
  });
});
