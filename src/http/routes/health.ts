/** `GET /health` (public). */
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
];
