// Port of Meilisearch's crates/meilisearch/tests/logs/{error.rs,mod.rs}: the body errors of
// POST /logs/stream (target, mode, profileMemory) with their exact messages and codes, the
// feature_not_enabled refusal of all three /logs routes, and a human-mode stream that carries the
// INFO lines of a processed batch until DELETE /logs/stream ends it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const badRequest = async (body: unknown, message: string) =>
  expectError(await call(server, 'POST', '/logs/stream', body), 400, 'bad_request', message);

describe('POST /logs/stream body errors (feature off: the body is checked first)', () => {
  it('rejects a target that is not a string, is empty, or does not parse', async () => {
    await badRequest({ target: true }, 'Invalid value type at `.target`: expected a string, but found a boolean: `true`');
    await badRequest({ target: [] }, 'Invalid value type at `.target`: expected a string, but found an array: `[]`');
    await badRequest(
      { target: '' },
      'Invalid value at `.target`: Empty string is not a valid target. If you want to get no logs use `OFF`. Usage: `info`, `meilisearch=info`, or you can write multiple filters in one target: `index_scheduler=info,milli=trace`',
    );
    await badRequest({ target: '==' }, "Invalid value at `.target`: invalid filter directive: too many '=' in filter directive, expected 0 or 1");
  });

  it('rejects a mode that is not a string or not one of human, json, profile', async () => {
    await badRequest({ mode: true }, 'Invalid value type at `.mode`: expected a string, but found a boolean: `true`');
    await badRequest({ mode: [] }, 'Invalid value type at `.mode`: expected a string, but found an array: `[]`');
    await badRequest({ mode: 'tamo' }, 'Unknown value `tamo` at `.mode`: expected one of `human`, `json`, `profile`');
  });

  it('rejects profileMemory that is not a boolean, or set outside the profile mode, with the typo-tolerance code', async () => {
    await badRequest({ profileMemory: 'tamo' }, 'Invalid value type at `.profileMemory`: expected a boolean, but found a string: `"tamo"`');
    await badRequest({ profileMemory: ['hello', 'kefir'] }, 'Invalid value type at `.profileMemory`: expected a boolean, but found an array: `["hello","kefir"]`');
    expectError(
      await call(server, 'POST', '/logs/stream', { profileMemory: true }),
      400,
      'invalid_settings_typo_tolerance',
      'Invalid value: `profile_memory` can only be used while profiling code and is not compatible with the Human mode.',
    );
    await badRequest({ mode: 'fmt', profileMemory: true }, 'Unknown value `fmt` at `.mode`: expected one of `human`, `json`, `profile`');
  });
});

describe('logs routes', () => {
  it('all refuse with feature_not_enabled while the logsRoute feature is off', async () => {
    const message =
      'Modifying logs through the `/logs/*` routes requires enabling the `logs route` experimental feature. See https://github.com/orgs/meilisearch/discussions/721';
    expectError(await call(server, 'POST', '/logs/stream', {}), 400, 'feature_not_enabled', message);
    expectError(await call(server, 'DELETE', '/logs/stream'), 400, 'feature_not_enabled', message);
    expectError(await call(server, 'POST', '/logs/stderr', {}), 400, 'feature_not_enabled', message);
  });

  it('stream the INFO lines of a processed batch in human mode until DELETE /logs/stream answers 204', async () => {
    const features = await call(server, 'PATCH', '/experimental-features', { logsRoute: true });
    expect(features.status).toBe(200);
    const stream = await fetch(`${server.url}/logs/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'human', target: 'info' }),
    });
    expect(stream.status).toBe(200);
    const logs = stream.text();

    const created = await call(server, 'POST', '/indexes', { uid: 'tamo' });
    expect(created.status).toBe(202);
    expect(Object.keys(created.body)).toEqual(['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt']);
    expect(created.body).toMatchObject({ indexUid: 'tamo', status: 'enqueued', type: 'indexCreation' });
    expect((await waitTask(server, created.body.taskUid)).status).toBe('succeeded');

    const closed = await call(server, 'DELETE', '/logs/stream');
    expect(closed).toMatchObject({ status: 204, text: '' });
    expect(await logs).toContain('INFO');
  });
});
