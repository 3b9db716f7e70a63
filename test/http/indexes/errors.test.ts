/**
 * Every bad input of the index, swap and stats routes, with Meilisearch's exact status, code and
 * message, and the order in which the errors are reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_UID, call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let existing: string;

beforeAll(async () => {
  server = await startServer();
  existing = uniqueUid('exists');
  await run(server, 'POST', '/indexes', { uid: existing });
});
afterAll(async () => {
  await server.dispose();
});

describe('index uids', () => {
  it.each([
    ['a space', 'a%20b', 'a b'],
    ['a dot', 'a.b', 'a.b'],
    ['a non-ASCII letter', 'caf%C3%A9', 'café'],
  ])('with %s in the path gives invalid_index_uid with the bare message', async (_what, path, uid) => {
    for (const [method, suffix] of [['GET', ''], ['DELETE', ''], ['GET', '/stats']] as const) {
      expectError(await call(server, method, `/indexes/${path}${suffix}`), 400, 'invalid_index_uid', INVALID_UID(uid));
    }
    expectError(await call(server, 'PATCH', `/indexes/${path}`, {}), 400, 'invalid_index_uid', INVALID_UID(uid));
  });

  it('an unknown index answers 404 index_not_found on GET and stats', async () => {
    const uid = uniqueUid('missing');
    expectError(await call(server, 'GET', `/indexes/${uid}`), 404, 'index_not_found', `Index \`${uid}\` not found.`);
    expectError(await call(server, 'GET', `/indexes/${uid}/stats`), 404, 'index_not_found', `Index \`${uid}\` not found.`);
  });
});

describe('POST /indexes', () => {
  it.each<[string, unknown, string, string]>([
    ['without uid', {}, 'missing_index_uid', 'Missing field `uid`'],
    ['without uid but a primary key', { primaryKey: 'id' }, 'missing_index_uid', 'Missing field `uid`'],
    ['with a boolean uid', { uid: true }, 'invalid_index_uid', 'Invalid value type at `.uid`: expected a string, but found a boolean: `true`'],
    ['with a number uid', { uid: 12 }, 'invalid_index_uid', 'Invalid value type at `.uid`: expected a string, but found a positive integer: `12`'],
    ['with a null uid', { uid: null }, 'invalid_index_uid', 'Invalid value type at `.uid`: expected a string, but found null'],
    ['with an invalid uid', { uid: 'the good doggo' }, 'invalid_index_uid', `Invalid value at \`.uid\`: ${INVALID_UID('the good doggo')}`],
    ['with an empty uid', { uid: '' }, 'invalid_index_uid', `Invalid value at \`.uid\`: ${INVALID_UID('')}`],
    ['with a 401-byte uid', { uid: 'a'.repeat(401) }, 'invalid_index_uid', `Invalid value at \`.uid\`: ${INVALID_UID('a'.repeat(401))}`],
    ['with a number primary key', { uid: 'ok', primaryKey: 1 }, 'invalid_index_primary_key', 'Invalid value type at `.primaryKey`: expected a string, but found a positive integer: `1`'],
    ['with an array primary key', { uid: 'ok', primaryKey: ['id'] }, 'invalid_index_primary_key', 'Invalid value type at `.primaryKey`: expected a string, but found an array: `["id"]`'],
    ['with a bad primary key before the missing uid', { primaryKey: 1 }, 'invalid_index_primary_key', 'Invalid value type at `.primaryKey`: expected a string, but found a positive integer: `1`'],
    ['with an unknown field', { uid: 'ok', doggo: 1 }, 'bad_request', 'Unknown field `doggo`: expected one of `uid`, `primaryKey`'],
    ['with a misspelled field', { uid: 'ok', primarykey: 'id' }, 'bad_request', 'Unknown field `primarykey`: did you mean `primaryKey`? expected one of `uid`, `primaryKey`'],
    ['with an array body', [], 'bad_request', 'Invalid value type: expected an object, but found an array: `[]`'],
  ])('%s answers 400 %s', async (_what, body, code, message) => {
    expectError(await call(server, 'POST', '/indexes', body), 400, code, message);
  });
});

describe('PATCH /indexes/{uid}', () => {
  it.each<[string, unknown, string, string]>([
    ['createdAt', { createdAt: '2020-01-01' }, 'immutable_index_created_at', 'Immutable field `createdAt`: expected one of `primaryKey`, `uid`'],
    ['updatedAt', { updatedAt: '2020-01-01' }, 'immutable_index_updated_at', 'Immutable field `updatedAt`: expected one of `primaryKey`, `uid`'],
    ['an unknown field', { doggo: 1 }, 'bad_request', 'Unknown field `doggo`: expected one of `primaryKey`, `uid`'],
    ['a number uid', { uid: 1 }, 'invalid_index_uid', 'Invalid value type at `.uid`: expected a string, but found a positive integer: `1`'],
    ['a boolean primary key', { primaryKey: false }, 'invalid_index_primary_key', 'Invalid value type at `.primaryKey`: expected a string, but found a boolean: `false`'],
    ['an invalid new uid', { uid: 'new uid' }, 'invalid_index_uid', INVALID_UID('new uid')],
  ])('with %s answers 400 %s', async (_what, body, code, message) => {
    expectError(await call(server, 'PATCH', `/indexes/${existing}`, body), 400, code, message);
  });

  it('reports a body error before an invalid uid in the path, which comes before an invalid new uid', async () => {
    expectError(await call(server, 'PATCH', '/indexes/a%20b', { createdAt: 1 }), 400, 'immutable_index_created_at', 'Immutable field `createdAt`: expected one of `primaryKey`, `uid`');
    expectError(await call(server, 'PATCH', '/indexes/a%20b', { uid: 'c d' }), 400, 'invalid_index_uid', INVALID_UID('a b'));
  });
});

describe('GET /indexes', () => {
  it.each([
    ['offset=x', 'invalid_index_offset', 'Invalid value in parameter `offset`: could not parse `x` as a positive integer'],
    ['offset=-1', 'invalid_index_offset', 'Invalid value in parameter `offset`: could not parse `-1` as a positive integer'],
    ['limit=1.5', 'invalid_index_limit', 'Invalid value in parameter `limit`: could not parse `1.5` as a positive integer'],
    ['limit=x&offset=y', 'invalid_index_limit', 'Invalid value in parameter `limit`: could not parse `x` as a positive integer'],
    ['doggo=1', 'bad_request', 'Unknown parameter `doggo`: expected one of `offset`, `limit`'],
  ])('?%s answers 400 %s', async (query, code, message) => {
    expectError(await call(server, 'GET', `/indexes?${query}`), 400, code, message);
  });
});

describe('stats query parameters', () => {
  it.each([
    ['sizeFormat=kb', 'invalid_stats_size_format', 'Unknown value `kb` for parameter `sizeFormat`: expected one of `human`, `raw`'],
    ['sizeFormat=Human', 'invalid_stats_size_format', 'Unknown value `Human` for parameter `sizeFormat`: did you mean `human`? expected one of `human`, `raw`'],
    ['showInternalDatabaseSizes=yes', 'invalid_stats_show_internal_database_sizes', 'Invalid value in parameter `showInternalDatabaseSizes`: could not parse `yes` as a boolean, expected either `true` or `false`'],
    ['doggo=1', 'bad_request', 'Unknown parameter `doggo`: expected one of `showInternalDatabaseSizes`, `sizeFormat`'],
  ])('?%s answers 400 %s on both stats routes', async (query, code, message) => {
    expectError(await call(server, 'GET', `/stats?${query}`), 400, code, message);
    expectError(await call(server, 'GET', `/indexes/${existing}/stats?${query}`), 400, code, message);
  });
});

describe('POST /swap-indexes', () => {
  it.each<[string, unknown, string, string]>([
    ['a string body', '"doggo"', 'bad_request', 'Invalid value type: expected an array, but found a string: `"doggo"`'],
    ['an object body', {}, 'bad_request', 'Invalid value type: expected an array, but found an object: `{}`'],
    ['a string swap', ['doggo'], 'bad_request', 'Invalid value type at `[0]`: expected an object, but found a string: `"doggo"`'],
    ['indexes not an array', [{ indexes: 'doggo' }], 'invalid_swap_indexes', 'Invalid value type at `[0].indexes`: expected an array, but found a string: `"doggo"`'],
    ['a number index uid', [{ indexes: ['doggo', 1] }], 'invalid_swap_indexes', 'Invalid value type at `[0].indexes[1]`: expected a string, but found a positive integer: `1`'],
    ['an invalid index uid', [{ indexes: ['doggo', 'cat to'] }], 'invalid_swap_indexes', `Invalid value at \`[0].indexes[1]\`: ${INVALID_UID('cat to')}`],
    ['one index', [{ indexes: ['doggo'] }], 'invalid_swap_indexes', 'Two indexes must be given for each swap. The list `["doggo"]` contains 1 indexes.'],
    ['three indexes', [{ indexes: ['doggo', 'crabo', 'croco'] }], 'invalid_swap_indexes', 'Two indexes must be given for each swap. The list `["doggo", "crabo", "croco"]` contains 3 indexes.'],
    ['no index', [{ indexes: [] }], 'invalid_swap_indexes', 'Two indexes must be given for each swap. The list `[]` contains 0 indexes.'],
    ['indexes missing', [{ rename: true }], 'missing_swap_indexes', 'Missing field `indexes` inside `[0]`'],
    ['rename not a boolean', [{ indexes: ['a', 'b'], rename: 'yes' }], 'invalid_swap_rename', 'Invalid value type at `[0].rename`: expected a boolean, but found a string: `"yes"`'],
    ['rename null', [{ indexes: ['a', 'b'], rename: null }], 'invalid_swap_rename', 'Invalid value type at `[0].rename`: expected a boolean, but found null'],
    ['an unknown field', [{ indexes: ['a', 'b'], doggo: 1 }], 'bad_request', 'Unknown field `doggo` inside `[0]`: expected one of `indexes`, `rename`'],
    ['an index twice in a pair', [{ indexes: ['doggo', 'doggo'] }], 'invalid_swap_duplicate_index_found', 'Indexes must be declared only once during a swap. `doggo` was specified several times.'],
    ['an index in two pairs', [{ indexes: ['doggo', 'catto'] }, { indexes: ['girafo', 'doggo'] }], 'invalid_swap_duplicate_index_found', 'Indexes must be declared only once during a swap. `doggo` was specified several times.'],
    ['several duplicates, named in sorted order', [{ indexes: ['b', 'a'] }, { indexes: ['b', 'a'] }], 'invalid_swap_duplicate_index_found', 'Indexes must be declared only once during a swap. `a`, `b` were specified several times.'],
  ])('with %s answers 400 %s', async (_what, body, code, message) => {
    expectError(await call(server, 'POST', '/swap-indexes', body), 400, code, message);
  });

  it('reports the body shape before the count of a swap, and the count before duplicates', async () => {
    expectError(
      await call(server, 'POST', '/swap-indexes', [{ indexes: ['a'] }, { indexes: 'x' }]),
      400,
      'invalid_swap_indexes',
      'Invalid value type at `[1].indexes`: expected an array, but found a string: `"x"`',
    );
    expectError(
      await call(server, 'POST', '/swap-indexes', [{ indexes: ['b', 'b'] }, { indexes: ['a'] }]),
      400,
      'invalid_swap_indexes',
      'Two indexes must be given for each swap. The list `["a"]` contains 1 indexes.',
    );
  });

  it('enqueues nothing when the request is refused', async () => {
    const before = (await call(server, 'GET', '/tasks?limit=0')).body.total;
    await call(server, 'POST', '/swap-indexes', [{ indexes: ['doggo', 'doggo'] }]);
    await call(server, 'POST', '/indexes', { uid: 'bad uid' });
    expect((await call(server, 'GET', '/tasks?limit=0')).body.total).toBe(before);
  });
});
