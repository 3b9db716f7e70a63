/**
 * Reads a request body stream: decodes `Content-Encoding` (gzip, deflate, br; any other value
 * reads the body as sent, as Meilisearch does) and enforces the payload size limit on the
 * decoded bytes, as Meilisearch counts it (http-conventions.md §4.3), and Quarry's bound on how
 * much a compressed body may expand (MAX_EXPANSION).
 * `streamBody` yields chunks for callers that must not hold the payload in memory (document
 * payloads go straight to an update file); `readBody` collects a bounded body for JSON routes.
 */
import { Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { ApiError } from '../../errors/api-error.js';

export class PayloadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`payload over ${limit} bytes`);
  }
}

/**
 * The coding a `Content-Encoding` names, or null when the body is read as sent: as actix-http
 * reads it, any other value (`identity`, `zstd`, which Meilisearch's build does not decode, an
 * unknown name, a list such as `gzip, br`) leaves the body as it came.
 */
function codingOf(encoding: string | undefined): 'gzip' | 'deflate' | 'br' | null {
  const name = (encoding ?? '').trim().toLowerCase();
  return name === 'gzip' || name === 'deflate' || name === 'br' ? name : null;
}

function decoder(encoding: string | undefined): Transform | null {
  switch (codingOf(encoding)) {
    case 'gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case null:
      return null;
  }
}

/**
 * Yields the decoded body in chunks. Throws PayloadTooLarge past `limit` decoded bytes and
 * `bad_request` when the stream fails or the compressed data is corrupt or truncated. When
 * reading stops early, the rest of the request is drained, not destroyed: a destroyed request
 * left the connection hanging after the error answer, and the client's next request on it
 * with it.
 */
export async function* streamBody(raw: Readable, encoding: string | undefined, limit: number): AsyncGenerator<Buffer> {
  const decode = decoder(encoding);
  const source: Readable = decode === null ? raw : raw.pipe(decode);
  let encoded = 0;
  if (decode !== null) {
    raw.on('error', (err) => decode.destroy(err));
    raw.on('data', (chunk: Buffer) => (encoded += chunk.length));
  }
  let total = 0;
  try {
    for await (const chunk of source.iterator({ destroyOnReturn: false })) {
      const buf = chunk as Buffer;
      total += buf.length;
      if (total > limit) throw new PayloadTooLarge(limit);
      if (decode !== null && total > BOMB_FLOOR_BYTES && total > MAX_EXPANSION * encoded) throw expandsTooMuch();
      yield buf;
    }
  } catch (err) {
    if (err instanceof PayloadTooLarge || err instanceof ApiError) throw err;
    // A body the decoder refuses (not that encoding at all, or cut short) is, to actix-http, an I/O
    // error it turns into PayloadError::Incomplete: Meilisearch answers "incomplete" for both.
    throw incompletePayload();
  } finally {
    if (decode !== null) {
      raw.unpipe(decode);
      if (!decode.destroyed) decode.destroy();
    }
    if (!raw.readableEnded && !raw.destroyed) raw.resume();
  }
}

/**
 * Quarry's bound on a compressed body's expansion: past 16 MiB decoded, at most 2,048 times its
 * encoded bytes (deflate cannot pass ~1,032; brotli can: 173 bytes decoding to 99 MB of JSON
 * whitespace cost 2 s of CPU and ~290 MB per request to anyone with a search key).
 */
const MAX_EXPANSION = 2048;
const BOMB_FLOOR_BYTES = 16 * 1024 * 1024;

function expandsTooMuch(): ApiError {
  return new ApiError('payload_too_large', `The payload decodes to more than ${MAX_EXPANSION} times its compressed size. Send it less compressed.`);
}

/** What v1.50 answers a payload cut short (actix's `PayloadError::Incomplete`). */
export function incompletePayload(): ApiError {
  return new ApiError('bad_request', 'The provided payload is incomplete and cannot be parsed');
}

/** Collects the decoded body of a JSON route. */
export async function readBody(raw: Readable, encoding: string | undefined, limit: number): Promise<Buffer> {
  if (codingOf(encoding) === null) return collectPlain(raw, limit);
  const chunks: Buffer[] = [];
  for await (const chunk of streamBody(raw, encoding, limit)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * `streamBody` for an uncompressed body, by stream events: the async iterator costs more than
 * reading a small search body. Same outcomes: PayloadTooLarge past `limit` (the rest drained),
 * `bad_request` when the stream fails or closes early.
 */
function collectPlain(raw: Readable, limit: number): Promise<Buffer> {
  if (raw.destroyed) return Promise.reject(incompletePayload());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (err: Error | null) => {
      raw.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onFailure);
      if (err === null) resolve(Buffer.concat(chunks, total));
      else reject(err);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        settle(new PayloadTooLarge(limit));
        // drained, not destroyed: destroying a server request would close the connection before the 413
        raw.resume();
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => settle(null);
    const onFailure = () => settle(incompletePayload());
    raw.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onFailure);
  });
}

/** Formats a byte count as Meilisearch prints limits: binary unit when a multiple of 1024. */
export function formatByteSize(bytes: number): string {
  const binary = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  const decimal = ['B', 'KB', 'MB', 'GB', 'TB'];
  const [base, units] = bytes % 1024 === 0 && bytes !== 0 ? [1024, binary] : [1000, decimal];
  let value = bytes;
  let unit = 0;
  while (value >= base && unit < units.length - 1) {
    value /= base;
    unit++;
  }
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/\.?0+$/, '');
  return `${shown} ${units[unit]}`;
}
