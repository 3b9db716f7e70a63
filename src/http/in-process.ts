/**
 * Runs routes without Fastify or a socket: the library's transport (src/library/). A call is what
 * the meilisearch client would send over HTTP (path parameters, a query string built as the client
 * builds it, a JSON body) and goes through the steps a request takes after authentication: the
 * route's query parser, its body reading and validation, its handler and the services behind it.
 * So inputs are checked, and answered, exactly as over HTTP (the answer read back from its JSON
 * text as the client reads it); failures are the same ApiErrors.
 * The caller is unrestricted: the process that opened the database owns it (no master key).
 */
import { Readable } from 'node:stream';
import { UNRESTRICTED } from '../auth/authenticate.js';
import type { KnownRoute } from '../auth/route-actions.js';
import { stringifyJson } from '../types/json-text.js';
import { StreamedJson } from '../types/streamed-json.js';
import type { AppDeps } from './deps.js';
import { runSpec, type AnyRouteSpec, type RouteReply } from './route.js';

export interface RouteInput {
  params?: Record<string, string>;
  /** Query parameters as the client takes them: arrays joined with `,`, dates in ISO form, null and undefined left out. */
  query?: object;
  /** Sent as JSON text, as the client sends it. */
  body?: unknown;
}

/** The query string the meilisearch client builds from its parameters. */
function queryString(params: object): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.set(name, Array.isArray(value) ? value.join(',') : value instanceof Date ? value.toISOString() : String(value));
  }
  return search.toString();
}

export class InProcessRoutes {
  private readonly specs = new Map<KnownRoute, AnyRouteSpec>();

  constructor(private readonly deps: AppDeps, specs: readonly AnyRouteSpec[]) {
    for (const spec of specs) this.specs.set(spec.route, spec);
  }

  /** The route's answer body, as the client would parse it. */
  async call(route: KnownRoute, input: RouteInput = {}): Promise<unknown> {
    const spec = this.specs.get(route);
    if (spec === undefined) throw new Error(`${route} is not served in process`);
    let status = spec.status ?? 200;
    const reply: RouteReply = {
      code: (code) => (status = code),
      type: () => undefined,
    };
    const text = input.body === undefined ? undefined : stringifyJson(input.body);
    const [method, pattern] = route.split(' ') as [string, string];
    const path = pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(input.params?.[name] ?? ''));
    const search = queryString(input.query ?? {});
    const result = await runSpec(spec, this.deps, {
      query: spec.query?.(search),
      params: input.params ?? {},
      caller: UNRESTRICTED,
      headers: text === undefined ? {} : { 'content-type': 'application/json' },
      target: { method, url: search === '' ? path : `${path}?${search}` },
      reply,
      http: undefined,
      stream: text === undefined ? undefined : Readable.from([Buffer.from(text)]),
    });
    // a few routes answer an error status without an ApiError (an unknown settings sub-route, an unhealthy /health)
    if (status >= 400) throw new Error(`${route} answered ${status}`);
    // read back from its JSON text as the client reads it (JSON.parse): numbers past 2^53 as
    // numbers, not the BigInt the engine keeps (JSON.stringify throws on those), plain objects, and
    // nothing shared with the engine's caches for the caller to change
    if (result instanceof StreamedJson) return JSON.parse(await result.text());
    // a handler answers a bare JSON value as its text (Fastify would send a string as text)
    return JSON.parse(typeof result === 'string' ? result : stringifyJson(result));
  }
}
