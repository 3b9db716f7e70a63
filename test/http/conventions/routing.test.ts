import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

describe('routing', () => {
  it('GET /health answers available', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ status: 'available' });
  });

  it('GET / serves the dashboard in the development environment (test/http/misc/root.test.ts)', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('GET /version reports commitSha, commitDate and pkgVersion in that order, pkgVersion the Meilisearch version spoken', async () => {
    const body = (await (await fetch(`${server.url}/version`)).json()) as Record<string, string>;
    expect(Object.keys(body)).toEqual(['commitSha', 'commitDate', 'pkgVersion']);
    expect(body.pkgVersion).toBe('1.50.0');
  });

  it('an unknown path answers 404 with an empty body', async () => {
    const res = await fetch(`${server.url}/doggo`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('a known path with another method answers 405 with an empty body', async () => {
    const res = await fetch(`${server.url}/version`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(await res.text()).toBe('');
  });

  it('a setting route names the settings only: another name answers 404 whatever the method, a known one 405 to a method it does not take', async () => {
    for (const method of ['POST', 'GET', 'PUT', 'PATCH', 'DELETE']) {
      expect((await fetch(`${server.url}/indexes/movies/settings/unknown`, { method, headers: { authorization: 'Bearer masterKey' } })).status, method).toBe(404);
    }
    expect((await fetch(`${server.url}/indexes/movies/settings/ranking-rules`, { method: 'POST', headers: { authorization: 'Bearer masterKey' } })).status).toBe(405);
  });

  it('normalises a trailing slash and repeated slashes', async () => {
    expect((await fetch(`${server.url}/health/`)).status).toBe(200);
    expect((await fetch(`${server.url}//version`)).status).toBe(200);
  });

  it('ignores the query string of routes that declare no parameters', async () => {
    expect((await fetch(`${server.url}/version?doggo=1`)).status).toBe(200);
  });
});
