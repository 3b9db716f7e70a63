/**
 * Many indexes open at once: each index environment reserves address space for its memory map,
 * and a fixed 2 TiB map per index exhausted the process's 128 TiB around the 32nd index (the
 * next open segfaulted). Maps now start small and grow with their index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const INDEXES = 80;

describe('many indexes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it(`${INDEXES} indexes written and searched in one process all answer`, async () => {
    const uids: number[] = [];
    for (let k = 0; k < INDEXES; k++) {
      const reply = await call(server, 'POST', `/indexes/many-${k}/documents`, [{ id: k, title: `index number ${k}` }]);
      expect(reply.status).toBe(202);
      uids.push(reply.body.taskUid);
    }
    for (const uid of uids) expect((await waitTask(server, uid, 60_000)).status).toBe('succeeded');
    for (let k = 0; k < INDEXES; k++) {
      const found = await call(server, 'POST', `/indexes/many-${k}/search`, { q: 'number' });
      expect(found.body.hits).toEqual([{ id: k, title: `index number ${k}` }]);
    }
    expect((await call(server, 'GET', '/indexes?limit=1000')).body.total).toBe(INDEXES);
  }, 120_000);
});
