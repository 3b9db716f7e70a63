/**
 * Counts the requests `/metrics` reports (metrics/recorder.ts), one recorder per server: an
 * onResponse hook records, as v1.50 does, only while the `metrics` feature is on and only
 * requests that matched a route, labelled by the route's pattern in Meilisearch's spelling
 * (`/indexes/{index_uid}/search`) so the label set stays bounded.
 */
import type { FastifyInstance } from 'fastify';
import { MetricsRecorder } from '../metrics/recorder.js';
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

/** `/indexes/:indexUid/search` → `/indexes/{index_uid}/search`. */
function meiliPattern(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => `{${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`);
}

export function installRequestMetrics(app: FastifyInstance, deps: AppDeps): void {
  const recorder = metricsRecorder(deps);
  app.addHook('onResponse', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === undefined || !deps.features.enabled('metrics')) return;
    recorder.request(request.method, meiliPattern(url), reply.statusCode, reply.elapsedTime / 1000);
  });
}
