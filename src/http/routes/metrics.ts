/**
 * `GET /metrics` (misc-routes.md §7, feature `metrics`): the Prometheus text exposition of the
 * metric families Meilisearch publishes that Quarry can compute — HTTP request counts and
 * response times, database sizes, index and document counts, task counts, indexing state,
 * degraded searches.
 * Families appear sorted by name, as the Prometheus encoder Meilisearch uses writes them.
 *
 * Request metrics are counted per app (an onResponse hook installed by `installRequestMetrics`)
 * and, as in Meilisearch, only while the feature is on and only for requests that matched a
 * route, labelled by the route's pattern (`/indexes/{index_uid}/search`) to keep the label set
 * bounded.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors/api-error.js';
import { TASK_STATUSES, TASK_TYPES } from '../../types/task.js';
import type { AppDeps } from '../deps.js';
import { defineRoute, httpOnly } from '../route.js';

/** Prometheus' default histogram buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

class RequestMetrics {
  /** `method path status` → requests */
  readonly totals = new Map<string, { method: string; path: string; status: string; value: number }>();
  /** `method path` → response times */
  readonly times = new Map<string, { method: string; path: string; histogram: Histogram }>();

  record(method: string, path: string, status: number, seconds: number): void {
    const totalKey = `${method} ${path} ${status}`;
    const total = this.totals.get(totalKey) ?? { method, path, status: String(status), value: 0 };
    total.value++;
    this.totals.set(totalKey, total);
    const timeKey = `${method} ${path}`;
    const time = this.times.get(timeKey) ?? { method, path, histogram: { counts: BUCKETS.map(() => 0), sum: 0, count: 0 } };
    BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) time.histogram.counts[i]!++;
    });
    time.histogram.sum += seconds;
    time.histogram.count++;
    this.times.set(timeKey, time);
  }
}

const requestMetrics = new WeakMap<FastifyInstance, RequestMetrics>();

/** Searches whose ranking the `searchCutoffMs` budget cut short, per app (counted whether or not the feature is on). */
const degradedSearches = new WeakMap<AppDeps, number>();

export function countDegradedSearch(deps: AppDeps): void {
  degradedSearches.set(deps, (degradedSearches.get(deps) ?? 0) + 1);
}

/** `/indexes/:indexUid/search` → `/indexes/{index_uid}/search`, Meilisearch's pattern spelling. */
function meiliPattern(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => `{${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`);
}

export function installRequestMetrics(app: FastifyInstance, deps: AppDeps): void {
  const metrics = new RequestMetrics();
  requestMetrics.set(app, metrics);
  app.addHook('onResponse', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === undefined || !deps.features.enabled('metrics')) return;
    metrics.record(request.method, meiliPattern(url), reply.statusCode, reply.elapsedTime / 1000);
  });
}

/** Prometheus label values escape `\`, `"` and newlines. */
function labels(pairs: Record<string, string>): string {
  const body = Object.entries(pairs)
    .map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');
  return `{${body}}`;
}

type Sample = [labels: Record<string, string> | null, value: number, suffix?: string];

function family(name: string, help: string, type: 'gauge' | 'counter' | 'histogram', samples: Sample[]): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [pairs, value, suffix] of samples) lines.push(`${name}${suffix ?? ''}${pairs === null ? '' : labels(pairs)} ${value}`);
  return `${lines.join('\n')}\n`;
}

function render(deps: AppDeps, metrics: RequestMetrics | undefined): string {
  const stats = deps.stats.instance(() => true);
  const indexes = Object.entries(stats.indexes);
  const countTasks = (filter: object): number => deps.queue.query({ ...filter, limit: 0 }).total;
  const families: [string, string][] = [];
  const add = (name: string, help: string, type: 'gauge' | 'counter' | 'histogram', samples: Sample[]) =>
    families.push([name, family(name, help, type, samples)]);

  add('meilisearch_db_size_bytes', 'Meilisearch DB Size In Bytes', 'gauge', [[null, stats.databaseSize]]);
  add('meilisearch_used_db_size_bytes', 'Meilisearch Used DB Size In Bytes', 'gauge', [[null, stats.usedDatabaseSize]]);
  add('meilisearch_index_count', 'Meilisearch Index Count', 'gauge', [[null, indexes.length]]);
  add(
    'meilisearch_index_docs_count',
    'Meilisearch Index Docs Count',
    'gauge',
    indexes.map(([uid, index]) => [{ index: uid }, index.numberOfDocuments]),
  );
  add('meilisearch_degraded_search_requests', 'Meilisearch number of degraded search requests', 'gauge', [[null, degradedSearches.get(deps) ?? 0]]);
  add('meilisearch_is_indexing', 'Meilisearch Is Indexing', 'gauge', [[null, indexes.some(([, index]) => index.isIndexing) ? 1 : 0]]);
  // Seconds since the epoch of the last index change (0 when none), like Meilisearch's gauge.
  const lastUpdate = stats.lastUpdate === null ? 0 : Number(stats.lastUpdate / 1_000_000_000n);
  add('meilisearch_last_update', 'Meilisearch Last Update', 'gauge', [[null, lastUpdate]]);
  add('meilisearch_nb_tasks', 'Meilisearch Number of tasks', 'gauge', [
    ...TASK_STATUSES.map((status): Sample => [{ kind: 'statuses', value: status }, countTasks({ statuses: [status] })]),
    ...TASK_TYPES.map((type): Sample => [{ kind: 'types', value: type }, countTasks({ types: [type] })]),
    ...indexes.map(([uid]): Sample => [{ kind: 'indexes', value: uid }, countTasks({ indexUids: [uid] })]),
  ]);
  if (metrics !== undefined) {
    add(
      'meilisearch_http_requests_total',
      'Meilisearch HTTP requests total',
      'counter',
      [...metrics.totals.values()].map(({ method, path, status, value }) => [{ method, path, status }, value]),
    );
    add(
      'meilisearch_http_response_time_seconds',
      'Meilisearch HTTP response times',
      'histogram',
      [...metrics.times.values()].flatMap(({ method, path, histogram }): Sample[] => [
        ...BUCKETS.map((bound, i): Sample => [{ method, path, le: String(bound) }, histogram.counts[i]!, '_bucket']),
        [{ method, path, le: '+Inf' }, histogram.count, '_bucket'],
        [{ method, path }, histogram.sum, '_sum'],
        [{ method, path }, histogram.count, '_count'],
      ]),
    );
  }
  return families
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([, text]) => text)
    .join('');
}

export const metricsRoutes = [
  defineRoute({
    route: 'GET /metrics',
    handler: (ctx, deps) => {
      deps.features.require('metrics', 'Getting metrics', 'metrics', 'https://github.com/meilisearch/product/discussions/625');
      if (!ctx.caller.seesAllIndexes) {
        throw new ApiError(
          'invalid_api_key',
          'The provided API key is invalid. The API key for the `/metrics` route must allow access to all indexes.',
        );
      }
      ctx.reply.type('text/plain; version=0.0.4');
      return render(deps, requestMetrics.get(httpOnly(ctx).request.server));
    },
  }),
];
