/**
 * CORS as v1.50 answers it (actix-cors 0.7 with `send_wildcard`, any origin, method and header,
 * a day of max-age):
 * - a preflight is an OPTIONS request whose `Access-Control-Request-Method` is a method token; it
 *   is answered here, before authentication: 200 with the wildcard origin, every standard method,
 *   the requested headers echoed and the max-age, or 400 `Requested method is not allowed` (plain
 *   text, actix-cors's own answer) for a method that is not one of the standard nine (`get`,
 *   `FOO`). Any other OPTIONS request is routed as any method is: 405 on a known path, else 404;
 * - any other response carries `Access-Control-Allow-Origin: *` when the request has an `Origin`,
 *   and every response the `Vary` of the three request headers a preflight depends on.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'PATCH', 'TRACE'];

const MAX_AGE_SECONDS = '86400';

const VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

/** An HTTP token (RFC 9110 `tchar`s): what the http crate reads as a method. */
const METHOD_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Preflights refused with actix-cors's 400, which carries no CORS header. */
const refused = new WeakSet<FastifyRequest>();

/** onRequest hook: answers a preflight. */
export async function answerPreflight(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.method !== 'OPTIONS') return;
  const method = request.headers['access-control-request-method'];
  if (typeof method !== 'string' || !METHOD_TOKEN.test(method)) return;
  if (!ALL_METHODS.includes(method)) {
    refused.add(request);
    await reply.code(400).send('Requested method is not allowed');
    return;
  }
  const headers = request.headers['access-control-request-headers'];
  reply
    .code(200)
    .header('Access-Control-Allow-Origin', '*')
    .header('Access-Control-Allow-Methods', ALL_METHODS.join(', '))
    .header('Access-Control-Max-Age', MAX_AGE_SECONDS);
  if (headers !== undefined) reply.header('Access-Control-Allow-Headers', headers);
  await reply.send();
}

/** onSend hook: the CORS headers of every other response. */
export function addCorsHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if (refused.has(request)) {
    // actix-cors's error answer is its message alone, without Content-Type or Vary
    reply.removeHeader('Content-Type');
    return done(null, payload);
  }
  if (request.headers.origin !== undefined) reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Vary', VARY);
  done(null, payload);
}
