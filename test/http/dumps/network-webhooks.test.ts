// A dump round trip keeps the network and the runtime webhooks (dumps-snapshots-upgrade.md §3.3,
// §3.9): the dump writes network.json and webhooks.json (secrets in clear), and --import-dump
// restores the webhooks and the network with `self` cleared, as v1.50 does.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractArchive } from '../../../src/store/archive.js';
import { call, run } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let dumpFile: string;

beforeAll(async () => {
  server = await startServer();
  await call(server, 'PATCH', '/experimental-features', { network: true });
  const network = await call(server, 'PATCH', '/network', {
    self: 'ms0',
    remotes: { ms0: { url: 'http://127.0.0.1:7700', searchApiKey: 'search-0' }, ms1: { url: 'http://127.0.0.1:7701', writeApiKey: 'write-1' } },
    shards: { s0: { remotes: ['ms0', 'ms1'] } },
  });
  expect(network.status).toBe(200);
  const webhook = await call(server, 'POST', '/webhooks', { url: 'https://example.com/hook', headers: { authorization: 'TOKEN' } });
  expect(webhook.status).toBe(201);
  const dump = await run(server, 'POST', '/dumps');
  expect(dump.status).toBe('succeeded');
  const dumpDir = path.join(server.dbPath, '..', 'dumps');
  dumpFile = path.join(dumpDir, readdirSync(dumpDir)[0]!);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('a dump', () => {
  it('writes network.json and webhooks.json, secrets in clear', async () => {
    const extracted = tempDir('quarry-dump-network-');
    await extractArchive(dumpFile, extracted);
    const network = JSON.parse(readFileSync(path.join(extracted, 'network.json'), 'utf8'));
    expect(network).toMatchObject({ self: 'ms0', remotes: { ms0: { searchApiKey: 'search-0' }, ms1: { writeApiKey: 'write-1' } }, shards: { s0: { remotes: ['ms0', 'ms1'] } } });
    const webhooks = JSON.parse(readFileSync(path.join(extracted, 'webhooks.json'), 'utf8'));
    expect(Object.values(webhooks.webhooks)).toEqual([{ url: 'https://example.com/hook', headers: { authorization: 'TOKEN' } }]);
  });

  it('brings the webhooks and the network back on import, with self cleared', async () => {
    const imported = await startServer({ dbPath: path.join(tempDir(), 'imported.ms'), args: ['--import-dump', dumpFile] });
    try {
      expect((await call(imported, 'GET', '/webhooks')).body).toEqual((await call(server, 'GET', '/webhooks')).body);
      const original = (await call(server, 'GET', '/network')).body;
      expect((await call(imported, 'GET', '/network')).body).toEqual({ ...original, self: null });
    } finally {
      await imported.dispose();
    }
  });
});
