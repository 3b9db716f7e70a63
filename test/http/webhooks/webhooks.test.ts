/**
 * `/webhooks` through the real server: CRUD with exact bodies, every error of routes/webhooks.rs,
 * the command-line webhook, and delivery of a batch's tasks as gzip NDJSON to a local receiver
 * (reachable with `--experimental-allowed-ip-networks any`, as in Meilisearch's test server).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let server: TestServer;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  server = await startServer({
    args: ['--task-webhook-url', receiverUrl, '--task-webhook-authorization-header', 'Bearer cli-secret-token', '--experimental-allowed-ip-networks', 'any'],
  });
});
afterAll(async () => {
  await server.dispose();
  await new Promise((resolve) => receiver.close(resolve));
});

const NIL = '00000000-0000-0000-0000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const cliWebhook = () => ({ uuid: NIL, isEditable: false, url: receiverUrl, headers: { Authorization: 'Bearer clXXXX...' } });

describe('webhooks CRUD', () => {
  it('lists the command-line webhook, masked, and refuses to change it', async () => {
    expect(await call(server, 'GET', '/webhooks')).toMatchObject({ status: 200, body: { results: [cliWebhook()] } });
    expect((await call(server, 'GET', `/webhooks/${NIL}`)).text).toBe(JSON.stringify(cliWebhook()));
    const immutable = errorBody('immutable_webhook', `Webhook \`${NIL}\` is immutable. The webhook defined from the command line cannot be modified using the API.`);
    expect(await call(server, 'PATCH', `/webhooks/${NIL}`, { url: 'https://a.com' })).toMatchObject({ status: 400, body: immutable });
    expect(await call(server, 'DELETE', `/webhooks/${NIL}`)).toMatchObject({ status: 400, body: immutable });
  });

  it('creates (a null header empty), reads, patches (header merge, null removes) and deletes', async () => {
    const created = await call(server, 'POST', '/webhooks', { url: 'https://example.com/hook', headers: { authorization: 'secret', 'x-a': '1', 'x-null': null } });
    expect(created.status).toBe(201);
    const uuid = created.body.uuid as string;
    expect(uuid).toMatch(UUID);
    expect(created.text).toBe(JSON.stringify({ uuid, isEditable: true, url: 'https://example.com/hook', headers: { authorization: 'XXX...', 'x-a': '1', 'x-null': '' } }));
    expect((await call(server, 'GET', `/webhooks/${uuid.toUpperCase()}`)).body).toEqual(created.body);

    const patched = await call(server, 'PATCH', `/webhooks/${uuid}`, { headers: { 'x-a': null, 'x-b': '2' } });
    expect(patched).toMatchObject({ status: 200, body: { uuid, isEditable: true, url: 'https://example.com/hook', headers: { authorization: 'XXX...', 'x-b': '2', 'x-null': '' } } });
    expect(Object.keys(patched.body.headers)).toEqual(['authorization', 'x-b', 'x-null']);
    expect((await call(server, 'PATCH', `/webhooks/${uuid}`, { url: 'https://other.org', headers: null })).body).toEqual({
      uuid, isEditable: true, url: 'https://other.org', headers: {},
    });
    expect((await call(server, 'GET', '/webhooks')).body.results.map((w: { uuid: string }) => w.uuid)).toEqual([NIL, uuid]);

    expect(await call(server, 'DELETE', `/webhooks/${uuid}`)).toMatchObject({ status: 204, text: '' });
    expect(await call(server, 'GET', `/webhooks/${uuid}`)).toMatchObject({ status: 404, body: errorBody('webhook_not_found', `Webhook \`${uuid}\` not found.`) });
    expect(await call(server, 'DELETE', `/webhooks/${uuid}`)).toMatchObject({ status: 404 });
    expect(await call(server, 'PATCH', `/webhooks/${uuid}`, {})).toMatchObject({ status: 404 });
  });

  it('keeps a header named `__proto__` as a header, created and patched', async () => {
    const created = await call(server, 'POST', '/webhooks', { url: 'https://example.com/hook', headers: { ['__proto__']: 'a', constructor: 'b' } });
    expect(created.status).toBe(201);
    expect(created.text).toContain('"headers":{"__proto__":"a","constructor":"b"}');
    const uuid = created.body.uuid as string;
    const patched = await call(server, 'PATCH', `/webhooks/${uuid}`, { headers: { ['__proto__']: 'c' } });
    expect(patched.text).toContain('"headers":{"__proto__":"c","constructor":"b"}');
    expect((await call(server, 'DELETE', `/webhooks/${uuid}`)).status).toBe(204);
  });

  it('reports every body and path error with Meilisearch codes and messages', async () => {
    expect((await call(server, 'GET', '/webhooks/nope')).body).toEqual(errorBody('invalid_webhook_uuid', 'Invalid UUID: invalid character: found `n` at 0'));
    expect((await call(server, 'POST', '/webhooks', { uuid: NIL, url: 'https://a.com' })).body).toMatchObject({
      code: 'immutable_webhook_uuid',
      message: 'Immutable field `uuid`: expected one of `url`, `headers`',
    });
    expect((await call(server, 'POST', '/webhooks', { isEditable: true })).body).toMatchObject({ code: 'immutable_webhook_is_editable' });
    expect((await call(server, 'POST', '/webhooks', { doggo: 1 })).body).toMatchObject({ code: 'bad_request', message: expect.stringContaining('Unknown field `doggo`') });
    expect((await call(server, 'POST', '/webhooks', { url: 1 })).body).toMatchObject({ code: 'invalid_webhook_url', message: 'Invalid value type at `.url`: expected a string, but found a positive integer: `1`' });
    expect((await call(server, 'POST', '/webhooks', { url: 'https://a.com', headers: { a: 1 } })).body).toMatchObject({ code: 'invalid_webhook_headers' });

    const missing = await call(server, 'POST', '/webhooks', {});
    expect(missing.body).toMatchObject({ code: 'invalid_webhook_url', message: expect.stringMatching(/^The URL for the webhook `[0-9a-f-]{36}` is missing\.$/) });
    expect((await call(server, 'POST', '/webhooks', { url: 'not a url' })).body).toEqual(errorBody('invalid_webhook_url', 'Invalid URL `not a url`: relative URL without a base'));
    expect((await call(server, 'POST', '/webhooks', { url: 'https://a.com', headers: { 'bad name': 'x' } })).body).toEqual(
      errorBody('invalid_webhook_headers', 'Invalid header name `bad name`: invalid HTTP header name'),
    );
    expect((await call(server, 'POST', '/webhooks', { url: 'https://a.com', headers: { ok: 'a\nb' } })).body).toEqual(
      errorBody('invalid_webhook_headers', 'Invalid header value `ok`: failed to parse header value'),
    );
    const headers = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`h${i}`, 'v']));
    expect((await call(server, 'POST', '/webhooks', { url: 'https://a.com', headers })).body).toMatchObject({
      code: 'invalid_webhook_headers',
      message: expect.stringMatching(/^Too many headers for the webhook `[0-9a-f-]{36}`\. Please limit the number of headers to 200\. Hint: To remove an already defined header set its value to `null`$/),
    });

    const { body } = await call(server, 'POST', '/webhooks', { url: 'https://a.com' });
    expect((await call(server, 'PATCH', `/webhooks/${body.uuid}`, { url: null })).body).toEqual(
      errorBody('invalid_webhook_url', `The URL for the webhook \`${body.uuid}\` is missing.`),
    );
    await call(server, 'DELETE', `/webhooks/${body.uuid}`);
  });

  it('refuses a 21st webhook', async () => {
    const uuids: string[] = [];
    for (let i = 0; i < 20; i++) uuids.push((await call(server, 'POST', '/webhooks', { url: `https://a.com/${i}` })).body.uuid);
    expect(await call(server, 'POST', '/webhooks', { url: 'https://a.com/21' })).toMatchObject({
      status: 400,
      body: errorBody(
        'invalid_webhooks',
        'Defining too many webhooks would crush the server. Please limit the number of webhooks to 20. You may use a third-party proxy server to dispatch events to more than 20 endpoints.',
      ),
    });
    for (const uuid of uuids) expect((await call(server, 'DELETE', `/webhooks/${uuid}`)).status).toBe(204);
  });
});

describe('webhook delivery', () => {
  it('POSTs the finished tasks of a batch as gzip NDJSON with the webhook headers', async () => {
    const extra = await call(server, 'POST', '/webhooks', { url: receiverUrl, headers: { 'X-Custom': 'yes' } });
    received.length = 0;
    const task = await run(server, 'POST', '/indexes', { uid: 'hooked' });
    const deadline = Date.now() + 5000;
    while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(received).toHaveLength(2);
    for (const { headers, body } of received) {
      expect(headers['content-type']).toBe('application/x-ndjson');
      expect(headers['content-encoding']).toBe('gzip');
      const lines = gunzipSync(body).toString('utf8');
      expect(lines.endsWith('\n')).toBe(true);
      expect(lines.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([task]);
    }
    expect(received.map((r) => r.headers.authorization ?? null).sort()).toEqual(['Bearer cli-secret-token', null]);
    expect(received.some((r) => r.headers['x-custom'] === 'yes')).toBe(true);
    await call(server, 'DELETE', `/webhooks/${extra.body.uuid}`);
  });
});
