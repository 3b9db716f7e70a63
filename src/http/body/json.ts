/**
 * JSON request bodies: Content-Type check and bounded read (http-conventions.md §4.1), before the
 * bytes are parsed with Meilisearch's error texts and bounds (validation/json-body.ts), here or,
 * for a large settings body, on another thread (settings/body.ts). Used by every route with a
 * JSON body except document additions.
 */
import type { Readable } from 'node:stream';
import { ApiError } from '../../errors/api-error.js';
import { checkJsonContentType } from './content-type.js';
import { PayloadTooLarge, readBody } from './read-body.js';

export interface JsonBodyRequest {
  contentType: string | undefined;
  contentEncoding: string | undefined;
  stream: Readable | undefined;
}

/** The bytes of a JSON body, not empty, after its Content-Type was checked and its size bounded by `limit`. */
export async function readJsonBytes(req: JsonBodyRequest, limit: number): Promise<Buffer> {
  checkJsonContentType(req.contentType);
  let bytes: Buffer;
  try {
    bytes = req.stream === undefined ? Buffer.alloc(0) : await readBody(req.stream, req.contentEncoding, limit);
  } catch (err) {
    if (err instanceof PayloadTooLarge) {
      throw new ApiError('payload_too_large', `JSON payload has exceeded limit (${limit} bytes).`);
    }
    throw err;
  }
  if (bytes.length === 0) throw new ApiError('missing_payload', 'A json payload is missing.');
  return bytes;
}
