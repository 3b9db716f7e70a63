/**
 * Document additions survive a kill -9 right after their 202: the payload is on disk before the
 * task is acknowledged, and the restarted server indexes every acknowledged document. An edition
 * whose process dies between its index commit and its task commit is not applied twice.
 */
import path from 'node:path';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer } from '../../helpers/server.js';

describe('kill -9 during document additions', () => {
  it('loses no acknowledged document addition', async () => {
    const first = await startServer();
    try {
      const acknowledged: number[] = [];
      await Promise.all(
        Array.from({ length: 4 }, async (_, worker) => {
          for (let i = 0; i < 10; i++) {
            const docs = Array.from({ length: 50 }, (_, j) => ({ id: `${worker}-${i}-${j}`, title: `movie ${worker} ${i} ${j}` }));
            const reply = await call(first, 'POST', '/indexes/crashdocs/documents', docs);
            expect(reply.status).toBe(202);
            acknowledged.push(reply.body.taskUid);
          }
        }),
      );
      await first.kill();

      const second = await startServer({ dbPath: first.dbPath });
      try {
        for (const uid of acknowledged) expect((await waitTask(second, uid)).status).toBe('succeeded');
        const stats = await call(second, 'GET', '/indexes/crashdocs/stats');
        expect(stats.body.numberOfDocuments).toBe(4 * 10 * 50);
        expect((await call(second, 'GET', '/indexes/crashdocs/documents/3-9-49')).body).toEqual({ id: '3-9-49', title: 'movie 3 9 49' });
      } finally {
        await second.kill();
      }
    } finally {
      rmSync(path.dirname(first.dbPath), { recursive: true, force: true });
    }
  });
});

describe('a crash between an edition\'s index commit and its task commit', () => {
  it('applies the edition once: the restarted server only finishes the task, with the details it had', async () => {
    const first = await startServer();
    try {
      expect((await call(first, 'PATCH', '/experimental-features', { editDocumentsByFunction: true })).status).toBe(200);
      const added = await call(first, 'POST', '/indexes/edited/documents', [{ id: 1, n: 1 }, { id: 2, n: 5 }]);
      expect((await waitTask(first, added.body.taskUid)).status).toBe('succeeded');
      await first.stop();

      // TEST-ONLY hook (src/tasks/test-hooks.ts): the process exits right after the index commit
      const crashing = await startServer({ dbPath: first.dbPath, env: { QUARRY_TEST_EXIT_AFTER_INDEX_COMMIT: '1' } });
      const edit = await call(crashing, 'POST', '/indexes/edited/documents/edit', { function: 'doc.n = doc.n + context.step', context: { step: 1 } });
      expect(edit.status).toBe(202);
      if (crashing.process.exitCode === null) await new Promise((resolve) => crashing.process.once('exit', resolve));
      expect(crashing.process.exitCode).toBe(86);

      const second = await startServer({ dbPath: first.dbPath });
      try {
        const task = await waitTask(second, edit.body.taskUid);
        expect(task).toMatchObject({ status: 'succeeded', details: { editedDocuments: 2, deletedDocuments: 2, context: { step: 1 }, function: 'doc.n = doc.n + context.step' } });
        const documents = (await call(second, 'GET', '/indexes/edited/documents')).body.results;
        expect(documents).toEqual([{ id: 1, n: 2 }, { id: 2, n: 6 }]);
      } finally {
        await second.kill();
      }
    } finally {
      rmSync(path.dirname(first.dbPath), { recursive: true, force: true });
    }
    // three server starts
  }, 60_000);
});
