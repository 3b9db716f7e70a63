/**
 * Counts the requests `/metrics` reports (metrics/recorder.ts), one recorder per server, as v1.50's
 * `RouteMetrics` middleware does: every request is counted whether or not the `metrics` feature is
 * on, labelled by its route's pattern in Meilisearch's spelling (`/indexes/{index_uid}/search`,
 * `/tasks/{task_id}`; a 405 by the pattern of the path it names), or by its own path when no route
 * matches it (a 404); its response time only when the feature was on as it came, and only for a
 * route's path.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MetricsRecorder } from '../metrics/recorder.js';
import { settingByRoute } from '../settings/catalogue.js';
import type { AppDeps } from './deps.js';
import { pathParams, requestPath, routedUrl, type RoutedPath } from './routed-paths.js';

const recorders = new WeakMap<AppDeps, MetricsRecorder>();

/** The recorder of the server built with `deps`. */
export function metricsRecorder(deps: AppDeps): MetricsRecorder {
  let recorder = recorders.get(deps);
  if (recorder === undefined) {
    recorder = new MetricsRecorder();
    recorders.set(deps, recorder);
  }
  return recorder;
}

/** Path parameters v1.50 names otherwise than the snake case of Quarry's. */
const MEILI_PARAMS: Readonly<Record<string, string>> = { taskUid: 'task_id', batchUid: 'batch_id', workspace: 'workspace_uid', ruleUid: 'uid' };

/**
 * `/indexes/:indexUid/search` → `/indexes/{index_uid}/search`, with v1.50's parameter names; a
 * setting's sub-route is a route of its own there (`…/settings/filterable-attributes`), so its
 * name stays; undefined for a setting v1.50 has no route for.
 */
function meiliPattern(url: string, params: Readonly<Record<string, string | undefined>>): string | undefined {
  if (url.endsWith('/:setting') && settingByRoute(params.setting ?? '') === undefined) return undefined;
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    name === 'setting' ? params.setting! : `{${MEILI_PARAMS[name] ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`,
  );
}

/** The pattern of the route `request` names, as v1.50 has it (its `match_pattern`); undefined when it has none. */
function routePattern(request: FastifyRequest, paths: readonly RoutedPath[]): string | undefined {
  const url = request.routeOptions.url;
  if (url !== undefined) return meiliPattern(url, request.params as Record<string, string | undefined>);
  // not routed: a path registered for other methods (405) still names its route
  const path = requestPath(request.url);
  const routed = routedUrl(paths, path);
  return routed === undefined ? undefined : meiliPattern(routed, pathParams(routed, path));
}

export function installRequestMetrics(app: FastifyInstance, deps: AppDeps, paths: readonly RoutedPath[]): void {
  const recorder = metricsRecorder(deps);
  // timed when the feature is on as the request comes, as v1.50's middleware starts its timer: the
  // request turning it on is not timed, the one turning it off is
  const timed = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    if (deps.features.enabled('metrics')) timed.add(request);
  });
  app.addHook('onResponse', async (request, reply) => {
    const pattern = routePattern(request, paths);
    if (pattern === undefined) return recorder.unmatched(request.method, requestPath(request.url), reply.statusCode);
    recorder.request(request.method, pattern, reply.statusCode, timed.has(request) ? reply.elapsedTime / 1000 : null);
  });
}
