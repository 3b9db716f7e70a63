/**
 * Builds the Fastify instance: transport conventions (actix's request-head limits, path
 * normalisation and percent-decoding, CORS, response compression, raw body hand-off), the error
 * handlers and every route. No listening here: main.ts listens, tests may call `inject()`.
 */
import type { Server as HttpsServer } from 'node:https';
import { attachTls, type HttpsSetup } from './tls.js';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { warmUpSearchThread } from '../search/thread-warm-up.js';
import { stringifyReply } from '../types/reply-text.js';
import type { AppDeps } from './deps.js';
import { answerError, installErrorHandlers } from './error-handler.js';
import { compressAtOnce, compressStreamed } from './transport/compression.js';
import { addCorsHeaders, answerPreflight } from './transport/cors.js';
import { sendLongInPieces } from './transport/long-bodies.js';
import { lingerOnClose } from './transport/lingering-close.js';
import { registerRoutes } from './route.js';
import { routedPaths } from './routed-paths.js';
import { batchRoutes } from './routes/batches.js';
import { chatWorkspaceRoutes } from './routes/chat-workspaces.js';
import { compactionRoutes } from './routes/compaction.js';
import { documentAdditionRoutes } from './routes/document-additions.js';
import { documentDeletionRoutes } from './routes/document-deletions.js';
import { documentEditionRoutes } from './routes/document-edition.js';
import { documentReadRoutes } from './routes/documents.js';
import { dumpRoutes } from './routes/dumps.js';
import { exportRoutes } from './routes/export.js';
import { experimentalFeatureRoutes } from './routes/experimental-features.js';
import { facetSearchRoutes } from './routes/facet-search.js';
import { similarRoutes } from './routes/similar.js';
import { chatCompletionRoutes } from './routes/chat-completions.js';
import { fieldRoutes } from './routes/fields.js';
import { healthRoutes } from './routes/health.js';
import { indexRoutes } from './routes/indexes.js';
import { logRoutes } from './routes/logs.js';
import { installRequestMetrics } from './request-metrics.js';
import { metricsRoutes } from './routes/metrics.js';
import { multiSearchRoutes } from './routes/multi-search.js';
import { networkRoutes } from './routes/network.js';
import { serveDocument } from './routes/openapi.js';
import { keyRoutes } from './routes/keys.js';
import { registerDashboard, rootRoutes } from './routes/root.js';
import { settingsRoutes } from './routes/settings.js';
import { snapshotRoutes } from './routes/snapshots.js';
import { searchRoutes } from './routes/search.js';
import { statsRoutes } from './routes/stats.js';
import { swapIndexesRoutes } from './routes/swap-indexes.js';
import { renderTemplateRoutes } from './routes/render-template.js';
import { taskDocumentRoutes } from './routes/task-documents.js';
import { taskRoutes } from './routes/tasks.js';
import { versionRoutes } from './routes/version.js';
import { webhookRoutes } from './routes/webhooks.js';
import { dynamicSearchRuleRoutes } from './routes/dynamic-search-rules.js';
import { answerClientError } from './transport/client-error.js';
import { HEAD_BYTES, HEAD_TIMEOUT_MS, refuseTooManyHeaders } from './transport/head-limits.js';
import { readablePath } from './transport/path-encoding.js';
import { loadBodyValidator } from '../validation/body.js';
import { usePrecompiledBodies } from '../validation/precompiled-bodies.js';

/** Routes a client's first request is likely to be, among those whose body schema is large. */
export const FIRST_REQUESTS: readonly string[] = [
  'POST /indexes/:indexUid/search',
  'POST /multi-search',
  'POST /indexes/:indexUid/facet-search',
  'POST /indexes/:indexUid/documents/fetch',
];

/**
 * Loads the body validators of FIRST_REQUESTS, one per event loop turn, after the listen: the
 * first loads the build's precompiled validators (src/validation/precompiled-bodies.ts), and each
 * compiles its own when that file lacks it (run from the sources), which took the first search
 * ~0.1 s; a server's start does not wait for it.
 */
export async function warmUpFirstRequests(): Promise<void> {
  for (const spec of API_ROUTES) {
    if (!FIRST_REQUESTS.includes(spec.route) || typeof spec.body !== 'function') continue;
    await nextTurn();
    loadBodyValidator(spec.body);
  }
}

/** Every route of the API, in registration order (the API document covers each: test/http/openapi.test.ts). */
export const API_ROUTES = [
  ...rootRoutes,
  ...healthRoutes,
  ...versionRoutes,
  ...experimentalFeatureRoutes,
  ...indexRoutes,
  ...swapIndexesRoutes,
  ...statsRoutes,
  ...taskRoutes,
  ...batchRoutes,
  ...keyRoutes,
  ...dumpRoutes,
  ...exportRoutes,
  ...snapshotRoutes,
  ...documentAdditionRoutes,
  ...documentReadRoutes,
  ...documentDeletionRoutes,
  ...documentEditionRoutes,
  ...searchRoutes,
  ...multiSearchRoutes,
  ...facetSearchRoutes,
  ...similarRoutes,
  ...chatCompletionRoutes,
  ...settingsRoutes,
  ...fieldRoutes,
  ...logRoutes,
  ...webhookRoutes,
  ...dynamicSearchRuleRoutes,
  ...networkRoutes,
  ...chatWorkspaceRoutes,
  ...taskDocumentRoutes,
  ...renderTemplateRoutes,
  ...compactionRoutes,
  ...metricsRoutes,
];

/** Fastify's schema compilers' factory: Quarry's routes declare no Fastify schema (see buildApp). */
function fastifySchemaCompiler(): never {
  throw new Error('routes validate their bodies themselves (src/validation/): a Fastify schema is not compiled');
}

/** The server answering `deps`'s routes: over HTTPS when `https` is given (tls.ts). */
export async function buildApp(deps: AppDeps, https: HttpsSetup | null = null): Promise<FastifyInstance> {
  usePrecompiledBodies();
  // the HTTPS server's instance type differs only by its Node server; every route sees requests alike
  const app = Fastify({
    ...(https === null ? {} : { https: https.options }),
    loggerInstance: deps.logs.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: () => !deps.logs.wantsRequestLogs() }),
    // Checked every second, so a head not received in time is answered close to the limit.
    http: { maxHeaderSize: HEAD_BYTES, headersTimeout: HEAD_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerError,
    rewriteUrl: (request) => readablePath(request.url!),
    // actix bounds a path parameter by the head size only; find-my-way's default (100) answers 414.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: HEAD_BYTES },
    exposeHeadRoutes: false,
    // Bodies are read by the routes themselves (decoding, limit counted after decompression).
    bodyLimit: Number.MAX_SAFE_INTEGER,
    // and validated by them (src/validation/), answers serialized by stringifyReply: Fastify's own
    // compilers, which it would otherwise load at every start (ajv's and fast-json-stringify's
    // plugins, ~30 ms), are never needed; a route given a Fastify schema fails at start
    schemaController: { compilersFactory: { buildValidator: fastifySchemaCompiler, buildSerializer: fastifySchemaCompiler } },
  }) as unknown as FastifyInstance;
  if (https !== null) attachTls(app.server as unknown as HttpsServer, https, process.env.SSLKEYLOGFILE);

  lingerOnClose(app);
  app.addHook('onRequest', refuseTooManyHeaders);
  app.removeAllContentTypeParsers();
  const passThrough = (_request: unknown, payload: unknown, done: (err: null, body: unknown) => void) => done(null, payload);
  app.addContentTypeParser('*', passThrough);
  // the same parser, named for JSON: Fastify caches a named type's parser, but looks the catch-all
  // up again (parsing the header a second time) on every request; searches send JSON
  app.addContentTypeParser('application/json', passThrough);
  // documents may hold 64-bit integers (BigInt), which JSON.stringify refuses; facet counts keep their order
  app.setReplySerializer((payload) => stringifyReply(payload));

  app.addHook('onRequest', answerPreflight);
  app.addHook('onSend', addCorsHeaders);
  // a long string body becomes a stream of pieces (transport/long-bodies.ts); whole bodies up to
  // 64 KiB are compressed at once (transport/compression.ts), before @fastify/compress's hook,
  // which then streams the larger ones; like v1.50, at any size. The hook goes last on each route
  // that compresses (as the plugin's own onRoute hook adds it), loading the plugin when first needed.
  app.addHook('onSend', sendLongInPieces);
  app.addHook('onSend', compressAtOnce);
  app.addHook('onRoute', (route) => {
    if ((route as { compress?: false }).compress === false) return;
    route.onSend = [...(route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend]), compressStreamed];
  });

  const paths = routedPaths(API_ROUTES);
  installRequestMetrics(app, deps, paths);
  registerRoutes(app, deps, API_ROUTES);
  // before any awaited registration, which adds the routes above with the error handler of the moment
  installErrorHandlers(app, paths);
  serveDocument(app, deps, API_ROUTES);
  registerDashboard(app, deps);
  warmUpSearchThread();
  return app;
}
