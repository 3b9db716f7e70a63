// Port of Meilisearch's crates/meilisearch/tests/features/mod.rs: the experimental-features route
// (GET and PATCH, null or absent leaves a flag alone, errors for unknown flags and non-booleans),
// and the metrics flag forced on by --experimental-enable-metrics, switched off and on at runtime,
// and kept across a restart without the flag. The stored test lists the six flags of its time;
// the body asserted here is v1.50's full set (misc-routes.md §4), which wins over the test.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../helpers/api.js';
import { NO_EXPERIMENTAL_FEATURES, expectJson } from '../../helpers/meili-datasets.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

const METRICS_ON = { ...NO_EXPERIMENTAL_FEATURES, metrics: true };

describe('experimental features route', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('lists every flag off, turns one on, and leaves it alone on null or absence', async () => {
    const fresh = await call(server, 'GET', '/experimental-features');
    expect(fresh.status).toBe(200);
    expectJson(fresh.body, NO_EXPERIMENTAL_FEATURES);

    for (const [method, body] of [
      ['PATCH', { metrics: true }],
      ['GET', undefined],
      ['PATCH', { metrics: null }],
      ['PATCH', {}],
    ] as const) {
      const reply = await call(server, method, '/experimental-features', body);
      expect(reply.status, `${method} ${JSON.stringify(body)}`).toBe(200);
      expectJson(reply.body, METRICS_ON);
    }
  });

  it('refuses unknown flags and values that are not booleans', async () => {
    expectError(
      await call(server, 'PATCH', '/experimental-features', { NotAFeature: true }),
      400,
      'bad_request',
      'Unknown field `NotAFeature`: expected one of `metrics`, `logsRoute`, `editDocumentsByFunction`, `containsFilter`, `dynamicSearchRules`, `network`, `getTaskDocumentsRoute`, `taskQueueCompactionRoute`, `compositeEmbedders`, `chatCompletions`, `multimodal`, `foreignKeys`, `disableDocumentsFetchQueue`, `legacySearch`, `renderRoute`',
    );
    expectError(
      await call(server, 'PATCH', '/experimental-features', { metrics: 42 }),
      400,
      'bad_request',
      'Invalid value type at `.metrics`: expected a boolean, but found a positive integer: `42`',
    );
    expectError(
      await call(server, 'PATCH', '/experimental-features', { metrics: 'true' }),
      400,
      'bad_request',
      'Invalid value type at `.metrics`: expected a boolean, but found a string: `"true"`',
    );
  });
});

// two servers one after the other: under a full suite's load that takes more than the default 20 s
describe('metrics flag', { timeout: 60_000 }, () => {
  const root = tempDir();
  const dbPath = path.join(root, 'data.ms');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** The status of GET /metrics, its body read so the connection is left idle for the stop. */
  const metricsStatus = async (server: TestServer) => {
    const res = await fetch(`${server.url}/metrics`);
    await res.arrayBuffer();
    return res.status;
  };

  it('is forced on by --experimental-enable-metrics, can be switched at runtime, and the runtime value survives a restart without the flag', async () => {
    const withFlag = await startServer({ dbPath, args: ['--experimental-enable-metrics'] });
    try {
      expectJson((await call(withFlag, 'GET', '/experimental-features')).body, METRICS_ON);
      expect(await metricsStatus(withFlag)).toBe(200);

      const off = await call(withFlag, 'PATCH', '/experimental-features', { metrics: false });
      expect(off.status).toBe(200);
      expect(off.body.metrics).toBe(false);
      expectError(
        await call(withFlag, 'GET', '/metrics'),
        400,
        'feature_not_enabled',
        'Getting metrics requires enabling the `metrics` experimental feature. See https://github.com/meilisearch/product/discussions/625',
      );

      const on = await call(withFlag, 'PATCH', '/experimental-features', { metrics: true });
      expect(on.status).toBe(200);
      expect(on.body.metrics).toBe(true);
      expect(await metricsStatus(withFlag)).toBe(200);
    } finally {
      await withFlag.stop();
    }

    const withoutFlag = await startServer({ dbPath });
    try {
      expect(await metricsStatus(withoutFlag)).toBe(200);
    } finally {
      await withoutFlag.stop();
    }
  });

  // v1.50's PATCH stores its runtime features whole, the forced ones included: a change of another
  // flag keeps metrics (and the legacy search default) on at a start without the flags
  it('keeps the flags forced on by the command line once another flag is changed through the API', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'db');
    const withFlags = await startServer({ dbPath: db, args: ['--experimental-enable-metrics', '--experimental-legacy-search-default'] });
    try {
      expect((await call(withFlags, 'PATCH', '/experimental-features', { network: true })).status).toBe(200);
    } finally {
      await withFlags.stop();
    }
    const withoutFlags = await startServer({ dbPath: db });
    try {
      expectJson((await call(withoutFlags, 'GET', '/experimental-features')).body, { ...METRICS_ON, network: true, legacySearch: true });
    } finally {
      await withoutFlags.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
