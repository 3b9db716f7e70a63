/**
 * The paths the API routes, whatever the method: a request's path as v1.50 sees it (actix's
 * `NormalizePath`, outermost: the query left out, trailing slashes trimmed, repeated ones merged)
 * and the registered path it names, if any. A request to a registered path with a method it does
 * not take is a 405 (error-handler.ts), labelled by its route in `/metrics` (request-metrics.ts).
 */
import type { AnyRouteSpec } from './route.js';
import { strippedEnd } from '../types/utf16.js';

export interface RoutedPath {
  /** the route's path, as registered (`/indexes/:indexUid/search`) */
  url: string;
  /** the request paths it routes */
  matches: RegExp;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A parameter matches any segment, or one of the values its route declares (`paramValues`). */
function pathPattern(url: string, values: Readonly<Record<string, readonly string[]>>): RegExp {
  const source = url
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return escaped(part);
      const known = values[part.slice(1)];
      return known === undefined ? '[^/]+' : `(?:${known.map(escaped).join('|')})`;
    })
    .join('/');
  return new RegExp(`^${source === '' ? '/' : source}$`);
}

/** The distinct paths of `specs`. */
export function routedPaths(specs: readonly AnyRouteSpec[]): RoutedPath[] {
  const values = new Map<string, Readonly<Record<string, readonly string[]>>>();
  for (const spec of specs) {
    const url = spec.route.split(' ')[1]!;
    values.set(url, { ...values.get(url), ...spec.paramValues });
  }
  return [...values].map(([url, known]) => ({ url, matches: pathPattern(url, known) }));
}

/** The path of a request's URL (still percent-encoded, as actix's `req.path()`), normalized as v1.50 normalizes it. */
export function requestPath(url: string): string {
  const raw = url.split('?', 1)[0]!;
  // trailing slashes walked off (`/\/+$/` made `/` + 100,000 slashes + `a` cost seconds)
  const path = raw.slice(0, strippedEnd(raw, (unit) => unit === 0x2f)).replace(/\/{2,}/g, '/');
  return path === '' ? '/' : path;
}

/** The registered path a normalized request path names, if any. */
export function routedUrl(paths: readonly RoutedPath[], path: string): string | undefined {
  return paths.find((routed) => routed.matches.test(path))?.url;
}

/** The parameters of registered path `url` in request path `path` (which it matches). */
export function pathParams(url: string, path: string): Record<string, string> {
  const segments = path.split('/');
  const params: Record<string, string> = {};
  url.split('/').forEach((part, i) => {
    if (part.startsWith(':')) params[part.slice(1)] = segments[i]!;
  });
  return params;
}
