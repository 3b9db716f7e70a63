/**
 * Port of Meilisearch's tests/auth/errors.rs: the `/keys` validation errors for bodies holding a
 * single field (the first problem wins over missing fields), the `GET /keys` query errors, and the
 * authentication errors of malformed headers, unknown keys and undecodable tenant tokens.
 * The uuid crate's message for an unparsable uid follows keys-auth.md §6.1 (v1.50), not the test
 * file's older wording (`expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`o\` at 2`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJson } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { MASTER_KEY, MISSING_HEADER_REPLY, forbidden, signJwt } from './meili-auth.js';
import { call, errorBody, type CallResult } from './request.js';

const NIL_UID = '00000000-0000-0000-0000-000000000000';
const NIL_KEY = 'aeb94973e0b6e912d94165430bbe87dee91a7c4f891ce19050c3910ec96977e9';
const EVERY_ACTION =
  '`*`, `search`, `documents.*`, `documents.add`, `documents.get`, `documents.delete`, `indexes.*`, `indexes.create`, `indexes.get`, `indexes.update`, `indexes.delete`, `indexes.swap`, `tasks.*`, `tasks.cancel`, `tasks.delete`, `tasks.get`, `settings.*`, `settings.get`, `settings.update`, `stats.*`, `stats.get`, `metrics.*`, `metrics.get`, `dumps.*`, `dumps.create`, `snapshots.*`, `snapshots.create`, `version`, `keys.create`, `keys.get`, `keys.update`, `keys.delete`, `experimental.get`, `experimental.update`, `export`, `network.get`, `network.update`, `chatCompletions`, `chats.*`, `chats.get`, `chats.delete`, `chatsSettings.*`, `chatsSettings.get`, `chatsSettings.update`, `*.get`, `webhooks.get`, `webhooks.update`, `webhooks.delete`, `webhooks.create`, `webhooks.*`, `indexes.compact`, `fields.post`, `tasks.compact`, `dynamicSearchRules.get`, `dynamicSearchRules.create`, `dynamicSearchRules.update`, `dynamicSearchRules.delete`, `dynamicSearchRules.*`';
const CREATE_FIELDS = 'expected one of `description`, `name`, `uid`, `actions`, `indexes`, `expiresAt`';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
});
afterAll(async () => {
  await server.dispose();
});

const bad = (code: string, message: string): CallResult => ({ status: 400, body: errorBody(code, message) });
const asMaster = (method: string, path: string, body?: unknown) => call(server, method, path, { key: MASTER_KEY, body });

describe('POST /keys with a single field', () => {
  const cases: [string, object, CallResult][] = [
    ['create_api_key_bad_description', { description: ['doggo'] }, bad('invalid_api_key_description', 'Invalid value type at `.description`: expected a string, but found an array: `["doggo"]`')],
    ['create_api_key_bad_name', { name: ['doggo'] }, bad('invalid_api_key_name', 'Invalid value type at `.name`: expected a string, but found an array: `["doggo"]`')],
    ['create_api_key_bad_uid (type)', { uid: ['doggo'] }, bad('invalid_api_key_uid', 'Invalid value type at `.uid`: expected a string, but found an array: `["doggo"]`')],
    ['create_api_key_bad_uid (parse)', { uid: 'doggo' }, bad('invalid_api_key_uid', 'Invalid value at `.uid`: invalid character: found `o` at 1')],
    ['create_api_key_bad_actions (type)', { actions: 'doggo' }, bad('invalid_api_key_actions', 'Invalid value type at `.actions`: expected an array, but found a string: `"doggo"`')],
    ['create_api_key_bad_actions (parse)', { actions: ['doggo'] }, bad('invalid_api_key_actions', `Unknown value \`doggo\` at \`.actions[0]\`: expected one of ${EVERY_ACTION}`)],
    ['create_api_key_bad_indexes (type)', { indexes: 'doggo' }, bad('invalid_api_key_indexes', 'Invalid value type at `.indexes`: expected an array, but found a string: `"doggo"`')],
    [
      'create_api_key_bad_indexes (parse)',
      { indexes: ['good doggo'] },
      bad(
        'invalid_api_key_indexes',
        'Invalid value at `.indexes[0]`: `good doggo` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).',
      ),
    ],
    ['create_api_key_bad_expires_at (array)', { expires_at: ['doggo'] }, bad('bad_request', `Unknown field \`expires_at\`: did you mean \`expiresAt\`? ${CREATE_FIELDS}`)],
    ['create_api_key_bad_expires_at (string)', { expires_at: 'doggo' }, bad('bad_request', `Unknown field \`expires_at\`: did you mean \`expiresAt\`? ${CREATE_FIELDS}`)],
    ['create_api_key_missing_action', { indexes: ['doggo'], expiresAt: null }, bad('missing_api_key_actions', 'Missing field `actions`')],
    ['create_api_key_missing_indexes', { uid: NIL_UID, actions: ['*'], expiresAt: null }, bad('missing_api_key_indexes', 'Missing field `indexes`')],
    ['create_api_key_missing_expires_at', { uid: NIL_UID, actions: ['*'], indexes: ['doggo'] }, bad('missing_api_key_expires_at', 'Missing field `expiresAt`')],
    [
      'create_api_key_unexpected_field',
      { uid: NIL_UID, actions: ['*'], indexes: ['doggo'], expiresAt: null, doggo: 'bork' },
      bad('bad_request', `Unknown field \`doggo\`: ${CREATE_FIELDS}`),
    ],
  ];
  it.each(cases)('%s', async (_, body, expected) => {
    expect(await asMaster('POST', '/keys', body)).toEqual(expected);
  });
});

describe('GET /keys query errors', () => {
  it.each([
    ['list_api_keys_bad_offset', '?offset=doggo', bad('invalid_api_key_offset', 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer')],
    ['list_api_keys_bad_limit', '?limit=doggo', bad('invalid_api_key_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer')],
    ['list_api_keys_unexpected_field', '?doggo=no_limit', bad('bad_request', 'Unknown parameter `doggo`: expected one of `offset`, `limit`')],
  ])('%s', async (_, query, expected) => {
    expect(await asMaster('GET', `/keys${query}`)).toEqual(expected);
  });
});

describe('PATCH /keys/doggo', () => {
  const immutable = (field: string, code: string) => bad(code, `Immutable field \`${field}\`: expected one of \`description\`, \`name\``);
  it.each([
    ['patch_api_keys_bad_description', { description: ['doggo'] }, bad('invalid_api_key_description', 'Invalid value type at `.description`: expected a string, but found an array: `["doggo"]`')],
    ['patch_api_keys_bad_name', { name: ['doggo'] }, bad('invalid_api_key_name', 'Invalid value type at `.name`: expected a string, but found an array: `["doggo"]`')],
    ['patch_api_keys_immutable_uid', { uid: 'doggo' }, immutable('uid', 'immutable_api_key_uid')],
    ['patch_api_keys_immutable_actions', { actions: 'doggo' }, immutable('actions', 'immutable_api_key_actions')],
    ['patch_api_keys_immutable_indexes', { indexes: 'doggo' }, immutable('indexes', 'immutable_api_key_indexes')],
    ['patch_api_keys_immutable_expires_at', { expiresAt: 'doggo' }, immutable('expiresAt', 'immutable_api_key_expires_at')],
    ['patch_api_keys_immutable_created_at', { createdAt: 'doggo' }, immutable('createdAt', 'immutable_api_key_created_at')],
    ['patch_api_keys_immutable_updated_at', { updatedAt: 'doggo' }, immutable('updatedAt', 'immutable_api_key_updated_at')],
    ['patch_api_keys_unknown_field', { doggo: 'bork' }, bad('bad_request', 'Unknown field `doggo`: expected one of `description`, `name`')],
  ])('%s', async (_, body, expected) => {
    expect(await asMaster('PATCH', '/keys/doggo', body)).toEqual(expected);
  });
});

describe('authentication errors', () => {
  const get = (path: string, authorization?: string) => call(server, 'GET', path, authorization === undefined ? {} : { authorization });

  it('answers 401 without a header and 403 for a Bearer without token (invalid_auth_format)', async () => {
    expect(await get('/indexes/dog/documents')).toEqual(MISSING_HEADER_REPLY);
    expect(await get('/indexes/dog/documents')).toEqual(MISSING_HEADER_REPLY);
    expect(await get('/indexes/dog/documents', 'Bearer')).toEqual(forbidden());
  });

  it('answers 401 for a header holding bytes other than visible ASCII, read as empty (http-conventions.md §7)', async () => {
    // fetch sends each character as one byte: \u00c3\u00a9 is é in UTF-8, \u00e9 a byte invalid in UTF-8.
    expect(await get('/indexes/dog/documents', `Bearer ${MASTER_KEY}\u00e9`)).toEqual(MISSING_HEADER_REPLY);
    expect(await get('/indexes/dog/documents', 'Bearer \u00c3\u00a9')).toEqual(MISSING_HEADER_REPLY);
  });

  it('answers 403 for an unknown key, and names the authorized indexes of a key opening another index (invalid_api_key)', async () => {
    expect(await get('/indexes/dog/search', 'Bearer kefir')).toEqual(forbidden());
    const created = await asMaster('POST', '/keys', { actions: ['search'], indexes: ['dog'], expiresAt: null, uid: NIL_UID });
    try {
      expect(created.status).toBe(201);
      expectJson(
        { ...(created.body as object), createdAt: '[date]', updatedAt: '[date]' },
        { name: null, description: null, key: NIL_KEY, uid: NIL_UID, actions: ['search'], indexes: ['dog'], expiresAt: null, createdAt: '[date]', updatedAt: '[date]' },
      );
      expect(await get('/indexes/doggo/search', `Bearer ${NIL_KEY}`)).toEqual(
        forbidden('The API key cannot acces the index `doggo`, authorized indexes are ["dog"].'),
      );
    } finally {
      expect((await asMaster('DELETE', `/keys/${NIL_UID}`)).status).toBe(204);
    }
  });

  it('reports why a tenant token cannot be used, on search routes only (invalid_tenant_token)', async () => {
    const bearer = (jwt: string) => `Bearer ${jwt}`;
    // Not a search route: the JWT is only an unknown API key there.
    expect(await get('/indexes/dog/documents', bearer(signJwt({ tamo: 'kefir' }, 'tamo')))).toEqual(forbidden());
    expect(await get('/indexes/dog/search', bearer(signJwt({ tamo: 'kefir' }, 'tamo')))).toEqual(
      forbidden('Could not decode tenant token, JSON error: missing field `searchRules` at line 1 column 16.'),
    );
    expect(await get('/indexes/dog/search', bearer(signJwt({ searchRules: 'kefir' }, 'tamo')))).toEqual(
      forbidden('Could not decode tenant token, JSON error: data did not match any variant of untagged enum SearchRules at line 1 column 23.'),
    );
    expect(await get('/indexes/dog/search', bearer(signJwt({ searchRules: ['kefir'], apiKeyUid: NIL_UID }, 'tamo')))).toEqual(
      forbidden('Could not decode tenant token, InvalidSignature.'),
    );

    const created = await asMaster('POST', '/keys', { actions: ['search'], indexes: ['dog'], expiresAt: null, uid: NIL_UID });
    try {
      expect((created.body as { key: string }).key).toBe(NIL_KEY);
      const jwt = bearer(signJwt({ searchRules: ['doggo', 'catto'], apiKeyUid: NIL_UID }, NIL_KEY));
      expect(await get('/indexes/dog/search', jwt)).toEqual(
        forbidden('The provided tenant token cannot acces the index `dog`, allowed indexes are ["catto", "doggo"].'),
      );
      expect(await get('/indexes/doggo/search', jwt)).toEqual(forbidden('The API key used to generate this tenant token cannot acces the index `doggo`.'));
    } finally {
      expect((await asMaster('DELETE', `/keys/${NIL_UID}`)).status).toBe(204);
    }
  });
});
