/**
 * Renders every failure as Meilisearch's error body (errors.md §1), those of routes and those
 * Fastify meets before routing (`frameworkErrors`), and decides 404 vs 405 for unmatched
 * requests (empty bodies, as actix answers). The status always comes from the code catalogue;
 * nothing else picks one. Requests Node's parser refuses are answered in transport/client-error.ts.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { invalidContentType } from './body/content-type.js';
import { requestPath, routedUrl, type RoutedPath } from './routed-paths.js';

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.status === 503) reply.header('Retry-After', '10');
  return reply.code(error.status).type('application/json').send(error.toBody());
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return invalidContentType(request.headers['content-type'] ?? '', request.routeOptions.config.contentTypes ?? ['application/json']);
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('bad_request', error.message);
  }
  return null;
}

/** The error handler, and Fastify's `frameworkErrors` option (a URL it cannot route, e.g. `GET foo`). */
export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error, request);
  if (apiError !== null) return sendError(reply, apiError);
  request.log.error({ err: error }, 'unexpected error while handling a request');
  return sendError(reply, new ApiError('internal', error.message));
}

export function installErrorHandlers(app: FastifyInstance, paths: readonly RoutedPath[]): void {
  app.setErrorHandler(answerError);

  app.setNotFoundHandler((request, reply) => {
    const known = routedUrl(paths, requestPath(request.url)) !== undefined;
    return reply.code(known ? 405 : 404).send();
  });
}
