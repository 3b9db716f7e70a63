/**
 * A settings update's details, whose records keep the settings as text (tasks/record-codecs.ts):
 * the task, the task list, its batch and the batch list all write them as they were sent, in
 * v1.50's settings order, and read the same after a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

// sent out of v1.50's order, with strings JSON escapes
const SENT = {
  typoTolerance: { minWordSizeForTypos: { oneTypo: 4 }, disableOnWords: ['é"\u2028\\'] },
  synonyms: { 'new york': ['ny', 'nyc'], '"quoted"': ['\ud83d\ude00'] },
  rankingRules: ['words', 'typo'],
  pagination: { maxTotalHits: 4_000_000_000 },
};
// the order v1.50 writes them in (synonyms by key)
const WRITTEN = `{"rankingRules":["words","typo"],"synonyms":{"\\"quoted\\"":["\ud83d\ude00"],"new york":["ny","nyc"]},"typoTolerance":{"minWordSizeForTypos":{"oneTypo":4},"disableOnWords":["é\\"\\u2028\\\\"]},"pagination":{"maxTotalHits":4000000000}}`;

describe("a settings update's details", () => {
  it('are written as sent, in the settings order, by the task, the task list, the batch and the batch list', async () => {
    const task = await run(server, 'PATCH', '/indexes/details/settings', SENT);
    expect(task.status).toBe('succeeded');
    const expected = JSON.parse(WRITTEN) as unknown;
    expect(task.details).toEqual(expected);
    for (const path of [`/tasks/${task.uid}`, `/tasks?uids=${task.uid}`, `/batches/${task.batchUid}`, `/batches?batchUids=${task.batchUid}`]) {
      const reply = await call(server, 'GET', path);
      expect(reply.status, path).toBe(200);
      expect(reply.text, path).toContain(`"details":${JSON.stringify(expected)}`);
    }
  });

  it('read the same after a restart', async () => {
    const task = await run(server, 'PATCH', '/indexes/restarted/settings', { synonyms: SENT.synonyms });
    const before = (await call(server, 'GET', `/tasks/${task.uid}`)).text;
    await server.kill();
    server = await startServer({ dbPath: server.dbPath });
    expect((await call(server, 'GET', `/tasks/${task.uid}`)).text).toBe(before);
  });
});
