/**
 * Integers beyond 2^53 that fit 64 bits stay exact, as in Meilisearch (its
 * `document_addition_with_huge_int_primary_key`): as document ids, in stored documents, search
 * hits and dumps. Bodies are compared as text: JSON.parse in the test would round them.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let counter = 0;
const uniqueIndex = () => `bigint_${process.pid}_${counter++}`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

async function send(target: TestServer, method: string, route: string, body?: string, contentType = 'application/json'): Promise<{ status: number; text: string }> {
  const res = await fetch(`${target.url}${route}`, { method, headers: body === undefined ? {} : { 'content-type': contentType }, body });
  return { status: res.status, text: await res.text() };
}

async function settled(target: TestServer, reply: { text: string }): Promise<Record<string, unknown>> {
  const { taskUid } = JSON.parse(reply.text) as { taskUid: number };
  for (;;) {
    const task = JSON.parse((await send(target, 'GET', `/tasks/${taskUid}`)).text) as Record<string, unknown>;
    if (task.status === 'succeeded' || task.status === 'failed') return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('integers beyond 2^53', () => {
  it('a u64 primary key beyond 2^53 comes back exactly as sent', async () => {
    const uid = uniqueIndex();
    const added = await send(server, 'POST', `/indexes/${uid}/documents?primaryKey=primary`, '[{"primary": 14630868576586246730, "content": "foo"}]');
    expect(added.status).toBe(202);
    const task = await settled(server, added);
    expect(task).toMatchObject({ status: 'succeeded', details: { receivedDocuments: 1, indexedDocuments: 1 } });
    expect(JSON.parse((await send(server, 'GET', `/indexes/${uid}`)).text)).toMatchObject({ primaryKey: 'primary' });
    const doc = await send(server, 'GET', `/indexes/${uid}/documents/14630868576586246730`);
    expect(doc).toEqual({ status: 200, text: '{"primary":14630868576586246730,"content":"foo"}' });
  });

  it('ids that round to the same double stay two documents', async () => {
    const uid = uniqueIndex();
    const ndjson = '{"id":14630868576586246730,"n":1}\n{"id":14630868576586246731,"n":2}\n';
    await settled(server, await send(server, 'POST', `/indexes/${uid}/documents`, ndjson, 'application/x-ndjson'));
    expect(JSON.parse((await send(server, 'GET', `/indexes/${uid}/stats`)).text)).toMatchObject({ numberOfDocuments: 2 });
    expect((await send(server, 'GET', `/indexes/${uid}/documents/14630868576586246731`)).text).toBe('{"id":14630868576586246731,"n":2}');
    expect((await send(server, 'GET', `/indexes/${uid}/documents?fields=id`)).text).toBe(
      '{"results":[{"id":14630868576586246730},{"id":14630868576586246731}],"offset":0,"limit":20,"total":2}',
    );
  });

  it('fetch and delete-batch name them by their exact digits', async () => {
    const uid = uniqueIndex();
    await settled(server, await send(server, 'POST', `/indexes/${uid}/documents`, '[{"id":14630868576586246730,"n":1},{"id":14630868576586246731,"n":2}]'));
    const fetched = await send(server, 'POST', `/indexes/${uid}/documents/fetch`, '{"ids":[14630868576586246731],"fields":["n"],"limit":20}');
    expect(fetched.text).toBe('{"results":[{"n":2}],"offset":0,"limit":20,"total":1}');
    const deleted = await settled(server, await send(server, 'POST', `/indexes/${uid}/documents/delete-batch`, '[14630868576586246730]'));
    expect(deleted).toMatchObject({ status: 'succeeded', details: { providedIds: 1, deletedDocuments: 1 } });
    expect((await send(server, 'GET', `/indexes/${uid}/documents?fields=id`)).text).toBe('{"results":[{"id":14630868576586246731}],"offset":0,"limit":20,"total":1}');
  });

  it('search finds, filters, sorts and highlights them with their exact digits', async () => {
    const uid = uniqueIndex();
    const docs = '[{"id":1,"code":9223372036854775807,"low":-9223372036854775808},{"id":2,"code":9007199254740993,"low":0}]';
    await settled(server, await send(server, 'POST', `/indexes/${uid}/documents`, docs));
    await settled(server, await send(server, 'PATCH', `/indexes/${uid}/settings`, '{"filterableAttributes":["low"],"sortableAttributes":["code"]}'));
    const found = await send(server, 'POST', `/indexes/${uid}/search`, '{"q":"9007199254740993","attributesToHighlight":["code"],"attributesToRetrieve":["id","code"]}');
    expect(found.text).toContain('"hits":[{"id":2,"code":9007199254740993,"_formatted":{"id":"2","code":"<em>9007199254740993</em>"}}]');
    const filtered = await send(server, 'POST', `/indexes/${uid}/search`, '{"filter":"low < 0","attributesToRetrieve":["low"]}');
    expect(filtered.text).toContain('"hits":[{"low":-9223372036854775808}]');
    const sorted = await send(server, 'POST', `/indexes/${uid}/search`, '{"sort":["code:desc"],"attributesToRetrieve":["code"]}');
    expect(sorted.text).toContain('"hits":[{"code":9223372036854775807},{"code":9007199254740993}]');
  });

  it('a payload large enough for the extraction workers indexes the exact digits too', async () => {
    const uid = uniqueIndex();
    const lines = Array.from({ length: 12_000 }, (_, i) => `{"id":${i},"code":${14630868576586246000n + BigInt(i)},"text":"document number ${i} with some words to index"}`);
    expect(lines.join('\n').length).toBeGreaterThan(1 << 20);
    const task = await settled(server, await send(server, 'POST', `/indexes/${uid}/documents`, lines.join('\n'), 'application/x-ndjson'));
    expect(task).toMatchObject({ status: 'succeeded', details: { indexedDocuments: 12_000 } });
    const found = await send(server, 'POST', `/indexes/${uid}/search`, '{"q":"14630868576586257777","attributesToRetrieve":["id","code"]}');
    expect(found.text).toContain('"hits":[{"id":11777,"code":14630868576586257777},');
  });

  it('an error message echoing the document prints them exactly', async () => {
    const uid = uniqueIndex();
    await settled(server, await send(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, '[{"id":1}]'));
    const task = await settled(server, await send(server, 'POST', `/indexes/${uid}/documents`, '[{"code":14630868576586246730}]'));
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: 'missing_document_id', message: 'Document doesn\'t have a `id` attribute: `{"code":14630868576586246730}`.' },
    });
  });

  it('a dump keeps them exact through an import', async () => {
    const uid = uniqueIndex();
    await settled(server, await send(server, 'POST', `/indexes/${uid}/documents`, '[{"id":18446744073709551615,"v":-9223372036854775807}]'));
    const dump = await settled(server, await send(server, 'POST', '/dumps'));
    expect(dump.status).toBe('succeeded');
    const dumpDir = path.join(server.dbPath, '..', 'dumps');
    const file = path.join(dumpDir, readdirSync(dumpDir).find((name) => name === `${(dump.details as { dumpUid: string }).dumpUid}.dump`)!);
    const imported = await startServer({ dbPath: path.join(tempDir(), 'imported.ms'), args: ['--import-dump', file] });
    try {
      expect((await send(imported, 'GET', `/indexes/${uid}/documents/18446744073709551615`)).text).toBe('{"id":18446744073709551615,"v":-9223372036854775807}');
    } finally {
      await imported.dispose();
    }
  });
});
