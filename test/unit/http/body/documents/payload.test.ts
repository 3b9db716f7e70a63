import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../../src/errors/api-error.js';
import { PayloadTooLarge } from '../../../../../src/http/body/read-body.js';
import { refuse, tempStore, write } from './harness.js';

const store = tempStore();
afterAll(() => store.remove());
afterEach(() => vi.restoreAllMocks());

const MB = 1024 * 1024;

/** Lazily generated body: `head`, then `count` items made by `item(i)` joined by `separator`, then `tail`. */
async function* generated(head: string, count: number, item: (i: number) => string, separator: string, tail: string): AsyncGenerator<Buffer> {
  let pending = head;
  for (let i = 0; i < count; i++) {
    pending += (i === 0 ? '' : separator) + item(i);
    if (pending.length >= 64 * 1024) {
      yield Buffer.from(pending);
      pending = '';
    }
  }
  yield Buffer.from(pending + tail);
}

/** Records the largest buffer `Buffer.concat` builds while `run` goes. */
async function largestConcat(run: () => Promise<void>): Promise<number> {
  let largest = 0;
  const concat = Buffer.concat.bind(Buffer);
  vi.spyOn(Buffer, 'concat').mockImplementation((list, total) => {
    const out = concat(list, total);
    largest = Math.max(largest, out.length);
    return out;
  });
  await run();
  return largest;
}

async function* failingAfter(first: string, error: Error): AsyncGenerator<Buffer> {
  yield Buffer.from(first);
  throw error;
}

describe('document payload writer', () => {
  it('refuses a body over the limit with the size printed as Meilisearch does', async () => {
    expect(await refuse(store, 'json', `[${'{"id":1},'.repeat(200)}{"id":2}]`, { limit: 1024, chunk: 100 })).toEqual({
      code: 'payload_too_large',
      message: 'The provided payload reached the size limit. The maximum accepted payload size is 1 KiB.',
    });
    expect((await refuse(store, 'ndjson', '{"id":1}\n'.repeat(20), { limit: 100 })).message).toBe(
      'The provided payload reached the size limit. The maximum accepted payload size is 100 B.',
    );
  });

  it('accepts a body of exactly the limit', async () => {
    expect((await write(store, 'ndjson', '{"id":1}\n', { limit: 9 })).documentsCount).toBe(1);
  });

  it('turns the body reader PayloadTooLarge into the 413 error', async () => {
    const err = await refuse(store, 'csv', failingAfter('id\n1\n', new PayloadTooLarge(100_000_000)), { limit: 100_000_000 });
    expect(err).toEqual({
      code: 'payload_too_large',
      message: 'The provided payload reached the size limit. The maximum accepted payload size is 100 MB.',
    });
  });

  it('reads the rest of a malformed body so that a size or decoding error still wins', async () => {
    const body = `[{"id":1}, {id: 2}]${' '.repeat(2000)}`;
    expect((await refuse(store, 'json', body, { limit: 1024, chunk: 10 })).code).toBe('payload_too_large');
    const corrupt = new ApiError('bad_request', 'The provided payload is incomplete and cannot be parsed');
    expect(await refuse(store, 'json', failingAfter('[{id: 2}', corrupt))).toEqual({
      code: 'bad_request',
      message: 'The provided payload is incomplete and cannot be parsed',
    });
  });

  it('leaves no update file behind when a document is malformed after earlier batches were written', async () => {
    const body = generated('[', 60_000, (i) => `{"id":${i},"text":"${'x'.repeat(40)}"}`, ',', ',{oops}]');
    expect((await refuse(store, 'json', body)).code).toBe('malformed_payload');
  });

  it('streams a 50 MB JSON array without ever concatenating more than one output batch', async () => {
    const count = 500_000;
    const item = (i: number) => `{"id":${i},"title":"document number ${i}","body":"${'lorem ipsum '.repeat(6)}","tags":["a","b"]}`;
    let expectedSize = 0;
    for (let i = 0; i < count; i++) expectedSize += Buffer.byteLength(item(i)) + 1;
    expect(expectedSize).toBeGreaterThan(50 * 1000 * 1000);
    let out: Awaited<ReturnType<typeof write>> | undefined;
    const largest = await largestConcat(async () => {
      out = await write(store, 'json', generated('[', count, item, ',', ']'));
    });
    expect(out!.documentsCount).toBe(count);
    expect(out!.size).toBe(expectedSize);
    expect(out!.lines[count - 1]).toBe(item(count - 1));
    expect(largest).toBeLessThan(2 * MB);
  });

  it('streams a large pretty-printed NDJSON payload in bounded batches', async () => {
    const count = 100_000;
    const item = (i: number) => `{ "id": ${i},\n  "name": "n\\u00e9 ${i} é" }`;
    let out: Awaited<ReturnType<typeof write>> | undefined;
    const largest = await largestConcat(async () => {
      out = await write(store, 'ndjson', generated('', count, item, '\r\n', '\r\n'));
    });
    expect(out!.documentsCount).toBe(count);
    expect(out!.lines[12345]).toBe('{"id":12345,"name":"n\\u00e9 12345 é"}');
    expect(largest).toBeLessThan(2 * MB);
  });

  it('streams a large CSV payload in bounded batches', async () => {
    const count = 200_000;
    let out: Awaited<ReturnType<typeof write>> | undefined;
    const largest = await largestConcat(async () => {
      out = await write(store, 'csv', generated('id:number,name,score:number\n', count, (i) => `${i},"name, ${i}",${i / 4}`, '\n', '\n'));
    });
    expect(out!.documentsCount).toBe(count);
    expect(out!.lines[3]).toBe('{"id":3,"name":"name, 3","score":0.75}');
    expect(out!.lines[4]).toBe('{"id":4,"name":"name, 4","score":1}');
    expect(largest).toBeLessThan(2 * MB);
  });
});
