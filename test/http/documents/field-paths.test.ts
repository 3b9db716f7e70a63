// Field paths longer than 16,383 bytes (a key, or keys joined by dots): V8 hashes longer strings
// by their length alone, so such names made every map keyed by field names quadratic (a minute to
// index 3,000 of them, half a minute for each later write of the index). Quarry refuses such a
// document at enqueue, as JSON, NDJSON or a CSV header, and keeps the paths at the bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, expectError, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const BOUND = 16_383;
const post = (body: string, type: string) => callRaw(server, 'POST', '/indexes/paths/documents', body, { 'content-type': type });
const tooLong = (format: string, column: number) =>
  `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: a field's path is longer than ${BOUND} bytes at line 1 column ${column}\`.`;

describe('a field path past 16,383 bytes', () => {
  it('is refused at enqueue in a JSON array, at the key that passes the bound', async () => {
    const body = `[{"id":1,"${'k'.repeat(BOUND + 1)}":1}]`;
    expectError(await post(body, 'application/json'), 400, 'malformed_payload', tooLong('json', body.indexOf('"k') + 1));
  });

  it('is refused at enqueue in NDJSON when keys nested under each other pass it together', async () => {
    // "v" then 17 keys of 1,000 bytes, each after a dot: 17,018 bytes
    let value = '1';
    for (let d = 17; d > 0; d--) value = `{"${String.fromCharCode(96 + d).repeat(1000)}":${value}}`;
    const body = `{"id":2,"v":${value}}\n`;
    expectError(await post(body, 'application/x-ndjson'), 400, 'malformed_payload', tooLong('ndjson', body.lastIndexOf('{"') + 2));
  });

  it('is refused at enqueue as a CSV header', async () => {
    expectError(
      await post(`id,${'h'.repeat(BOUND + 1)}\n1,2\n`, 'text/csv'),
      400,
      'malformed_payload',
      `The \`csv\` payload provided is malformed: \`the header's field 1 is longer than ${BOUND} bytes\`.`,
    );
  });

  it('indexes a key of exactly 16,383 bytes, and a long string value', async () => {
    const key = 'k'.repeat(BOUND);
    const reply = await post(JSON.stringify([{ id: 3, [key]: 'a', text: 'x'.repeat(40_000) }]), 'application/json');
    expect(reply.status, reply.text.slice(0, 300)).toBe(202);
    expect(await waitTask(server, reply.body.taskUid)).toMatchObject({ status: 'succeeded', error: null });
    const stored = await call(server, 'GET', '/indexes/paths/documents/3');
    expect(Object.keys(stored.body)).toEqual(['id', key, 'text']);
  });
});
