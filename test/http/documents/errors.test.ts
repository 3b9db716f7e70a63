import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--http-payload-size-limit', '1 KiB'] });
});
afterAll(async () => {
  await server.dispose();
});

const error = (code: string, message: string, type = 'invalid_request') => ({
  message,
  code,
  type,
  link: `https://docs.meilisearch.com/errors#${code}`,
});

async function send(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  // A Buffer body, so fetch adds no Content-Type of its own.
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : Buffer.from(body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

/**
 * Writes a document addition with `body` and, once it is answered, GET /health on the same
 * keep-alive connection; resolves with what the server sent back, once /health answered or after
 * a second.
 */
function twoRequestsOnOneConnection(body: Buffer, encoding: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let received = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, 1000);
    socket.on('error', reject);
    socket.on('data', (data) => {
      if (received === '') socket.write('GET /health HTTP/1.1\r\nHost: quarry\r\n\r\n');
      received += data.toString();
      if (received.endsWith('{"status":"available"}')) done();
    });
    const encodingHeader = encoding === undefined ? '' : `Content-Encoding: ${encoding}\r\n`;
    socket.write(`POST /indexes/kept/documents HTTP/1.1\r\nHost: quarry\r\nContent-Type: application/json\r\n${encodingHeader}Content-Length: ${body.length}\r\n\r\n`);
    socket.write(body);
  });
}

const ACCEPTED = 'Accepted values for the Content-Type header are: `application/json`, `application/x-ndjson`, `text/csv`';

describe('document route errors', () => {
  it('rejects an invalid index uid in the path', async () => {
    const res = await send('POST', '/indexes/bad%20uid/documents', '[]', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_index_uid' });
  });

  it('answers missing_content_type and invalid_content_type with the document formats', async () => {
    expect(await send('POST', '/indexes/a/documents', '[]')).toEqual({
      status: 415,
      body: error('missing_content_type', `A Content-Type header is missing. ${ACCEPTED}`),
    });
    expect(await send('POST', '/indexes/a/documents', '[]', { 'content-type': 'text/plain' })).toEqual({
      status: 415,
      body: error('invalid_content_type', `The Content-Type \`text/plain\` is invalid. ${ACCEPTED}`),
    });
  });

  it('lists the document formats for a Content-Type that is not a media type at all, on POST and PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      expect(await send(method, '/indexes/a/documents', '[]', { 'content-type': 'doggo' })).toEqual({
        status: 415,
        body: error('invalid_content_type', `The Content-Type \`doggo\` is invalid. ${ACCEPTED}`),
      });
    }
  });

  it('refuses a header the mime crate does not parse (a parameter without `=`), and names a suffixed type by its subtype, as v1.50 does', async () => {
    expect(await send('POST', '/indexes/a/documents', '[]', { 'content-type': 'application/json;foo' })).toEqual({
      status: 415,
      body: error('invalid_content_type', `The Content-Type \`application/json;foo\` is invalid. ${ACCEPTED}`),
    });
    expect(await send('POST', '/indexes/a/documents', '[]', { 'content-type': 'application/ld+json' })).toEqual({
      status: 415,
      body: error('invalid_content_type', `The Content-Type \`application/ld\` is invalid. ${ACCEPTED}`),
    });
  });

  it('refuses a csv delimiter with JSON and a delimiter that is not one ASCII character', async () => {
    expect(await send('POST', '/indexes/a/documents?csvDelimiter=%3B', '[]', { 'content-type': 'application/json' })).toEqual({
      status: 415,
      body: error(
        'invalid_content_type',
        'The Content-Type `application/json` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.',
      ),
    });
    expect(await send('POST', '/indexes/a/documents?csvDelimiter=ab', 'a\n', { 'content-type': 'text/csv' })).toEqual({
      status: 400,
      body: error(
        'invalid_document_csv_delimiter',
        'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 2 characters: `ab`',
      ),
    });
  });

  it('answers missing_payload per format and malformed_payload for bad JSON', async () => {
    expect(await send('POST', '/indexes/a/documents', '', { 'content-type': 'application/x-ndjson' })).toEqual({
      status: 400,
      body: error('missing_payload', 'A ndjson payload is missing.'),
    });
    const bad = await send('POST', '/indexes/a/documents', '[{"id": 1,}]', { 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'malformed_payload' });
    expect((bad.body as { message: string }).message).toMatch(/^The `json` payload provided is malformed\. `Couldn't serialize document value: /);
  });

  it('answers payload_too_large past the limit', async () => {
    const big = JSON.stringify([{ id: 1, pad: 'x'.repeat(2000) }]);
    expect(await send('POST', '/indexes/a/documents', big, { 'content-type': 'application/json' })).toEqual({
      status: 413,
      body: error('payload_too_large', 'The provided payload reached the size limit. The maximum accepted payload size is 1 KiB.'),
    });
  });

  it('keeps the connection usable after refusing a payload, plain or compressed, that arrived whole', async () => {
    // megabytes, sent at once: far more than the server buffers before it stops reading the socket
    const big = JSON.stringify(Array.from({ length: 50_000 }, (_, id) => ({ id, pad: 'x'.repeat(40) })));
    for (const [body, encoding] of [
      [Buffer.from(big), undefined],
      [gzipSync(big), 'gzip'],
      [Buffer.from('"kefir" is no gzip at all'), 'gzip'],
    ] as const) {
      const answers = await twoRequestsOnOneConnection(body, encoding);
      expect(answers, encoding).toMatch(/^HTTP\/1\.1 (413|400) [^]*HTTP\/1\.1 200 OK/);
    }
  });

  it('rejects bad query parameters of the list route with their own codes', async () => {
    await run(server, 'POST', '/indexes/listed/documents', [{ id: 1 }]);
    expect(await send('GET', '/indexes/listed/documents?limit=-1')).toEqual({
      status: 400,
      body: error('invalid_document_limit', 'Invalid value in parameter `limit`: could not parse `-1` as a positive integer'),
    });
    expect((await send('GET', '/indexes/listed/documents?doggo=1')).body).toMatchObject({ code: 'bad_request' });
    expect(await send('GET', '/indexes/listed/documents?ids=1,illegal%2Fdocid')).toEqual({
      status: 400,
      body: error(
        'invalid_document_ids',
        'In `.ids[1]`: Document identifier `"illegal/docid"` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.',
      ),
    });
    // empty items are skipped (serde-cs), so positions count the ids left
    expect(((await send('GET', '/indexes/listed/documents?ids=0,,illegal%2Fdocid')).body as { message: string }).message).toMatch(/^In `\.ids\[1\]`: Document identifier `"illegal\/docid"` is invalid/);
    expect(await send('GET', '/indexes/listed/documents?ids=1,,2&fields=id')).toEqual({ status: 200, body: { results: [{ id: 1 }], offset: 0, limit: 20, total: 1 } });
    expect(await send('GET', '/indexes/listed/documents?ids=,')).toEqual({ status: 200, body: { results: [], offset: 0, limit: 20, total: 0 } });
  });

  it('reads every value of a fetch\'s `ids` as a document id, refusing floats, booleans, null and objects as ids in v1.50\'s words', async () => {
    await run(server, 'POST', '/indexes/fetched/documents', [{ id: 1 }, { id: -1 }]);
    const json = { 'content-type': 'application/json' };
    const refused = (text: string, at = 0) =>
      error(
        'invalid_document_ids',
        `In \`.ids[${at}]\`: Document identifier \`${text}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
      );
    for (const [sent, text] of [['true', 'true'], ['1.0', '1.0'], ['1.5', '1.5'], ['1e3', '1000.0'], ['null', 'null'], ['{"a":1}', '{"a":1}'], ['[1]', '[1]']]) {
      expect(await send('POST', '/indexes/fetched/documents/fetch', `{"ids":[1,${sent}]}`, json), sent).toEqual({ status: 400, body: refused(text!, 1) });
    }
    expect((await send('POST', '/indexes/fetched/documents/fetch', '{"ids":[1,-1,"1"],"fields":["id"]}', json)).body).toEqual({ results: [{ id: 1 }, { id: -1 }], offset: 0, limit: 20, total: 2 });
    // the body's own checks come first
    expect((await send('POST', '/indexes/fetched/documents/fetch', '{"ids":[true],"limit":"a"}', json)).body).toMatchObject({ code: 'invalid_document_limit' });
  });

  it('refuses a geo sort of the documents while no document ever held a `_geo` (v1.50 finds no `_geo.lat` field)', async () => {
    const json = { 'content-type': 'application/json' };
    await run(server, 'POST', '/indexes/unplaced/documents', [{ id: 1 }]);
    await run(server, 'PATCH', '/indexes/unplaced/settings', { sortableAttributes: ['_geo', 'rank'] });
    const sort = '{"sort":["_geoPoint(0,0):asc"]}';
    expect(await send('POST', '/indexes/unplaced/documents/fetch', sort, json)).toEqual({
      status: 400,
      body: error('invalid_document_sort', 'Attribute `_geo` is not sortable. Available sortable attributes are: `_geo, rank`.'),
    });
    // a sortable field no document holds is skipped instead
    expect((await send('POST', '/indexes/unplaced/documents/fetch', '{"sort":["rank:asc"]}', json)).status).toBe(200);
    await run(server, 'POST', '/indexes/unplaced/documents', [{ id: 2, _geo: { lat: 1, lng: 2 } }]);
    expect(((await send('POST', '/indexes/unplaced/documents/fetch', sort, json)).body as { results: { id: number }[] }).results.map((doc: { id: number }) => doc.id)).toEqual([2, 1]);
  });

  it('rejects a fetch body with wrong types and unknown fields', async () => {
    const json = { 'content-type': 'application/json' };
    expect((await send('POST', '/indexes/listed/documents/fetch', '{"limit": "x"}', json)).body).toMatchObject({ code: 'invalid_document_limit' });
    expect((await send('POST', '/indexes/listed/documents/fetch', '{"doggo": 1}', json)).body).toMatchObject({ code: 'bad_request' });
  });

  it('rejects a delete-batch body that is not an array', async () => {
    expect(await send('POST', '/indexes/listed/documents/delete-batch', '"doggo"', { 'content-type': 'application/json' })).toEqual({
      status: 400,
      body: error('bad_request', 'Json deserialize error: invalid type: string "doggo", expected a sequence at line 1 column 7'),
    });
  });
});
