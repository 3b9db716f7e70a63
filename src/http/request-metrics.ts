/**
 * Counts the requests `/metrics` reports (metrics/recorder.ts), one recorder per server: an
 * onResponse hook records, as v1.50 does, only while the `metrics` feature is on and only
 * requests that matched a route, labelled by the route's pattern in Meilisearch's spelling
 * (`/indexes/{index_uid}/search`, `/tasks/{task_id}`) so the label set stays bounded.
 */
import type { FastifyInstance } from 'fastify';
import { MetricsRecorder } from '../metrics/recorder.js';
import { settingByRoute } from '../settings/catalogue.js';
import type { AppDeps } from './deps.js';

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

export function installRequestMetrics(app: FastifyInstance, deps: AppDeps): void {
  const recorder = metricsRecorder(deps);
  app.addHook('onResponse', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === undefined || !deps.features.enabled('metrics')) return;
    const pattern = meiliPattern(url, request.params as Record<string, string | undefined>);
    if (pattern !== undefined) recorder.request(request.method, pattern, reply.statusCode, reply.elapsedTime / 1000);
  });
}
