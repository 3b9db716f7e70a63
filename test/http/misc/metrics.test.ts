/**
 * `GET /metrics` through the real server: the feature gate (PATCH and the CLI flag), the
 * all-indexes key rule, and the Prometheus text with index, document, task and request metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const GATE = 'Getting metrics requires enabling the `metrics` experimental feature. See https://github.com/meilisearch/product/discussions/625';
const MASTER_KEY = 'a-master-key-long-enough-for-tests';

async function metrics(server: TestServer, key?: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${server.url}/metrics`, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of one sample line, e.g. `meilisearch_index_docs_count{index="x"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('is gated by the metrics feature', async () => {
    expectError(await call(server, 'GET', '/metrics'), 400, 'feature_not_enabled', GATE);
  });

  it('exposes index, document, task and request metrics once enabled', async () => {
    expect((await call(server, 'PATCH', '/experimental-features', { metrics: true })).status).toBe(200);
    const uid = uniqueUid('m');
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1 }, { id: 2 }, { id: 3 }]);
    const failed = await run(server, 'DELETE', `/indexes/${uniqueUid('absent')}`);
    expect(failed.status).toBe('failed');
    await call(server, 'POST', `/indexes/${uid}/search`, { q: '' });

    const reply = await metrics(server);
    expect(reply.status).toBe(200);
    expect(reply.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(reply.text).toContain('# TYPE meilisearch_index_count gauge\n');
    expect(sample(reply.text, 'meilisearch_index_count')).toBe(1);
    expect(sample(reply.text, `meilisearch_index_docs_count{index="${uid}"}`)).toBe(3);
    expect(sample(reply.text, 'meilisearch_db_size_bytes')).toBeGreaterThan(0);
    expect(sample(reply.text, 'meilisearch_used_db_size_bytes')).toBeGreaterThan(0);
    expect(sample(reply.text, 'meilisearch_is_indexing')).toBe(0);
    expect(sample(reply.text, 'meilisearch_last_update')).toBeGreaterThan(1_600_000_000);
    expect(sample(reply.text, 'meilisearch_nb_tasks{kind="statuses",value="succeeded"}')).toBe(1);
    expect(sample(reply.text, 'meilisearch_nb_tasks{kind="statuses",value="failed"}')).toBe(1);
    expect(sample(reply.text, 'meilisearch_nb_tasks{kind="types",value="indexDeletion"}')).toBe(1);
    expect(sample(reply.text, 'meilisearch_nb_tasks{kind="types",value="indexCompaction"}')).toBe(0);
    expect(sample(reply.text, `meilisearch_nb_tasks{kind="indexes",value="${uid}"}`)).toBe(1);
    expect(
      sample(reply.text, 'meilisearch_http_requests_total{method="POST",path="/indexes/{index_uid}/search",status="200"}'),
    ).toBe(1);
    expect(
      sample(reply.text, 'meilisearch_http_response_time_seconds_count{method="POST",path="/indexes/{index_uid}/search"}'),
    ).toBe(1);
    // Families are sorted by name, each with HELP and TYPE.
    const names = [...reply.text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!);
    expect(names).toEqual([...names].sort());

    // The scrape itself is counted by the next one; paths in v1.50's route patterns: its
    // parameter names, a setting's sub-route as its own route, an unknown setting's own path
    await call(server, 'GET', `/tasks/${failed.uid}`);
    await call(server, 'GET', `/indexes/${uid}/settings/filterable-attributes`);
    await call(server, 'GET', `/indexes/${uid}/settings/no-such-setting`);
    const next = await metrics(server);
    expect(sample(next.text, 'meilisearch_http_requests_total{method="GET",path="/metrics",status="200"}')).toBe(1);
    expect(sample(next.text, 'meilisearch_http_requests_total{method="GET",path="/tasks/{task_id}",status="200"}')).toBeGreaterThan(0);
    expect(sample(next.text, 'meilisearch_http_requests_total{method="GET",path="/indexes/{index_uid}/settings/filterable-attributes",status="200"}')).toBe(1);
    expect(sample(next.text, `meilisearch_http_requests_total{method="GET",path="/indexes/${uid}/settings/no-such-setting",status="404"}`)).toBe(1);
    expect(next.text).not.toContain('{setting}');
  });

  it('counts every request whether the feature is on or not, an unmatched one under its own path, a 405 under its route; times only routes, while on', async () => {
    expect((await call(server, 'PATCH', '/experimental-features', { metrics: false })).status).toBe(200);
    await call(server, 'GET', '/version');
    expect((await call(server, 'GET', '/nothing-here//deeper/?q=1')).status).toBe(404);
    expect((await call(server, 'PUT', '/version')).status).toBe(405);
    expect((await call(server, 'PATCH', '/experimental-features', { metrics: true })).status).toBe(200);
    expect((await call(server, 'GET', '/nothing-here')).status).toBe(404);
    expect((await call(server, 'PUT', '/version')).status).toBe(405);
    const { text } = await metrics(server);
    expect(sample(text, 'meilisearch_http_requests_total{method="GET",path="/version",status="200"}')).toBe(1);
    expect(sample(text, 'meilisearch_http_requests_total{method="GET",path="/nothing-here/deeper",status="404"}')).toBe(1);
    expect(sample(text, 'meilisearch_http_requests_total{method="GET",path="/nothing-here",status="404"}')).toBe(1);
    expect(sample(text, 'meilisearch_http_requests_total{method="PUT",path="/version",status="405"}')).toBe(2);
    expect(sample(text, 'meilisearch_http_response_time_seconds_count{method="GET",path="/version"}')).toBeUndefined();
    expect(sample(text, 'meilisearch_http_response_time_seconds_count{method="PUT",path="/version"}')).toBe(1);
    expect(text).not.toContain('meilisearch_http_response_time_seconds_count{method="GET",path="/nothing-here"');
  });
});

describe('GET /metrics with --experimental-enable-metrics and keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ masterKey: MASTER_KEY, args: ['--experimental-enable-metrics'] });
  });
  afterAll(async () => {
    await server.dispose();
  });

  async function createKey(indexes: string[]): Promise<string> {
    const res = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ actions: ['*'], indexes, expiresAt: null }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { key: string }).key;
  }

  it('answers with the master key and an all-indexes key', async () => {
    expect((await metrics(server, MASTER_KEY)).status).toBe(200);
    expect((await metrics(server, await createKey(['*']))).status).toBe(200);
  });

  it('refuses a key restricted to some indexes, and no key at all', async () => {
    const restricted = await metrics(server, await createKey(['products']));
    expect(restricted.status).toBe(403);
    // `metrics.get` must be held globally (keys-auth.md §7 step 7), so the route-level check
    // refuses such a key before the handler's all-indexes check.
    expect(JSON.parse(restricted.text)).toMatchObject({ code: 'invalid_api_key' });
    expect((await metrics(server)).status).toBe(401);
  });
});
