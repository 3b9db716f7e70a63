// v1.50's replication parameters: with `--experimental-replication-parameters`, the `TaskId`
// header gives a new task its uid (refused below the next one) and `DryRun: true` answers the task
// a request would register without registering it. Ports Meilisearch's send_task_id
// (tests/index/create_index.rs) and dry_register_file (tests/documents/add_documents.rs), with
// the header errors of routes/mod.rs's get_task_id and is_dry_run.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRaw, waitTask, type Reply } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const bad = (message: string) => ({ message, code: 'bad_request', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#bad_request' });

/** A JSON request with extra headers. */
function send(server: TestServer, method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return callRaw(server, method, path, body === undefined ? undefined : JSON.stringify(body), body === undefined ? headers : { 'content-type': 'application/json', ...headers });
}

describe('with --experimental-replication-parameters', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ args: ['--experimental-replication-parameters'] });
  });
  afterAll(() => server.dispose());

  it('gives a task the uid TaskId asks for, the next uids following it, and refuses a uid below the next one', async () => {
    const first = await send(server, 'POST', '/indexes', { uid: 'catto' });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ taskUid: 0, indexUid: 'catto', status: 'enqueued', type: 'indexCreation' });

    const asked = await send(server, 'POST', '/indexes', { uid: 'doggo', primaryKey: null }, { TaskId: '25' });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ taskUid: 25, indexUid: 'doggo', status: 'enqueued', type: 'indexCreation' });
    expect(await waitTask(server, 25)).toMatchObject({ uid: 25, status: 'succeeded' });

    const below = await send(server, 'POST', '/indexes', { uid: 'girafo', primaryKey: null }, { TaskId: '12' });
    expect(below.status).toBe(400);
    expect(below.body).toEqual(bad('Received bad task id: 12 should be >= to 26.'));

    const next = await send(server, 'DELETE', '/indexes/doggo', undefined);
    expect(next.body).toMatchObject({ taskUid: 26 });
    await waitTask(server, 26);
  });

  it('refuses a TaskId that is no u32, as Rust parses one', async () => {
    const cases: [string, string][] = [
      ['abc', 'invalid digit found in string'],
      ['-1', 'invalid digit found in string'],
      ['+', 'invalid digit found in string'],
      ['4294967296', 'number too large to fit in target type'],
      ['1.5', 'invalid digit found in string'],
    ];
    for (const [value, reason] of cases) {
      const reply = await send(server, 'POST', '/indexes', { uid: 'never' }, { TaskId: value });
      expect(reply.status, value).toBe(400);
      expect(reply.body, value).toEqual(bad(`Could not parse the TaskId as a u32: ${reason}`));
    }
    const empty = await send(server, 'POST', '/indexes', { uid: 'never' }, { TaskId: '' });
    expect(empty.body).toEqual(bad('Could not parse the TaskId as a u32: cannot parse integer from empty string'));
    const latin1 = await send(server, 'POST', '/indexes', { uid: 'never' }, { TaskId: '1\u00e9' });
    expect(latin1.body).toEqual(bad('TaskId is not a valid utf-8 string: failed to convert header to a str'));
    const dry = await send(server, 'POST', '/indexes', { uid: 'never' }, { DryRun: 'tr\u00fce' });
    expect(dry.body).toEqual(bad('DryRun is not a valid utf-8 string: failed to convert header to a str'));
    // a leading plus is a u32 to Rust
    const plus = await send(server, 'POST', '/indexes', { uid: 'plus' }, { TaskId: '+1000' });
    expect(plus.body).toMatchObject({ taskUid: 1000 });
    await waitTask(server, 1000);
    expect((await send(server, 'GET', '/indexes/never', undefined)).status).toBe(404);
  });

  it('answers a dry run with the task it would register, registering nothing and keeping no payload', async () => {
    const before = (await send(server, 'GET', '/tasks?limit=1', undefined)).body.results[0].uid as number;
    const documents = '{ "id": "12", "doggo": "kefir" }';
    const dry = await callRaw(server, 'POST', '/indexes/tamo/documents', documents, { 'content-type': 'application/json', DryRun: 'TRUE' });
    expect(dry.status).toBe(202);
    expect(Object.keys(dry.body)).toEqual(['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt']);
    expect(dry.body).toMatchObject({ taskUid: before + 1, indexUid: 'tamo', status: 'enqueued', type: 'documentAdditionOrUpdate' });
    const missing = await send(server, 'GET', `/tasks/${before + 1}`, undefined);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ message: `Task \`${before + 1}\` not found.`, code: 'task_not_found' });
    // a payload kept as a file (over 256 KiB) is not kept either
    const large = JSON.stringify(Array.from({ length: 3000 }, (_, id) => ({ id, text: 'x'.repeat(100) })));
    expect((await callRaw(server, 'POST', '/indexes/tamo/documents', large, { 'content-type': 'application/json', DryRun: 'true' })).status).toBe(202);
    expect(readdirSync(path.join(server.dbPath, 'update_files'))).toEqual([]);
    // the payload is still read and checked
    const malformed = await callRaw(server, 'POST', '/indexes/tamo/documents', '{ "id": ', { 'content-type': 'application/json', DryRun: 'true' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('malformed_payload');
    // other writes, with a TaskId too: answered, not registered, nothing runs
    const settings = await send(server, 'PATCH', '/indexes/catto/settings', { searchableAttributes: ['name'] }, { DryRun: 'true', TaskId: '5000' });
    expect(settings.body).toMatchObject({ taskUid: 5000, type: 'settingsUpdate' });
    const swap = await send(server, 'POST', '/swap-indexes', [{ indexes: ['catto', 'plus'] }], { DryRun: 'true' });
    expect(swap.body).toMatchObject({ taskUid: before + 1, type: 'indexSwap' });
    const cancel = await send(server, 'POST', '/tasks/cancel?uids=0', undefined, { DryRun: 'true' });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ taskUid: before + 1, type: 'taskCancelation' });
    // a dry run still refuses a uid below the next one
    expect((await send(server, 'DELETE', '/indexes/catto', undefined, { DryRun: 'true', TaskId: '3' })).body).toEqual(
      bad(`Received bad task id: 3 should be >= to ${before + 1}.`),
    );
    expect((await send(server, 'GET', '/tasks?limit=1', undefined)).body.results[0].uid).toBe(before);
    expect((await send(server, 'GET', '/indexes/tamo', undefined)).status).toBe(404);
    expect((await send(server, 'GET', '/indexes/catto/settings/searchable-attributes', undefined)).body).toEqual(['*']);
    const real = await send(server, 'DELETE', '/indexes/catto', undefined, { DryRun: 'false' });
    expect(real.body).toMatchObject({ taskUid: before + 1 });
    expect(await waitTask(server, before + 1)).toMatchObject({ status: 'succeeded', type: 'indexDeletion' });
  });

  it('leaves an index compaction to its own uid, as v1.50', async () => {
    const next = ((await send(server, 'GET', '/tasks?limit=1', undefined)).body.results[0].uid as number) + 1;
    const compaction = await send(server, 'POST', '/indexes/plus/compact', undefined, { TaskId: String(next + 100), DryRun: 'true' });
    expect(compaction.body).toMatchObject({ taskUid: next, type: 'indexCompaction' });
    await waitTask(server, next);
  });
});

describe('without --experimental-replication-parameters', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('ignores TaskId and DryRun, as v1.50 does', async () => {
    const reply = await send(server, 'POST', '/indexes', { uid: 'doggo' }, { TaskId: '25', DryRun: 'true' });
    expect(reply.body).toMatchObject({ taskUid: 0 });
    expect(await waitTask(server, 0)).toMatchObject({ status: 'succeeded' });
    const unparsable = await send(server, 'POST', '/indexes', { uid: 'catto' }, { TaskId: 'abc' });
    expect(unparsable.body).toMatchObject({ taskUid: 1 });
  });
});
