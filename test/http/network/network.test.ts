/**
 * `/network` through the real server: the feature gate, the fresh object, PATCH merge rules (in
 * v1.50's order) and their errors, the statuses a PATCH answers, persistence across a restart, and
 * the control route's errors (leaders: leader.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const NIL = '00000000-0000-0000-0000-000000000000';
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('network routes', () => {
  it('require the network feature', async () => {
    const gate = (route: string) =>
      errorBody('feature_not_enabled', `Using the ${route} route requires enabling the \`network\` experimental feature. See https://github.com/orgs/meilisearch/discussions/805`);
    expect(await call(server, 'GET', '/network')).toMatchObject({ status: 400, body: gate('/network') });
    expect(await call(server, 'PATCH', '/network', {})).toMatchObject({ status: 400, body: gate('/network') });
    const control = { origin: { remoteName: 'ms-1', taskUid: 0 }, message: { type: 'statusChangeForRemote', remote: 'ms-1', status: 'available' } };
    expect(await call(server, 'POST', '/network/control', control)).toMatchObject({ status: 400, body: gate('/network/control') });
    await call(server, 'PATCH', '/experimental-features', { network: true });
  });

  it('starts empty and merges PATCHes into a new version each time', async () => {
    expect((await call(server, 'GET', '/network')).text).toBe(JSON.stringify({ self: null, remotes: {}, shards: {}, leader: null, version: NIL }));
    const first = await call(server, 'PATCH', '/network', {
      self: 'ms-0',
      remotes: { 'ms-1': { url: 'http://localhost:7701', searchApiKey: 'foo' }, 'ms-0': { url: 'http://localhost:7700' } },
      shards: { a: { remotes: ['ms-0', 'ms-1'] } },
    });
    expect(first.status).toBe(200);
    expect(first.body.version).toMatch(V7);
    expect(first.text).toBe(
      JSON.stringify({
        self: 'ms-0',
        remotes: {
          'ms-0': { url: 'http://localhost:7700', searchApiKey: null, writeApiKey: null, status: 'available' },
          'ms-1': { url: 'http://localhost:7701', searchApiKey: 'foo', writeApiKey: null, status: 'available' },
        },
        shards: { a: { remotes: ['ms-0', 'ms-1'] } },
        leader: null,
        version: first.body.version,
      }),
    );
    const second = await call(server, 'PATCH', '/network', { remotes: { 'ms-1': { writeApiKey: 'w' }, 'ms-0': null }, shards: { b: { addRemotes: ['ms-1'] } } });
    expect(second.body).toMatchObject({
      self: 'ms-0',
      remotes: { 'ms-1': { url: 'http://localhost:7701', searchApiKey: 'foo', writeApiKey: 'w', status: 'available' } },
      shards: { a: { remotes: ['ms-1'] }, b: { remotes: ['ms-1'] } },
    });
    expect(Object.keys(second.body.remotes)).toEqual(['ms-1']);
    expect(second.body.version > first.body.version).toBe(true);
    // a shard left without remotes is dropped
    expect((await call(server, 'PATCH', '/network', { shards: { a: { removeRemotes: ['ms-1'] } } })).body.shards).toEqual({ b: { remotes: ['ms-1'] } });
    expect((await call(server, 'GET', '/network')).body.remotes['ms-1'].writeApiKey).toBe('w');
  });

  it('reports PATCH errors with Meilisearch codes and messages', async () => {
    expect((await call(server, 'PATCH', '/network', { doggo: 1 })).body).toMatchObject({
      code: 'bad_request',
      message: 'Unknown field `doggo`: expected one of `remotes`, `shards`, `previousShards`, `self`, `leader`, `previousRemotes`',
    });
    expect((await call(server, 'PATCH', '/network', { self: 1 })).body).toMatchObject({ code: 'invalid_network_self' });
    expect((await call(server, 'PATCH', '/network', { remotes: { new: { url: 'http://a', doggo: 1 } } })).body).toMatchObject({
      code: 'invalid_network_remotes',
      message: 'Unknown field `doggo` inside `.remotes.new`: expected one of `url`, `searchApiKey`, `writeApiKey`',
    });
    expect((await call(server, 'PATCH', '/network', { remotes: { new: { searchApiKey: 'k' } } })).body).toEqual(
      errorBody('missing_network_url', 'Missing field `.remotes.new.url`'),
    );
    expect((await call(server, 'PATCH', '/network', { remotes: { new: { url: 'localhost' } } })).body).toEqual(
      errorBody('invalid_network_url', 'Invalid `.remotes.new.url` (`localhost`): relative URL without a base'),
    );
    expect((await call(server, 'PATCH', '/network', { remotes: { 'ms-1': { url: null } } })).body).toEqual(
      errorBody('invalid_network_url', 'Field `.remotes.ms-1.url` cannot be set to `null`'),
    );
    // a new remote's `null` url is a missing one; remotes are merged by name, the first name's error wins
    expect((await call(server, 'PATCH', '/network', { remotes: { new: { url: null } } })).body).toEqual(errorBody('missing_network_url', 'Missing field `.remotes.new.url`'));
    expect((await call(server, 'PATCH', '/network', { remotes: { b: { url: 'bad' }, a: {} } })).body).toEqual(errorBody('missing_network_url', 'Missing field `.remotes.a.url`'));
    // the fields instances send one another have the types of the others
    expect((await call(server, 'PATCH', '/network', { previousShards: 42 })).body).toEqual(
      errorBody('invalid_network_shards', 'Invalid value type at `.previousShards`: expected an object, but found a positive integer: `42`'),
    );
    expect((await call(server, 'PATCH', '/network', { previousShards: { a: { remotes: [1] } } })).body).toMatchObject({ code: 'invalid_network_remotes' });
    expect((await call(server, 'PATCH', '/network', { previousRemotes: 42 })).body).toEqual(
      errorBody('invalid_network_remotes', 'Invalid value type at `.previousRemotes`: expected an object, but found a positive integer: `42`'),
    );
    expect((await call(server, 'PATCH', '/network', { remotes: { 'ms-1': { searchApiKey: 1 } } })).body).toMatchObject({ code: 'invalid_network_search_api_key' });
    // a shard's lists have their own code; the shard itself (unknown fields, its type) the shards'
    expect((await call(server, 'PATCH', '/network', { shards: { a: { remotes: 'x' } } })).body).toEqual(
      errorBody('invalid_network_remotes', 'Invalid value type at `.shards.a.remotes`: expected an array, but found a string: `"x"`'),
    );
    expect((await call(server, 'PATCH', '/network', { shards: { a: { removeRemotes: [1] } } })).body).toMatchObject({ code: 'invalid_network_remotes' });
    expect((await call(server, 'PATCH', '/network', { shards: { a: { other: [] } } })).body).toMatchObject({ code: 'invalid_network_shards' });
    expect((await call(server, 'PATCH', '/network', { shards: { a: 'x' } })).body).toMatchObject({ code: 'invalid_network_shards' });
    expect((await call(server, 'PATCH', '/network', { leader: 1 })).body).toMatchObject({ code: 'invalid_network_leader' });
    expect((await call(server, 'PATCH', '/network', { previousRemotes: {} })).body).toEqual(
      errorBody('unexpected_network_previous_remotes', 'Unexpected `previousRemotes` in network call.\n  - Note: `previousRemote` is reserved for internal use.'),
    );
    // this instance is `ms-0` here: it may lead, but only a network it is a remote of
    expect(await call(server, 'PATCH', '/network', { leader: 'ms-0' })).toMatchObject({
      status: 400,
      body: errorBody('invalid_network_remotes', 'leader `ms-0` is missing from remotes'),
    });
    expect(await call(server, 'POST', '/network/control', { origin: { remoteName: 'ms-1', taskUid: 0 } })).toMatchObject({
      status: 400,
      body: errorBody('bad_request', 'Json deserialize error: missing field `message`'),
    });
  });

  it('merges the shards before the remotes, so a removed remote leaves the shards the same PATCH names', async () => {
    const url = 'http://localhost:7702';
    await call(server, 'PATCH', '/network', { remotes: { a: { url }, c: { url } }, shards: { s1: { remotes: ['a'] } } });
    const merged = await call(server, 'PATCH', '/network', { remotes: { c: null }, shards: { s3: { remotes: ['c'] }, s1: { addRemotes: ['c'] } } });
    expect(merged.body.shards).toEqual({ b: { remotes: ['ms-1'] }, s1: { remotes: ['a'] } });
    await call(server, 'PATCH', '/network', { remotes: { a: null } });
  });

  it('answers the remotes a PATCH names as available, whatever their known status', async () => {
    const control = { origin: { remoteName: 'ms-1', taskUid: 0 }, message: { type: 'statusChangeForRemote', remote: 'ms-1', status: 'unavailable' } };
    expect((await call(server, 'POST', '/network/control', control)).status).toBe(200);
    expect((await call(server, 'PATCH', '/network', { self: 'ms-0' })).body.remotes['ms-1'].status).toBe('unavailable');
    expect((await call(server, 'PATCH', '/network', { remotes: { 'ms-1': { searchApiKey: 'zz' } } })).body.remotes['ms-1'].status).toBe('available');
    expect((await call(server, 'GET', '/network')).body.remotes['ms-1'].status).toBe('unavailable');
    await call(server, 'POST', '/network/control', { ...control, message: { ...control.message, status: 'available' } });
  });

  it('clears remotes with null, leaving the shards, and keeps the network across a restart', async () => {
    const before = await call(server, 'PATCH', '/network', { remotes: null, self: null });
    expect(before.body).toMatchObject({ self: null, remotes: {}, shards: { b: { remotes: ['ms-1'] } } });
    await call(server, 'PATCH', '/network', { self: 'kept' });
    await server.stop();
    server = await startServer({ dbPath: server.dbPath });
    expect((await call(server, 'GET', '/network')).body).toMatchObject({ self: 'kept' });
  });
});
