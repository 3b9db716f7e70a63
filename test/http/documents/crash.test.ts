/**
 * Document additions survive a kill -9 right after their 202: the payload is on disk before the
 * task is acknowledged, and the restarted server indexes every acknowledged document.
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
