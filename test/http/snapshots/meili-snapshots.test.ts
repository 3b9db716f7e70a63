/**
 * Port of Meilisearch's crates/meilisearch/tests/snapshot/mod.rs: a snapshot made on demand
 * (`POST /snapshots`) or on schedule (`--schedule-snapshot`) is `<snapshot dir>/<db name>.snapshot`,
 * read-only, and an instance started with `--import-snapshot` answers like the original for the
 * indexes, their documents and settings, and the tasks that ran before the snapshot (the snapshot
 * tasks being processed are not in it: dumps-snapshots-upgrade.md §4).
 */
import { copyFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, RFC3339, DURATION, run, waitTask } from '../../helpers/api.js';
import { TEST_SET } from '../../helpers/meili-test-set.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

/** A server whose db directory is named `db`, as in Meilisearch's tests, so its snapshot is `db.snapshot`. */
function startWithSnapshots(snapshotDir: string, args: string[] = []): Promise<TestServer> {
  return startServer({ dbPath: path.join(tempDir(), 'db'), args: ['--snapshot-dir', snapshotDir, ...args] });
}

async function get(server: TestServer, route: string): Promise<unknown> {
  const reply = await call(server, 'GET', route);
  expect(reply.status, `${route}: ${reply.text}`).toBe(200);
  return reply.body;
}

/** Meilisearch's `verify_snapshot!`: each route answers the same on both instances. */
async function expectSameAnswers(original: TestServer, restored: TestServer, routes: string[]): Promise<void> {
  for (const route of routes) expect(await get(restored, route), route).toStrictEqual(await get(original, route));
}

/**
 * The same tasks (or batches) from `from` down on both instances. `total` counts every one, so
 * the original's is larger by its snapshot's: the restored instance has exactly `from + 1`.
 */
async function expectSameQueue(original: TestServer, restored: TestServer, queue: '/tasks' | '/batches', from: number): Promise<void> {
  const route = `${queue}?from=${from}`;
  const mine = (await get(restored, route)) as { total: number };
  const theirs = (await get(original, route)) as { total: number };
  expect({ ...mine, total: '[total]' }, route).toStrictEqual({ ...theirs, total: '[total]' });
  expect(mine.total, route).toBe(from + 1);
}

/** A regular file readable by all and writable by none (`0o100444`, Meilisearch's `1000000100100100`). */
function expectReadOnlyFile(file: string): void {
  expect(statSync(file).mode.toString(2)).toBe('1000000100100100');
}

/** Starts an instance from the snapshot, runs `check` against it, and removes it. */
async function withRestored(file: string, check: (restored: TestServer) => Promise<void>): Promise<void> {
  const restored = await startServer({ dbPath: path.join(tempDir(), 'db'), args: ['--import-snapshot', file] });
  try {
    await check(restored);
  } finally {
    await restored.kill();
    rmSync(path.dirname(restored.dbPath), { recursive: true, force: true });
  }
}

async function disposeAll(server: TestServer, snapshotDir: string): Promise<void> {
  await server.kill();
  rmSync(path.dirname(server.dbPath), { recursive: true, force: true });
  rmSync(path.dirname(snapshotDir), { recursive: true, force: true });
}

describe('perform_on_demand_snapshot', () => {
  it('answers 202 with the summarized task, succeeds without details, and restores the same instance', async () => {
    const snapshotDir = path.join(tempDir(), 'snapshots');
    const server = await startWithSnapshots(snapshotDir);
    try {
      await run(server, 'PATCH', '/indexes/catto/settings', { searchableAttributes: [] });
      await run(server, 'POST', '/indexes/catto/documents', TEST_SET);
      await run(server, 'POST', '/indexes', { uid: 'doggo', primaryKey: 'bone' });
      // the same creation again: it fails, and is part of what is restored
      expect((await run(server, 'POST', '/indexes', { uid: 'doggo', primaryKey: 'bone' })).status).toBe('failed');

      const reply = await call(server, 'POST', '/snapshots');
      expect(reply.status).toBe(202);
      expect(reply.body.enqueuedAt).toMatch(RFC3339);
      expect(reply.text).toBe(JSON.stringify({ taskUid: 4, indexUid: null, status: 'enqueued', type: 'snapshotCreation', enqueuedAt: reply.body.enqueuedAt }));

      const task = await waitTask(server, 4);
      expect(task.duration).toMatch(DURATION);
      for (const date of ['enqueuedAt', 'startedAt', 'finishedAt']) expect(task[date]).toMatch(RFC3339);
      expect({ ...task, duration: '[duration]', enqueuedAt: '[date]', startedAt: '[date]', finishedAt: '[date]' }).toStrictEqual({
        uid: 4,
        batchUid: 4,
        indexUid: null,
        status: 'succeeded',
        type: 'snapshotCreation',
        canceledBy: null,
        error: null,
        duration: '[duration]',
        enqueuedAt: '[date]',
        startedAt: '[date]',
        finishedAt: '[date]',
      });
      expect(Object.keys(task)).toEqual(['uid', 'batchUid', 'indexUid', 'status', 'type', 'canceledBy', 'error', 'duration', 'enqueuedAt', 'startedAt', 'finishedAt']);

      expect(readdirSync(snapshotDir)).toEqual(['db.snapshot']);
      const file = path.join(snapshotDir, 'db.snapshot');
      expectReadOnlyFile(file);

      await withRestored(file, async (restored) => {
        // every task before the snapshot's own, which the restored instance does not have
        await expectSameQueue(server, restored, '/tasks', 3);
        await expectSameQueue(server, restored, '/batches', 3);
        // what Meilisearch's test literally compares: `tasks_filter("?from=2")` asks for
        // `/tasks??from=2`, whose parameter is `?from`, unknown: the same 400 on both
        const doubled = await call(restored, 'GET', '/tasks??from=2');
        expect(doubled.status, doubled.text).toBe(400);
        expect(doubled.body).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^Unknown parameter `\?from`: did you mean `from`\? /) });
        expect(doubled.body).toStrictEqual((await call(server, 'GET', '/tasks??from=2')).body);
        await expectSameAnswers(server, restored, [
          '/indexes',
          '/indexes/catto/documents',
          '/indexes/catto/settings',
          '/indexes/doggo/documents',
          '/indexes/doggo/settings',
        ]);
      });
    } finally {
      await disposeAll(server, snapshotDir);
    }
  });
});

describe('perform_snapshot (--schedule-snapshot)', () => {
  it('registers the first snapshot one interval after start, and restores the same instance', async () => {
    const snapshotDir = path.join(tempDir(), 'snapshots');
    // the data first, then a restart with the schedule: a busy machine cannot let the
    // snapshot slip in between the setup tasks, as it could with one process
    const setup = await startWithSnapshots(snapshotDir);
    try {
      await run(setup, 'PATCH', '/indexes/test/settings', { searchableAttributes: [] });
      await run(setup, 'POST', '/indexes/test/documents', TEST_SET);
      await run(setup, 'POST', '/indexes', { uid: 'test1', primaryKey: 'prim' });
    } finally {
      await setup.stop();
    }

    const server = await startServer({ dbPath: setup.dbPath, args: ['--snapshot-dir', snapshotDir, '--schedule-snapshot', '2'] });
    try {
      // not at startup
      expect((await get(server, '/tasks?types=snapshotCreation')) as { total: number }).toMatchObject({ total: 0 });
      const snapshot = await waitTask(server, 3, 30_000);
      expect(snapshot).toMatchObject({ type: 'snapshotCreation', status: 'succeeded' });

      const file = path.join(snapshotDir, 'db.snapshot');
      expectReadOnlyFile(file);
      // the next scheduled snapshot replaces the file two seconds later: restore from a copy
      const copy = path.join(path.dirname(snapshotDir), 'first.snapshot');
      copyFileSync(file, copy);
      await withRestored(copy, async (restored) => {
        await expectSameQueue(server, restored, '/tasks', 2);
        await expectSameAnswers(server, restored, ['/indexes', '/indexes/test/documents', '/indexes/test/settings', '/indexes/test1/documents', '/indexes/test1/settings']);
      });
    } finally {
      await disposeAll(server, snapshotDir);
    }
  }, 45_000);

  // a 30-day interval overflowed Node's timer, which then fired every millisecond
  it('registers nothing before an interval longer than a Node timer holds', async () => {
    const snapshotDir = path.join(tempDir(), 'snapshots');
    const server = await startWithSnapshots(snapshotDir, ['--schedule-snapshot', String(30 * 86_400)]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await get(server, '/tasks?types=snapshotCreation')) as { total: number }).toMatchObject({ total: 0 });
    } finally {
      await disposeAll(server, snapshotDir);
    }
  });
});
