/**
 * `GET /version`: this build's commit, and as `pkgVersion` the Meilisearch version whose API
 * Quarry speaks (v1.50's own `1.50.0`): clients and tools gate features on it (the PHP SDK wants
 * at least 1.26, the migration guide reads it to choose a path), and Quarry's own package version
 * (0.x) would read as an ancient Meilisearch. Quarry's version is in the startup report.
 */
import { MEILISEARCH_VERSION_TEXT } from '../../version.js';
import { defineRoute } from '../route.js';

export const versionRoutes = [
  defineRoute({
    route: 'GET /version',
    handler: (_ctx, deps) => ({
      commitSha: deps.build.commitSha,
      commitDate: deps.build.commitDate,
      pkgVersion: MEILISEARCH_VERSION_TEXT,
    }),
  }),
];
