// Port of Meilisearch's crates/meilisearch/tests/index/errors.rs: the 400s of the index routes — bad
// `offset`/`limit` and unknown parameters of `GET /indexes`, a missing, malformed or mistyped `uid`,
// a mistyped `primaryKey` and unknown fields of `POST /indexes`, the immutable `createdAt` and
// `updatedAt` and unknown fields of `PATCH /indexes/{uid}`, and an invalid uid in the path of
// `GET`, `PATCH` and `DELETE /indexes/{uid}`. Every error is answered before any index is looked
// up, so the `unique_index()` of the Rust tests (never created) is a fresh uid here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid, waitTask, type Reply } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const INVALID_UID_TAIL =
  'is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.';

/** Meilisearch's `create_index_fail`: a 2xx would be a task, waited for, that must not succeed. */
async function createIndexFail(body: unknown): Promise<Reply> {
  const reply = await call(server, 'POST', '/indexes', body);
  if (reply.status >= 200 && reply.status < 300) {
    const task = await waitTask(server, reply.body.taskUid);
    expect(task.status, `create_index_fail succeeded: ${JSON.stringify(task)}`).not.toBe('succeeded');
    return { status: reply.status, body: task, text: JSON.stringify(task) };
  }
  return reply;
}

describe('GET /indexes', () => {
  it('get_indexes_bad_offset: an offset that is not a number is invalid_index_offset', async () => {
    expectError(
      await call(server, 'GET', '/indexes?offset=doggo'),
      400,
      'invalid_index_offset',
      'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer',
    );
  });

  it('get_indexes_bad_limit: a limit that is not a number is invalid_index_limit', async () => {
    expectError(
      await call(server, 'GET', '/indexes?limit=doggo'),
      400,
      'invalid_index_limit',
      'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer',
    );
  });

  it('get_indexes_unknown_field: an unknown parameter is a bad_request naming offset and limit', async () => {
    expectError(await call(server, 'GET', '/indexes?doggo=nolimit'), 400, 'bad_request', 'Unknown parameter `doggo`: expected one of `offset`, `limit`');
  });
});

describe('POST /indexes', () => {
  it('create_index_missing_uid: a body without uid is missing_index_uid', async () => {
    expectError(await createIndexFail({ primaryKey: 'doggo' }), 400, 'missing_index_uid', 'Missing field `uid`');
  });

  it('create_index_bad_uid: a uid with spaces, and a uid that is a boolean, are invalid_index_uid', async () => {
    expectError(
      await createIndexFail({ uid: 'the best doggo' }),
      400,
      'invalid_index_uid',
      `Invalid value at \`.uid\`: \`the best doggo\` ${INVALID_UID_TAIL}`,
    );
    expectError(await createIndexFail({ uid: true }), 400, 'invalid_index_uid', 'Invalid value type at `.uid`: expected a string, but found a boolean: `true`');
  });

  it('create_index_bad_primary_key: an array primaryKey is invalid_index_primary_key, the array shown compact', async () => {
    expectError(
      await createIndexFail({ uid: 'doggo', primaryKey: ['the', 'best', 'doggo'] }),
      400,
      'invalid_index_primary_key',
      'Invalid value type at `.primaryKey`: expected a string, but found an array: `["the","best","doggo"]`',
    );
  });

  it('create_index_unknown_field: an unknown field is a bad_request naming uid and primaryKey', async () => {
    expectError(await createIndexFail({ uid: 'doggo', doggo: 'bernese' }), 400, 'bad_request', 'Unknown field `doggo`: expected one of `uid`, `primaryKey`');
  });
});

describe('GET /indexes/{uid}', () => {
  it('get_index_bad_uid: an invalid uid in the path is invalid_index_uid', async () => {
    expectError(
      await call(server, 'GET', `/indexes/${encodeURIComponent('the good doggo')}`),
      400,
      'invalid_index_uid',
      `\`the good doggo\` ${INVALID_UID_TAIL}`,
    );
  });
});

describe('PATCH /indexes/{uid}', () => {
  it('update_index_bad_primary_key: an array primaryKey is invalid_index_primary_key', async () => {
    expectError(
      await call(server, 'PATCH', `/indexes/${uniqueUid()}`, { primaryKey: ['doggo'] }),
      400,
      'invalid_index_primary_key',
      'Invalid value type at `.primaryKey`: expected a string, but found an array: `["doggo"]`',
    );
  });

  it('update_index_immutable_created_at: createdAt is immutable_index_created_at', async () => {
    expectError(
      await call(server, 'PATCH', `/indexes/${uniqueUid()}`, { createdAt: 'doggo' }),
      400,
      'immutable_index_created_at',
      'Immutable field `createdAt`: expected one of `primaryKey`, `uid`',
    );
  });

  it('update_index_immutable_updated_at: updatedAt is immutable_index_updated_at', async () => {
    expectError(
      await call(server, 'PATCH', `/indexes/${uniqueUid()}`, { updatedAt: 'doggo' }),
      400,
      'immutable_index_updated_at',
      'Immutable field `updatedAt`: expected one of `primaryKey`, `uid`',
    );
  });

  it('update_index_unknown_field: an unknown field is a bad_request naming primaryKey and uid', async () => {
    expectError(
      await call(server, 'PATCH', `/indexes/${uniqueUid()}`, { doggo: 'bork' }),
      400,
      'bad_request',
      'Unknown field `doggo`: expected one of `primaryKey`, `uid`',
    );
  });

  it('update_index_bad_uid: an invalid uid in the path is invalid_index_uid', async () => {
    expectError(
      await call(server, 'PATCH', `/indexes/${encodeURIComponent('the good doggo')}`, { primaryKey: 'doggo' }),
      400,
      'invalid_index_uid',
      `\`the good doggo\` ${INVALID_UID_TAIL}`,
    );
  });
});

describe('DELETE /indexes/{uid}', () => {
  it('delete_index_bad_uid: an invalid uid in the path is invalid_index_uid', async () => {
    expectError(
      await call(server, 'DELETE', `/indexes/${encodeURIComponent('the good doggo')}`),
      400,
      'invalid_index_uid',
      `\`the good doggo\` ${INVALID_UID_TAIL}`,
    );
  });
});
