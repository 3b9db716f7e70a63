// `GET /` and the dashboard's files: the dashboard in the development environment (told whether
// the server needs a key), Meilisearch's `{"status": "Meilisearch is running"}` and no dashboard,
// API document or reference in production.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const MASTER_KEY = 'root-test-master-key-0123456789';

describe('in the development environment', () => {
  let open: TestServer;
  let keyed: TestServer;
  beforeAll(async () => {
    [open, keyed] = await Promise.all([startServer(), startServer({ masterKey: MASTER_KEY })]);
  });
  afterAll(async () => {
    await Promise.all([open?.dispose(), keyed?.dispose()]);
  });

  it('GET / is the dashboard, public, saying whether the server needs a key', async () => {
    const withoutKey = await fetch(`${open.url}/`);
    expect(withoutKey.status).toBe(200);
    expect(withoutKey.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await withoutKey.text()).toContain('<html lang="en" data-key-required="false">');
    const withKey = await fetch(`${keyed.url}/`);
    expect(withKey.status).toBe(200);
    expect(await withKey.text()).toContain('<html lang="en" data-key-required="true">');
  });

  it("serves the dashboard's modules and stylesheet, without a key", async () => {
    for (const [file, type] of [
      ['app.js', '(text|application)/javascript'],
      ['pages/search.js', '(text|application)/javascript'],
      ['style.css', 'text/css'],
    ]) {
      const res = await fetch(`${keyed.url}/dashboard/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(new RegExp(`^${type}`));
    }
    expect((await fetch(`${keyed.url}/dashboard/nope.js`)).status).toBe(404);
    // the page is `/` only, which knows whether a key is needed
    expect((await fetch(`${keyed.url}/dashboard/index.html`)).status).toBe(404);
  });

  it("serves the default settings as a new index's GET /settings shows them", async () => {
    const defaults = (await (await fetch(`${open.url}/dashboard/settings-defaults.json`)).json()) as Record<string, unknown>;
    expect((await run(open, 'POST', '/indexes', { uid: 'fresh' })).status).toBe('succeeded');
    const { body: settings } = await call(open, 'GET', '/indexes/fresh/settings');
    expect(Object.fromEntries(Object.keys(settings).map((key) => [key, defaults[key]]))).toEqual(settings);
  });
});

describe('in the production environment', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ masterKey: MASTER_KEY, args: ['--env', 'production'] });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('GET / answers that the engine is running, as v1.50', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'Meilisearch is running' });
  });

  it('serves no dashboard file, API document or reference', async () => {
    for (const path of ['/dashboard/app.js', '/dashboard/settings-defaults.json', '/openapi.json', '/scalar', '/scalar/']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe('');
    }
  });
});
