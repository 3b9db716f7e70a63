/**
 * How a route is declared and wired into Fastify. A route file exports `defineRoute(...)` specs:
 * its path (which must be in auth/route-actions.ts), its query and body parsers (compiled
 * validators that throw ApiError; a large body may be read on another thread, `bodyElsewhere`), its
 * success status and its handler. `runSpec` (the body, then
 * the handler) is shared by Fastify and the in-process runner (in-process.ts), so the library's
 * calls go through the same parsing, validation and services as requests. A handler's
 * StreamedJson (a long list) is sent as chunked JSON, piece by piece.
 *
 * Processing order follows Meilisearch (http-conventions.md §3): authentication first
 * (onRequest), then the query string (preParsing, so it precedes any Content-Type failure),
 * then the body, then the handler.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { ROUTE_ACTIONS, type KnownRoute } from '../auth/route-actions.js';
import { UNRESTRICTED, type Caller } from '../auth/authenticate.js';
import type { AppDeps } from './deps.js';
import { readJsonBytes } from './body/json.js';
import { parseJsonBody } from '../validation/json-body.js';
import { parseSentBody } from '../validation/sent-values.js';
import { parseJson } from '../types/json-text.js';
import { StreamedJson } from '../types/streamed-json.js';

/** What a handler may set on its answer, over HTTP as in process. */
export interface RouteReply {
  code(status: number): unknown;
  type(contentType: string): unknown;
}

export interface RouteContext<Q, B> {
  query: Q;
  body: B;
  params: Record<string, string>;
  caller: Caller;
  headers: IncomingHttpHeaders;
  /** The request's method and path with its query string, as the client sent them (a leader re-sends writes so). */
  target: RequestTarget;
  reply: RouteReply;
  /** The Fastify request and reply; undefined in process (the library calls no route that needs them). */
  http: { request: FastifyRequest; reply: FastifyReply } | undefined;
  /** The undecoded body stream, for routes that stream their payload (`body: 'stream'`). */
  stream: Readable | undefined;
}

export interface RequestTarget {
  method: string;
  /** path and query string */
  url: string;
}

// Specs are heterogeneous in Q and B where they are only passed on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRouteSpec = RouteSpec<any, any>;

export interface RouteSpec<Q = undefined, B = undefined> {
  route: KnownRoute;
  /** Parses the raw query string (after `?`); routes without it ignore the query string. */
  query?: (raw: string) => Q;
  /** Validates the parsed JSON body; `'stream'` hands the payload to the handler unread. */
  body?: ((value: unknown) => B) | 'stream';
  /**
   * Reads the body's bytes on another thread instead of parsing and validating them here (a large
   * settings body): the body `body` would answer, or undefined to read them here.
   */
  bodyElsewhere?: (bytes: Buffer, deps: AppDeps) => Promise<B> | undefined;
  /** The body keeps integers beyond 2^53 exact, as BigInt (types/json-text.ts): it names document ids. */
  exactIntegers?: true;
  /**
   * The values a path parameter takes, when the handler answers 404 for any other (a setting's
   * name): a request with another value names no route, whatever its method (404, not 405).
   */
  paramValues?: Readonly<Record<string, readonly string[]>>;
  /** Success status; 200 unless given. */
  status?: number;
  /** false for endless streamed bodies, which response compression would hold back */
  compress?: false;
  /**
   * The Content-Types the route's body accepts, listed when Fastify rejects a header that is not a
   * media type at all (`invalid_content_type`, answered by error-handler.ts); JSON unless given.
   */
  contentTypes?: readonly string[];
  /**
   * Returns the payload (a value, string, Buffer or stream; undefined for an empty body), never
   * sends it: a reply sent here would be sent a second time by `registerRoutes`.
   */
  handler: (ctx: RouteContext<Q, B>, deps: AppDeps) => unknown;
}

export function defineRoute<Q = undefined, B = undefined>(spec: RouteSpec<Q, B>): RouteSpec<Q, B> {
  return spec;
}

/** The Fastify request and reply of a route that only HTTP can serve (a stream of logs, metrics). */
export function httpOnly(ctx: RouteContext<unknown, unknown>): { request: FastifyRequest; reply: FastifyReply } {
  if (ctx.http === undefined) throw new Error('this route answers over HTTP only');
  return ctx.http;
}

/** One call of a route, after authentication (and, over HTTP, after its query string was parsed). */
export interface RouteCall {
  query: unknown;
  params: Record<string, string>;
  caller: Caller;
  headers: IncomingHttpHeaders;
  target: RequestTarget;
  reply: RouteReply;
  http: RouteContext<unknown, unknown>['http'];
  stream: Readable | undefined;
}

/** The body step and the handler: reads and validates a JSON body (or hands the stream over), then handles. */
export async function runSpec(spec: AnyRouteSpec, deps: AppDeps, call: RouteCall): Promise<unknown> {
  let body: unknown;
  if (typeof spec.body === 'function') {
    const parse = spec.exactIntegers ? parseJson : JSON.parse;
    const bytes = await readJsonBytes(
      { contentType: call.headers['content-type'], contentEncoding: call.headers['content-encoding'], stream: call.stream },
      deps.config.httpPayloadSizeLimit,
    );
    const elsewhere = spec.bodyElsewhere?.(bytes, deps);
    // an error message quotes a value as it was sent
    body = elsewhere !== undefined ? await elsewhere : spec.body(parseJsonBody(bytes, (text) => parseSentBody(text, parse)));
  } else if (call.stream !== undefined && spec.body !== 'stream') {
    call.stream.resume(); // routes without a body ignore whatever was sent
  }
  return spec.handler({ ...call, body }, deps);
}

interface RequestState {
  caller: Caller;
  query: unknown;
}

const state = new WeakMap<FastifyRequest, RequestState>();

declare module 'fastify' {
  interface FastifyContextConfig {
    /** RouteSpec.contentTypes, for the error handler. */
    contentTypes?: readonly string[];
    /** The route's spec, from which the API document describes it (openapi/operation.ts). */
    routeSpec?: AnyRouteSpec;
  }
}

function rawQuery(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? '' : url.slice(q + 1);
}

/** Registers the specs (routed-paths.ts tells the paths they route, for 404 vs 405). */
export function registerRoutes(app: FastifyInstance, deps: AppDeps, specs: readonly AnyRouteSpec[]): void {
  for (const spec of specs) {
    const [method, url] = spec.route.split(' ') as [string, string];
    const actions = ROUTE_ACTIONS[spec.route];
    app.route({
      method: method as 'GET',
      url,
      config: { decompress: false, contentTypes: spec.contentTypes, routeSpec: spec },
      ...(spec.compress === false ? { compress: false as const } : {}),
      onRequest: async (request) => {
        const index = (request.params as { indexUid?: string }).indexUid;
        const caller = actions === null ? UNRESTRICTED : await deps.authenticator.authenticate(request.headers.authorization, actions, index);
        state.set(request, { caller, query: undefined });
      },
      preParsing: async (request, _reply, payload) => {
        if (spec.query !== undefined) state.get(request)!.query = spec.query(rawQuery(request.url));
        return payload;
      },
      handler: async (request, reply) => {
        const { caller, query } = state.get(request)!;
        reply.code(spec.status ?? 200); // handlers may override, e.g. /health when unhealthy
        const result = await runSpec(spec, deps, {
          query,
          params: request.params as Record<string, string>,
          caller,
          headers: request.headers,
          target: { method: request.method, url: request.url },
          reply,
          http: { request, reply },
          stream: request.body as Readable | undefined,
        });
        if (result === undefined) return reply.send();
        if (result instanceof StreamedJson) {
          reply.type('application/json; charset=utf-8');
          return Readable.from(result.pieces, { objectMode: false });
        }
        return result;
      },
    });
  }
}
