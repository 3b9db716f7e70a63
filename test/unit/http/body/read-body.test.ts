import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PayloadTooLarge, readBody } from '../../../../src/http/body/read-body.js';
import { ApiError } from '../../../../src/errors/api-error.js';

function streamOf(...chunks: string[]): PassThrough {
  const stream = new PassThrough();
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return stream;
}

describe('readBody', () => {
  it('joins the chunks of an uncompressed body', async () => {
    expect((await readBody(streamOf('{"q":', '"x"}'), undefined, 100)).toString()).toBe('{"q":"x"}');
    expect((await readBody(streamOf('{}'), ' Identity ', 100)).toString()).toBe('{}');
  });

  it('reads the body as sent under a coding it does not decode (zstd, x-gzip, a list, an unknown name), as actix-http does', async () => {
    for (const encoding of ['zstd', 'x-gzip', 'gzip, br', 'foo']) {
      expect((await readBody(streamOf('{"q":"x"}'), encoding, 100)).toString(), encoding).toBe('{"q":"x"}');
    }
    const gzipped = new PassThrough();
    gzipped.end(gzipSync('{"q":"y"}'));
    expect((await readBody(gzipped, ' GZIP ', 100)).toString()).toBe('{"q":"y"}');
  });

  it('refuses a body that decodes to more than 2,048 times its compressed size past 16 MiB, and takes a highly compressed one below that', async () => {
    const bomb = new PassThrough();
    bomb.end(brotliCompressSync(`{"q":"a"${' '.repeat(40 * 1024 * 1024)}}`));
    await expect(readBody(bomb, 'br', 100 * 1024 * 1024)).rejects.toMatchObject({
      code: 'payload_too_large',
      message: 'The payload decodes to more than 2048 times its compressed size. Send it less compressed.',
    });
    const small = new PassThrough();
    const text = `{"q":"a"${' '.repeat(8 * 1024 * 1024)}}`;
    small.end(brotliCompressSync(text));
    expect((await readBody(small, 'br', 100 * 1024 * 1024)).length).toBe(text.length);
    // deflate's own ratio stays under the bound: a gzip body is refused only by the size limit
    const gzip = new PassThrough();
    gzip.end(gzipSync(' '.repeat(40 * 1024 * 1024)));
    expect((await readBody(gzip, 'gzip', 100 * 1024 * 1024)).length).toBe(40 * 1024 * 1024);
  });

  it('decodes a gzip body', async () => {
    const stream = new PassThrough();
    stream.end(gzipSync('{"q":"x"}'));
    expect((await readBody(stream, 'gzip', 100)).toString()).toBe('{"q":"x"}');
  });

  it('answers the incomplete-payload bad_request for a body that is not the encoding it claims, or is cut short', async () => {
    const whole = gzipSync('{"q":"x"}');
    for (const [body, encoding] of [
      [Buffer.from('"kefir"'), 'gzip'],
      [Buffer.from('{"q": "not compressed at all"}'), 'deflate'],
      [Buffer.from('{"q": "not compressed at all"}'), 'br'],
      [whole.subarray(0, whole.length - 4), 'gzip'],
    ] as const) {
      const stream = new PassThrough();
      stream.end(body);
      const error = await readBody(stream, encoding, 100).catch((err: unknown) => err);
      expect(error, `${encoding}: ${body.toString('hex')}`).toMatchObject({ code: 'bad_request', message: 'The provided payload is incomplete and cannot be parsed' });
    }
  });

  it('refuses an uncompressed body past the limit and drains the rest', async () => {
    const stream = streamOf('12345', '67890', 'abcde');
    await expect(readBody(stream, undefined, 8)).rejects.toBeInstanceOf(PayloadTooLarge);
    if (!stream.readableEnded) await once(stream, 'end');
    expect(stream.readableEnded).toBe(true);
  });

  it('answers bad_request when an uncompressed body closes before its end', async () => {
    const stream = new PassThrough();
    stream.write('{"q":');
    const read = readBody(stream, undefined, 100);
    stream.destroy();
    const error = await read.catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'bad_request', message: 'The provided payload is incomplete and cannot be parsed' });
  });
});
