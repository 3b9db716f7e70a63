import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UNREAD_LOG_BYTES } from '../../../src/http/routes/logs.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const json = { 'content-type': 'application/json' };
async function send(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, { method, headers: body === undefined ? {} : json, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}

describe('logs routes', () => {
  it('refuse to work until the logsRoute feature is on, after validating the body', async () => {
    expect((await send('POST', '/logs/stream', { mode: 'tamo' })).body).toMatchObject({
      code: 'bad_request',
      message: 'Unknown value `tamo` at `.mode`: expected one of `human`, `json`, `profile`',
    });
    expect(await send('POST', '/logs/stderr', {})).toEqual({
      status: 400,
      body: {
        message:
          'Modifying logs through the `/logs/*` routes requires enabling the `logs route` experimental feature. See https://github.com/orgs/meilisearch/discussions/721',
        code: 'feature_not_enabled',
        type: 'invalid_request',
        link: 'https://docs.meilisearch.com/errors#feature_not_enabled',
      },
    });
  });

  it('validate targets and profileMemory with Meilisearch messages', async () => {
    expect((await send('POST', '/logs/stream', { target: '' })).body).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/^Invalid value at `\.target`: Empty string is not a valid target\./),
    });
    expect((await send('POST', '/logs/stream', { target: 'a=b=c' })).body).toMatchObject({
      message: "Invalid value at `.target`: invalid filter directive: too many '=' in filter directive, expected 0 or 1",
    });
    expect((await send('POST', '/logs/stream', { profileMemory: true })).body).toMatchObject({
      code: 'invalid_settings_typo_tolerance',
      message: 'Invalid value: `profile_memory` can only be used while profiling code and is not compatible with the Human mode.',
    });
  });

  it('streams log lines to one subscriber at a time until DELETE closes the stream', async () => {
    await send('PATCH', '/experimental-features', { logsRoute: true });
    const stream = await fetch(`${server.url}/logs/stream`, { method: 'POST', headers: json, body: JSON.stringify({ target: 'info', mode: 'json' }) });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    // as actix's streaming body in v1.50
    expect(stream.headers.get('content-type')).toBeNull();
    expect((await send('POST', '/logs/stream', {})).body).toMatchObject({
      code: 'bad_request',
      message: 'The `/logs/stream` route is currently in use by someone else.',
    });
    await send('GET', '/indexes');
    expect((await send('DELETE', '/logs/stream')).status).toBe(204);
    // each line as v1.50's tracing-subscriber writes JSON: timestamp (µs), level, fields, target
    const lines = (await stream.text()).trim().split('\n').map((line) => JSON.parse(line) as { timestamp: string; level: string; fields: { req?: { url: string } }; target: string });
    const request = lines.find((line) => line.fields.req?.url === '/indexes');
    expect(request).toBeDefined();
    expect(Object.keys(request!)).toEqual(['timestamp', 'level', 'fields', 'target']);
    expect(request!.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(request!.level).toBe('INFO');
    expect((await send('POST', '/logs/stderr', { target: 'warn' })).status).toBe(204);
  });

  it('names its records with v1.50\'s targets: requests under meilisearch, batches under index_scheduler', async () => {
    await send('PATCH', '/experimental-features', { logsRoute: true });
    const stream = await fetch(`${server.url}/logs/stream`, { method: 'POST', headers: json, body: JSON.stringify({ target: 'index_scheduler=info,meilisearch=info', mode: 'json' }) });
    expect(stream.status).toBe(200);
    const { taskUid } = (await send('POST', '/indexes/logged/documents', [{ id: 1 }])).body as { taskUid: number };
    while (!['succeeded', 'failed'].includes((await send('GET', `/tasks/${taskUid}`)).body!.status as string)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await send('DELETE', '/logs/stream')).status).toBe(204);
    const lines = (await stream.text()).trim().split('\n').map((line) => JSON.parse(line) as { fields: { message?: string; req?: { url: string } }; target: string });
    expect(lines.find((line) => line.fields.req?.url === '/indexes/logged/documents')?.target).toBe('meilisearch');
    expect(lines.filter((line) => line.target === 'index_scheduler').map((line) => line.fields.message)).toContain(
      'A batch of tasks was successfully completed with 1 successful tasks and 0 failed tasks.',
    );
  });

  it('refuses the profile mode, whose tracing spans Quarry does not record, rather than stream something else', async () => {
    await send('PATCH', '/experimental-features', { logsRoute: true });
    expect(await send('POST', '/logs/stream', { mode: 'profile' })).toMatchObject({
      status: 400,
      body: { code: 'bad_request', message: 'The `profile` mode of `/logs/stream` is not available in Quarry: it records no tracing spans. Use the `human` or `json` mode.' },
    });
    // the route stays free
    const stream = await fetch(`${server.url}/logs/stream`, { method: 'POST', headers: json, body: JSON.stringify({ mode: 'json' }) });
    expect(stream.status).toBe(200);
    expect((await send('DELETE', '/logs/stream')).status).toBe(204);
    await stream.text();
  });

  it('closes the stream of a client that stops reading once its unread logs pass the bound, which frees the route', async () => {
    await send('PATCH', '/experimental-features', { logsRoute: true });
    const socket = connect({ port: server.port, host: '127.0.0.1' });
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const body = JSON.stringify({ target: 'info', mode: 'json' });
    socket.write(`POST /logs/stream HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    socket.pause(); // never read: the server's writes pile up
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await send('POST', '/logs/stream', {})).body).toMatchObject({ message: 'The `/logs/stream` route is currently in use by someone else.' });
    // each request logs its URL, 64 KiB of it a line: three times the bound in all
    const path = `/indexes/none/search?q=${'a'.repeat(64 * 1024)}`;
    for (let i = 0; i < 3 * (MAX_UNREAD_LOG_BYTES >> 16); i++) await fetch(`${server.url}${path}`).then((res) => res.arrayBuffer());
    // the stalled stream was closed (buffered without end, it would still hold the route): the route takes a new one
    const next = await fetch(`${server.url}/logs/stream`, { method: 'POST', headers: json, body });
    expect(next.status).toBe(200);
    await send('DELETE', '/logs/stream');
    await next.text();
    socket.destroy();
  });
});
