/**
 * A body answered as one long string (a route's object serialized whole) is sent as a stream of
 * UTF-8 pieces. Sent whole, it was measured (`Buffer.byteLength`, for `content-length` or for the
 * compression threshold) and converted to bytes in one call each, and @fastify/compress converted
 * and copied it once more before compressing it: a document of 64 MB held the thread answering
 * requests ~0.7 s. In pieces, each is converted when the socket or the compressor asks for it,
 * sent chunked as the streamed answers are (types/streamed-json.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { unitEnd } from '../../types/utf16.js';

/** UTF-16 units from which a string body is sent in pieces (a normal answer holds a few KB). */
const PIECES_FROM_UNITS = 1024 * 1024;

/** UTF-16 units per piece. */
const PIECE_UNITS = 64 * 1024;

/** `text` as UTF-8, a piece at a time, never cutting a surrogate pair. */
function* utf8Pieces(text: string): Generator<Buffer> {
  for (let start = 0; start < text.length; ) {
    const end = unitEnd(text, start, PIECE_UNITS);
    yield Buffer.from(text.slice(start, end));
    start = end;
  }
}

/** onSend hook, before the compression hooks: a string body of PIECES_FROM_UNITS or more becomes a stream of its pieces. */
export function sendLongInPieces(_request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if (typeof payload !== 'string' || payload.length < PIECES_FROM_UNITS) return done(null, payload);
  done(null, Readable.from(utf8Pieces(payload), { objectMode: false }));
}
