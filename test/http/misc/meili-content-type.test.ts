// Port of Meilisearch's crates/meilisearch/tests/content_type.rs: the JSON-only routes accept
// `application/json`, answer 415 `missing_content_type` to a body without a Content-Type and 415
// `invalid_content_type` (naming the header's value) to any other type, even one that is not a
// valid media type; a document addition takes a JSON type with a charset parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRaw, expectError } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

/** Every route of the Rust test: those that take a JSON body only (dumps take none; search is lenient). */
const ROUTES: [method: string, path: string][] = [
  ['POST', '/indexes'],
  ['POST', '/indexes/doggo/documents/delete-batch'],
  ['POST', '/indexes/doggo/search'],
  ['PATCH', '/indexes/doggo/settings'],
  ['PUT', '/indexes/doggo/settings/displayed-attributes'],
  ['PUT', '/indexes/doggo/settings/distinct-attribute'],
  ['PUT', '/indexes/doggo/settings/filterable-attributes'],
  ['PUT', '/indexes/doggo/settings/ranking-rules'],
  ['PUT', '/indexes/doggo/settings/searchable-attributes'],
  ['PUT', '/indexes/doggo/settings/sortable-attributes'],
  ['PUT', '/indexes/doggo/settings/stop-words'],
  ['PUT', '/indexes/doggo/settings/synonyms'],
];

const BAD_CONTENT_TYPES = ['application/csv', 'application/x-ndjson', 'application/x-www-form-urlencoded', 'text/plain', 'json', 'application', 'json/application'];

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('error_json_bad_content_type', () => {
  it.each(ROUTES)('%s %s takes application/json without a media-type error', async (method, path) => {
    const reply = await callRaw(server, method, path, '{}', { 'content-type': 'application/json' });
    expect(reply.status, reply.text).not.toBe(415);
  });

  it.each(ROUTES)('%s %s answers 415 missing_content_type without a Content-Type', async (method, path) => {
    expectError(
      await callRaw(server, method, path, '{}'),
      415,
      'missing_content_type',
      'A Content-Type header is missing. Accepted values for the Content-Type header are: `application/json`',
    );
  });

  it.each(ROUTES.flatMap(([method, path]) => BAD_CONTENT_TYPES.map((type) => [method, path, type])))(
    '%s %s answers 415 invalid_content_type to %s',
    async (method, path, type) => {
      expectError(
        await callRaw(server, method, path, '{}', { 'content-type': type }),
        415,
        'invalid_content_type',
        `The Content-Type \`${type}\` is invalid. Accepted values for the Content-Type header are: \`application/json\``,
      );
    },
  );
});

describe('extract_actual_content_type', () => {
  it.each([
    ['POST', 'application/json; charset=utf-8'],
    ['PUT', 'application/json; charset=latin-1'],
  ])('%s /indexes/doggo/documents takes %s', async (method, type) => {
    const reply = await callRaw(server, method, '/indexes/doggo/documents', '[{}]', { 'content-type': type });
    expect(reply.status, reply.text).not.toBe(415);
  });
});
