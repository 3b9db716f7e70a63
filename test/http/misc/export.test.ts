// `POST /export` with a real second instance: the request's validation, the documents and
// settings sent (the filter, the embeddings in `_vectors`, overrideSettings, payloadSize), the
// task's details, a remote that refuses the key or answers what is no Meilisearch error, and the
// IP policy.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, run, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const KEY = 'export-test-master-key-remote';
let source: TestServer;
let target: TestServer;

const onTarget = (method: string, path: string, body?: unknown) =>
  callRaw(target, method, path, body === undefined ? undefined : JSON.stringify(body), { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });

/** Waits until the target has processed everything it was sent. */
async function targetIdle(): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const pending = await onTarget('GET', '/tasks?statuses=enqueued,processing');
    if (pending.body.total === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the target did not finish its tasks');
}

const BOOKS = [
  { id: 1, title: 'Carol', genre: 'drama', _vectors: { manual: [1, 0] } },
  { id: 2, title: 'Emma', genre: 'comedy', _vectors: { manual: [0, 1] } },
  { id: 3, title: 'Persuasion', genre: 'drama', _vectors: { manual: [0.5, 0.5] } },
];

beforeAll(async () => {
  source = await startServer({ args: ['--experimental-allowed-ip-networks', 'any'] });
  target = await startServer({ masterKey: KEY });
  await run(source, 'PATCH', '/indexes/books/settings', { filterableAttributes: ['genre'], embedders: { manual: { source: 'userProvided', dimensions: 2 } } });
  await run(source, 'POST', '/indexes/books/documents', BOOKS);
  await run(source, 'POST', '/indexes/films/documents', Array.from({ length: 30 }, (_, i) => ({ id: i, title: `Film number ${i} with a fairly long title` })));
  await run(source, 'POST', '/indexes/other/documents', [{ id: 1 }]);
});
afterAll(async () => {
  await Promise.all([source, target].filter((server) => server !== undefined).map((server) => server.dispose()));
});

describe('POST /export', () => {
  it('refuses bad input with the export codes', async () => {
    const expectCode = async (body: unknown, code: string) => expect((await call(source, 'POST', '/export', body)).body.code).toBe(code);
    await expectCode({ url: 42 }, 'invalid_export_url');
    await expectCode({ url: target.url, apiKey: 1 }, 'invalid_export_api_key');
    await expectCode({ url: target.url, payloadSize: 'lots' }, 'invalid_export_payload_size');
    await expectCode({ url: target.url, payloadSize: -1 }, 'invalid_export_payload_size');
    // `indexes` has no code of its own in v1.50: its errors are bad_request
    await expectCode({ url: target.url, indexes: { 'bad pattern!': {} } }, 'bad_request');
    await expectCode({ url: target.url, indexes: { 'm*': null } }, 'bad_request');
    await expectCode({ url: target.url, indexes: { '*': { overrideSettings: 'yes' } } }, 'invalid_export_index_override_settings');
    await expectCode({ url: target.url, extra: true }, 'bad_request');
  });

  it('words the payloadSize and indexes errors as v1.50 does (byte-unit, deserr)', async () => {
    const message = async (body: Record<string, unknown>) => (await call(source, 'POST', '/export', { url: target.url, ...body })).body.message;
    expect(await message({ payloadSize: 'abc' })).toBe("Invalid value at `.payloadSize`: the character 'a' is not a number");
    expect(await message({ payloadSize: ' ' })).toBe('Invalid value at `.payloadSize`: no value can be found');
    expect(await message({ payloadSize: -1 })).toBe('Invalid value type at `.payloadSize`: expected a positive integer or a string, but found a negative integer: `-1`');
    expect(await message({ indexes: { 'bad idx': {} } })).toBe(
      'Invalid value at `.indexes`: the key "bad idx" could not be deserialized into the key type `meilisearch_types::index_uid_pattern::IndexUidPattern`',
    );
  });

  it('sends the matching indexes, filtered, with settings and embeddings, and details what it sent', async () => {
    const reply = await call(source, 'POST', '/export', { url: target.url, apiKey: KEY, payloadSize: '1KiB', indexes: { books: { filter: 'genre = drama' }, 'fi*': {} } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ indexUid: null, status: 'enqueued', type: 'export' });
    const task = await waitTask(source, reply.body.taskUid);
    expect(task.status).toBe('succeeded');
    expect(task.details).toEqual({
      url: target.url,
      apiKey: 'expXXXXX...', // a 29-character key: its first 3 characters
      payloadSize: '1 KiB',
      indexes: {
        books: { filter: 'genre = drama', overrideSettings: false, matched_documents: 2 },
        films: { filter: null, overrideSettings: false, matched_documents: 30 },
      },
    });
    await targetIdle();
    const books = await onTarget('POST', '/indexes/books/documents/fetch', { retrieveVectors: true });
    expect(books.body.results.map((doc: { id: number }) => doc.id).sort()).toEqual([1, 3]);
    expect(books.body.results.find((doc: { id: number }) => doc.id === 3)._vectors).toEqual({ manual: { embeddings: [[0.5, 0.5]], regenerate: false } });
    expect((await onTarget('GET', '/indexes/books/settings/filterable-attributes')).body).toEqual(['genre']);
    expect((await onTarget('GET', '/indexes/films/stats')).body.numberOfDocuments).toBe(30);
    // 1 KiB payloads: the films came in several document additions
    const additions = await onTarget('GET', '/tasks?indexUids=films&types=documentAdditionOrUpdate');
    expect(additions.body.total).toBeGreaterThan(1);
    expect((await onTarget('GET', '/indexes/other')).status).toBe(404);
    // each index's documents counted in a step of their own, as v1.50 traces them
    const trace = (await call(source, 'GET', `/batches/${task.batchUid}`)).body.stats.progressTrace;
    expect(Object.keys(trace).filter((step) => step.includes('Exporting'))).toEqual([
      'processing tasks > Exporting index `books` > document',
      'processing tasks > Exporting index `books`',
      'processing tasks > Exporting index `films` > document',
      'processing tasks > Exporting index `films`',
    ]);
  });

  it('keeps the remote settings of an existing index unless overrideSettings', async () => {
    await onTarget('PATCH', '/indexes/books/settings', { filterableAttributes: ['title'] });
    await targetIdle();
    const kept = await waitTask(source, (await call(source, 'POST', '/export', { url: target.url, apiKey: KEY, indexes: { books: {} } })).body.taskUid);
    expect(kept.status).toBe('succeeded');
    await targetIdle();
    expect((await onTarget('GET', '/indexes/books/settings/filterable-attributes')).body).toEqual(['title']);
    const overridden = await waitTask(source, (await call(source, 'POST', '/export', { url: target.url, apiKey: KEY, indexes: { books: { overrideSettings: true } } })).body.taskUid);
    expect(overridden.status).toBe('succeeded');
    await targetIdle();
    expect((await onTarget('GET', '/indexes/books/settings/filterable-attributes')).body).toEqual(['genre']);
    expect((await onTarget('GET', '/indexes/books/stats')).body.numberOfDocuments).toBe(3);
  });

  it('exports an index named `__proto__` and names it in its details', async () => {
    await run(source, 'POST', '/indexes/__proto__/documents', [{ id: 1, title: 'Sanditon' }]);
    const task = await waitTask(source, (await call(source, 'POST', '/export', { url: target.url, apiKey: KEY, indexes: { ['__proto__']: {} } })).body.taskUid);
    expect(task.status).toBe('succeeded');
    expect(Object.keys(task.details.indexes)).toEqual(['__proto__']);
    expect(task.details.indexes['__proto__']).toEqual({ filter: null, overrideSettings: false, matched_documents: 1 });
    await targetIdle();
    expect((await onTarget('GET', '/indexes/__proto__/stats')).body.numberOfDocuments).toBe(1);
  });

  it('fails with the remote error when the remote refuses the key', async () => {
    const task = await waitTask(source, (await call(source, 'POST', '/export', { url: target.url, apiKey: 'wrong-key', indexes: { books: {} } })).body.taskUid);
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('internal');
    expect(task.error.message).toMatch(/^Failed to export documents to remote server invalid_api_key \(auth\): The provided API key is invalid\. <https:\/\/docs\.meilisearch\.com\/errors#invalid_api_key>$/);
  });

  it("fails with serde_json's reading error, as v1.50's HTTP client words it, when the remote's refusal is no Meilisearch error", async () => {
    let answer = { status: 404, type: 'text/plain', body: 'Not Found' };
    const remote = createServer((_req, res) => res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body));
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
      const exported = async () => waitTask(source, (await call(source, 'POST', '/export', { url, indexes: { books: {} } })).body.taskUid);
      expect((await exported()).error).toMatchObject({ code: 'internal', message: 'json: expected value at line 1 column 1' });
      answer = { status: 403, type: 'application/json', body: '{"error":"nope"}' };
      expect((await exported()).error).toMatchObject({ code: 'internal', message: 'json: missing field `message` at line 1 column 16' });
    } finally {
      remote.close();
    }
  });

  it('fails an export a filter of the index cannot serve, naming the index', async () => {
    const task = await waitTask(source, (await call(source, 'POST', '/export', { url: target.url, apiKey: KEY, indexes: { films: { filter: 'title = x' } } })).body.taskUid);
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('invalid_document_filter');
    expect(task.error.message).toMatch(/^Index `films`: /);
  });

  it('fails an export whose filter holds `_foreign(...)`: the feature off, then one index cannot resolve it', async () => {
    const exportForeign = async () => waitTask(source, (await call(source, 'POST', '/export', { url: target.url, apiKey: KEY, indexes: { books: { filter: '_foreign(author, id = a1)' } } })).body.taskUid);
    const off = await exportForeign();
    expect(off.status).toBe('failed');
    expect(off.error).toMatchObject({
      code: 'feature_not_enabled',
      message: 'Index `books`: using a foreign filter requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873\n10:16 _foreign(author, id = a1)',
    });
    expect((await call(source, 'PATCH', '/experimental-features', { foreignKeys: true })).status).toBe(200);
    try {
      const on = await exportForeign();
      expect(on.status).toBe('failed');
      expect(on.error).toMatchObject({ code: 'invalid_document_filter', message: 'Index `books`: Filter condition `_foreign` is not supported for this endpoint.\n10:16 _foreign(author, id = a1)' });
    } finally {
      await call(source, 'PATCH', '/experimental-features', { foreignKeys: false });
    }
  });

  it('is refused an address the IP policy does not allow', async () => {
    // the target allows no loopback address, and holds the indexes the tests above sent it
    const { taskUid } = (await onTarget('POST', '/export', { url: source.url })).body;
    const deadline = Date.now() + 10_000;
    let task = (await onTarget('GET', `/tasks/${taskUid}`)).body;
    while (Date.now() < deadline && !['succeeded', 'failed'].includes(task.status)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      task = (await onTarget('GET', `/tasks/${taskUid}`)).body;
    }
    expect(task.status).toBe('failed');
    expect(task.error.message).toBe('bad uri: Rejected URI');
  });
});
