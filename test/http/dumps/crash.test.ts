/**
 * A kill -9 while a dump is being written leaves no `.dump` file (the archive is only renamed
 * into place once complete); the next start sweeps its own leftovers (the layout in its db path,
 * its `.tmp` archive), never another instance's in a shared dump dir, and runs the dump task again.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, run, waitTask } from '../../helpers/api.js';
import { startServer } from '../../helpers/server.js';

describe('a dump interrupted by kill -9', () => {
  it('leaves no partial dump, and is made again after restart', async () => {
    const server = await startServer();
    const dumpDir = path.join(server.dbPath, '..', 'dumps');
    try {
      const docs = Array.from({ length: 30_000 }, (_, i) => ({ id: i, text: `document number ${i} with a few words to write` }));
      await run(server, 'POST', '/indexes/big/documents', docs);
      const { body } = await call(server, 'POST', '/dumps');
      // Wait for the dump to be under way: its layout folder appears in the db path.
      const layouts = path.join(server.dbPath, 'dump-layouts');
      const deadline = Date.now() + 10_000;
      while (!existsSync(layouts) || readdirSync(layouts).length === 0) {
        expect(readdirSync(dumpDir).filter((name) => name.endsWith('.dump')), 'the dump ended before it could be interrupted').toEqual([]);
        if (Date.now() > deadline) throw new Error('the dump never started');
        await new Promise((resolve) => setImmediate(resolve));
      }
      await server.kill();
      expect(readdirSync(dumpDir).filter((name) => name.endsWith('.dump'))).toEqual([]);
      // what another instance sharing the dump dir is writing
      const foreign = ['20990101-000000000.dump.tmp', '.20990101-000000000.dump-layout'];
      writeFileSync(path.join(dumpDir, foreign[0]!), 'half an archive');
      mkdirSync(path.join(dumpDir, foreign[1]!));

      const restarted = await startServer({ dbPath: server.dbPath });
      try {
        const task = await waitTask(restarted, body.taskUid, 30_000);
        expect(task.status).toBe('succeeded');
        expect(readdirSync(dumpDir).sort()).toEqual([...foreign, `${task.details.dumpUid}.dump`].sort());
        expect(existsSync(layouts), 'no scratch folder stays once the dump is made').toBe(false);
        expect(existsSync(path.join(dumpDir, `${task.details.dumpUid}.dump`))).toBe(true);
      } finally {
        await restarted.kill();
      }
    } finally {
      await server.dispose();
    }
  });
});
