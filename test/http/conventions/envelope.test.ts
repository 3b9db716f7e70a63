/**
 * Requests refused before any route runs (issue 25) still get Meilisearch's error body
 * (`message`, `code`, `type`, `link`), never Fastify's `{error, message, statusCode}`, with the
 * statuses actix-http answers: 431 past its head limits (128 KiB, 96 headers), 400 for a request
 * it cannot parse, 408 for a head not received in time. A path with a bad percent-encoding is
 * routed as actix routes it. Raw sockets, so the bytes sent are exactly the test's.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

interface RawResponse {
  status: number;
  headers: string;
  body: unknown;
}

/** Writes `head` on a fresh connection (then closes its side when `halfClose`) and reads the answer until the server closes it. */
function exchange(head: string, halfClose = false): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => (halfClose ? socket.end(head) : socket.write(head)));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.slice(9, 12)), headers: text.slice(0, split), body: JSON.parse(text.slice(split + 4)) });
    });
  });
}

const request = (target: string, headers = '') => `GET ${target} HTTP/1.1\r\nHost: quarry\r\n${headers}Connection: close\r\n\r\n`;

function error(code: string, message: string) {
  return { message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` };
}

const TOO_LARGE = error('bad_request', 'The request line and headers are too large. At most 128 KiB and 96 headers are accepted.');

describe('answers outside the routes', () => {
  it('answers 431 in the envelope for a URL or headers past 128 KiB', async () => {
    // just past the limit, so that no unread byte is left when the server closes
    const url = await exchange(request(`/health?q=${'a'.repeat(128 * 1024)}`));
    expect(url).toMatchObject({ status: 431, body: TOO_LARGE });
    const header = await exchange(request('/health', `X-Big: ${'a'.repeat(128 * 1024)}\r\n`));
    expect(header).toMatchObject({ status: 431, body: TOO_LARGE });
    expect(header.headers).toMatch(/^Content-Type: application\/json$/im);
  });

  it('accepts a head under 128 KiB, as actix does', async () => {
    const res = await exchange(request(`/health?q=${'a'.repeat(100_000)}`));
    expect(res).toMatchObject({ status: 200, body: { status: 'available' } });
  });

  it('answers 431 for more than 96 headers and reads 96', async () => {
    const headers = (n: number) => Array.from({ length: n }, (_, i) => `X-H${i}: v\r\n`).join('');
    // Host and Connection count too
    expect(await exchange(request('/health', headers(95)))).toMatchObject({ status: 431, body: TOO_LARGE });
    expect(await exchange(request('/health', headers(94)))).toMatchObject({ status: 200 });
  });

  it('answers 400 in the envelope for a space in the path', async () => {
    const res = await exchange(request('/indexes/movies/documents/a b'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error('bad_request', expect.stringMatching(/^The HTTP request is malformed\. `.+`\.$/) as unknown as string));
  });

  it('answers 400 in the envelope for an invalid Content-Length', async () => {
    const res = await exchange(request('/health', 'Content-Length: abc\r\n'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', type: 'invalid_request' });
  });

  it('routes a path with a bad percent-encoding as actix does', async () => {
    // a stray `%` stays in the index uid, which is then invalid
    const uid = await exchange(request('/indexes/%zz/documents'));
    expect(uid.status).toBe(400);
    expect(uid.body).toMatchObject({ code: 'invalid_index_uid', message: expect.stringMatching(/^`%zz` is not a valid index uid/) as unknown });
    // a document id with stray or non-UTF-8 escapes reaches the route, which looks for the index
    for (const id of ['%zz', '%E0%A4%A', '%FF']) {
      expect(await exchange(request(`/indexes/missing/documents/${id}`))).toMatchObject({
        status: 404,
        body: error('index_not_found', 'Index `missing` not found.'),
      });
    }
  });

  it('answers a body the client cut short by closing its side as v1.50 answers an incomplete payload', async () => {
    const incomplete = error('bad_request', 'The provided payload is incomplete and cannot be parsed');
    const sized = 'POST /indexes/movies/search HTTP/1.1\r\nHost: quarry\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"q":';
    expect(await exchange(sized, true)).toMatchObject({ status: 400, body: incomplete });
    const chunked = 'POST /indexes/movies/documents HTTP/1.1\r\nHost: quarry\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[{"i';
    expect(await exchange(chunked, true)).toMatchObject({ status: 400, body: incomplete });
    // a head cut short is still a request Node's parser could not read
    expect(await exchange('GET /health HTTP/1.1\r\nHost: quarry\r\n', true)).toMatchObject({
      status: 400,
      body: error('bad_request', 'The HTTP request is malformed. `Invalid EOF state`.'),
    });
  });

  it('answers 408 in the envelope when the head does not arrive in time', async () => {
    // the head is never finished: the server gives up after 5 s
    const res = await exchange('GET /health HTTP/1.1\r\nHost: quarry\r\n');
    expect(res).toMatchObject({ status: 408, body: error('bad_request', 'The request line and headers were not received in time.') });
  }, 30_000);

  it('never answers with the Fastify error shape', async () => {
    for (const head of [request('/indexes/movies/documents/a b'), request(`/health?q=${'a'.repeat(128 * 1024)}`), request('/indexes/%zz')]) {
      const { body } = await exchange(head);
      expect(Object.keys(body as object)).toEqual(['message', 'code', 'type', 'link']);
    }
  });
});
