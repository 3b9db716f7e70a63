/**
 * `POST /dumps` and `POST /snapshots` refusals (keys-auth.md: 401 without a key, 403 with a key
 * lacking `dumps.create` / `snapshots.create`; a body is ignored), and the start-up decision table
 * of `--import-dump` and `--import-snapshot` with its ignore flags (dumps-snapshots-upgrade.md §3.9,
 * §4.3).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir, type TestServer } from '../../helpers/server.js';

const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';

describe('POST /dumps and /snapshots: authorization', () => {
  let server: TestServer;
  let searchKey: string;
  let dumpKey: string;
  const post = (route: string, key?: string, body?: string) =>
    fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
    });

  beforeAll(async () => {
    server = await startServer({ masterKey: MASTER_KEY });
    const keys = (await (await fetch(`${server.url}/keys`, { headers: { authorization: `Bearer ${MASTER_KEY}` } })).json()) as { results: { name: string; key: string }[] };
    searchKey = keys.results.find((key) => key.name === 'Default Search API Key')!.key;
    const created = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ actions: ['dumps.create'], indexes: ['*'], expiresAt: null }),
    });
    dumpKey = ((await created.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await server.dispose();
  });

  it.each(['/dumps', '/snapshots'])('%s: 401 without a key, 403 with a key lacking the action', async (route) => {
    const missing = await post(route);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: 'missing_authorization_header', type: 'auth' });
    const forbidden = await post(route, searchKey);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: 'invalid_api_key', type: 'auth' });
  });

  it('accepts a key with dumps.create only on /dumps, and ignores a body', async () => {
    const reply = await post('/dumps', dumpKey, '{"whatever": true}');
    expect(reply.status).toBe(202);
    expect(Object.keys((await reply.json()) as object)).toEqual(['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt']);
    expect((await post('/snapshots', dumpKey)).status).toBe(403);
  });
});

describe('--import-dump / --import-snapshot start-up decisions', () => {
  const existingDb = () => {
    const dbPath = path.join(tempDir(), 'db');
    mkdirSync(dbPath);
    writeFileSync(path.join(dbPath, 'something'), '');
    return dbPath;
  };
  const cli = (dbPath: string, ...args: string[]) => runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', ...args]);

  it('refuses a database that already exists', async () => {
    const dbPath = existingDb();
    const file = path.join(tempDir(), 'some.dump');
    writeFileSync(file, '');
    const dump = await cli(dbPath, '--import-dump', file);
    expect(dump.code).toBe(1);
    expect(dump.stderr).toContain(`database already exists at "${path.resolve(dbPath)}", try to delete it or rename it`);
    const snapshot = await cli(dbPath, '--import-snapshot', file);
    expect(snapshot.code).toBe(1);
    expect(snapshot.stderr).toContain(`database already exists at "${path.resolve(dbPath)}", try to delete it or rename it`);
  });

  it('refuses a missing file, with the wording of each kind', async () => {
    const dbPath = path.join(tempDir(), 'db');
    const dump = await cli(dbPath, '--import-dump', 'nowhere.dump');
    expect(dump.code).toBe(1);
    expect(dump.stderr).toContain(`dump doesn't exist at "nowhere.dump"`);
    const snapshot = await cli(dbPath, '--import-snapshot', 'nowhere.snapshot');
    expect(snapshot.code).toBe(1);
    expect(snapshot.stderr).toContain(`snapshot doesn't exist at nowhere.snapshot`);
  });

  it('a missing file with an existing db and only --ignore-dump-if-db-exists still fails on the missing file', async () => {
    const { code, stderr } = await cli(existingDb(), '--import-dump', 'nowhere.dump', '--ignore-dump-if-db-exists');
    expect(code).toBe(1);
    expect(stderr).toContain(`dump doesn't exist at "nowhere.dump"`);
  });

  it('starts normally with the ignore flags', async () => {
    const missing = await startServer({ args: ['--import-dump', 'nowhere.dump', '--ignore-missing-dump'] });
    await missing.dispose();
    const file = path.join(tempDir(), 'some.snapshot');
    writeFileSync(file, '');
    const dbPath = path.join(tempDir(), 'db');
    const first = await startServer({ dbPath });
    await first.stop();
    // the database exists: the (invalid) snapshot is not even read
    const existing = await startServer({ dbPath, args: ['--import-snapshot', file, '--ignore-snapshot-if-db-exists'] });
    await existing.dispose();
  });

  it('the ignore flags require their import option', async () => {
    const { code, stderr } = await cli(path.join(tempDir(), 'db'), '--ignore-missing-dump');
    expect(code).toBe(2);
    expect(stderr).toContain('--import-dump');
  });
});
