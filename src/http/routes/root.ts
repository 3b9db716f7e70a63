/**
 * `GET /` (public) and the dashboard's files. As Meilisearch: in the `development` environment `/`
 * is the dashboard (a static single-page app, src/http/dashboard/, talking to the API from the
 * browser with a key kept there); in `production` it answers `{"status": "Meilisearch is running"}`
 * and no dashboard file is served.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { settingsView } from '../../settings/view.js';
import { defaultSettings } from '../../types/settings.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../route.js';

/** The dashboard's files: next to this folder in src/, or in src/ seen from dist/src/. */
export const DASHBOARD_DIR = [new URL('../dashboard/', import.meta.url), new URL('../../../../src/http/dashboard/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(`${dir}index.html`));

/** Where the dashboard's files are served (`/` serves its index.html). */
export const DASHBOARD_PREFIX = '/dashboard/';

export function dashboardEnabled(deps: AppDeps): boolean {
  return deps.config.env === 'development' && DASHBOARD_DIR !== undefined;
}

export const rootRoutes = [
  defineRoute({
    route: 'GET /',
    handler: async (ctx, deps) => {
      if (!dashboardEnabled(deps)) return { status: 'Meilisearch is running' };
      ctx.reply.type('text/html; charset=utf-8');
      // the page asks for a key before its first call when the server needs one
      const html = await readFile(`${DASHBOARD_DIR}index.html`, 'utf8');
      return html.replace('data-key-required="false"', `data-key-required="${deps.config.masterKey !== null}"`);
    },
  }),
];

/**
 * Serves the dashboard's files under DASHBOARD_PREFIX (development only), with the default
 * settings as `settings-defaults.json` for the settings page's diff: the server's own defaults in
 * their public form, so the page never keeps a copy that could drift. The files go through
 * @fastify/send (what @fastify/static serves with: types, ETag, ranges, paths kept inside the
 * folder), loaded on the first file asked for: a server start (every test's among them) does
 * without it.
 */
export function registerDashboard(app: FastifyInstance, deps: AppDeps): void {
  if (!dashboardEnabled(deps)) return;
  const defaults = settingsView(defaultSettings(), { foreignKeys: true, chat: true });
  app.get(`${DASHBOARD_PREFIX}settings-defaults.json`, async () => defaults);
  app.get(`${DASHBOARD_PREFIX}*`, async (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    // the page itself is `/`, which tells it whether the server needs a key
    if (file === 'index.html' || file === '') return reply.callNotFound();
    const { default: send } = await import('@fastify/send');
    const { statusCode, headers, stream, type } = await send(request.raw, `/${file}`, { root: DASHBOARD_DIR!, index: false });
    if (type !== 'file') return reply.callNotFound();
    return reply.code(statusCode).headers(headers).send(stream);
  });
}
