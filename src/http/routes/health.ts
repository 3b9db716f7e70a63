/** `GET /health` (public) and `GET /` (public, the no-dashboard answer of v1.50). */
import { defineRoute } from '../route.js';

export const healthRoutes = [
  defineRoute({
    route: 'GET /health',
    handler: (ctx, deps) => {
      if (deps.healthy()) return { status: 'available' };
      ctx.reply.code(500);
      return { status: 'mustRestart' };
    },
  }),
  defineRoute({
    route: 'GET /',
    handler: () => ({ status: 'Meilisearch is running' }),
  }),
];
