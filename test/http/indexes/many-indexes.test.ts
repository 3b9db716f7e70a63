/**
 * Many indexes in one process under a low limit of open files: each open index environment holds
 * two descriptors and a memory map, so opening every index (700 of them under `ulimit -n 1024`)
 * once crashed the process. Environments are now kept open a bounded number at a time
 * (engine/open-handles.ts), statistics are stored at commit rather than read from every
 * environment, and a request that needs more environments at once than the OS allows is answered
 * `too_many_open_files`.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

/**
 * Low, but enough for Node to load its modules at start: its ESM loader reads a level of the
 * module graph at once, one descriptor per file (the server's own code is one bundled file; the
 * packages it imports are not).
 */
const OPEN_FILES = 128;
/**
 * Nearly three times the descriptors the limit allows if all were open at once (two each), and
 * few enough that the test stays short (each index is one batch, some 40 ms on an idle machine):
 * bench/many-indexes.ts runs 1,000 under `ulimit -n 1024`.
 */
const INDEXES = 170;
const uidOf = (k: number) => `many-${k}`;

describe(`${INDEXES} indexes under ulimit -n ${OPEN_FILES}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ openFiles: OPEN_FILES });
    // a few requests in flight, each a socket and an update file
    for (let k = 0; k < INDEXES; k += 8) {
      const replies = await Promise.all(
        Array.from({ length: Math.min(8, INDEXES - k) }, (_, i) => call(server, 'POST', `/indexes/${uidOf(k + i)}/documents`, [{ id: k + i, title: `index number ${k + i}` }])),
      );
      expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 202));
    }
    expect((await waitTask(server, INDEXES - 1, 90_000)).status).toBe('succeeded');
    const failed = await call(server, 'GET', '/tasks?statuses=failed,canceled');
    expect(failed.body.total).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await server.dispose();
  });

  it('keeps every index searchable, with a bounded number of descriptors', async () => {
    for (let k = 0; k < INDEXES; k++) {
      const found = await call(server, 'POST', `/indexes/${uidOf(k)}/search`, { q: 'number' });
      expect(found.body.hits).toEqual([{ id: k, title: `index number ${k}` }]);
    }
    expect((await call(server, 'GET', '/indexes?limit=1000')).body.total).toBe(INDEXES);
    expect(readdirSync(`/proc/${server.process.pid}/fd`).length).toBeLessThan(OPEN_FILES * 0.75);
    expect(server.process.exitCode).toBeNull();
  });

  it('answers GET /stats quickly, matching every index stats', async () => {
    const started = performance.now();
    const stats = await call(server, 'GET', '/stats?showInternalDatabaseSizes=true');
    const elapsed = performance.now() - started;
    expect(stats.status).toBe(200);
    expect(elapsed).toBeLessThan(1_000);
    expect(Object.keys(stats.body.indexes)).toHaveLength(INDEXES);
    for (let k = 0; k < INDEXES; k++) {
      const one = await call(server, 'GET', `/indexes/${uidOf(k)}/stats?showInternalDatabaseSizes=true`);
      expect(one.body).toEqual(stats.body.indexes[uidOf(k)]);
      expect(one.body).toMatchObject({ numberOfDocuments: 1, fieldDistribution: { id: 1, title: 1 } });
    }
  });

  it('searches every index in one multi-search, which gives back each environment between its slices', async () => {
    const queries = Array.from({ length: INDEXES }, (_, k) => ({ indexUid: uidOf(k), q: 'number' }));
    const reply = await call(server, 'POST', '/multi-search', { queries });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(reply.body.results.every((result: { hits: unknown[] }) => result.hits.length === 1)).toBe(true);
  });

  it('answers too_many_open_files when one request needs more environments than the OS allows, and goes on', async () => {
    // a federation keeps every index it searched open until its page is built
    const queries = Array.from({ length: INDEXES }, (_, k) => ({ indexUid: uidOf(k), q: 'number' }));
    const refused = await call(server, 'POST', '/multi-search', { federation: {}, queries });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'too_many_open_files', type: 'system' });
    expect(refused.body.message).toMatch(/Too many open files \(os error 24\)$/);
    const found = await call(server, 'POST', `/indexes/${uidOf(0)}/search`, { q: 'number' });
    expect(found.body.hits).toHaveLength(1);
    expect(server.process.exitCode).toBeNull();
  });
});
