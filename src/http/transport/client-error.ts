/**
 * Answers the requests Node's HTTP parser refuses before Fastify sees them (`clientError`):
 * Meilisearch's error body instead of Fastify's `{error, message, statusCode}`. actix-http
 * answers these with the same statuses and an empty body, then closes the connection: 431 for a
 * head past its limits, 408 when the head is not received in time, 400 for anything it cannot
 * parse (a space in the path, a bad header, an invalid Content-Length…). A client that closes
 * its side within a request's body gets what v1.50 answers a cut payload (actix's
 * `PayloadError::Incomplete`). The connection is closed here too, once the client has had the
 * answer (`destroySoon`: lingering-close.ts).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../errors/api-error.js';
import { incompletePayload } from '../body/read-body.js';
import { HEAD_TOO_LARGE } from './head-limits.js';

interface ClientError extends Error {
  code?: string;
  /** llhttp's reason, e.g. `Expected HTTP/`. */
  reason?: string;
}

/** Whether Node's parser had read the head of the request it was reading (its body was being read). */
function inBody(socket: Duplex): boolean {
  return (socket as { parser?: { incoming?: unknown } | null }).parser?.incoming != null;
}

function toApiError(err: ClientError, socket: Duplex): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('bad_request', HEAD_TOO_LARGE, 431);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('bad_request', 'The request line and headers were not received in time.', 408);
    case 'HPE_INVALID_EOF_STATE':
      // the client closed its side: within a body, the payload is cut short
      if (inBody(socket)) return incompletePayload();
      break;
  }
  return new ApiError('bad_request', `The HTTP request is malformed. \`${err.reason ?? err.message}\`.`);
}

/** The raw HTTP/1.1 response: there is no request or reply object to send it through. */
export function clientErrorResponse(err: ClientError, socket: Duplex): string {
  const error = toApiError(err, socket);
  const body = JSON.stringify(error.toBody());
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Fastify's `clientErrorHandler`. */
export function answerClientError(err: ClientError, socket: Duplex): void {
  // a reset connection has no one to answer; a response already begun must not be interleaved
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || inFlight) {
    socket.destroy();
    return;
  }
  // the parser refuses the bytes after an error again: a lingering socket is answered once
  if (socket.writable) socket.write(clientErrorResponse(err, socket));
  (socket as Socket).destroySoon();
}
