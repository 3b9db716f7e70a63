import { request } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';
const auth = { authorization: `Bearer ${MASTER_KEY}` };

beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
});
afterAll(async () => {
  await server.dispose();
});

/** Raw HTTP, since fetch would negotiate and decode compression itself. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('CORS', () => {
  it('answers a preflight with 200, every method, the requested headers and a day of max-age, without auth', async () => {
    const res = await raw('OPTIONS', '/indexes/movies/search', {
      origin: 'https://example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
    );
    expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(res.headers['access-control-max-age']).toBe('86400');
  });

  it('adds the wildcard origin to ordinary responses, errors and 404s', async () => {
    for (const path of ['/health', '/version', '/doggo']) {
      const res = await raw('GET', path, { origin: 'https://example.com' });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['vary']).toMatch(/Origin/);
    }
  });

  it('adds no allowed origin to the answer of a request without Origin, but the Vary', async () => {
    const res = await raw('GET', '/health', {});
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['vary']).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  });

  it('routes an OPTIONS request without a requested method as any method: 405 on a known path, 404 else', async () => {
    for (const [path, status] of [['/health', 405], ['/indexes/movies/search', 405], ['/doggo', 404]] as const) {
      const res = await raw('OPTIONS', path, { origin: 'https://example.com' });
      expect(res.status, path).toBe(status);
      expect(res.body.length).toBe(0);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    }
    // a requested method that is no method token is no preflight either
    expect((await raw('OPTIONS', '/health', { 'access-control-request-method': 'GET, POST' })).status).toBe(405);
  });

  it('answers a preflight on any path, with or without Origin', async () => {
    const res = await raw('OPTIONS', '/doggo', { 'access-control-request-method': 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('refuses a preflight for a method outside the nine standard ones with actix-cors\'s 400 text', async () => {
    for (const method of ['get', 'PROPFIND']) {
      const res = await raw('OPTIONS', '/health', { origin: 'https://example.com', 'access-control-request-method': method });
      expect(res.status, method).toBe(400);
      expect(res.body.toString()).toBe('Requested method is not allowed');
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('response compression', () => {
  const decoders: Record<string, (b: Buffer) => Buffer> = {
    gzip: zlib.gunzipSync,
    br: zlib.brotliDecompressSync,
    deflate: zlib.inflateSync,
  };

  for (const encoding of ['gzip', 'br', 'deflate']) {
    it(`compresses with ${encoding} when the client accepts it`, async () => {
      const res = await raw('GET', '/keys', { ...auth, 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decoders[encoding]!(res.body).toString())).toMatchObject({ total: 4 });
    });
  }

  it('prefers gzip when the client accepts several encodings', async () => {
    const res = await raw('GET', '/keys', { ...auth, 'accept-encoding': 'br, gzip, deflate' });
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('sends identity without Accept-Encoding, or with x-no-compression', async () => {
    const plain = await raw('GET', '/keys', auth);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toMatchObject({ total: 4 });
    const refused = await raw('GET', '/keys', { ...auth, 'accept-encoding': 'gzip', 'x-no-compression': '1' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.body.toString())).toMatchObject({ total: 4 });
  });

  it('compresses a small answer too, as v1.50, with its length and Vary after CORS\'s', async () => {
    const small = await raw('GET', '/health', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(small.body).toString())).toEqual({ status: 'available' });
    expect(small.headers['content-length']).toBe(String(small.body.length));
    expect(small.headers['vary']).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers, accept-encoding');
    // a no-preference `*` and `x-gzip` read as gzip
    for (const accept of ['*', 'x-gzip']) expect((await raw('GET', '/health', { 'accept-encoding': accept })).headers['content-encoding']).toBe('gzip');
    expect((await raw('GET', '/health', { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
  });

  it('compresses an answer past 64 KiB as a stream, in every encoding', async () => {
    const docs = Array.from({ length: 200 }, (_, id) => ({ id, text: `document ${id} `.repeat(40) }));
    const added = await raw('POST', '/indexes/big/documents', { ...auth, 'content-type': 'application/json' }, JSON.stringify(docs));
    const { taskUid } = JSON.parse(added.body.toString()) as { taskUid: number };
    for (;;) {
      const task = JSON.parse((await raw('GET', `/tasks/${taskUid}`, auth)).body.toString()) as { status: string };
      if (task.status === 'succeeded') break;
      expect(['enqueued', 'processing']).toContain(task.status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const plain = await raw('GET', '/indexes/big/documents?limit=200', auth);
    expect(plain.body.length).toBeGreaterThan(64 * 1024);
    for (const encoding of ['gzip', 'br', 'deflate']) {
      const res = await raw('GET', '/indexes/big/documents?limit=200', { ...auth, 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decoders[encoding]!(res.body).equals(plain.body)).toBe(true);
    }
  });

  it('sends an answer of a mebibyte or more in pieces, chunked, compressed or not', async () => {
    const waitFor = async (body: Buffer) => {
      const { taskUid } = JSON.parse(body.toString()) as { taskUid: number };
      for (;;) {
        const task = JSON.parse((await raw('GET', `/tasks/${taskUid}`, auth)).body.toString()) as { status: string };
        if (task.status === 'succeeded') return;
        expect(['enqueued', 'processing']).toContain(task.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // a document's long value (a streamed answer) and a long settings list (a string body sent in pieces)
    const doc = { id: 1, text: '😀 été '.repeat(200_000) };
    await waitFor((await raw('POST', '/indexes/long/documents', { ...auth, 'content-type': 'application/json' }, JSON.stringify([doc]))).body);
    const stopWords = Array.from({ length: 120_000 }, (_, i) => `stopword${i}`);
    await waitFor((await raw('PUT', '/indexes/long/settings/stop-words', { ...auth, 'content-type': 'application/json' }, JSON.stringify(stopWords))).body);
    for (const [path, expected] of [['/indexes/long/documents/1', doc], ['/indexes/long/settings/stop-words', [...stopWords].sort()]] as const) {
      const plain = await raw('GET', path, auth);
      expect(plain.headers['transfer-encoding']).toBe('chunked');
      expect(plain.headers['content-length']).toBeUndefined();
      expect(JSON.parse(plain.body.toString())).toEqual(expected);
      for (const encoding of ['gzip', 'br']) {
        const res = await raw('GET', path, { ...auth, 'accept-encoding': encoding });
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(decoders[encoding]!(res.body).equals(plain.body)).toBe(true);
      }
    }
  });
});
