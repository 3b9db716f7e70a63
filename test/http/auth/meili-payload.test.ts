/**
 * Port of Meilisearch's tests/auth/payload.rs: the Content-Type and body errors of `POST /keys` and
 * `PATCH /keys/{key}`. The test file's links use hyphens (`#invalid-content-type`), from before
 * Meilisearch made every link end with the code itself; errors.md (v1.50) wins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';
import { MASTER_KEY } from './meili-auth.js';
import { errorBody } from './request.js';

const CONTENT = JSON.stringify({ indexes: ['products'], actions: ['documents.add'], expiresAt: '2050-11-13T00:00:00Z' });
const ROUTES = [
  ['POST', '/keys'],
  ['PATCH', '/keys/d0552b41536279a0ad88bd595327b96f01176a60c2243e906c52ac02375f9bc4'],
] as const;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
});
afterAll(async () => {
  await server.dispose();
});

/**
 * A request with the master key, `body` sent as bytes (so that fetch adds no Content-Type of its
 * own) and `contentType` as given, absent when undefined.
 */
async function send(method: string, path: string, body: string, contentType?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${MASTER_KEY}` };
  if (contentType !== undefined) headers['content-type'] = contentType;
  const res = await fetch(`${server.url}${path}`, { method, headers, body: Buffer.from(body) });
  return { status: res.status, body: JSON.parse(await res.text()) as unknown };
}

describe.each(ROUTES)('%s %s', (method, path) => {
  it('answers 415 invalid_content_type for text/plain (error_api_key_bad_content_types)', async () => {
    expect(await send(method, path, CONTENT, 'text/plain')).toEqual({
      status: 415,
      body: errorBody('invalid_content_type', 'The Content-Type `text/plain` is invalid. Accepted values for the Content-Type header are: `application/json`'),
    });
  });

  it('answers 415 invalid_content_type for an empty Content-Type (error_api_key_empty_content_types)', async () => {
    expect(await send(method, path, CONTENT, '')).toEqual({
      status: 415,
      body: errorBody('invalid_content_type', 'The Content-Type `` is invalid. Accepted values for the Content-Type header are: `application/json`'),
    });
  });

  it('answers 415 missing_content_type without a Content-Type (error_api_key_missing_content_types)', async () => {
    expect(await send(method, path, CONTENT)).toEqual({
      status: 415,
      body: errorBody('missing_content_type', 'A Content-Type header is missing. Accepted values for the Content-Type header are: `application/json`'),
    });
  });

  it('answers 400 missing_payload for an empty body (error_api_key_empty_payload)', async () => {
    expect(await send(method, path, '', 'application/json')).toEqual({
      status: 400,
      body: errorBody('missing_payload', 'A json payload is missing.'),
    });
  });

  it('answers 400 malformed_payload with serde_json\'s position (error_api_key_malformed_payload)', async () => {
    expect(await send(method, path, '{"malormed": "payload"', 'application/json')).toEqual({
      status: 400,
      body: errorBody('malformed_payload', 'The json payload provided is malformed. `EOF while parsing an object at line 1 column 22`.'),
    });
  });
});
