/**
 * The remote write client against a loopback receiver: what it sends, which answers end it, which
 * are tried again (with v1.50's backoff), and the errors it records.
 */
import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RemoteWriter, WriteBackoff, summarizedTaskUid, writeTimingsFromEnv } from '../../../src/network/remote-write.js';
import { OutgoingClient } from '../../../src/outgoing/client.js';
import { IpPolicy } from '../../../src/outgoing/ip-policy.js';
import { startRecordingReceiver, type Hit } from '../../helpers/recording-receiver.js';

const hits: Hit[] = [];
let answer: (hit: Hit, res: ServerResponse) => void;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;
let base: string;

beforeAll(async () => {
  receiver = await startRecordingReceiver((hit, res) => {
    hits.push(hit);
    answer(hit, res);
  });
  base = `http://127.0.0.1:${receiver.port}/ignored/path`;
});
afterAll(() => receiver.close());
beforeEach(() => {
  hits.length = 0;
});

const TASK = { taskUid: 7, indexUid: 'movies', status: 'enqueued', type: 'documentAdditionOrUpdate', enqueuedAt: '2025-01-01T00:00:00Z' };
const writer = (timings = { connectMs: 1_000, requestMs: 2_000, backoffMs: 300 }) => new RemoteWriter(new OutgoingClient(IpPolicy.fromNetworks(['127.0.0.0/8'])), timings);
const json = (status: number, body: unknown) => (_hit: Hit, res: ServerResponse) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const POST = { method: 'POST', pathAndQuery: '/indexes/movies/documents?primaryKey=id', contentType: 'application/x-ndjson', body: Buffer.from('{"id":1}\n') };

describe('RemoteWriter', () => {
  it("sends the request to the remote's host with the path and query replaced, the write key and the extra headers", async () => {
    answer = json(202, TASK);
    const result = await writer().send({ url: base, writeApiKey: 'adm1n' }, { ...POST, headers: { 'X-Meili-Proxy-Origin-Remote': 'ms0' } }, summarizedTaskUid);
    expect(result).toEqual({ ok: true, value: 7 });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ method: 'POST', path: '/indexes/movies/documents?primaryKey=id', body: '{"id":1}\n' });
    expect(hits[0]!.headers).toMatchObject({ authorization: 'Bearer adm1n', 'content-type': 'application/x-ndjson', 'x-meili-proxy-origin-remote': 'ms0' });
  });

  it('sends no Authorization header when the remote has no write key', async () => {
    answer = json(202, TASK);
    await writer().send({ url: base, writeApiKey: null }, POST, summarizedTaskUid);
    expect(hits[0]!.headers.authorization).toBeUndefined();
  });

  it('tries a 5xx again until the backoff budget is spent, and records the last answer', async () => {
    answer = json(500, { message: 'provoked' });
    const result = await writer().send({ url: base, writeApiKey: null }, POST, summarizedTaskUid);
    expect(hits.length).toBeGreaterThan(1);
    expect(result).toEqual({
      ok: false,
      error: {
        message: 'remote host responded with code 500:\n  - response from remote: {"message":"provoked"}',
        code: 'remote_remote_error',
        type: 'system',
        link: 'https://docs.meilisearch.com/errors#remote_remote_error',
      },
    });
  });

  it('succeeds when a retried attempt succeeds', async () => {
    answer = (hit, res) => (hits.length === 1 ? json(503, 'busy')(hit, res) : json(202, TASK)(hit, res));
    expect(await writer({ connectMs: 1_000, requestMs: 2_000, backoffMs: 5_000 }).send({ url: base, writeApiKey: null }, POST, summarizedTaskUid)).toEqual({ ok: true, value: 7 });
    expect(hits).toHaveLength(2);
  });

  it('gives up at once on a refused key, with the documents.add hint', async () => {
    answer = json(403, {});
    const result = await writer().send({ url: base, writeApiKey: 'bad' }, POST, summarizedTaskUid);
    expect(hits).toHaveLength(1);
    expect(result.ok === false && result.error.code).toBe('remote_invalid_api_key');
    expect(result.ok === false && result.error.message).toBe(
      'could not authenticate against the remote host\n  - hint: check that the remote instance was registered with a valid API key having the `documents.add` action',
    );
  });

  it('gives up at once on another 4xx, quoting the answer', async () => {
    answer = json(404, { message: 'Index `movies` not found.' });
    const result = await writer().send({ url: base, writeApiKey: null }, POST, summarizedTaskUid);
    expect(hits).toHaveLength(1);
    expect(result.ok === false && result.error).toMatchObject({
      code: 'remote_bad_request',
      message:
        'remote host responded with code 404:\n  - response from remote: {"message":"Index `movies` not found."}\n  - hint: check that the remote instance has the correct index configuration for that request\n  - hint: check that the `network` experimental feature is enabled on the remote instance',
    });
  });

  it('gives up at once on a 2xx answer that is not a task', async () => {
    answer = (_hit, res) => res.writeHead(200).end('<html></html>');
    const result = await writer().send({ url: base, writeApiKey: null }, POST, summarizedTaskUid);
    expect(hits).toHaveLength(1);
    expect(result.ok === false && result.error).toMatchObject({
      code: 'remote_bad_response',
      message:
        'could not parse response from the remote host as a document addition response:\n  - response from remote: <html></html>\n  - hint: check that the remote instance is a Meilisearch instance running the same version',
    });
  });

  it('records a remote that does not answer in time as remote_timeout', async () => {
    answer = () => {};
    const result = await writer({ connectMs: 1_000, requestMs: 200, backoffMs: 100 }).send({ url: base, writeApiKey: null }, POST, summarizedTaskUid);
    expect(result.ok === false && result.error).toMatchObject({ code: 'remote_timeout', message: 'remote host did not answer before the deadline' });
  });

  it('records a refused connection as remote_could_not_send_request', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const result = await writer({ connectMs: 1_000, requestMs: 1_000, backoffMs: 100 }).send({ url, writeApiKey: null }, POST, summarizedTaskUid);
    expect(result.ok === false && result.error).toMatchObject({ code: 'remote_could_not_send_request', message: 'error sending request' });
  });
});

describe('WriteBackoff', () => {
  it('waits 0.5 s ×1.5 each time, ±50 %, and stops once the budget has passed', () => {
    let now = 0;
    const middle = new WriteBackoff(25_000, () => now, () => 0.5);
    expect([middle.next(), middle.next(), middle.next()]).toEqual([500, 750, 1125]);
    const low = new WriteBackoff(25_000, () => now, () => 0);
    expect(low.next()).toBe(250);
    now = 25_000;
    expect(low.next()).not.toBeNull();
    now = 25_001;
    expect(low.next()).toBeNull();
  });
});

describe('writeTimingsFromEnv', () => {
  it("reads v1.50's variables in seconds, with its defaults", () => {
    expect(writeTimingsFromEnv({})).toEqual({ connectMs: 3_000, requestMs: 30_000, backoffMs: 25_000 });
    expect(
      writeTimingsFromEnv({
        MEILI_EXPERIMENTAL_PROXY_CONNECT_TIMEOUT_SECONDS: '1',
        MEILI_EXPERIMENTAL_PROXY_REQUEST_TIMEOUT_SECONDS: '2',
        MEILI_EXPERIMENTAL_PROXY_BACKOFF_TIMEOUT_SECONDS: '0',
      }),
    ).toEqual({ connectMs: 1_000, requestMs: 2_000, backoffMs: 0 });
  });

  it('refuses a value that is not an integer', () => {
    expect(() => writeTimingsFromEnv({ MEILI_EXPERIMENTAL_PROXY_REQUEST_TIMEOUT_SECONDS: '2.5' })).toThrow(
      '`MEILI_EXPERIMENTAL_PROXY_REQUEST_TIMEOUT_SECONDS` environment variable is not parseable as an integer: 2.5',
    );
  });
});
