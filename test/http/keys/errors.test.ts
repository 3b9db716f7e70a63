import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '../../../src/types/key.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { call, errorBody } from '../auth/request.js';

const MASTER_KEY = 'MASTER_KEY';
const VALID = { actions: ['search'], indexes: ['products'], expiresAt: null };
const PATTERN_HELP =
  'is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).';
const DATE_HELP =
  "is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
});
afterAll(async () => {
  await server.dispose();
});

const create = (body: unknown) => call(server, 'POST', '/keys', { key: MASTER_KEY, body });
const bad = (code: string, message: string, status = 400) => ({ status, body: errorBody(code, message) });

describe('POST /keys field errors', () => {
  it('refuses a description or name that is not a string', async () => {
    expect(await create({ ...VALID, description: ['doggo'] })).toEqual(
      bad('invalid_api_key_description', 'Invalid value type at `.description`: expected a string, but found an array: `["doggo"]`'),
    );
    expect(await create({ ...VALID, name: ['doggo'] })).toEqual(
      bad('invalid_api_key_name', 'Invalid value type at `.name`: expected a string, but found an array: `["doggo"]`'),
    );
  });

  it('refuses a uid that is not a UUID string, in the uuid crate words', async () => {
    expect(await create({ ...VALID, uid: ['doggo'] })).toEqual(
      bad('invalid_api_key_uid', 'Invalid value type at `.uid`: expected a string, but found an array: `["doggo"]`'),
    );
    expect(await create({ ...VALID, uid: null })).toEqual(
      bad('invalid_api_key_uid', 'Invalid value type at `.uid`: expected a string, but found null'),
    );
    expect(await create({ ...VALID, uid: 'doggo' })).toEqual(bad('invalid_api_key_uid', 'Invalid value at `.uid`: invalid character: found `o` at 1'));
    expect(await create({ ...VALID, uid: 'aaaaabbbbbccc' })).toEqual(bad('invalid_api_key_uid', 'Invalid value at `.uid`: invalid length: found 13'));
  });

  it('refuses actions that are not an array of known actions, listing them all', async () => {
    expect(await create({ ...VALID, actions: 'doggo' })).toEqual(
      bad('invalid_api_key_actions', 'Invalid value type at `.actions`: expected an array, but found a string: `"doggo"`'),
    );
    const expected = ACTIONS.map((a) => `\`${a}\``).join(', ');
    expect(await create({ ...VALID, actions: ['doggo'] })).toEqual(
      bad('invalid_api_key_actions', `Unknown value \`doggo\` at \`.actions[0]\`: expected one of ${expected}`),
    );
    expect(await create({ ...VALID, actions: ['search', 'keys.*'] })).toEqual(
      bad('invalid_api_key_actions', `Unknown value \`keys.*\` at \`.actions[1]\`: expected one of ${expected}`),
    );
    expect(await create({ ...VALID, actions: ['documents.ad'] })).toEqual(
      bad('invalid_api_key_actions', `Unknown value \`documents.ad\` at \`.actions[0]\`: did you mean \`documents.add\`? expected one of ${expected}`),
    );
    expect(await create({ ...VALID, actions: [1] })).toEqual(
      bad('invalid_api_key_actions', 'Invalid value type at `.actions[0]`: expected a string, but found a positive integer: `1`'),
    );
  });

  it('refuses indexes that are not an array of index uid patterns', async () => {
    expect(await create({ ...VALID, indexes: 'doggo' })).toEqual(
      bad('invalid_api_key_indexes', 'Invalid value type at `.indexes`: expected an array, but found a string: `"doggo"`'),
    );
    expect(await create({ ...VALID, indexes: ['products', 'good doggo'] })).toEqual(
      bad('invalid_api_key_indexes', `Invalid value at \`.indexes[1]\`: \`good doggo\` ${PATTERN_HELP}`),
    );
    expect(await create({ ...VALID, indexes: ['doggo!*'] })).toEqual(
      bad('invalid_api_key_indexes', `Invalid value at \`.indexes[0]\`: \`doggo!\` ${PATTERN_HELP}`),
    );
    expect(await create({ ...VALID, indexes: [1] })).toEqual(
      bad('invalid_api_key_indexes', 'Invalid value type at `.indexes[0]`: expected a string, but found a positive integer: `1`'),
    );
  });

  it('refuses an expiresAt of the wrong type, unparsable or in the past, the message ending with a newline', async () => {
    expect(await create({ ...VALID, expiresAt: 12 })).toEqual(
      bad('invalid_api_key_expires_at', 'Invalid value type at `.expiresAt`: expected a string, but found a positive integer: `12`'),
    );
    expect(await create({ ...VALID, expiresAt: 'doggo' })).toEqual(
      bad('invalid_api_key_expires_at', `Invalid value at \`.expiresAt\`: \`doggo\` ${DATE_HELP}`),
    );
    expect(await create({ ...VALID, expiresAt: '2010-11-13T00:00:00Z' })).toEqual(
      bad('invalid_api_key_expires_at', `Invalid value at \`.expiresAt\`: \`2010-11-13T00:00:00Z\` ${DATE_HELP}`),
    );
  });

  it('names each missing required field with its own code', async () => {
    expect(await create({ indexes: ['doggo'], expiresAt: null })).toEqual(bad('missing_api_key_actions', 'Missing field `actions`'));
    expect(await create({ actions: ['*'], expiresAt: null })).toEqual(bad('missing_api_key_indexes', 'Missing field `indexes`'));
    expect(await create({ actions: ['*'], indexes: ['doggo'] })).toEqual(bad('missing_api_key_expires_at', 'Missing field `expiresAt`'));
  });

  it('refuses unknown fields, suggesting a close one', async () => {
    expect(await create({ ...VALID, doggo: 'bork' })).toEqual(
      bad('bad_request', 'Unknown field `doggo`: expected one of `description`, `name`, `uid`, `actions`, `indexes`, `expiresAt`'),
    );
    expect(await create({ expires_at: 'doggo' })).toEqual(
      bad('bad_request', 'Unknown field `expires_at`: did you mean `expiresAt`? expected one of `description`, `name`, `uid`, `actions`, `indexes`, `expiresAt`'),
    );
    expect(await create([])).toEqual(bad('bad_request', 'Invalid value type: expected an object, but found an array: `[]`'));
  });

  it('reports the first problem in payload order, missing fields last', async () => {
    expect(await create({ indexes: 'x', actions: 'y' })).toMatchObject({ body: { code: 'invalid_api_key_indexes' } });
    expect(await create({ actions: 'y', indexes: 'x' })).toMatchObject({ body: { code: 'invalid_api_key_actions' } });
    expect(await create({ expiresAt: 'doggo' })).toMatchObject({ body: { code: 'invalid_api_key_expires_at' } });
  });
});

describe('POST /keys key-level errors', () => {
  it('refuses global actions on an index-restricted key, naming the first one', async () => {
    expect(await create({ actions: ['search', 'version', 'dumps.create'], indexes: ['products'], expiresAt: null })).toEqual(
      bad(
        'index_scoped_api_key_with_global_action',
        'cannot create index-scoped API key with global action `"version"`\n  - Hint: remove action `"version"` from the action list, or remove `indexes` to make the key global',
      ),
    );
  });

  it('accepts global actions when indexes contain * or are empty', async () => {
    expect((await create({ actions: ['version'], indexes: ['products', '*'], expiresAt: null })).status).toBe(201);
    expect((await create({ actions: ['version'], indexes: [], expiresAt: null })).status).toBe(201);
  });

  it('checks the index scope before the uid uniqueness', async () => {
    const uid = '11111111-1111-4111-8111-111111111111';
    expect((await create({ ...VALID, uid })).status).toBe(201);
    expect(await create({ uid, actions: ['version'], indexes: ['products'], expiresAt: null })).toMatchObject({
      body: { code: 'index_scoped_api_key_with_global_action' },
    });
    expect(await create({ ...VALID, uid })).toEqual(
      bad('api_key_already_exists', `\`uid\` field value \`${uid}\` is already an existing API key.`, 409),
    );
  });
});

describe('GET /keys query errors', () => {
  it('refuses a bad offset, limit or unknown parameter', async () => {
    const list = (query: string) => call(server, 'GET', `/keys?${query}`, { key: MASTER_KEY });
    expect(await list('offset=doggo')).toEqual(
      bad('invalid_api_key_offset', 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer'),
    );
    expect(await list('limit=-1')).toEqual(
      bad('invalid_api_key_limit', 'Invalid value in parameter `limit`: could not parse `-1` as a positive integer'),
    );
    expect(await list('doggo=no_limit')).toEqual(bad('bad_request', 'Unknown parameter `doggo`: expected one of `offset`, `limit`'));
  });
});

describe('PATCH /keys/{key} errors', () => {
  const patch = (body: unknown, ref = 'doggo') => call(server, 'PATCH', `/keys/${ref}`, { key: MASTER_KEY, body });

  it('refuses a name or description that is not a string, before looking the key up', async () => {
    expect(await patch({ description: ['doggo'] })).toEqual(
      bad('invalid_api_key_description', 'Invalid value type at `.description`: expected a string, but found an array: `["doggo"]`'),
    );
    expect(await patch({ name: ['doggo'] })).toEqual(
      bad('invalid_api_key_name', 'Invalid value type at `.name`: expected a string, but found an array: `["doggo"]`'),
    );
  });

  it('refuses every immutable field with its own code', async () => {
    for (const [field, code] of [
      ['uid', 'immutable_api_key_uid'],
      ['actions', 'immutable_api_key_actions'],
      ['indexes', 'immutable_api_key_indexes'],
      ['expiresAt', 'immutable_api_key_expires_at'],
      ['createdAt', 'immutable_api_key_created_at'],
      ['updatedAt', 'immutable_api_key_updated_at'],
    ]) {
      expect(await patch({ [field!]: 'doggo' })).toEqual(bad(code!, `Immutable field \`${field}\`: expected one of \`description\`, \`name\``));
    }
  });

  it('refuses other unknown fields, key included, as bad requests', async () => {
    expect(await patch({ doggo: 'bork' })).toEqual(bad('bad_request', 'Unknown field `doggo`: expected one of `description`, `name`'));
    expect(await patch({ key: 'bork' })).toEqual(bad('bad_request', 'Unknown field `key`: expected one of `description`, `name`'));
  });

  it('answers 404 for an unknown key once the body is valid', async () => {
    expect(await patch({ name: 'x' })).toEqual(bad('api_key_not_found', 'API key `doggo` not found.', 404));
  });
});

describe('unknown keys', () => {
  it('answers 404 naming the segment, or the canonical uid', async () => {
    const uid = '22222222-2222-4222-8222-222222222222';
    for (const method of ['GET', 'DELETE']) {
      expect(await call(server, method, '/keys/doggo', { key: MASTER_KEY })).toEqual(bad('api_key_not_found', 'API key `doggo` not found.', 404));
      expect(await call(server, method, `/keys/${uid.toUpperCase()}`, { key: MASTER_KEY })).toEqual(
        bad('api_key_not_found', `API key \`${uid}\` not found.`, 404),
      );
    }
  });
});
