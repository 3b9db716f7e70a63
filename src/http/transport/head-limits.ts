/**
 * The limits actix-http, Meilisearch's HTTP server, puts on a request head (request line and
 * headers), which Node's parser and Fastify are configured to match: 128 KiB and 96 headers
 * (`MAX_BUFFER_SIZE`, `MAX_HEADERS`: beyond either, 431), 5 s to receive it (actix's default
 * `client_request_timeout`: 408). Node's own defaults differ (16 KiB, 2000 headers, 60 s).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.js';

export const HEAD_BYTES = 128 * 1024;
export const HEAD_HEADERS = 96;
export const HEAD_TIMEOUT_MS = 5_000;

/** Why a head is refused with 431, whichever limit it passed. */
export const HEAD_TOO_LARGE = `The request line and headers are too large. At most ${HEAD_BYTES / 1024} KiB and ${HEAD_HEADERS} headers are accepted.`;

/**
 * onRequest hook: more headers than actix reads. Node keeps up to 2000 and would let the
 * request through; actix answers 431 and closes the connection, as this does.
 */
export async function refuseTooManyHeaders(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.raw.rawHeaders.length <= 2 * HEAD_HEADERS) return;
  reply.header('Connection', 'close');
  throw new ApiError('bad_request', HEAD_TOO_LARGE, 431);
}
