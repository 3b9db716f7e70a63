/**
 * Dumpless upgrade through the real process (dumps-snapshots-upgrade.md §2, §6), on a database in
 * the previous storage format made by test/fixtures/upgrade/make-previous-format.ts: refused
 * without the flag; with it, an `upgradeDatabase` task converts it and searches answer as before;
 * canceled midway or failed, the old database is left as it was while searches kept answering and
 * new tasks waited; imported from a snapshot, it is upgraded without the flag.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, run, waitTask } from '../../helpers/api.js';
import { freePort, runCli, startServer, tempDir, type TestServer } from '../../helpers/server.js';
import { packDirectory } from '../../../src/store/archive.js';
import { formatFacts, makePreviousFormatDb, previousFormatProblems, searchAnswers, SMALL_INDEXES } from '../../fixtures/upgrade/make-previous-format.js';

const INCOMPATIBLE =
  'Your database version (1.0.0) is incompatible with your current engine version (4.0.0).\n' +
  'To migrate data between Meilisearch versions, please follow our guide on https://www.meilisearch.com/docs/learn/update_and_migration/updating.\n' +
  'Alternatively, you can set the `--upgrade-db` flag (or the `MEILI_UPGRADE_DB` environment variable) to upgrade the database on startup.';

let fixture: string;
let answers: unknown[];
const dirs: string[] = [];
const servers: TestServer[] = [];

beforeAll(async () => {
  fixture = path.join(tempDir('quarry-upgrade-fixture-'), 'data.ms');
  ({ answers } = await makePreviousFormatDb(fixture));
}, 60_000);

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

afterAll(() => rmSync(path.dirname(fixture), { recursive: true, force: true }));

/** A copy of the fixture database, deleted after the test. */
function copyFixture(): string {
  const dir = tempDir('quarry-upgrade-');
  dirs.push(dir);
  const dbPath = path.join(dir, 'data.ms');
  cpSync(fixture, dbPath, { recursive: true });
  return dbPath;
}

async function start(dbPath: string, options: { args?: string[]; env?: Record<string, string> } = {}): Promise<TestServer> {
  const server = await startServer({ dbPath, ...options });
  servers.push(server);
  return server;
}

/** Starting on `dbPath` without the flag: the CLI's exit status and stderr. */
async function startRefused(dbPath: string): Promise<{ code: number | null; stderr: string }> {
  const args = ['--db-path', dbPath, '--http-addr', `127.0.0.1:${await freePort()}`, '--dump-dir', path.join(dbPath, '..', 'dumps'), '--no-analytics'];
  return runCli(args);
}

const indexFolders = (dbPath: string) => readdirSync(path.join(dbPath, 'indexes')).sort();
/** The bytes the indexes' data files take on disk (an open environment's file is sparse at its map size). */
const indexBytes = (dbPath: string) => indexFolders(dbPath).reduce((sum, folder) => sum + 512 * statSync(path.join(dbPath, 'indexes', folder, 'data.mdb')).blocks, 0);

async function upgradeTasks(server: TestServer): Promise<any[]> {
  const reply = await call(server, 'GET', '/tasks?types=databaseUpgrade');
  expect(reply.status).toBe(200);
  return reply.body.results;
}

// several server starts each, on a shared machine
describe('a database in the previous storage format', { timeout: 60_000 }, () => {
  it('is refused without the upgrade flag, with v1.50 message and exit status 1, and left untouched', async () => {
    const dbPath = copyFixture();
    const { code, stderr } = await startRefused(dbPath);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(INCOMPATIBLE);
    expect(await previousFormatProblems(dbPath)).toEqual([]);
  });

  it('is upgraded by the upgradeDatabase task that --experimental-dumpless-upgrade registers, and searches answer as before', async () => {
    const dbPath = copyFixture();
    const before = indexFolders(dbPath);
    const bytesBefore = indexBytes(dbPath);
    const server = await start(dbPath, { args: ['--experimental-dumpless-upgrade'] });
    const [upgrade, ...others] = await upgradeTasks(server);
    expect(others).toEqual([]);
    expect(upgrade).toMatchObject({ type: 'upgradeDatabase', indexUid: null });
    // registered before anything else: every older task is the fixture's
    const done = await waitTask(server, upgrade.uid, 30_000);
    expect(done).toMatchObject({ status: 'succeeded', error: null, details: { upgradeFrom: 'v1.0.0', upgradeTo: 'v4.0.0' } });
    const batch = (await call(server, 'GET', `/batches/${done.batchUid}`)).body;
    expect(batch.details).toEqual({ upgradeFrom: 'v1.0.0', upgradeTo: 'v4.0.0' });
    expect(batch.batchStrategy).toBe('stopped after the last task of type `upgradeDatabase` because they cannot be batched with tasks of any other type.');
    expect(Object.keys(batch.stats.progressTrace)).toContain('processing tasks > upgrading user indexes > Upgrading index `books`');
    expect(await searchAnswers(server)).toEqual(answers);
    // the converted copies replaced the old environments, compacted again after their conversion:
    // smaller than the compacted format-1 files, their postings packed
    expect(indexFolders(dbPath)).toHaveLength(before.length);
    expect(indexFolders(dbPath).some((folder) => before.includes(folder))).toBe(false);
    expect(indexBytes(dbPath)).toBeLessThan(bytesBefore);

    // now in the current format, its large postings split: it starts without the flag, and writes run again
    await server.stop();
    const facts = await formatFacts(dbPath);
    expect(facts).toMatchObject({ instance: 4, indexes: before.map(() => 4), columnPostings: 0, msgpackDocuments: 0 });
    expect(facts.postingBlocks).toBeGreaterThan(0);
    const again = await start(dbPath);
    expect(await upgradeTasks(again)).toHaveLength(1);
    expect(await searchAnswers(again)).toEqual(answers);
    const added = await run(again, 'POST', '/indexes/books/documents', [{ id: 5000, title: 'common title 5000' }]);
    expect(added.status).toBe('succeeded');
    const { hits } = (await call(again, 'POST', '/indexes/books/search', { q: '5000' })).body;
    expect(hits.map((hit: { id: number }) => hit.id)).toContain(5000);
    expect((await call(again, 'GET', '/indexes/books/stats')).body.numberOfDocuments).toBe(4201);
  });

  it('canceled midway is rolled back: searches answered and new tasks waited meanwhile, and the old database is intact', async () => {
    const dbPath = copyFixture();
    const before = indexFolders(dbPath);
    // TEST-ONLY hook (src/tasks/test-hooks.ts): each index's conversion is followed by a wait
    const server = await start(dbPath, { env: { MEILI_UPGRADE_DB: 'true', QUARRY_TEST_UPGRADE_INDEX_DELAY_MS: '700' } });
    const [upgrade] = await upgradeTasks(server);

    // the batch runs, showing which index it upgrades
    let progress: any = null;
    for (const deadline = Date.now() + 5000; progress === null && Date.now() < deadline; ) {
      const [batch] = (await call(server, 'GET', '/batches?limit=1')).body.results;
      if (batch?.progress != null) progress = batch.progress;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(progress.steps[0]).toEqual({ currentStep: 'processing tasks', finished: 0, total: 2 });
    expect(progress.steps[1]).toEqual({ currentStep: 'upgrading user indexes', finished: 0, total: 2 });
    expect(progress.steps[2].currentStep).toMatch(/^Upgrading index `(books|small-\d)`$/);
    expect(progress.steps[2].total).toBe(1 + SMALL_INDEXES);

    expect(await searchAnswers(server)).toEqual(answers);
    const held = await call(server, 'POST', '/indexes', { uid: 'held' });
    expect(held.status).toBe(202);

    const cancel = await run(server, 'POST', `/tasks/cancel?uids=${upgrade.uid}`);
    expect(cancel).toMatchObject({ status: 'succeeded', details: { matchedTasks: 1, canceledTasks: 1 } });
    expect(await waitTask(server, upgrade.uid)).toMatchObject({ status: 'canceled', canceledBy: cancel.uid });
    // the data is still in the old format: nothing else runs
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call(server, 'GET', `/tasks/${held.body.taskUid}`)).body.status).toBe('enqueued');
    expect(await searchAnswers(server)).toEqual(answers);

    await server.stop();
    expect(indexFolders(dbPath)).toEqual(before);
    expect(await previousFormatProblems(dbPath)).toEqual([]);
    const { code, stderr } = await startRefused(dbPath);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(INCOMPATIBLE);
  });

  it('failed, is left intact while the server keeps serving, and is retried under the same batch at the next start, unused folders removed', async () => {
    const dbPath = copyFixture();
    const before = indexFolders(dbPath);
    // TEST-ONLY hook (src/tasks/test-hooks.ts): the upgrade fails after its first index
    const server = await start(dbPath, { args: ['--upgrade-db'], env: { QUARRY_TEST_UPGRADE_FAILS: '1' } });
    const [upgrade] = await upgradeTasks(server);
    const failed = await waitTask(server, upgrade.uid, 30_000);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'internal', type: 'internal' }, details: { upgradeFrom: 'v1.0.0', upgradeTo: 'v4.0.0' } });
    expect(failed.error.message).toContain('the upgrade failed on purpose');
    // no task runs after a failed upgrade; searches still answer from the old data
    const held = await call(server, 'POST', '/indexes', { uid: 'held' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call(server, 'GET', `/tasks/${held.body.taskUid}`)).body.status).toBe('enqueued');
    expect(await searchAnswers(server)).toEqual(answers);
    await server.stop();
    expect(indexFolders(dbPath)).toEqual(before);
    expect(await previousFormatProblems(dbPath)).toEqual([]);
    // what a crash during an upgrade leaves: a copy no index uses
    mkdirSync(path.join(dbPath, 'indexes', randomUUID()));

    const again = await start(dbPath, { args: ['--upgrade-db'] });
    expect((await upgradeTasks(again)).map((task) => task.uid)).toEqual([upgrade.uid]);
    const retried = await waitTask(again, upgrade.uid, 30_000);
    expect(retried).toMatchObject({ status: 'succeeded', error: null, batchUid: failed.batchUid });
    expect(indexFolders(dbPath)).toHaveLength(before.length);
    expect((await waitTask(again, held.body.taskUid)).status).toBe('succeeded');
    expect(await searchAnswers(again)).toEqual(answers);
  });

  it('imported from a snapshot is upgraded without the flag, as v1.50 upgrades an older snapshot', async () => {
    const snapshot = path.join(tempDir('quarry-upgrade-snapshot-'), 'old.snapshot');
    dirs.push(path.dirname(snapshot));
    await packDirectory(fixture, snapshot);
    const dbPath = path.join(tempDir('quarry-upgrade-'), 'data.ms');
    dirs.push(path.dirname(dbPath));
    const server = await start(dbPath, { args: ['--import-snapshot', snapshot] });
    const [upgrade] = await upgradeTasks(server);
    expect(await waitTask(server, upgrade.uid, 30_000)).toMatchObject({ status: 'succeeded', details: { upgradeFrom: 'v1.0.0', upgradeTo: 'v4.0.0' } });
    expect(await searchAnswers(server)).toEqual(answers);
  });
});
