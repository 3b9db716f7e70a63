import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';
import { call } from '../auth/request.js';

const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';
const UID = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8';
const servers: TestServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.dispose()));
});

async function start(masterKey: string, dbPath?: string): Promise<TestServer> {
  const server = await startServer({ masterKey, ...(dbPath === undefined ? {} : { dbPath }) });
  if (dbPath === undefined) servers.push(server);
  return server;
}

const createKey = async (server: TestServer, masterKey: string) =>
  (await call(server, 'POST', '/keys', { key: masterKey, body: { uid: UID, actions: ['version'], indexes: ['*'], expiresAt: null } }))
    .body as { key: string };

describe('key values', () => {
  it('are the same on two instances sharing the master key, and work on both', async () => {
    const [a, b] = await Promise.all([start(MASTER_KEY), start(MASTER_KEY)]);
    const [keyA, keyB] = await Promise.all([createKey(a!, MASTER_KEY), createKey(b!, MASTER_KEY)]);
    expect(keyA.key).toMatch(/^[0-9a-f]{64}$/);
    expect(keyB.key).toBe(keyA.key);
    expect((await call(b!, 'GET', '/version', { key: keyA.key })).status).toBe(200);
  });

  it('differ for default keys, whose uids are random', async () => {
    const [a, b] = await Promise.all([start(MASTER_KEY), start(MASTER_KEY)]);
    const uids = async (s: TestServer) =>
      ((await call(s, 'GET', '/keys', { key: MASTER_KEY })).body as { results: { uid: string }[] }).results.map((k) => k.uid);
    expect(new Set([...(await uids(a!)), ...(await uids(b!))]).size).toBe(8);
  });

  it('all change when the instance restarts with another master key', async () => {
    const first = await start(MASTER_KEY);
    const { key } = await createKey(first, MASTER_KEY);
    await first.stop();
    const other = 'ANOTHER_MASTER_KEY_OF_16_BYTES';
    const restarted = await start(other, first.dbPath);
    try {
      const after = (await call(restarted, 'GET', `/keys/${UID}`, { key: other })).body as { key: string };
      expect(after.key).toMatch(/^[0-9a-f]{64}$/);
      expect(after.key).not.toBe(key);
      expect((await call(restarted, 'GET', '/version', { key })).status).toBe(403);
      expect((await call(restarted, 'GET', '/version', { key: after.key })).status).toBe(200);
    } finally {
      await restarted.stop();
    }
  });
});
