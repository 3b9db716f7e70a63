/**
 * `/logs` routes (misc-routes.md §5), behind the `logsRoute` experimental feature: a live log
 * stream (one subscriber at a time; human-readable or JSON lines, the `profile` mode refused) and
 * the standard-error log filter.
 */
import { PassThrough } from 'node:stream';
import { ApiError } from '../../errors/api-error.js';
import type { StreamMode } from '../../logs/log-hub.js';
import { TargetError, parseTarget } from '../../logs/targets.js';
import type { AppDeps } from '../deps.js';
import { defineRoute, httpOnly } from '../route.js';
import { compileBody } from '../../validation/index.js';

const targetProblem = (value: unknown): string | undefined => {
  try {
    parseTarget(value as string);
    return undefined;
  } catch (err) {
    if (err instanceof TargetError) return err.message;
    throw err;
  }
};

const parseStreamBody = compileBody<{ target?: string; mode?: StreamMode | 'profile'; profileMemory?: boolean }>(
  {
    type: 'object',
    properties: {
      target: { type: 'string' },
      mode: { enum: ['human', 'json', 'profile'] },
      profileMemory: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  {},
  { validators: { '.target': targetProblem } },
);

const parseStderrBody = compileBody<{ target?: string }>(
  { type: 'object', properties: { target: { type: 'string' } }, additionalProperties: false },
  {},
  { validators: { '.target': targetProblem } },
);

/** Log bytes a stream may hold for a client that does not read them before it is closed. */
export const MAX_UNREAD_LOG_BYTES = 16 * 1024 * 1024;

function requireLogsRoute(deps: AppDeps): void {
  deps.features.require(
    'logsRoute',
    'Modifying logs through the `/logs/*` routes',
    'logs route',
    'https://github.com/orgs/meilisearch/discussions/721',
  );
}

export const logRoutes = [
  defineRoute({
    route: 'POST /logs/stream',
    body: parseStreamBody,
    compress: false,
    handler: (ctx, deps) => {
      const mode = ctx.body.mode ?? 'human';
      if (ctx.body.profileMemory === true && mode !== 'profile') {
        // Meilisearch reports this one with the typo-tolerance code; kept for compatibility.
        throw new ApiError(
          'invalid_settings_typo_tolerance',
          `Invalid value: \`profile_memory\` can only be used while profiling code and is not compatible with the ${mode === 'human' ? 'Human' : 'Json'} mode.`,
        );
      }
      requireLogsRoute(deps);
      // v1.50 streams its tracing spans in this mode; Quarry records no spans, and says so rather
      // than stream something else (README, compatibility)
      if (mode === 'profile') {
        throw new ApiError('bad_request', 'The `profile` mode of `/logs/stream` is not available in Quarry: it records no tracing spans. Use the `human` or `json` mode.');
      }
      const { request, reply } = httpOnly(ctx);
      const body = new PassThrough();
      const unsubscribe = deps.logs.subscribe(
        parseTarget(ctx.body.target ?? 'info'),
        mode,
        (chunk) => {
          // a client that stops reading is cut off rather than buffered for without end (v1.50's channel is unbounded)
          if (body.writableLength > MAX_UNREAD_LOG_BYTES) body.destroy();
          else body.write(chunk);
        },
        () => body.end(),
      );
      request.raw.once('close', unsubscribe);
      body.once('close', unsubscribe);
      // v1.50 (actix's streaming body) sends no Content-Type, whatever the mode; nor does Fastify for a stream
      reply.header('x-accel-buffering', 'no');
      // Node sends headers with the first chunk; a quiet log would leave the client waiting.
      setImmediate(() => reply.raw.flushHeaders());
      return body;
    },
  }),
  defineRoute({
    route: 'DELETE /logs/stream',
    status: 204,
    handler: (_ctx, deps) => {
      requireLogsRoute(deps);
      deps.logs.closeStream();
    },
  }),
  defineRoute({
    route: 'POST /logs/stderr',
    body: parseStderrBody,
    status: 204,
    handler: (ctx, deps) => {
      requireLogsRoute(deps);
      deps.logs.setStderrFilter(parseTarget(ctx.body.target ?? 'info'));
    },
  }),
];
