/**
 * JSON request bodies: Content-Type check, bounded read, then the bytes parsed with Meilisearch's
 * error texts and bounds (validation/json-body.ts). Used by every route with a JSON body except
 * document additions; a settings PATCH reads its bytes here (`readJsonBytes`) and may parse them
 * on another thread (settings/body.ts).
 */
import type { Readable } from 'node:stream';
import { ApiError } from '../../errors/api-error.js';
import { checkJsonContentType } from './content-type.js';
import { PayloadTooLarge, readBody } from './read-body.js';
import { parseJsonBody } from '../../validation/json-body.js';

export interface JsonBodyRequest {
  contentType: string | undefined;
  contentEncoding: string | undefined;
  stream: Readable | undefined;
}

/** `parse` reads the text once it is known to be JSON (JSON.parse unless the route keeps 64-bit integers exact). */
export async function readJsonBody(req: JsonBodyRequest, limit: number, parse: (text: string) => unknown = JSON.parse): Promise<unknown> {
  return parseJsonBody(await readJsonBytes(req, limit), parse);
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
