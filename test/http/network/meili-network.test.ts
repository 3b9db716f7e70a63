// Port of Meilisearch's crates/meilisearch/tests/network/mod.rs (its single-server cases): `/network`
// refused while the `network` feature is off; the errors of `PATCH /network`'s remotes (missing,
// mistyped and relative urls, unknown fields, a mistyped key, a url set to null) and of its sharding
// fields (not the leader, a leader missing from the remotes, no owned shard, an unknown remote, a
// rename while a leader is defined); and which keys may read and change it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, expectError, type Reply } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let plain: TestServer;
let secured: TestServer;

beforeAll(async () => {
  [plain, secured] = await Promise.all([startServer(), startServer({ masterKey: 'MASTER_KEY' })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([plain.dispose(), secured.dispose()]);
});

const LOCAL = 'http://localhost:7700';

/** The network object, its `version` (a uuid) checked by shape and left out. */
function network(reply: Reply): unknown {
  expect(reply.status, reply.text).toBe(200);
  const { version, ...rest } = reply.body;
  expect(version).toMatch(/^[0-9a-f-]{36}$/);
  expect(Object.keys(reply.body)).toEqual(['self', 'remotes', 'shards', 'leader', 'version']);
  return rest;
}

const remote = (url: string) => ({ url, searchApiKey: null, writeApiKey: null, status: 'available' });

describe('error_network_not_enabled', () => {
  it.each([
    ['GET', undefined],
    ['PATCH', { self: 'myself' }],
  ])('%s /network answers feature_not_enabled', async (method, body) => {
    expectError(
      await call(plain, method, '/network', body),
      400,
      'feature_not_enabled',
      'Using the /network route requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805',
    );
  });
});

describe('with the network feature', () => {
  beforeAll(async () => {
    const reply = await call(plain, 'PATCH', '/experimental-features', { network: true });
    expect(reply.body.network).toBe(true);
  });

  describe('errors_on_param', () => {
    it.each([
      [{ selfie: 'myself' }, 'bad_request', 'Unknown field `selfie`: expected one of `remotes`, `shards`, `previousShards`, `self`, `leader`, `previousRemotes`'],
      [{ self: 42 }, 'invalid_network_self', 'Invalid value type at `.self`: expected a string, but found a positive integer: `42`'],
      [{ remotes: 42 }, 'invalid_network_remotes', 'Invalid value type at `.remotes`: expected an object, but found a positive integer: `42`'],
      [{ remotes: { new: { searchApiKey: LOCAL } } }, 'missing_network_url', 'Missing field `.remotes.new.url`'],
      [{ remotes: { new: { url: 7700 } } }, 'invalid_network_url', 'Invalid value type at `.remotes.new.url`: expected a string, but found a positive integer: `7700`'],
      [{ remotes: { new: { url: 'no-http-scheme' } } }, 'invalid_network_url', 'Invalid `.remotes.new.url` (`no-http-scheme`): relative URL without a base'],
      [
        { remotes: { new: { url: LOCAL, doggo: 'Intel the Beagle' } } },
        'invalid_network_remotes',
        'Unknown field `doggo` inside `.remotes.new`: expected one of `url`, `searchApiKey`, `writeApiKey`',
      ],
      [
        '{"remotes":{"new":{"url":"http://localhost:7700","searchApiKey":1204664602099962445}}}',
        'invalid_network_search_api_key',
        'Invalid value type at `.remotes.new.searchApiKey`: expected a string, but found a positive integer: `1204664602099962445`',
      ],
    ])('PATCH %j answers %s', async (body, code, message) => {
      expectError(await call(plain, 'PATCH', '/network', body), 400, code, message);
    });

    it('refuses a remote url set to null once the remote exists', async () => {
      expect(network(await call(plain, 'PATCH', '/network', { remotes: { kefir: { url: LOCAL } } }))).toStrictEqual({
        self: null,
        remotes: { kefir: remote(LOCAL) },
        shards: {},
        leader: null,
      });
      expectError(
        await call(plain, 'PATCH', '/network', { remotes: { kefir: { url: null } } }),
        400,
        'invalid_network_url',
        'Field `.remotes.kefir.url` cannot be set to `null`',
      );
      // the next describe starts from no remote, as the Rust test's new server does
      expect((await call(plain, 'PATCH', '/network', { remotes: { kefir: null } })).status).toBe(200);
    });
  });

  describe('errors_on_param_sharding', () => {
    const myself = { myself: { url: LOCAL } };
    it.each([
      [
        { self: 'myself', leader: 'someoneelse' },
        'not_leader',
        'This remote is not the leader of the network.\n  - Note: only the leader `someoneelse` can receive new tasks.',
      ],
      [{ self: 'myself', leader: 'myself' }, 'invalid_network_remotes', 'leader `myself` is missing from remotes'],
      [{ self: 'myself', leader: 'myself', remotes: myself }, 'invalid_network_shards', 'there must be at least one shard owned by at least one remote'],
      [
        { self: 'myself', leader: 'myself', remotes: myself, shards: { all: { remotes: [] } } },
        'invalid_network_shards',
        'there must be at least one shard owned by at least one remote',
      ],
      [
        { self: 'myself', leader: 'myself', remotes: myself, shards: { all: { remotes: ['unknown'] } } },
        'invalid_network_shards',
        'unknown remote `unknown` in `.all.remotes`',
      ],
    ])('PATCH %j answers %s', async (body, code, message) => {
      expectError(await call(plain, 'PATCH', '/network', body), 400, code, message);
    });

    it('refuses renaming self while a leader is defined', async () => {
      const shards = { all: { remotes: ['myself'] } };
      expect(network(await call(plain, 'PATCH', '/network', { self: 'myself', leader: null, remotes: myself, shards }))).toStrictEqual({
        self: 'myself',
        remotes: { myself: remote(LOCAL) },
        shards,
        leader: null,
      });
      expectError(
        await call(plain, 'PATCH', '/network', { self: 'someoneelse', leader: 'someoneelse', remotes: myself, shards }),
        400,
        'invalid_network_self',
        'Renaming a remote is not supported when a leader is defined.\n  - Note: applying this change would rename `myself` to `someoneelse`.\n  - Hint: Send this change to `someoneelse` if it already exists.',
      );
    });
  });
});

describe('auth', () => {
  const as = (key: string, method: string, body?: unknown) =>
    callRaw(secured, method, '/network', body === undefined ? undefined : JSON.stringify(body), {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    });
  const keyFor = async (actions: string[]): Promise<string> => {
    const reply = await callRaw(secured, 'POST', '/keys', JSON.stringify({ actions, indexes: ['*'], expiresAt: null }), {
      authorization: 'Bearer MASTER_KEY',
      'content-type': 'application/json',
    });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.key;
  };
  const empty = (self: string) => ({ self, remotes: {}, shards: {}, leader: null });
  const invalid = (reply: Reply) => expectError(reply, 403, 'invalid_api_key', 'The provided API key is invalid.', 'auth');

  it('network.get reads, network.update changes, and no other key does either', async () => {
    const enabled = await callRaw(secured, 'PATCH', '/experimental-features', JSON.stringify({ network: true }), {
      authorization: 'Bearer MASTER_KEY',
      'content-type': 'application/json',
    });
    expect(enabled.body.network).toBe(true);
    const [getKey, updateKey, searchKey] = [await keyFor(['network.get']), await keyFor(['network.update']), await keyFor(['search'])];

    expect(network(await as('MASTER_KEY', 'PATCH', { self: 'master' }))).toStrictEqual(empty('master'));
    expect(network(await as('MASTER_KEY', 'GET'))).toStrictEqual(empty('master'));
    expect(network(await as(getKey, 'GET'))).toStrictEqual(empty('master'));
    expect(network(await as(updateKey, 'PATCH', { self: 'api_key' }))).toStrictEqual(empty('api_key'));
    invalid(await as(updateKey, 'GET'));
    invalid(await as(getKey, 'PATCH', { self: 'get_api_key' }));
    invalid(await as(searchKey, 'GET'));
    invalid(await as(searchKey, 'PATCH', { self: 'get_api_key' }));
  });
});
