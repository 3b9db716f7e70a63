/** `GET /version`: commit and package version of this build. */
import { defineRoute } from '../route.js';

export const versionRoutes = [
  defineRoute({
    route: 'GET /version',
    handler: (_ctx, deps) => ({
      commitSha: deps.build.commitSha,
      commitDate: deps.build.commitDate,
      pkgVersion: deps.build.pkgVersion,
    }),
  }),
];
