/**
 * The paths the API routes whatever the method: a request's path normalized as actix's
 * `NormalizePath` (trim) leaves it, the registered path it names and that path's parameters.
 */
import { describe, expect, it } from 'vitest';
import { pathParams, requestPath, routedPaths, routedUrl, type RoutedPath } from '../../../src/http/routed-paths.js';
import type { AnyRouteSpec } from '../../../src/http/route.js';

const specs = [{ route: 'GET /version' }, { route: 'GET /indexes/:indexUid/settings/:setting' }, { route: 'PUT /indexes/:indexUid/settings/:setting' }] as unknown as AnyRouteSpec[];

describe('routed paths', () => {
  it('normalizes a request path as v1.50 does: no query, trailing slashes trimmed, repeated ones merged', () => {
    expect(requestPath('/nothing-here//deeper/?q=1')).toBe('/nothing-here/deeper');
    expect(requestPath('//?x')).toBe('/');
    expect(requestPath('/a%20b')).toBe('/a%20b');
  });

  it('trims trailing slashes after a long inner run of them in one walk', () => {
    // 200,000 inner slashes: /\/+$/ retried each of them to the end, minutes of work
    expect(requestPath(`/${'/'.repeat(200_000)}a///`)).toBe('/a');
  });

  it('names the registered path of a request path, once per path, with its parameters', () => {
    const paths: RoutedPath[] = routedPaths(specs);
    expect(paths.map((p) => p.url)).toEqual(['/version', '/indexes/:indexUid/settings/:setting']);
    expect(routedUrl(paths, '/version')).toBe('/version');
    expect(routedUrl(paths, '/versions')).toBeUndefined();
    expect(routedUrl(paths, '/indexes/movies/settings/ranking-rules')).toBe('/indexes/:indexUid/settings/:setting');
    expect(pathParams('/indexes/:indexUid/settings/:setting', '/indexes/movies/settings/ranking-rules')).toEqual({ indexUid: 'movies', setting: 'ranking-rules' });
  });
});
