/**
 * `GET /metrics` (misc-routes.md §7, feature `metrics`): every metric family of v1.50, in the
 * Prometheus text format — what was counted as it happened (http/request-metrics.ts) and what is
 * read at the time of the request (metrics/families.ts). The key must see every index.
 */
import { ApiError } from '../../errors/api-error.js';
import { EXPOSITION_CONTENT_TYPE, exposition } from '../../metrics/exposition.js';
import { readFamilies } from '../../metrics/families.js';
import { nowNs } from '../../types/dates.js';
import { metricsRecorder } from '../request-metrics.js';
import { defineRoute } from '../route.js';

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
      ctx.reply.type(EXPOSITION_CONTENT_TYPE);
      const read = readFamilies({ stats: deps.stats.instance(() => true), queue: deps.queue, searchQueue: deps.searchQueue, now: nowNs() });
      return exposition([...metricsRecorder(deps).families(), ...read]);
    },
  }),
];
