/** `GET /stats` and `GET /indexes/{uid}/stats` (indexes.md §4). */
import { defineRoute } from '../route.js';
import { compileQuery, parseBoolean, parseEnum } from '../../validation/index.js';
import { indexStatsView, instanceStatsView } from '../views/stats-view.js';

const parseStatsQuery = compileQuery({
  showInternalDatabaseSizes: { parse: parseBoolean, code: 'invalid_stats_show_internal_database_sizes' },
  // v1.50's `SizeFormat` declares `Human` before `Raw`: its error lists them in that order
  sizeFormat: { parse: parseEnum(['human', 'raw'] as const), code: 'invalid_stats_size_format' },
});

export const statsRoutes = [
  defineRoute({
    route: 'GET /stats',
    query: parseStatsQuery,
    handler: (ctx, deps) => {
      const stats = deps.stats.instance((uid) => ctx.caller.canSeeIndex(uid), ctx.query.showInternalDatabaseSizes ?? false);
      return instanceStatsView(stats, ctx.query.sizeFormat ?? 'raw');
    },
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/stats',
    query: parseStatsQuery,
    handler: (ctx, deps) => {
      const record = deps.indexReader.record(ctx.params.indexUid!);
      return indexStatsView(deps.stats.index(record, ctx.query.showInternalDatabaseSizes ?? false), ctx.query.sizeFormat ?? 'raw');
    },
  }),
];
