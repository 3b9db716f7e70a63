/**
 * Snapshots through the real server: `POST /snapshots` writes `<snapshot dir>/<db name>.snapshot`
 * (read-only, replaced by the next one), and `--import-snapshot` restores the data directory in a
 * fresh db path, without the snapshot task itself (dumps-snapshots-upgrade.md §4).
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, tempDir } from '../../helpers/server.js';

describe('POST /snapshots', () => {
  it('writes a read-only snapshot that restores into a fresh db path', async () => {
    const snapshotDir = path.join(tempDir(), 'snaps');
    const server = await startServer({ args: ['--snapshot-dir', snapshotDir] });
    try {
      const docs = Array.from({ length: 50 }, (_, i) => ({ id: i, title: `title ${i}`, tag: i % 5 }));
      await run(server, 'POST', '/indexes/books/documents', docs);
      await run(server, 'PATCH', '/indexes/books/settings', { filterableAttributes: ['tag'] });
      const reply = await call(server, 'POST', '/snapshots');
      expect(reply.status).toBe(202);
      expect(reply.body).toMatchObject({ indexUid: null, status: 'enqueued', type: 'snapshotCreation' });
      const task = await run(server, 'POST', '/snapshots');
      expect(task.status).toBe('succeeded');
      expect('details' in task).toBe(false);

      const file = path.join(snapshotDir, 'data.ms.snapshot');
      expect(statSync(file).mode & 0o777).toBe(0o444);

      const restored = await startServer({ dbPath: path.join(tempDir(), 'restored.ms'), args: ['--import-snapshot', file] });
      try {
        const search = await call(restored, 'POST', '/indexes/books/search', { filter: 'tag = 3', limit: 100 });
        expect(search.body.hits).toHaveLength(10);
        expect((await call(restored, 'GET', '/indexes/books/settings/filterable-attributes')).body).toEqual(['tag']);
        // the snapshot tasks being processed are not in the snapshot: the first one is (it ran before)
        const tasks = (await call(restored, 'GET', '/tasks')).body;
        expect(tasks.results.map((t: { type: string }) => t.type)).toEqual(['snapshotCreation', 'settingsUpdate', 'documentAdditionOrUpdate']);
        expect(tasks.results.every((t: { status: string }) => t.status === 'succeeded')).toBe(true);
        // new tasks get the next uids
        expect((await call(restored, 'POST', '/indexes/books/documents', [{ id: 99 }])).body.taskUid).toBe(3);
      } finally {
        await restored.dispose();
      }
    } finally {
      await server.dispose();
    }
  });

  it("sweeps at start what a snapshot cut short by a crash left, and keeps the last complete one", async () => {
    const snapshotDir = path.join(tempDir(), 'snaps');
    const server = await startServer({ args: ['--snapshot-dir', snapshotDir] });
    try {
      await run(server, 'POST', '/snapshots');
      await server.kill();
      // what a kill -9 in the middle of the next snapshot leaves
      const file = path.join(snapshotDir, 'data.ms.snapshot');
      mkdirSync(path.join(`${file}-layout`, 'instance'), { recursive: true });
      writeFileSync(`${file}.tmp`, 'partial archive');
      const restarted = await startServer({ dbPath: server.dbPath, args: ['--snapshot-dir', snapshotDir] });
      try {
        expect(readdirSync(snapshotDir)).toEqual(['data.ms.snapshot']);
      } finally {
        await restarted.kill();
      }
    } finally {
      await server.dispose();
    }
  });
});
