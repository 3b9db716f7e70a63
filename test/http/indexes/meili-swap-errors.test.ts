// Port of Meilisearch's crates/meilisearch/tests/swap_indexes/errors.rs: the 400s of
// `POST /swap-indexes` (a body that is not an array of objects, `indexes` that is not an array of
// exactly two uids or names one index twice, a `rename` that is not a boolean), and the failed
// `indexSwap` tasks of renames onto indexes that exist (one, then two at once). The shared indexes
// of the Rust harness (EMPTY_INDEX, SHARED_DOCUMENTS, SHARED_GEO_DOCUMENTS,
// SHARED_NESTED_DOCUMENTS) are built here with the same documents and settings; the snapshots
// redact the task's `uid` and `batchUid`, so they are checked by shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, expectError, stable, waitTask } from '../../helpers/api.js';
import {
  DOCUMENTS,
  DOCUMENTS_SETTINGS,
  GEO_DOCUMENTS,
  GEO_DOCUMENTS_SETTINGS,
  NESTED_DOCUMENTS,
  NESTED_DOCUMENTS_CATTOS_SETTINGS,
  expectJson,
  finishedTask,
  seed,
  succeed,
} from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const swap = (body: unknown) => call(server, 'POST', '/swap-indexes', body);

/** The finished task of a swap, with `uid` and `batchUid` redacted as the snapshot does. */
async function swapTask(body: unknown): Promise<any> {
  const reply = await swap(body);
  expect(reply.status, reply.text).toBe(202);
  const task = await waitTask(server, reply.body.taskUid);
  expect(typeof task.uid).toBe('number');
  return { ...stable(task), uid: '[uid]', batchUid: '[batch_uid]' };
}

describe('swap_indexes_bad_format', () => {
  it('a body that is a string, or an array of strings, is a bad_request', async () => {
    expectError(await swap('"doggo"'), 400, 'bad_request', 'Invalid value type: expected an array, but found a string: `"doggo"`');
    expectError(await swap(['doggo']), 400, 'bad_request', 'Invalid value type at `[0]`: expected an object, but found a string: `"doggo"`');
  });
});

describe('swap_indexes_bad_indexes', () => {
  it('indexes that is a string is invalid_swap_indexes', async () => {
    expectError(
      await swap([{ indexes: 'doggo' }]),
      400,
      'invalid_swap_indexes',
      'Invalid value type at `[0].indexes`: expected an array, but found a string: `"doggo"`',
    );
  });

  it('one or three indexes in a swap are invalid_swap_indexes, the list shown Rust-debug style', async () => {
    expectError(
      await swap([{ indexes: ['doggo'] }]),
      400,
      'invalid_swap_indexes',
      'Two indexes must be given for each swap. The list `["doggo"]` contains 1 indexes.',
    );
    expectError(
      await swap([{ indexes: ['doggo', 'crabo', 'croco'] }]),
      400,
      'invalid_swap_indexes',
      'Two indexes must be given for each swap. The list `["doggo", "crabo", "croco"]` contains 3 indexes.',
    );
  });

  it('an index named twice, in one swap or across two, is invalid_swap_duplicate_index_found', async () => {
    const duplicate = 'Indexes must be declared only once during a swap. `doggo` was specified several times.';
    expectError(await swap([{ indexes: ['doggo', 'doggo'] }]), 400, 'invalid_swap_duplicate_index_found', duplicate);
    expectError(await swap([{ indexes: ['doggo', 'catto'] }, { indexes: ['girafo', 'doggo'] }]), 400, 'invalid_swap_duplicate_index_found', duplicate);
  });
});

describe('swap_indexes_bad_rename', () => {
  it('a rename that is a string is invalid_swap_rename', async () => {
    expectError(
      await swap([{ indexes: ['kefir', 'intel'], rename: 'hello' }]),
      400,
      'invalid_swap_rename',
      'Invalid value type at `[0].rename`: expected a boolean, but found a string: `"hello"`',
    );
  });
});

describe('swap_indexes_rename_to_already_existing_index', () => {
  beforeAll(async () => {
    await succeed(server, 'POST', '/indexes', { uid: 'EMPTY_INDEX' });
    await seed(server, 'SHARED_DOCUMENTS', DOCUMENTS, DOCUMENTS_SETTINGS);
    await seed(server, 'SHARED_GEO_DOCUMENTS', GEO_DOCUMENTS, { filterableAttributes: ['_geo', 'type'], sortableAttributes: ['_geo'] }, GEO_DOCUMENTS_SETTINGS);
    await seed(server, 'SHARED_NESTED_DOCUMENTS', NESTED_DOCUMENTS, NESTED_DOCUMENTS_CATTOS_SETTINGS);
  });

  /** The failed indexSwap task of `swaps`, as the snapshots show it. */
  const failedRename = (swaps: unknown[], message: string) =>
    finishedTask({
      uid: '[uid]',
      batchUid: '[batch_uid]',
      indexUid: null,
      status: 'failed',
      type: 'indexSwap',
      details: { swaps },
      error: errorBody('index_already_exists', message),
    });

  it('renaming onto an existing index fails the task with index_already_exists', async () => {
    const swaps = [{ indexes: ['SHARED_DOCUMENTS', 'EMPTY_INDEX'], rename: true }];
    expectJson(
      await swapTask(swaps),
      failedRename(swaps, 'Cannot rename `SHARED_DOCUMENTS` to `EMPTY_INDEX` as the index already exists. Hint: You can remove `EMPTY_INDEX` first and then do your remove.'),
    );
  });

  it('two renames onto existing indexes fail together, naming both targets', async () => {
    const swaps = [
      { indexes: ['SHARED_DOCUMENTS', 'EMPTY_INDEX'], rename: true },
      { indexes: ['SHARED_GEO_DOCUMENTS', 'SHARED_NESTED_DOCUMENTS'], rename: true },
    ];
    expectJson(
      await swapTask(swaps),
      failedRename(
        swaps,
        "The following indexes are being renamed but cannot because their new name conflicts with an already existing index: `EMPTY_INDEX`, `SHARED_NESTED_DOCUMENTS`. Renaming doesn't overwrite the other index name.",
      ),
    );
  });
});
