import { describe, expect, it } from 'vitest';
import { API_ROUTES, FIRST_REQUESTS, warmUpFirstRequests } from '../../../src/http/app.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { descriptionOf } from '../../../src/validation/described.js';

describe('the API routes', () => {
  // body schemas compile on a route's first request, not at startup: a schema ajv's strict mode
  // refuses must fail here rather than on a user's request (the per-setting routes read their
  // bodies themselves, with the fragments of the settings route's schema)
  it('each compile their body schema, answering an empty object or refusing it with an API error', () => {
    const parsers = API_ROUTES.flatMap((spec) => (typeof spec.body === 'function' ? [{ route: spec.route, parse: spec.body }] : []));
    expect(parsers.length).toBeGreaterThan(25);
    for (const { route, parse } of parsers) {
      try {
        parse({});
      } catch (error) {
        expect(error, route).toBeInstanceOf(ApiError);
      }
    }
  });

  // a renamed route, or a parser without its schema's description, would silently leave its
  // first request to load or compile its validator
  it('warm up the body validators of routes that exist and read a body', async () => {
    for (const route of FIRST_REQUESTS) {
      const body = API_ROUTES.find((spec) => spec.route === route)?.body;
      expect(body, route).toBeTypeOf('function');
      expect(descriptionOf(body as (value: unknown) => unknown)?.kind, route).toBe('body');
    }
    await expect(warmUpFirstRequests()).resolves.toBeUndefined();
  });
});
