// Server-sent events read from a provider's bytes however they are cut, and written back.
import { describe, expect, it } from 'vitest';
import { sseData, sseEvent, SseEventTooLong } from '../../../src/chats/sse.js';

async function read(parts: (string | Buffer)[]): Promise<string[]> {
  async function* body() {
    for (const part of parts) yield Buffer.isBuffer(part) ? part : Buffer.from(part);
  }
  const out: string[] = [];
  for await (const data of sseData(body())) out.push(data);
  return out;
}

describe('sseData', () => {
  it('yields each event data once, whatever the byte boundaries', async () => {
    const text = 'retry: 100\n\ndata: {"a":1}\n\n: a comment\ndata: [DONE]\n\n';
    const bytes = Buffer.from(text);
    expect(await read([text])).toEqual(['{"a":1}', '[DONE]']);
    for (let cut = 1; cut < bytes.length; cut++) expect(await read([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(['{"a":1}', '[DONE]']);
  });

  it('reads CRLF lines, a field without space and multi-line data; an event cut by the end is dropped', async () => {
    expect(await read(['data:x\r\n\r\ndata: one\ndata: two\n\ndata: last\n'])).toEqual(['x', 'one\ntwo']);
  });

  it('keeps a UTF-8 character cut between two chunks whole', async () => {
    const bytes = Buffer.from('data: é\n\n');
    expect(await read([bytes.subarray(0, 7), bytes.subarray(7)])).toEqual(['é']);
  });

  it('refuses an event of data lines longer than its bound, however short each line', async () => {
    const line = `data: ${'y'.repeat(1_000)}\n`;
    await expect(read([line.repeat(5_000)])).rejects.toBeInstanceOf(SseEventTooLong);
  });

  it('reads a long line that comes in many chunks', async () => {
    const long = 'z'.repeat(100_000);
    const bytes = Buffer.from(`data: ${long}\n\n`);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 1_000) }, (_, k) => bytes.subarray(1_000 * k, 1_000 * (k + 1)));
    expect(await read(chunks)).toEqual([long]);
  });

  it('refuses a line longer than its bound instead of buffering it', async () => {
    await expect(read([Buffer.alloc(5 * 1024 * 1024, 0x61)])).rejects.toBeInstanceOf(SseEventTooLong);
  });
});

describe('sseEvent', () => {
  it('writes one compact JSON data event', () => {
    expect(sseEvent({ a: [1, 2] })).toBe('data: {"a":[1,2]}\n\n');
  });
});
