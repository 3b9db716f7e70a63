import { request } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--http-payload-size-limit', '1 KiB'] });
});
afterAll(async () => {
  await server.dispose();
});

function error(code: string, message: string) {
  return { message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` };
}

/** Raw HTTP so headers (or their absence) are exactly what the test says. */
function send(headers: Record<string, string>, body: Buffer | string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/experimental-features`, { method: 'PATCH', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode!, body: text === '' ? null : JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };

describe('JSON request bodies', () => {
  it('applies a valid body and answers the whole flag set in order', async () => {
    const res = await send(json, '{"metrics": true}');
    expect(res.status).toBe(200);
    const body = res.body as Record<string, boolean>;
    expect(Object.keys(body).slice(0, 3)).toEqual(['metrics', 'logsRoute', 'editDocumentsByFunction']);
    expect(body.metrics).toBe(true);
    await send(json, '{"metrics": false}');
  });

  it('accepts json subtypes, +json suffixes and parameters', async () => {
    for (const type of ['application/json; charset=utf-8', 'text/json', 'application/vnd.api+json']) {
      expect((await send({ 'content-type': type }, '{}')).status).toBe(200);
    }
  });

  it('answers 415 missing_content_type without a Content-Type', async () => {
    expect(await send({}, '{}')).toEqual({
      status: 415,
      body: error('missing_content_type', 'A Content-Type header is missing. Accepted values for the Content-Type header are: `application/json`'),
    });
  });

  it('answers 415 invalid_content_type echoing the header', async () => {
    for (const type of ['text/plain', 'application/x-ndjson', 'json', '', 'application/json;foo', 'application/json ; charset=utf-8']) {
      expect(await send({ 'content-type': type }, '{}')).toEqual({
        status: 415,
        body: error('invalid_content_type', `The Content-Type \`${type}\` is invalid. Accepted values for the Content-Type header are: \`application/json\``),
      });
    }
  });

  it('answers 400 missing_payload for an empty body', async () => {
    expect(await send(json, '')).toEqual({ status: 400, body: error('missing_payload', 'A json payload is missing.') });
  });

  it('answers 400 malformed_payload with the parser position', async () => {
    expect(await send(json, '{"metrics": true')).toEqual({
      status: 400,
      body: error('malformed_payload', 'The json payload provided is malformed. `EOF while parsing an object at line 1 column 16`.'),
    });
    expect(await send(json, '{"metrics": tru}')).toEqual({
      status: 400,
      body: error('malformed_payload', 'The json payload provided is malformed. `expected ident at line 1 column 16`.'),
    });
  });

  it('answers 400 malformed_payload for a number past f64\'s range where serde_json stops reading it', async () => {
    expect(await send(json, '{"metrics": 1e400}')).toEqual({
      status: 400,
      body: error('malformed_payload', 'The json payload provided is malformed. `number out of range at line 1 column 17`.'),
    });
    // the exponent is refused at the digit that takes it past an i32 (2147483647 is one)
    expect(await send(json, '{"metrics":\n -1e21474836470}')).toEqual({
      status: 400,
      body: error('malformed_payload', 'The json payload provided is malformed. `number out of range at line 2 column 15`.'),
    });
    // 250 integer digits and a two-digit exponent: past f64's range too
    const long = `${'9'.repeat(250)}e99`;
    expect(await send(json, `{"metrics": ${long}}`)).toEqual({
      status: 400,
      body: error('malformed_payload', `The json payload provided is malformed. \`number out of range at line 1 column ${13 + long.length - 1}\`.`),
    });
    // a bare number (kept as sent for messages) is read for its range too; a string is no number
    expect(await send(json, '-1e400')).toEqual({
      status: 400,
      body: error('malformed_payload', 'The json payload provided is malformed. `number out of range at line 1 column 6`.'),
    });
    expect(((await send(json, '{"metrics": "1e400"}')).body as { code: string }).code).toBe('bad_request');
    // a number tending to zero is not out of range: the body reaches validation
    expect(await send(json, '{"metrics": 5e-2147483649}')).toEqual({
      status: 400,
      body: error('bad_request', 'Invalid value type at `.metrics`: expected a boolean, but found a number: `0.0`'),
    });
  });

  it('quotes a wrong value as sent: a float\'s form and a 64-bit integer\'s digits, as serde_json reads them', async () => {
    const wrong = (found: string) => error('bad_request', `Invalid value type at \`.metrics\`: expected a boolean, but found ${found}`);
    const cases: Array<[string, string]> = [
      ['1.0', 'a number: `1.0`'],
      ['1e2', 'a number: `100.0`'],
      ['-0', 'a number: `-0.0`'],
      ['12345678901234567891', 'a positive integer: `12345678901234567891`'],
      ['-9223372036854775808', 'a negative integer: `-9223372036854775808`'],
      ['18446744073709551616', 'a number: `1.8446744073709552e19`'],
      ['[1.0, 12345678901234567891]', 'an array: `[1.0,12345678901234567891]`'],
    ];
    for (const [sent, found] of cases) {
      expect(await send(json, `{"metrics": true, "metrics": ${sent}}`)).toEqual({ status: 400, body: wrong(found) });
    }
  });

  it('answers 400 bad_request for an unknown field and a wrong type', async () => {
    const unknown = await send(json, '{"doggo": true}');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'bad_request' });
    expect((unknown.body as { message: string }).message).toMatch(/^Unknown field `doggo`: expected one of `metrics`, `logsRoute`/);
    expect(await send(json, '{"metrics": 42}')).toEqual({
      status: 400,
      body: error('bad_request', 'Invalid value type at `.metrics`: expected a boolean, but found a positive integer: `42`'),
    });
  });

  it('answers 413 payload_too_large past the limit', async () => {
    const big = JSON.stringify({ metrics: true, pad: 'x'.repeat(2000) });
    expect(await send(json, big)).toEqual({
      status: 413,
      body: error('payload_too_large', 'JSON payload has exceeded limit (1024 bytes).'),
    });
  });

  it('counts the limit after decompression', async () => {
    const big = zlib.gzipSync(JSON.stringify({ metrics: null, pad: ' '.repeat(5000) }));
    expect(big.length).toBeLessThan(1024);
    expect((await send({ ...json, 'content-encoding': 'gzip' }, big)).status).toBe(413);
  });

  for (const [encoding, encode] of [
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const) {
    it(`decodes a ${encoding} request body`, async () => {
      const res = await send({ ...json, 'content-encoding': encoding }, encode('{"logsRoute": null}'));
      expect(res.status).toBe(200);
    });

    it(`answers 400 bad_request for a corrupt ${encoding} body`, async () => {
      const res = await send({ ...json, 'content-encoding': encoding }, Buffer.from('definitely not compressed'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request', type: 'invalid_request' });
    });
  }

  it('reads the body as sent for any other Content-Encoding, as actix-http does; the three names in any case', async () => {
    for (const encoding of ['zstd', 'x-gzip', 'gzip, br', 'compress', 'identity']) {
      expect((await send({ ...json, 'content-encoding': encoding }, Buffer.from('{"logsRoute": null}'))).status, encoding).toBe(200);
    }
    expect((await send({ ...json, 'content-encoding': ' GZip ' }, zlib.gzipSync('{"logsRoute": null}'))).status).toBe(200);
  });
});
